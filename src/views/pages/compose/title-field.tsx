import { useSelector } from '@xstate/react';
import { FIELD_IDS } from '../../../machines/compose/rules';
import { selectIsLocked, selectTitle } from '../../../machines/compose/selectors';
import { useT } from '../../lib/i18n';
import { Field, FieldError, FieldLabel } from '../../ui/field';
import { Input } from '../../ui/input';
import { describedBy, useFieldError, type ComposeActor } from './field';

export function TitleField({ compose }: { compose: ComposeActor }) {
  const t = useT();
  const title = useSelector(compose, selectTitle);
  const locked = useSelector(compose, selectIsLocked);
  const error = useFieldError(compose, 'title');
  return (
    <Field data-invalid={error.text ? true : undefined}>
      <FieldLabel htmlFor={FIELD_IDS.title}>{t('compose.field.title')}</FieldLabel>
      <Input
        id={FIELD_IDS.title}
        value={title}
        readOnly={locked}
        autoComplete="off"
        placeholder={t('compose.field.titlePlaceholder')}
        aria-invalid={error.text ? true : undefined}
        aria-describedby={describedBy(error.text && error.id)}
        onChange={(e) => compose.send({ type: 'compose.change', field: 'title', value: e.currentTarget.value })}
      />
      <FieldError id={error.id}>{error.text}</FieldError>
    </Field>
  );
}
