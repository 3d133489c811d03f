// /audit (the school's administration): the audit log, newest first, with its filters (actions, days, and the
// person or account picked from a row), «Cargar más» and the CSV of what is shown. Read only: nothing here
// changes an entry. The machine is audit/audit.ts.
import { useSelector } from '@xstate/react';
import { AUDIT_ACTIONS, AUDIT_SUBJECT_KINDS, type AuditRow, type AuditSubjectKind } from '../../../../shared/audit-contract';
import { auditDetailParts, type AuditDetailWords } from '../../../../shared/audit-detail';
import {
  auditMachine,
  selectActions,
  selectActorPick,
  selectAuditItems,
  selectAuditList,
  selectExportHref,
  selectFrom,
  selectHasCrashed,
  selectHasFilters,
  selectRangeReversed,
  selectSubject,
  selectTo,
  type AuditActor,
  type AuditInput,
  type AuditListActor,
} from '../../../machines/audit/audit';
import { formatDateTime } from '../../lib/format';
import { useLocaleZone, useT, type Translate } from '../../lib/i18n';
import { usePageActor } from '../../lib/page-actor';
import { useSelectors } from '../../lib/selectors';
import { Badge } from '../../ui/badge';
import { Button, buttonVariants } from '../../ui/button';
import { Checkbox } from '../../ui/checkbox';
import { Input } from '../../ui/input';
import { Label } from '../../ui/label';
import { ListBody, ListEmpty, ListEnd, ListPage, ListTotal, useListPhase } from '../../ui/list-page';
import { ListFailure, ListSkeleton } from '../../ui/list-state';

/** `?subject_kind=apoderado&subject_id=12` (a person's data page links here): the log opens on that person. */
function subjectFromSearch(search: string): AuditInput {
  const params = new URLSearchParams(search);
  const kind = AUDIT_SUBJECT_KINDS.find((k) => k === params.get('subject_kind'));
  const id = Number(params.get('subject_id'));
  return kind && Number.isInteger(id) && id > 0 ? { subject: { kind, id } } : {};
}

export function AuditPage() {
  const actor = usePageActor(auditMachine, { input: {}, address: { read: subjectFromSearch } });
  const t = useT();
  return (
    <ListPage title={t('audit.heading')} below={<p className="text-sm text-muted-foreground">{t('audit.intro')}</p>}>
      {actor ? <AuditScreen actor={actor} /> : <ListSkeleton label={t('audit.loading')} rows={4} />}
    </ListPage>
  );
}

function AuditScreen({ actor }: { actor: AuditActor }) {
  const t = useT();
  const { list, crashed } = useSelectors(actor, { list: selectAuditList, crashed: selectHasCrashed });
  return (
    <div className="flex min-w-0 flex-col gap-4" data-slot="audit">
      <Filters actor={actor} />
      {list && !crashed ? (
        <AuditList actor={actor} list={list} />
      ) : (
        <ListFailure message={t('audit.loadFailed')} retryLabel={t('audit.retry')} onRetry={() => actor.send({ type: 'audit.retry' })} />
      )}
    </div>
  );
}

/** A subject's words: its live name, the neutral label when the person or account is gone, else kind and number. */
function subjectText(subject: { kind: AuditSubjectKind; id: number; name: string | null }, t: Translate): string {
  if (subject.name !== null) return subject.name;
  if (subject.kind === 'usuario') return t('audit.who.goneAccount');
  if (subject.kind === 'apoderado' || subject.kind === 'estudiante' || subject.kind === 'funcionario') return t('audit.who.gonePerson');
  return t('audit.who.numbered', { kind: t(`audit.kind.${subject.kind}`), id: subject.id });
}

function actorText(row: AuditRow, t: Translate): string {
  if (row.actor.kind === 'system') return t('audit.who.system');
  if (row.actor.kind === 'anonymous') return t('audit.who.anonymous');
  return row.actor.name ?? t('audit.who.goneAccount');
}

function Filters({ actor }: { actor: AuditActor }) {
  const t = useT();
  const { from, to, reversed, subject, actorPick, hasFilters, href } = useSelectors(actor, {
    from: selectFrom,
    to: selectTo,
    reversed: selectRangeReversed,
    subject: selectSubject,
    actorPick: selectActorPick,
    hasFilters: selectHasFilters,
    href: selectExportHref,
  });
  const subjectName = subject ? subjectText(subject, t) : '';
  const actorName = actorPick ? (actorPick.name ?? t('audit.who.goneAccount')) : '';
  return (
    <div role="group" aria-label={t('audit.filters.label')} className="flex flex-col gap-3" data-slot="audit-filters">
      <div className="flex flex-wrap items-end gap-3">
        <ActionsFilter actor={actor} />
        <div className="flex flex-col gap-1">
          <Label htmlFor="audit-from">{t('audit.filters.from')}</Label>
          <Input
            id="audit-from"
            type="date"
            className="w-40"
            value={from}
            max={to || undefined}
            onChange={(e) => actor.send({ type: 'audit.dates', from: e.currentTarget.value, to })}
          />
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="audit-to">{t('audit.filters.to')}</Label>
          <Input
            id="audit-to"
            type="date"
            className="w-40"
            value={to}
            min={from || undefined}
            aria-invalid={reversed || undefined}
            aria-describedby={reversed ? 'audit-range-error' : undefined}
            onChange={(e) => actor.send({ type: 'audit.dates', from, to: e.currentTarget.value })}
          />
        </div>
        <a className={buttonVariants({ variant: 'outline' })} href={href} download aria-describedby="audit-export-hint">
          {t('audit.filters.export')}
        </a>
      </div>
      {reversed && (
        <p id="audit-range-error" role="alert" className="text-sm text-destructive">
          {t('audit.filters.reversed')}
        </p>
      )}
      <p id="audit-export-hint" className="text-sm text-muted-foreground">
        {t('audit.filters.exportHint')}
      </p>
      {(subject || actorPick || hasFilters) && (
        <div className="flex flex-wrap items-center gap-2">
          {subject && (
            <FilterChip
              text={t('audit.filters.subject', { name: subjectName })}
              dropLabel={t('audit.filters.drop', { name: subjectName })}
              onDrop={() => actor.send({ type: 'audit.dropSubject' })}
            />
          )}
          {actorPick && (
            <FilterChip
              text={t('audit.filters.actor', { name: actorName })}
              dropLabel={t('audit.filters.drop', { name: actorName })}
              onDrop={() => actor.send({ type: 'audit.dropActor' })}
            />
          )}
          {hasFilters && (
            <Button size="sm" variant="ghost" onClick={() => actor.send({ type: 'audit.clear' })}>
              {t('audit.filters.clear')}
            </Button>
          )}
        </div>
      )}
    </div>
  );
}

function FilterChip({ text, dropLabel, onDrop }: { text: string; dropLabel: string; onDrop: () => void }) {
  return (
    <span data-slot="audit-chip" className="inline-flex max-w-full items-center gap-1 rounded-full border bg-card py-0.5 pr-1 pl-3 text-sm">
      <span className="break-words">{text}</span>
      <Button size="sm" variant="ghost" className="h-7 px-2" aria-label={dropLabel} onClick={onDrop}>
        ×
      </Button>
    </span>
  );
}

/** Actions to show: a disclosure of checkboxes (none checked: all), reachable by keyboard. */
function ActionsFilter({ actor }: { actor: AuditActor }) {
  const t = useT();
  const actions = useSelector(actor, selectActions);
  const summary = actions.length === 0 ? t('audit.filters.allActions') : t('audit.filters.chosen', { count: actions.length });
  return (
    <details className="relative" data-slot="audit-actions">
      <summary className={`${buttonVariants({ variant: 'outline' })} cursor-pointer list-none`}>
        {t('audit.filters.actions')}: {summary}
      </summary>
      <fieldset className="absolute z-10 mt-1 flex max-h-80 w-[min(22rem,calc(100vw-2rem))] flex-col gap-1 overflow-y-auto rounded-md border bg-popover p-3 shadow-md">
        <legend className="sr-only">{t('audit.filters.actions')}</legend>
        <Button
          size="sm"
          variant="ghost"
          className="self-start"
          disabled={actions.length === 0}
          onClick={() => actor.send({ type: 'audit.clearActions' })}
        >
          {t('audit.filters.clearActions')}
        </Button>
        {AUDIT_ACTIONS.map((action) => {
          const id = `audit-action-${action.replace('.', '-')}`;
          return (
            <div key={action} className="flex items-center gap-2">
              <Checkbox
                id={id}
                checked={actions.includes(action)}
                onCheckedChange={() => actor.send({ type: 'audit.toggleAction', action })}
              />
              <Label htmlFor={id} className="font-normal">
                {t(`audit.action.${action}`)}
              </Label>
            </div>
          );
        })}
      </fieldset>
    </details>
  );
}

function AuditList({ actor, list }: { actor: AuditActor; list: AuditListActor }) {
  const t = useT();
  const phase = useListPhase(list);
  const reload = () => list.send({ type: 'list.reload' });
  return (
    <>
      <ListTotal list={list} text={(count) => t('audit.total', { count })} />
      <ListBody
        phase={phase}
        skeleton={<ListSkeleton label={t('audit.loading')} rows={4} />}
        failure={<ListFailure message={t('audit.loadFailed')} retryLabel={t('audit.retry')} onRetry={reload} />}
        empty={<ListEmpty>{t('audit.empty')}</ListEmpty>}
      >
        <Rows actor={actor} />
        <ListEnd list={list} staleText={t('audit.staleFailed')} retryLabel={t('audit.retry')} moreLabel={t('audit.more')} />
      </ListBody>
    </>
  );
}

function Rows({ actor }: { actor: AuditActor }) {
  const items = useSelector(actor, selectAuditItems);
  return (
    <ol className="flex flex-col gap-2" data-slot="audit-rows">
      {items.map((row) => (
        <Row key={row.id} actor={actor} row={row} />
      ))}
    </ol>
  );
}

/** The detail in the screen's words (shared/audit-detail.ts): `clave: valor` pairs. */
const detailWords = (t: Translate): AuditDetailWords => ({
  key: (key) => t(`audit.detail.${key}`),
  code: (code) => t(`audit.value.${code}`),
  field: (field) => t(`audit.field.${field}`),
  role: (role) => t(`audit.role.${role}`),
  action: (action) => t(`audit.action.${action}`),
  kind: (kind) => t(`audit.kind.${kind}`),
  yes: t('audit.yes'),
  no: t('audit.no'),
  none: t('audit.none'),
});

const detailText = (row: AuditRow, t: Translate): string =>
  row.detail
    ? auditDetailParts(row.detail, detailWords(t))
        .map(([key, value]) => `${key}: ${value}`)
        .join(' · ')
    : '';

/** A button whose text is a name: it wraps on a phone instead of running off the screen. */
const WRAPS = 'h-auto max-w-full py-1.5 text-left whitespace-normal break-words';

function Row({ actor, row }: { actor: AuditActor; row: AuditRow }) {
  const t = useT();
  const { locale, timezone } = useLocaleZone();
  const who = actorText(row, t);
  const about = row.subject ? subjectText(row.subject, t) : null;
  const detail = detailText(row, t);
  const subject = row.subject;
  const actorId = row.actor.id;
  return (
    <li data-slot="audit-row" data-action={row.action} className="flex flex-col gap-2 rounded-lg border bg-card p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h2 className="font-medium break-words">{t(`audit.action.${row.action}`)}</h2>
        <time dateTime={row.at} className="text-sm text-muted-foreground">
          {formatDateTime(row.at, locale, timezone)}
        </time>
      </div>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
        <div className="flex flex-wrap gap-x-2">
          <dt className="text-muted-foreground">{t('audit.row.by')}</dt>
          <dd className="break-words">{who}</dd>
        </div>
        {subject && about !== null && (
          <div className="flex flex-wrap items-center gap-x-2">
            <dt className="text-muted-foreground">{t('audit.row.about')}</dt>
            <dd className="flex flex-wrap items-center gap-2 break-words">
              {about}
              <Badge variant="outline">{t(`audit.kind.${subject.kind}`)}</Badge>
            </dd>
          </div>
        )}
        {detail && (
          <div className="flex flex-wrap gap-x-2 sm:col-span-2">
            <dt className="text-muted-foreground">{t('audit.row.detail')}</dt>
            <dd className="break-words">{detail}</dd>
          </div>
        )}
      </dl>
      {row.ip && <p className="text-xs text-muted-foreground">{t('audit.row.ip', { ip: row.ip })}</p>}
      <div className="flex flex-wrap gap-2">
        {subject && about !== null && (
          <Button
            size="sm"
            variant="outline"
            className={WRAPS}
            onClick={() => actor.send({ type: 'audit.pickSubject', subject: { kind: subject.kind, id: subject.id, name: subject.name } })}
          >
            {t('audit.row.onlySubject', { name: about })}
          </Button>
        )}
        {actorId !== null && (
          <Button
            size="sm"
            variant="outline"
            className={WRAPS}
            onClick={() => actor.send({ type: 'audit.pickActor', actor: { id: actorId, name: row.actor.name } })}
          >
            {t('audit.row.onlyActor', { name: who })}
          </Button>
        )}
      </div>
    </li>
  );
}
