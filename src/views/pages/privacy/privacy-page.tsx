// /privacy (the school's administrators): find the person a data request names, by name, RUT/CURP, phone or
// e-mail; each result links to everything held about them (person-page.tsx). A 390 px phone stacks the rows.
import { Link } from 'wouter';
import { PRIVACY_Q_MAX, type PrivacyMatch } from '../../../../shared/privacy-contract';
import { privacyPersonPath } from '../../../machines/privacy/privacy-rules';
import {
  privacySearchMachine,
  selectAnsweredQ,
  selectMatches,
  selectSearchFailed,
  selectSearching,
  selectSearchQ,
  type PrivacySearchActor,
} from '../../../machines/privacy/search';
import { useT } from '../../lib/i18n';
import { usePageActor } from '../../lib/page-actor';
import { useSelectors } from '../../lib/selectors';
import { Badge } from '../../ui/badge';
import { ListFailure, ListSkeleton } from '../../ui/list-state';
import { Page, PageTitle } from '../../ui/page';
import { SearchInput } from '../../ui/search-input';

export function PrivacyPage() {
  const t = useT();
  const actor = usePageActor(privacySearchMachine, { input: {} });
  return (
    <Page width="max-w-4xl" data-slot="privacy">
      <PageTitle>{t('privacy.heading')}</PageTitle>
      <p className="text-sm text-muted-foreground">{t('privacy.intro')}</p>
      {actor ? <SearchScreen actor={actor} /> : <ListSkeleton label={t('privacy.searching')} rows={2} />}
    </Page>
  );
}

function SearchScreen({ actor }: { actor: PrivacySearchActor }) {
  const t = useT();
  const { q } = useSelectors(actor, { q: selectSearchQ });
  return (
    <div className="flex min-w-0 flex-col gap-4">
      <div role="search" className="flex flex-col gap-1">
        <SearchInput
          aria-label={t('privacy.search')}
          aria-describedby="privacy-search-hint"
          placeholder={t('privacy.search')}
          maxLength={PRIVACY_Q_MAX}
          className="w-full sm:w-[28rem]"
          value={q}
          onSearch={(text) => actor.send({ type: 'privacy.search', q: text })}
        />
        <p id="privacy-search-hint" className="text-xs text-muted-foreground">
          {t('privacy.searchHint')}
        </p>
      </div>
      <Results actor={actor} />
    </div>
  );
}

function Results({ actor }: { actor: PrivacySearchActor }) {
  const t = useT();
  const { matches, searching, failed, answeredQ } = useSelectors(actor, {
    matches: selectMatches,
    searching: selectSearching,
    failed: selectSearchFailed,
    answeredQ: selectAnsweredQ,
  });
  const retry = () => actor.send({ type: 'privacy.retry' });
  if (matches === null) {
    if (failed) return <ListFailure message={t('privacy.failed')} retryLabel={t('privacy.retry')} onRetry={retry} />;
    return searching ? <ListSkeleton label={t('privacy.searching')} rows={2} /> : null;
  }
  return (
    <div className="flex flex-col gap-3" aria-busy={searching || undefined}>
      {failed && <ListFailure message={t('privacy.staleFailed')} retryLabel={t('privacy.retry')} onRetry={retry} />}
      <p role="status" className="text-sm text-muted-foreground" data-slot="privacy-found">
        {matches.length === 0 ? t('privacy.noMatch', { q: answeredQ }) : t('privacy.found', { count: matches.length })}
      </p>
      {matches.length > 0 && (
        <ul className="flex flex-col gap-2" data-slot="privacy-results">
          {matches.map((match) => (
            <Match key={`${match.kind}-${match.id}`} match={match} />
          ))}
        </ul>
      )}
    </div>
  );
}

function Match({ match }: { match: PrivacyMatch }) {
  const t = useT();
  return (
    <li data-slot="privacy-result" data-kind={match.kind} className="rounded-lg border bg-card">
      <Link
        href={privacyPersonPath(match.kind, match.id)}
        className="flex flex-col gap-1 rounded-lg p-4 outline-none hover:bg-muted/50 focus-visible:ring-[3px] focus-visible:ring-ring/30"
      >
        <span className="flex flex-wrap items-center gap-2">
          <span className="font-medium break-words">{match.name}</span>
          <Badge variant="outline">{t(`privacy.kind.${match.kind}`)}</Badge>
        </span>
        <span className="text-sm break-words text-muted-foreground">{[match.dni, match.hint].filter(Boolean).join(' · ')}</span>
      </Link>
    </li>
  );
}
