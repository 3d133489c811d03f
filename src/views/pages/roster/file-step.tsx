// Step 1 of the roster screen: the file (chosen or dropped, its upload's progress), the templates and the
// history of imports.
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { ROSTER_FILE_TYPES, type RosterImport } from '../../../../shared/roster-contract';
import { ROSTER_ACCEPT } from '../../../machines/roster/roster-rules';
import {
  ROSTER_FILE_ID,
  selectCanRetryUpload,
  selectCountry,
  selectFileError,
  selectFileName,
  selectHistory,
  selectHistoryFailed,
  selectHistoryLoading,
  selectIsUploading,
  type RosterActor,
} from '../../../machines/roster/roster';
import { historyHref, templateHref } from '../../../services/roster/roster';
import { formatDateTime } from '../../lib/format';
import { useLocaleZone, useT } from '../../lib/i18n';
import { useSelectors } from '../../lib/selectors';
import { cn } from '../../lib/utils';
import { Badge } from '../../ui/badge';
import { Button, buttonVariants } from '../../ui/button';
import { errorProps, FieldError } from '../../ui/field';
import { ListEmpty } from '../../ui/list-page';
import { ListFailure, ListSkeleton } from '../../ui/list-state';
import { Fact } from '../../ui/fact';
import { Problem, problemText, StepHeading, UploadProgress } from './roster-parts';

export function FileStep({ actor }: { actor: RosterActor }) {
  const t = useT();
  return (
    <div className="flex flex-col gap-6">
      <StepHeading>{t('roster.step.file')}</StepHeading>
      <FilePicker actor={actor} />
      <Templates actor={actor} />
      <History actor={actor} />
    </div>
  );
}

function FilePicker({ actor }: { actor: RosterActor }) {
  const t = useT();
  const { uploading, name, fileError, canRetry } = useSelectors(actor, {
    uploading: selectIsUploading,
    name: selectFileName,
    fileError: selectFileError,
    canRetry: selectCanRetryUpload,
  });
  const [dragging, setDragging] = useState(false);
  const choose = (files: FileList | null) => {
    const file = files?.[0];
    if (file) actor.send({ type: 'roster.choose', file });
  };
  const errorId = `${ROSTER_FILE_ID}-error`;
  const error = fileError ? problemText(fileError, t) : null;
  return (
    <div className="flex flex-col gap-3" data-slot="roster-file">
      {/* biome-ignore lint/a11y/noStaticElementInteractions: dropping a file is the pointer's shortcut; the button inside is the way by keyboard. */}
      <div
        data-slot="roster-drop"
        data-dragging={dragging || undefined}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => {
          event.preventDefault();
          setDragging(false);
          if (!uploading) choose(event.dataTransfer.files);
        }}
        className={cn(
          'flex flex-col gap-2 rounded-lg border-2 border-dashed bg-card p-4 sm:p-6',
          dragging && 'border-primary bg-primary/5',
          error && 'border-destructive',
        )}
      >
        <span id={`${ROSTER_FILE_ID}-label`} className="font-medium">
          {t('roster.file.label')}
        </span>
        <p id={`${ROSTER_FILE_ID}-hint`} className="text-sm text-muted-foreground">
          {t('roster.file.drop')} {t('roster.file.hint')}
        </p>
        {/* The browser's own file button speaks the browser's language: a label styled as a button opens the picker instead. */}
        <label
          htmlFor={ROSTER_FILE_ID}
          className={cn(
            buttonVariants({ variant: 'default' }),
            'w-fit cursor-pointer has-[:disabled]:pointer-events-none has-[:disabled]:opacity-50 has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring/40',
          )}
        >
          {t('roster.file.choose')}
          <input
            id={ROSTER_FILE_ID}
            type="file"
            accept={ROSTER_ACCEPT}
            disabled={uploading}
            aria-labelledby={`${ROSTER_FILE_ID}-label`}
            {...errorProps(error, errorId, `${ROSTER_FILE_ID}-hint`)}
            className="sr-only"
            onChange={(event) => {
              const files = event.currentTarget.files;
              choose(files);
              // The same file chosen again (after fixing it) must still say so.
              event.currentTarget.value = '';
            }}
          />
        </label>
        <FieldError id={errorId}>{error}</FieldError>
      </div>
      {uploading && <UploadProgress actor={actor} />}
      <Problem actor={actor}>
        {canRetry && (
          <Button type="button" variant="outline" onClick={() => actor.send({ type: 'roster.retry' })}>
            {t('roster.file.retry', { name: name ?? '' })}
          </Button>
        )}
      </Problem>
    </div>
  );
}

/** The school's country's templates first. */
function Templates({ actor }: { actor: RosterActor }) {
  const t = useT();
  const country = useSelector(actor, selectCountry);
  const countries = country === 'MX' ? (['MX', 'CL'] as const) : (['CL', 'MX'] as const);
  return (
    <section aria-labelledby="roster-templates" className="flex flex-col gap-2" data-slot="roster-templates">
      <h4 id="roster-templates" className="font-medium">
        {t('roster.template.heading')}
      </h4>
      <p className="text-sm text-muted-foreground">{t('roster.template.intro')}</p>
      <ul className="flex flex-wrap gap-2">
        {countries.flatMap((each) =>
          ROSTER_FILE_TYPES.map((type) => (
            <li key={`${each}-${type}`}>
              <a className={buttonVariants({ variant: 'outline', size: 'sm' })} href={templateHref(type, each)} download>
                {t('roster.template.link', { country: t(`roster.country.${each}`), type: type.toUpperCase() })}
              </a>
            </li>
          )),
        )}
      </ul>
    </section>
  );
}

function History({ actor }: { actor: RosterActor }) {
  const t = useT();
  const { loading, failed, history } = useSelectors(actor, {
    loading: selectHistoryLoading,
    failed: selectHistoryFailed,
    history: selectHistory,
  });
  return (
    <section aria-labelledby="roster-history" className="flex min-w-0 flex-col gap-2" data-slot="roster-history">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h4 id="roster-history" className="font-medium">
          {t('roster.history.heading')}
        </h4>
        {/* Only once there is something in it: an empty history's file would be its header alone. */}
        {history.length > 0 ? (
          <a className={buttonVariants({ variant: 'outline', size: 'sm' })} href={historyHref()} download>
            {t('roster.history.download')}
          </a>
        ) : null}
      </div>
      {loading ? (
        <ListSkeleton label={t('roster.history.loading')} rows={2} />
      ) : failed ? (
        <ListFailure
          message={t('roster.history.failed')}
          retryLabel={t('roster.history.retry')}
          onRetry={() => actor.send({ type: 'history.retry' })}
        />
      ) : history.length === 0 ? (
        <ListEmpty live={false}>{t('roster.history.empty')}</ListEmpty>
      ) : (
        <ul className="flex flex-col gap-2">
          {history.map((entry) => (
            <HistoryRow key={entry.id} entry={entry} />
          ))}
        </ul>
      )}
    </section>
  );
}

const historyStateVariant = { previewed: 'warning', applied: 'secondary', discarded: 'outline' } as const;

function HistoryRow({ entry }: { entry: RosterImport }) {
  const t = useT();
  const { locale, timezone } = useLocaleZone();
  const { students, guardians, rows } = entry.counts;
  const summary = t('roster.history.summary', {
    students: t('roster.history.students', { count: students.new + students.changed + students.unchanged }),
    guardians: t('roster.history.guardians', { count: guardians.new + guardians.changed + guardians.unchanged }),
    refused: t('roster.history.refused', { count: rows.refused }),
  });
  return (
    <li className="flex flex-col gap-1 rounded-lg border bg-card p-3 text-sm" data-slot="roster-history-row">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="font-medium break-all">{entry.file_name}</span>
        <Badge variant={historyStateVariant[entry.state]}>{t(`roster.history.states.${entry.state}`)}</Badge>
      </div>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-1 sm:grid-cols-3">
        <Fact label={t('roster.history.who')}>{entry.created_by}</Fact>
        <Fact label={t('roster.history.when')}>{formatDateTime(entry.applied_at ?? entry.created_at, locale, timezone)}</Fact>
        <Fact label={t('roster.history.counts')}>{summary}</Fact>
      </dl>
    </li>
  );
}

// --- step 2 ---------------------------------------------------------------------------------------------
