// /privacy/:kind/:id (the school's administrators): everything Hermes holds about one person, a section per
// kind of data with its count and its first rows, and "Descargar sus datos" (the whole as a ZIP). The
// "requests" section is where the person's other rights are answered: their record to correct it, and
// blocking and erasure beside it.
import { Link } from 'wouter';
import { PRIVACY_SECTIONS, type PrivacyKind, type PrivacyRow, type PrivacySection } from '../../../../shared/privacy-contract';
import { formatPhone } from '../../../../shared/phone-format';
import { personPath } from '../../../machines/people/people-rules';
import {
  privacyPersonMachine,
  selectHeldTotal,
  selectIdentity,
  selectInventory,
  selectPersonFailed,
  selectPersonLoading,
  selectPersonErased,
  selectPersonNotFound,
  selectRequestsActor,
  type PrivacyPersonActor,
} from '../../../machines/privacy/person';
import { PRIVACY_PATH } from '../../../machines/privacy/privacy-rules';
import { privacyExportHref } from '../../../services/privacy/privacy';
import { useLocaleZone, useT } from '../../lib/i18n';
import { formatDateTime, formatDay } from '../../lib/format';
import { usePageActor } from '../../lib/page-actor';
import { useSelectors } from '../../lib/selectors';
import { Badge } from '../../ui/badge';
import { buttonVariants } from '../../ui/button';
import { ListFailure, ListSkeleton } from '../../ui/list-state';
import { Page, PageTitle } from '../../ui/page';
import { RequestsPanel } from '../privacy-requests/requests-panel';

/** Rows shown per section on screen; the download has them all. */
const SHOWN_ROWS = 10;

export function PrivacyPersonPage({ kind, id }: { kind: PrivacyKind; id: number }) {
  const t = useT();
  const actor = usePageActor(privacyPersonMachine, { input: { kind, id } });
  return (
    <Page width="max-w-5xl" data-slot="privacy-person">
      <Link href={PRIVACY_PATH} className="text-sm text-primary underline-offset-4 hover:underline">
        {t('privacy.person.back')}
      </Link>
      {actor ? <PersonScreen actor={actor} /> : <ListSkeleton label={t('privacy.person.loading')} rows={3} />}
    </Page>
  );
}

function PersonScreen({ actor }: { actor: PrivacyPersonActor }) {
  const t = useT();
  const { loading, failed, notFound, identity } = useSelectors(actor, {
    loading: selectPersonLoading,
    failed: selectPersonFailed,
    notFound: selectPersonNotFound,
    identity: selectIdentity,
  });
  if (notFound)
    return (
      <>
        <PageTitle>{t('privacy.heading')}</PageTitle>
        <p role="alert" className="rounded-lg border p-4">
          {t('privacy.person.notFound')}
        </p>
      </>
    );
  if (failed)
    return (
      <ListFailure
        message={t('privacy.person.loadFailed')}
        retryLabel={t('privacy.retry')}
        onRetry={() => actor.send({ type: 'person.retry' })}
      />
    );
  if (loading || identity === null) return <ListSkeleton label={t('privacy.person.loading')} rows={3} />;
  return (
    <article className="flex min-w-0 flex-col gap-6" data-slot="privacy-inventory">
      <Heading actor={actor} />
      <Identity actor={actor} />
      <Sections actor={actor} />
      <Requests actor={actor} />
    </article>
  );
}

function Heading({ actor }: { actor: PrivacyPersonActor }) {
  const t = useT();
  const { locale, timezone } = useLocaleZone();
  const { identity, total, inventory, erased } = useSelectors(actor, {
    identity: selectIdentity,
    total: selectHeldTotal,
    inventory: selectInventory,
    erased: selectPersonErased,
  });
  if (!identity || !inventory) return null;
  return (
    <header className="flex flex-col gap-3">
      <PageTitle className="flex flex-wrap items-center gap-2">
        <span className="break-words">{identity.name}</span>
        <Badge variant="outline">{t(`privacy.kind.${identity.kind}`)}</Badge>
      </PageTitle>
      <p className="text-sm text-muted-foreground">
        {t('privacy.person.held', { count: total })}{' '}
        {t('privacy.person.readAt', { date: formatDateTime(inventory.read_at, locale, timezone) })}
      </p>
      {!erased && (
        <div className="flex flex-col gap-1">
          <a
            className={buttonVariants({ className: 'self-start' })}
            href={privacyExportHref({ kind: identity.kind, id: identity.id })}
            download
            data-slot="privacy-download"
          >
            {t('privacy.person.download')}
          </a>
          <p className="text-xs text-muted-foreground">{t('privacy.person.downloadHint')}</p>
        </div>
      )}
    </header>
  );
}

function Identity({ actor }: { actor: PrivacyPersonActor }) {
  const t = useT();
  const { locale, timezone } = useLocaleZone();
  const { identity } = useSelectors(actor, { identity: selectIdentity });
  if (!identity) return null;
  const none = t('privacy.person.none');
  const facts: [string, string][] = [
    [t('privacy.person.name'), identity.name],
    [t('privacy.person.dni'), identity.dni ?? none],
    [t('privacy.person.email'), identity.email ?? none],
    [t('privacy.person.phone'), identity.phone ? formatPhone(identity.phone) : none],
  ];
  if (identity.birth_date) facts.push([t('privacy.person.birthDate'), identity.birth_date]);
  if (identity.withdrawn_at) facts.push([t('privacy.person.withdrawnAt'), formatDay(identity.withdrawn_at, locale, timezone)]);
  return (
    <section aria-labelledby="privacy-identity" className="flex flex-col gap-2 rounded-lg border bg-card p-4">
      <h2 id="privacy-identity" className="text-lg font-semibold">
        {t('privacy.person.identity')}
      </h2>
      <dl className="grid gap-x-4 gap-y-1 sm:grid-cols-[max-content_1fr]">
        {facts.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-sm text-muted-foreground">{label}</dt>
            <dd className="break-all">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function Sections({ actor }: { actor: PrivacyPersonActor }) {
  const { inventory } = useSelectors(actor, { inventory: selectInventory });
  if (!inventory) return null;
  return (
    <div className="flex flex-col gap-3" data-slot="privacy-sections">
      {PRIVACY_SECTIONS.map((section) => (
        <SectionRows key={section} section={section} rows={inventory.sections[section]} />
      ))}
    </div>
  );
}

const cellText = (value: PrivacyRow[string]): string =>
  value === null ? '—' : typeof value === 'boolean' ? (value ? 'sí' : 'no') : String(value);

function SectionRows({ section, rows }: { section: PrivacySection; rows: PrivacyRow[] }) {
  const t = useT();
  const columns = rows[0] ? Object.keys(rows[0]) : [];
  const headingId = `privacy-section-${section}`;
  return (
    <details className="rounded-lg border bg-card" data-slot="privacy-section" data-section={section} data-count={rows.length}>
      <summary className="flex cursor-pointer flex-wrap items-center justify-between gap-2 p-4">
        <h2 id={headingId} className="inline text-base font-medium">
          {t(`privacy.sections.${section}`)}
        </h2>
        <Badge variant={rows.length === 0 ? 'outline' : 'secondary'}>{t('privacy.person.rows', { count: rows.length })}</Badge>
      </summary>
      <div className="border-t p-4">
        {rows.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t('privacy.person.nothing')}</p>
        ) : (
          <div className="flex flex-col gap-2">
            {/* A region with a name, focusable: a keyboard scrolls a wide table on a phone. */}
            {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard. */}
            <div role="region" aria-labelledby={headingId} tabIndex={0} className="overflow-x-auto">
              <table className="w-full text-left text-sm">
                <thead>
                  <tr>
                    {columns.map((column) => (
                      <th key={column} scope="col" className="px-2 py-1 font-medium whitespace-nowrap text-muted-foreground">
                        {column}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {rows.slice(0, SHOWN_ROWS).map((row, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: a section's rows are read once and never reordered.
                    <tr key={i} className="border-t align-top">
                      {columns.map((column) => (
                        <td key={column} className="max-w-xs px-2 py-1 break-words">
                          {cellText(row[column] ?? null)}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {rows.length > SHOWN_ROWS && (
              <p className="text-xs text-muted-foreground">{t('privacy.person.showing', { shown: SHOWN_ROWS })}</p>
            )}
          </div>
        )}
      </div>
    </details>
  );
}

/** The person's other rights: their record (rectification), blocking and erasure. */
function Requests({ actor }: { actor: PrivacyPersonActor }) {
  const t = useT();
  const { identity, requests, erased } = useSelectors(actor, {
    identity: selectIdentity,
    requests: selectRequestsActor,
    erased: selectPersonErased,
  });
  if (!identity) return null;
  return (
    <section aria-labelledby="privacy-requests" className="flex flex-col gap-2 rounded-lg border bg-card p-4" data-slot="privacy-requests">
      <h2 id="privacy-requests" className="text-lg font-semibold">
        {t('privacy.person.requests')}
      </h2>
      <p className="text-sm text-muted-foreground">{t('privacy.person.requestsIntro')}</p>
      <div className="flex flex-wrap gap-2" data-slot="privacy-actions">
        {identity.kind !== 'funcionario' && !erased && (
          <Link className={buttonVariants({ variant: 'outline', size: 'sm' })} href={personPath(identity.kind, identity.id)}>
            {t('privacy.person.editRecord')}
          </Link>
        )}
      </div>
      {requests && <RequestsPanel actor={requests} kind={identity.kind} id={identity.id} />}
    </section>
  );
}
