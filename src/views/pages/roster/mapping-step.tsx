import { ROSTER_FIELDS } from '../../../../shared/roster-contract';
import {
  selectCanSubmit,
  selectFileName,
  selectHeaderLine,
  selectHeaders,
  selectIsUploading,
  selectMapping,
  type RosterActor,
} from '../../../machines/roster/roster';
import { useT } from '../../lib/i18n';
import { useSelectors } from '../../lib/selectors';
import { Button } from '../../ui/button';
import { SelectField } from '../../ui/native-select';
import { Problem, StepHeading, UploadProgress } from './roster-parts';

export function MappingStep({ actor }: { actor: RosterActor }) {
  const t = useT();
  const { headers, line, mapping, name, canSubmit, uploading } = useSelectors(actor, {
    headers: selectHeaders,
    line: selectHeaderLine,
    mapping: selectMapping,
    name: selectFileName,
    canSubmit: selectCanSubmit,
    uploading: selectIsUploading,
  });
  const fields = mapping ?? [];
  return (
    <form
      className="flex flex-col gap-4"
      data-slot="roster-mapping"
      onSubmit={(event) => {
        event.preventDefault();
        actor.send({ type: 'roster.submit' });
      }}
    >
      <StepHeading>{t('roster.mapping.heading')}</StepHeading>
      <p className="text-sm text-muted-foreground">{t('roster.mapping.intro', { name: name ?? '', line })}</p>
      <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        {headers.map((header, column) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a column is its place in the file; two may share a header.
          <li key={column}>
            <SelectField
              id={`roster-column-${column}`}
              label={t('roster.mapping.column', { header })}
              value={fields[column] ?? 'ignore'}
              disabled={uploading}
              className="w-full"
              onChange={(event) => {
                const field = ROSTER_FIELDS.find((candidate) => candidate === event.currentTarget.value) ?? 'ignore';
                actor.send({ type: 'roster.map', column, field });
              }}
            >
              {ROSTER_FIELDS.map((field) => (
                <option key={field} value={field}>
                  {t(`roster.field.${field}`)}
                </option>
              ))}
            </SelectField>
          </li>
        ))}
      </ul>
      {!canSubmit && !uploading && <p className="text-sm text-muted-foreground">{t('roster.mapping.none')}</p>}
      {uploading && <UploadProgress actor={actor} />}
      <Problem actor={actor} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={!canSubmit}>
          {t('roster.mapping.submit')}
        </Button>
        <Button type="button" variant="outline" disabled={uploading} onClick={() => actor.send({ type: 'roster.restart' })}>
          {t('roster.mapping.restart')}
        </Button>
      </div>
    </form>
  );
}

// --- step 3 ---------------------------------------------------------------------------------------------
