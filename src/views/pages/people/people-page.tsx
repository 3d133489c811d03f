// /settings/people (the school's leadership): the school's students and guardians, searched, filtered by kind
// and standing, one page at a time, each row a link to the person's record (person-page.tsx). The search,
// filters and page live in the address (people/people.ts). A 390 px phone stacks the filters and the rows.
import { useSelector } from '@xstate/react';
import { Link } from 'wouter';
import { PEOPLE_KINDS, PEOPLE_Q_MAX, PEOPLE_STATUSES, type PersonSummary } from '../../../../shared/people-contract';
import { formatPhone } from '../../../../shared/phone-format';
import { personPath } from '../../../machines/people/people-rules';
import {
  peopleMachine,
  selectCanNext,
  selectCanPrevious,
  selectPeopleAnswer,
  selectPeopleFailed,
  selectPeopleKind,
  selectPeopleLastPage,
  selectPeopleLoading,
  selectPeoplePage,
  selectPeopleQ,
  selectPeopleStatus,
  selectPeopleTotal,
  selectPreviousPage,
  type PeopleActor,
} from '../../../machines/people/people';
import { useT } from '../../lib/i18n';
import { usePageActor, wholeQuery } from '../../lib/page-actor';
import { useSelectors } from '../../lib/selectors';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { ListFailure, ListSkeleton } from '../../ui/list-state';
import { FilterSelect, SelectField } from '../../ui/native-select';
import { SearchInput } from '../../ui/search-input';
import { SettingsShell } from '../settings/shell';

export function SettingsPeoplePage() {
  const t = useT();
  const actor = usePageActor(peopleMachine, { input: {}, address: { read: wholeQuery, event: 'people.address' } });
  return (
    <SettingsShell className="max-w-5xl">
      {actor ? <PeopleScreen actor={actor} /> : <ListSkeleton label={t('people.loading')} rows={4} />}
    </SettingsShell>
  );
}

function PeopleScreen({ actor }: { actor: PeopleActor }) {
  const t = useT();
  const total = useSelector(actor, selectPeopleTotal);
  return (
    <section aria-labelledby="people-heading" className="flex min-w-0 flex-col gap-4" data-slot="people">
      <header className="flex flex-col gap-1">
        <h2 id="people-heading" className="text-xl font-semibold">
          {t('people.heading')}
        </h2>
        <p className="text-sm text-muted-foreground">{t('people.intro')}</p>
        {total !== null && (
          <p role="status" className="text-sm text-muted-foreground" data-slot="people-total">
            {t('people.total', { count: total })}
          </p>
        )}
      </header>
      <Filters actor={actor} />
      <PeopleBody actor={actor} />
    </section>
  );
}

function Filters({ actor }: { actor: PeopleActor }) {
  const t = useT();
  const { q, kind, status } = useSelectors(actor, { q: selectPeopleQ, kind: selectPeopleKind, status: selectPeopleStatus });
  return (
    <div role="group" aria-label={t('people.search')} className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end">
      <SearchInput
        aria-label={t('people.search')}
        placeholder={t('people.search')}
        maxLength={PEOPLE_Q_MAX}
        value={q}
        onSearch={(text) => actor.send({ type: 'people.search', q: text })}
      />
      <FilterSelect
        id="people-kind"
        label={t('people.kind.label')}
        value={kind}
        values={PEOPLE_KINDS}
        allLabel={t('people.kind.all')}
        labelOf={(value) => t(`people.kind.${value}`)}
        onChange={(value) => actor.send({ type: 'people.kind', kind: value })}
      />
      <SelectField
        id="people-status"
        label={t('people.status.label')}
        value={status}
        onChange={(event) => {
          const value = PEOPLE_STATUSES.find((candidate) => candidate === event.currentTarget.value);
          if (value) actor.send({ type: 'people.status', status: value });
        }}
      >
        {PEOPLE_STATUSES.map((value) => (
          <option key={value} value={value}>
            {t(`people.status.${value}`)}
          </option>
        ))}
      </SelectField>
    </div>
  );
}

function PeopleBody({ actor }: { actor: PeopleActor }) {
  const t = useT();
  const { answer, loading, failed, q } = useSelectors(actor, {
    answer: selectPeopleAnswer,
    loading: selectPeopleLoading,
    failed: selectPeopleFailed,
    q: selectPeopleQ,
  });
  const retry = () => actor.send({ type: 'people.retry' });
  if (answer === null) {
    return failed ? (
      <ListFailure message={t('people.loadFailed')} retryLabel={t('people.retry')} onRetry={retry} />
    ) : (
      <ListSkeleton label={t('people.loading')} rows={4} />
    );
  }
  return (
    <div className="flex flex-col gap-3" aria-busy={loading || undefined}>
      {failed && <ListFailure message={t('people.staleFailed')} retryLabel={t('people.retry')} onRetry={retry} />}
      {answer.data.length === 0 ? (
        <p className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground" data-slot="people-empty">
          {q.trim() ? t('people.noMatch', { q: q.trim() }) : t('people.empty')}
        </p>
      ) : (
        <ul className="flex flex-col gap-2" data-slot="people-rows">
          {answer.data.map((person) => (
            <Row key={`${person.kind}-${person.id}`} person={person} />
          ))}
        </ul>
      )}
      <Pages actor={actor} />
    </div>
  );
}

function Row({ person }: { person: PersonSummary }) {
  const t = useT();
  const contact = [person.fono_celular ? formatPhone(person.fono_celular) : null, person.email].filter(Boolean).join(' · ');
  return (
    <li data-slot="people-row" data-kind={person.kind} className="rounded-lg border bg-card">
      <Link
        href={personPath(person.kind, person.id)}
        className="flex flex-col gap-1 rounded-lg p-4 outline-none hover:bg-muted/50 focus-visible:ring-[3px] focus-visible:ring-ring/30"
      >
        <span className="flex flex-wrap items-center gap-2">
          <span className="font-medium break-words">{person.name}</span>
          <Badge variant="outline">{t(`people.kindOne.${person.kind}`)}</Badge>
          {person.withdrawn_at !== null && <Badge variant="warning">{t('people.withdrawn')}</Badge>}
        </span>
        <span className="text-sm break-words text-muted-foreground">
          {[person.dni, person.course ?? (person.kind === 'estudiante' ? t('people.noCourse') : null)].filter(Boolean).join(' · ')}
        </span>
        {contact && <span className="text-sm break-all text-muted-foreground">{contact}</span>}
      </Link>
    </li>
  );
}

function Pages({ actor }: { actor: PeopleActor }) {
  const t = useT();
  const { page, previous, last, canPrevious, canNext } = useSelectors(actor, {
    page: selectPeoplePage,
    previous: selectPreviousPage,
    last: selectPeopleLastPage,
    canPrevious: selectCanPrevious,
    canNext: selectCanNext,
  });
  if (last <= 1 && page <= 1) return null;
  return (
    <nav aria-label={t('people.pages.label')} className="flex flex-wrap items-center justify-between gap-2">
      <Button variant="outline" size="sm" disabled={!canPrevious} onClick={() => actor.send({ type: 'people.page', page: previous })}>
        {t('people.pages.previous')}
      </Button>
      <span className="text-sm text-muted-foreground">{t('people.pages.of', { page, last })}</span>
      <Button variant="outline" size="sm" disabled={!canNext} onClick={() => actor.send({ type: 'people.page', page: page + 1 })}>
        {t('people.pages.next')}
      </Button>
    </nav>
  );
}
