import { FIELD_IDS } from '../../../machines/compose/rules';
import { selectIsLocked, selectTitle } from '../../../machines/compose/selectors';
import { useT } from '../../lib/i18n';
import { useSelectors } from '../../lib/selectors';
import { errorProps, FormField } from '../../ui/field';
import { Input } from '../../ui/input';
import { useFieldError, type ComposeActor } from './field';

export function TitleField({ compose }: { compose: ComposeActor }) {
  const t = useT();
  const { title, locked } = useSelectors(compose, { title: selectTitle, locked: selectIsLocked });
  const error = useFieldError(compose, 'title');
  return (
    <FormField label={t('compose.field.title')} htmlFor={FIELD_IDS.title} error={error.text} errorId={error.id}>
      <Input
        id={FIELD_IDS.title}
        value={title}
        readOnly={locked}
        autoComplete="off"
        placeholder={t('compose.field.titlePlaceholder')}
        {...errorProps(error.text, error.id)}
        onChange={(e) => compose.send({ type: 'compose.change', field: 'title', value: e.currentTarget.value })}
      />
    </FormField>
  );
}
