// /settings/message-quota: this month's SMS at a glance (used, left, limit, reserve, projection,
// the other channels' balances), the usage chart with its monthly/annual, calendar and year choices, who
// and which courses used the most, and the form that changes the limit, the reserve and the alert.
// Inside the settings shell (tabs between the two settings screens); its sections beside it.
import {
  selectFailed,
  selectSettings,
  selectUsageActor,
  selectUsageCrashed,
  settingsQuotaMachine,
  type SettingsQuotaActor,
} from '../../../machines/settings/quota';
import { useLocale, useT } from '../../lib/i18n';
import { usePageActor } from '../../lib/page-actor';
import { ListFailure, ListSkeleton } from '../../ui/list-state';
import { dataPhase, ListBody } from '../../ui/list-page';
import { SettingsShell } from './shell';
import { MonthCard } from './month-card';
import { QuotaForm } from './quota-form';
import { UsageSection } from './usage-section';
import { useSelectors } from '../../lib/selectors';
import { ChildSection } from '../../ui/child-section';

export function SettingsQuotaPage() {
  const actor = usePageActor(settingsQuotaMachine, { input: {} });
  return (
    <SettingsShell className="max-w-5xl min-w-0">
      <section aria-labelledby="quota-title" className="flex min-w-0 flex-col gap-6">
        <Heading />
        {actor ? <QuotaScreen actor={actor} /> : <Skeleton />}
      </section>
    </SettingsShell>
  );
}

function Heading() {
  const t = useT();
  return (
    <header>
      <h2 id="quota-title" className="text-xl font-semibold">
        {t('quota.heading')}
      </h2>
      <p className="text-sm text-muted-foreground">{t('quota.intro')}</p>
    </header>
  );
}

function Skeleton() {
  const t = useT();
  return <ListSkeleton label={t('quota.loading')} rows={3} rowClassName="h-28" />;
}

function QuotaScreen({ actor }: { actor: SettingsQuotaActor }) {
  const t = useT();
  const locale = useLocale();
  const { settings, failed, usage, usageCrashed } = useSelectors(actor, {
    settings: selectSettings,
    failed: selectFailed,
    usage: selectUsageActor,
    usageCrashed: selectUsageCrashed,
  });
  return (
    <>
      <ListBody
        phase={dataPhase(settings, failed, true)}
        skeleton={<Skeleton />}
        failure={
          <ListFailure message={t('quota.loadFailed')} retryLabel={t('quota.retry')} onRetry={() => actor.send({ type: 'quota.retry' })} />
        }
      >
        <div className="grid min-w-0 gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
          {settings && <MonthCard settings={settings} locale={locale} />}
          <QuotaForm actor={actor} locale={locale} />
        </div>
      </ListBody>
      <ChildSection
        child={usage}
        crashed={usageCrashed}
        crashedText={t('quota.chart.crashed')}
        retryLabel={t('quota.retry')}
        onRestart={() => actor.send({ type: 'quota.restartUsage' })}
      >
        {(child) => <UsageSection usage={child} locale={locale} />}
      </ChildSection>
    </>
  );
}
