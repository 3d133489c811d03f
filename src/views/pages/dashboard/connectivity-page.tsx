// /dashboard/connectivity: the school's figures (guardians, channel reach, the device mix with
// its legend, "cobertura efectiva") and the table per level and course, inside the data shell. A failure
// with nothing shown yet is the failure and Reintentar; after that the figures stay while it asks again.
import {
  connectivityMachine,
  selectData,
  selectFailed,
  selectLoading,
  selectCanReload,
  type ConnectivityActor,
} from '../../../machines/dashboard/connectivity';
import { useLocale, useT } from '../../lib/i18n';
import { usePageActor } from '../../lib/page-actor';
import { Button } from '../../ui/button';
import { ListFailure, ListSkeleton } from '../../ui/list-state';
import { dataPhase, ListBody } from '../../ui/list-page';
import { ConnectivityFigures } from './connectivity/figures';
import { InstallLinkFigure } from './connectivity/install-link';
import { CoursesTable } from './connectivity/courses-table';
import { DashboardShell } from './shell';
import { useSelectors } from '../../lib/selectors';

export function DashboardConnectivityPage() {
  const actor = usePageActor(connectivityMachine, { input: undefined });
  return (
    <DashboardShell title="pages.dashboardConnectivity">
      <div className="flex min-w-0 flex-col gap-6">
        <Heading actor={actor} />
        {actor ? <ConnectivityScreen actor={actor} /> : <Skeleton />}
      </div>
    </DashboardShell>
  );
}

/** The page's intro and Recargar (its heading is the shell's h1, the page's title). */
function Heading({ actor }: { actor: ConnectivityActor | null }) {
  const t = useT();
  return (
    <header className="flex flex-wrap items-start justify-between gap-2">
      <p className="min-w-0 text-sm text-muted-foreground">{t('connectivity.intro')}</p>
      {actor ? <Reload actor={actor} /> : null}
    </header>
  );
}

function Reload({ actor }: { actor: ConnectivityActor }) {
  const t = useT();
  const { loading, canReload } = useSelectors(actor, { loading: selectLoading, canReload: selectCanReload });
  return (
    <Button
      type="button"
      variant="outline"
      disabled={!canReload}
      aria-busy={loading}
      onClick={() => actor.send({ type: 'connectivity.reload' })}
    >
      {t('connectivity.reload')}
    </Button>
  );
}

function Skeleton() {
  const t = useT();
  return <ListSkeleton label={t('connectivity.loading')} rows={3} rowClassName="h-32" />;
}

function ConnectivityScreen({ actor }: { actor: ConnectivityActor }) {
  const t = useT();
  const locale = useLocale();
  const { data, failed } = useSelectors(actor, { data: selectData, failed: selectFailed });
  return (
    <ListBody
      phase={dataPhase(data, failed)}
      skeleton={<Skeleton />}
      failure={
        <ListFailure
          message={t('connectivity.loadFailed')}
          retryLabel={t('connectivity.retry')}
          onRetry={() => actor.send({ type: 'connectivity.retry' })}
        />
      }
      stale={failed}
      staleAt="start"
    >
      {data && <ConnectivityFigures row={data.school} title={t('connectivity.school.title')} locale={locale} level={2} />}
      {data?.install_link ? <InstallLinkFigure figures={data.install_link} /> : null}
      <CoursesTable actor={actor} locale={locale} />
    </ListBody>
  );
}
