// Step 3 of the roster screen: what applying would do (counts, people, refused lines, conflicts to choose
// on), «Aplicar» and «Descartar».
import { useSelector } from '@xstate/react';
import type { ChangeKind, PreviewPerson, RosterImport } from '../../../../shared/roster-contract';
import {
  selectCanApply,
  selectChange,
  selectChoices,
  selectConflicts,
  selectConflictsFailed,
  selectConflictsLoading,
  selectHasCrashed,
  selectIsApplying,
  selectIsBusy,
  selectIsConfirmingDiscard,
  selectPeople,
  selectPeopleList,
  selectPreview,
  type PeopleListActor,
  type RosterActor,
} from '../../../machines/roster/roster';
import { problemsHref } from '../../../services/roster/roster';
import { useT, type Translate } from '../../lib/i18n';
import { useSelectors } from '../../lib/selectors';
import { Badge } from '../../ui/badge';
import { Button, buttonVariants } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { ListBody, ListEmpty, ListEnd, useListPhase } from '../../ui/list-page';
import { ListFailure, ListSkeleton } from '../../ui/list-state';
import { FilterSelect } from '../../ui/native-select';
import { ApplyProgress, Problem, StepHeading } from './roster-parts';

export function PreviewStep({ actor }: { actor: RosterActor }) {
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
      {applying && <ApplyProgress actor={actor} />}
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
