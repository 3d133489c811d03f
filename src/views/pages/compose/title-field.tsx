import { FIELD_IDS } from '../../../machines/compose/rules';
import { selectIsLocked, selectTitle } from '../../../machines/compose/selectors';
import { useT } from '../../lib/i18n';
import { useSelectors } from '../../lib/selectors';
import { InputField } from '../../ui/input-field';
import { useFieldError, type ComposeActor } from './field';

export function TitleField({ compose }: { compose: ComposeActor }) {
  const t = useT();
  const { title, locked } = useSelectors(compose, { title: selectTitle, locked: selectIsLocked });
  const error = useFieldError(compose, 'title');
  return (
    <InputField
      label={t('compose.field.title')}
      id={FIELD_IDS.title}
      error={error}
      value={title}
      readOnly={locked}
      autoComplete="off"
      placeholder={t('compose.field.titlePlaceholder')}
      onValueChange={(value) => compose.send({ type: 'compose.change', field: 'title', value })}
    />
  );
}
