// /settings/roster (administrators): the school's enrolment file brought in, in three steps (the file, its
// columns when the server asks, the preview), then what was written. The machine is roster/roster.ts; this
// page renders its snapshot and sends its events. The people of the preview are its hosted list.
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import {
  ROSTER_FIELDS,
  ROSTER_FILE_TYPES,
  type ChangeKind,
  type PreviewPerson,
  type RosterImport,
} from '../../../../shared/roster-contract';
import { ROSTER_ACCEPT } from '../../../machines/roster/roster-rules';
import {
  ROSTER_FILE_ID,
  ROSTER_STEP_ID,
  rosterMachine,
  selectCanApply,
  selectCanRetryUpload,
  selectCanSubmit,
  selectChange,
  selectChoices,
  selectConflicts,
  selectConflictsFailed,
  selectConflictsLoading,
  selectCountry,
  selectFileError,
  selectFileName,
  selectHasCrashed,
  selectHeaderLine,
  selectHeaders,
  selectHistory,
  selectHistoryFailed,
  selectHistoryLoading,
  selectIsApplying,
  selectIsBusy,
  selectIsConfirmingDiscard,
  selectIsUploading,
  selectMapping,
  selectPeople,
  selectPeopleList,
  selectPercent,
  selectPreview,
  selectProblem,
  selectResult,
  selectStep,
  type PeopleListActor,
  type RosterActor,
  type RosterProblem,
  type RosterStep,
} from '../../../machines/roster/roster';
import { selectSchoolCountry } from '../../../machines/session/selectors';
import { historyHref, problemsHref, templateHref } from '../../../services/roster/roster';
import { sessionActor } from '../../actors';
import { formatDateTime } from '../../lib/format';
import { useLocaleZone, useT, type Translate } from '../../lib/i18n';
import { usePageActor } from '../../lib/page-actor';
import { useSelectors } from '../../lib/selectors';
import { cn } from '../../lib/utils';
import { Badge } from '../../ui/badge';
import { Button, buttonVariants } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { errorProps, FieldError } from '../../ui/field';
import { ListBody, ListEmpty, ListEnd, useListPhase } from '../../ui/list-page';
import { ListFailure, ListSkeleton, LoadFailure } from '../../ui/list-state';
import { FilterSelect, SelectField } from '../../ui/native-select';
import { Fact } from '../../ui/fact';
import { Progress } from '../../ui/progress';
import { SettingsShell } from '../settings/shell';

export function SettingsRosterPage() {
  const country = useSelector(sessionActor, selectSchoolCountry);
  const actor = usePageActor(rosterMachine, { input: { country } });
  const t = useT();
  return (
    <SettingsShell className="max-w-5xl">
      {actor ? <RosterScreen actor={actor} /> : <ListSkeleton label={t('roster.loading')} rows={3} />}
    </SettingsShell>
  );
}

const STEPS = ['file', 'mapping', 'preview'] as const;

function RosterScreen({ actor }: { actor: RosterActor }) {
  const t = useT();
  const step = useSelector(actor, selectStep);
  return (
    <section aria-labelledby="roster-heading" className="flex min-w-0 flex-col gap-4" data-slot="roster">
      <header className="flex flex-col gap-1">
        <h2 id="roster-heading" className="text-xl font-semibold">
          {t('roster.heading')}
        </h2>
        <p className="text-sm text-muted-foreground">{t('roster.intro')}</p>
      </header>
      <Steps step={step} />
      {step === 'file' && <FileStep actor={actor} />}
      {step === 'mapping' && <MappingStep actor={actor} />}
      {step === 'preview' && <PreviewStep actor={actor} />}
      {step === 'applied' && <AppliedStep actor={actor} />}
      {step === 'stale' && <StaleStep actor={actor} />}
    </section>
  );
}

/** Where the import is: the three steps, the current one marked (`aria-current="step"`). */
function Steps({ step }: { step: RosterStep }) {
  const t = useT();
  const current = step === 'applied' || step === 'stale' ? 'preview' : step;
  return (
    <ol aria-label={t('roster.steps')} className="flex flex-wrap gap-x-4 gap-y-1 text-sm" data-slot="roster-steps">
      {STEPS.map((name) => (
        <li
          key={name}
          aria-current={name === current ? 'step' : undefined}
          className={cn(name === current ? 'font-semibold text-foreground' : 'text-muted-foreground')}
        >
          {t(`roster.step.${name}`)}
        </li>
      ))}
    </ol>
  );
}

/** The heading a step opens with: where the focus goes as it opens. */
function StepHeading({ children }: { children: React.ReactNode }) {
  return (
    <h3 id={ROSTER_STEP_ID} tabIndex={-1} className="text-lg font-semibold outline-none">
      {children}
    </h3>
  );
}

const problemText = (problem: RosterProblem, t: Translate): string => ('text' in problem ? problem.text : t(problem.key));

/** A failed call said in place, with what can be done about it (children). */
function Problem({ actor, children }: { actor: RosterActor; children?: React.ReactNode }) {
  const t = useT();
  const problem = useSelector(actor, selectProblem);
  if (!problem) return null;
  return (
    <LoadFailure message={problemText(problem, t)} data-slot="roster-problem" className="p-4">
      {children}
    </LoadFailure>
  );
}

// --- step 1 ---------------------------------------------------------------------------------------------

function FileStep({ actor }: { actor: RosterActor }) {
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
  const { uploading, percent, name, fileError, canRetry } = useSelectors(actor, {
    uploading: selectIsUploading,
    percent: selectPercent,
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
      {uploading && <UploadProgress percent={percent} name={name ?? ''} />}
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

/** The bytes sent; once all are, the server is reading the file. */
function UploadProgress({ percent, name }: { percent: number; name: string }) {
  const t = useT();
  return (
    <div role="status" aria-live="polite" className="flex flex-col gap-2" data-slot="roster-progress">
      <p className="text-sm">{percent < 100 ? t('roster.file.sending', { name, percent }) : t('roster.file.reading', { name })}</p>
      <Progress value={percent} aria-label={t('roster.file.progress')} />
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

function MappingStep({ actor }: { actor: RosterActor }) {
  const t = useT();
  const { headers, line, mapping, name, canSubmit, uploading, percent } = useSelectors(actor, {
    headers: selectHeaders,
    line: selectHeaderLine,
    mapping: selectMapping,
    name: selectFileName,
    canSubmit: selectCanSubmit,
    uploading: selectIsUploading,
    percent: selectPercent,
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
      {uploading && <UploadProgress percent={percent} name={name ?? ''} />}
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

function PreviewStep({ actor }: { actor: RosterActor }) {
  const t = useT();
  const { preview, crashed, list } = useSelectors(actor, { preview: selectPreview, crashed: selectHasCrashed, list: selectPeopleList });
  if (!preview) return null;
  return (
    <div className="flex min-w-0 flex-col gap-6" data-slot="roster-preview">
      <div className="flex flex-col gap-1">
        <StepHeading>{t('roster.preview.heading', { name: preview.file_name })}</StepHeading>
        <p className="text-sm text-muted-foreground">{t('roster.preview.intro')}</p>
      </div>
      <Counts preview={preview} />
      <Refused preview={preview} />
      <Conflicts actor={actor} />
      <Actions actor={actor} preview={preview} />
      {crashed || !list ? (
        <ListFailure
          message={t('roster.preview.crashed')}
          retryLabel={t('roster.people.retry')}
          onRetry={() => actor.send({ type: 'roster.retry' })}
        />
      ) : (
        <People actor={actor} list={list} />
      )}
      <DiscardDialog actor={actor} />
    </div>
  );
}

function CountGroup({ title, entries }: { title: string; entries: readonly (readonly [string, number])[] }) {
  return (
    <div className="flex flex-col gap-1 rounded-lg border bg-card p-3">
      <h4 className="font-medium">{title}</h4>
      <dl className="grid grid-cols-[1fr_auto] gap-x-4 text-sm">
        {entries.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-muted-foreground">{label}</dt>
            <dd className="text-right tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

function Counts({ preview }: { preview: RosterImport }) {
  const t = useT();
  const { students, guardians, courses, rows } = preview.counts;
  return (
    <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4" data-slot="roster-counts">
      <CountGroup
        title={t('roster.preview.students')}
        entries={[
          [t('roster.preview.new'), students.new],
          [t('roster.preview.changed'), students.changed],
          [t('roster.preview.unchanged'), students.unchanged],
          [t('roster.preview.withdrawn'), students.withdrawn],
        ]}
      />
      <CountGroup
        title={t('roster.preview.guardians')}
        entries={[
          [t('roster.preview.new'), guardians.new],
          [t('roster.preview.changed'), guardians.changed],
          [t('roster.preview.unchanged'), guardians.unchanged],
        ]}
      />
      <CountGroup
        title={t('roster.preview.courses')}
        entries={[
          [t('roster.preview.new'), courses.new],
          [t('roster.preview.unchanged'), courses.unchanged],
        ]}
      />
      <CountGroup
        title={t('roster.preview.rows')}
        entries={[
          [t('roster.preview.read'), rows.read],
          [t('roster.preview.valid'), rows.valid],
          [t('roster.preview.refused'), rows.refused],
        ]}
      />
    </div>
  );
}

function Refused({ preview }: { preview: RosterImport }) {
  const t = useT();
  const refused = preview.counts.rows.refused;
  if (refused === 0) return null;
  return (
    <div className="flex flex-wrap items-center gap-3 rounded-lg border border-warning bg-card p-3" data-slot="roster-refused">
      <p className="text-sm">{t('roster.preview.refusedText', { count: refused })}</p>
      <a className={buttonVariants({ variant: 'outline', size: 'sm' })} href={problemsHref(preview.id)} download>
        {t('roster.preview.problems')}
      </a>
    </div>
  );
}

/** The hand-corrected fields the file would change; a field Hermes does not name is shown as the server wrote it. */
const CHANGE_FIELDS = [
  'nombres',
  'apellido_paterno',
  'apellido_materno',
  'dni',
  'fono_celular',
  'email',
  'fecha_nacimiento',
  'curso',
  'estado',
  'titular',
  'suplente',
] as const;
const fieldName = (field: string, t: Translate): string => {
  const known = CHANGE_FIELDS.find((candidate) => candidate === field);
  return known ? t(`roster.changeField.${known}`) : field;
};

function Conflicts({ actor }: { actor: RosterActor }) {
  const t = useT();
  const { conflicts, choices, loading, failed, applying } = useSelectors(actor, {
    conflicts: selectConflicts,
    choices: selectChoices,
    loading: selectConflictsLoading,
    failed: selectConflictsFailed,
    applying: selectIsApplying,
  });
  if (loading) return <ListSkeleton label={t('roster.conflicts.loading')} rows={1} />;
  if (failed)
    return (
      <ListFailure
        message={t('roster.conflicts.failed')}
        retryLabel={t('roster.conflicts.retry')}
        onRetry={() => actor.send({ type: 'roster.retry' })}
      />
    );
  if (conflicts.length === 0) return null;
  const value = (text: string | null) => text ?? t('roster.conflicts.empty');
  return (
    <section aria-labelledby="roster-conflicts" className="flex flex-col gap-2" data-slot="roster-conflicts">
      <h4 id="roster-conflicts" className="font-medium">
        {t('roster.conflicts.heading')}
      </h4>
      <p className="text-sm text-muted-foreground">{t('roster.conflicts.intro')}</p>
      <ul className="flex flex-col gap-2">
        {conflicts.map((conflict) => (
          <li key={conflict.key} className="rounded-lg border bg-card p-3">
            <fieldset className="flex flex-col gap-2" disabled={applying}>
              <legend className="font-medium">
                {t('roster.conflicts.label', { name: conflict.name, field: fieldName(conflict.field, t) })}
              </legend>
              <div className="flex flex-col gap-1 text-sm sm:flex-row sm:gap-6">
                <span>{t('roster.conflicts.hermes', { value: value(conflict.hermes) })}</span>
                <span>{t('roster.conflicts.file', { value: value(conflict.file) })}</span>
              </div>
              <div className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
                {(['keep', 'file'] as const).map((choice) => (
                  <label key={choice} className="flex items-center gap-2">
                    <input
                      type="radio"
                      name={`roster-conflict-${conflict.key}`}
                      value={choice}
                      checked={choices[conflict.key] === choice}
                      onChange={() => actor.send({ type: 'roster.resolve', key: conflict.key, choice })}
                    />
                    {t(choice === 'keep' ? 'roster.conflicts.keep' : 'roster.conflicts.useFile')}
                  </label>
                ))}
              </div>
            </fieldset>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Actions({ actor, preview }: { actor: RosterActor; preview: RosterImport }) {
  const t = useT();
  const { canApply, applying, busy, conflicts, choices } = useSelectors(actor, {
    canApply: selectCanApply,
    applying: selectIsApplying,
    busy: selectIsBusy,
    conflicts: selectConflicts,
    choices: selectChoices,
  });
  const pending = conflicts.filter((conflict) => choices[conflict.key] === undefined).length;
  return (
    <div className="flex flex-col gap-3" data-slot="roster-actions">
      {preview.counts.rows.valid === 0 && <p className="text-sm">{t('roster.preview.noValidRows')}</p>}
      {pending > 0 && <p className="text-sm text-muted-foreground">{t('roster.preview.pending', { count: pending })}</p>}
      {applying && (
        <div role="status" className="flex flex-col gap-2">
          <p className="text-sm">{t('roster.preview.applying')}</p>
          <Progress aria-label={t('roster.preview.applying')} value={null} className="animate-pulse" />
        </div>
      )}
      <Problem actor={actor} />
      <div className="flex flex-wrap gap-2">
        <Button type="button" disabled={!canApply} aria-busy={applying || undefined} onClick={() => actor.send({ type: 'roster.apply' })}>
          {t('roster.preview.apply')}
        </Button>
        <Button type="button" variant="outline" disabled={busy} onClick={() => actor.send({ type: 'roster.discard' })}>
          {t('roster.preview.discard')}
        </Button>
      </div>
    </div>
  );
}

const PEOPLE_CHANGES: readonly ChangeKind[] = ['new', 'changed', 'unchanged', 'withdrawn'];
const changeVariant = { new: 'secondary', changed: 'warning', unchanged: 'outline', withdrawn: 'destructive' } as const;

function People({ actor, list }: { actor: RosterActor; list: PeopleListActor }) {
  const t = useT();
  const change = useSelector(actor, selectChange);
  const phase = useListPhase(list);
  const reload = () => list.send({ type: 'list.reload' });
  return (
    <section aria-labelledby="roster-people" className="flex min-w-0 flex-col gap-3" data-slot="roster-people">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h4 id="roster-people" className="font-medium">
          {t('roster.people.heading')}
        </h4>
        <FilterSelect
          id="roster-change"
          label={t('roster.people.filter')}
          value={change}
          values={PEOPLE_CHANGES}
          allLabel={t('roster.people.all')}
          labelOf={(value) => t(`roster.people.change.${value}`)}
          onChange={(value) => actor.send({ type: 'roster.filter', change: value })}
        />
      </div>
      <ListBody
        phase={phase}
        skeleton={<ListSkeleton label={t('roster.people.loading')} rows={3} />}
        failure={<ListFailure message={t('roster.people.loadFailed')} retryLabel={t('roster.people.retry')} onRetry={reload} />}
        empty={<ListEmpty>{t('roster.people.empty')}</ListEmpty>}
      >
        <PeopleRows actor={actor} />
        <ListEnd
          list={list}
          staleText={t('roster.people.staleFailed')}
          retryLabel={t('roster.people.retry')}
          moreLabel={t('roster.people.more')}
        />
      </ListBody>
    </section>
  );
}

function PeopleRows({ actor }: { actor: RosterActor }) {
  const people = useSelector(actor, selectPeople);
  return (
    <ul className="flex flex-col gap-2" data-slot="roster-people-rows">
      {people.map((person, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a new person has no id yet; its place on the page names it.
        <PersonRow key={`${person.kind}-${person.id ?? 'new'}-${index}`} person={person} />
      ))}
    </ul>
  );
}

function PersonRow({ person }: { person: PreviewPerson }) {
  const t = useT();
  return (
    <li className="flex flex-col gap-1 rounded-lg border bg-card p-3 text-sm" data-slot="roster-person" data-change={person.change}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="font-medium break-words">{person.name}</span>
        <span className="flex flex-wrap gap-1">
          <Badge variant="outline">{t(`roster.people.kind.${person.kind}`)}</Badge>
          <Badge variant={changeVariant[person.change]}>{t(`roster.people.badge.${person.change}`)}</Badge>
        </span>
      </div>
      <p className="flex flex-wrap gap-x-4 text-muted-foreground">
        {person.document && <span>{person.document}</span>}
        {person.course && <span>{person.course}</span>}
        {person.lines.length > 0 && <span>{t('roster.people.lines', { count: person.lines.length, lines: person.lines.join(', ') })}</span>}
      </p>
      {person.match === 'name_phone' && <p className="text-muted-foreground">{t('roster.people.byNamePhone')}</p>}
      {person.changes.length > 0 && (
        <ul className="text-muted-foreground">
          {person.changes.map((change) => (
            <li key={change.field}>
              {fieldName(change.field, t)}: {change.from ?? t('roster.conflicts.empty')} → {change.to ?? t('roster.conflicts.empty')}
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

function DiscardDialog({ actor }: { actor: RosterActor }) {
  const t = useT();
  const open = useSelector(actor, selectIsConfirmingDiscard);
  return (
    <ConfirmDialog
      open={open}
      title={t('roster.discardDialog.title')}
      description={t('roster.discardDialog.description')}
      confirmLabel={t('roster.discardDialog.confirm')}
      cancelLabel={t('roster.discardDialog.cancel')}
      destructive
      focus="cancel"
      onConfirm={() => actor.send({ type: 'roster.confirm' })}
      onCancel={() => actor.send({ type: 'roster.cancel' })}
    />
  );
}

// --- the end ----------------------------------------------------------------------------------------------

function AppliedStep({ actor }: { actor: RosterActor }) {
  const t = useT();
  const result = useSelector(actor, selectResult);
  if (!result) return null;
  const { students, guardians, courses } = result.counts;
  const written = [
    t('roster.applied.studentsNew', { count: students.new }),
    t('roster.applied.studentsChanged', { count: students.changed }),
    t('roster.applied.studentsWithdrawn', { count: students.withdrawn }),
    t('roster.applied.guardiansNew', { count: guardians.new }),
    t('roster.applied.guardiansChanged', { count: guardians.changed }),
    t('roster.applied.coursesNew', { count: courses.new }),
  ];
  return (
    <div className="flex flex-col gap-3" data-slot="roster-applied">
      <StepHeading>{t('roster.applied.heading')}</StepHeading>
      <p>{t('roster.applied.intro', { name: result.file_name })}</p>
      <ul className="list-disc pl-6 text-sm">
        {written.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <div>
        <Button type="button" onClick={() => actor.send({ type: 'roster.restart' })}>
          {t('roster.applied.again')}
        </Button>
      </div>
    </div>
  );
}

function StaleStep({ actor }: { actor: RosterActor }) {
  const t = useT();
  return (
    <div className="flex flex-col gap-3" data-slot="roster-stale">
      <StepHeading>{t('roster.stale.heading')}</StepHeading>
      <p role="alert">{t('roster.stale.description')}</p>
      <div>
        <Button type="button" onClick={() => actor.send({ type: 'roster.restart' })}>
          {t('roster.stale.again')}
        </Button>
      </div>
    </div>
  );
}
