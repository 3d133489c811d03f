// The activity summary (SPEC §2; dashboard/activity-summary.ts): messages per month of the school year as a bar
// chart with its table, this month's top staff and courses as bar lists, and the guardians' device mix
// with the SPEC §3 legend beside it. Its own failure and Reintentar; the staff table does not depend on it.
import type { ActivitySummary } from '../../../../../shared/dashboard-contract';
import type { DeviceStatus } from '../../../../../shared/compose-contract';
import {
  selectSummary,
  selectSummaryFailed,
  selectSummaryLoading,
  type ActivitySummaryActor,
} from '../../../../machines/dashboard/activity-summary';
import { BarChart } from '../../../charts/bar-chart';
import { BarListCard } from '../../../charts/bar-list';
import { capitalize, monthBar } from '../../../charts/periods';
import { formatNumber, peak, type BarDatum } from '../../../charts/scale';
import { DeviceDot, DeviceLegend } from '../../../lib/device-status';
import { useT } from '../../../lib/i18n';
import { cn } from '../../../lib/utils';
import { Card, CardContent, CardHeader } from '../../../ui/card';
import { ListFailure, ListSkeleton } from '../../../ui/list-state';
import { dataPhase, ListBody } from '../../../ui/list-page';
import { useSelectors } from '../../../lib/selectors';

const STATUSES: readonly DeviceStatus[] = ['blue', 'green', 'yellow', 'red'];

export function SummarySection({ actor, locale }: { actor: ActivitySummaryActor; locale: string }) {
  const t = useT();
  const { summary, loading, failed } = useSelectors(actor, {
    summary: selectSummary,
    loading: selectSummaryLoading,
    failed: selectSummaryFailed,
  });
  // This month's most messages ("42 mensajes").
  const messages = (value: number) => t('activity.summary.messageCount', { count: value });
  return (
    <section aria-labelledby="summary-title" className="flex min-w-0 flex-col gap-4" data-slot="activity-summary">
      <h2 id="summary-title" className="text-xl font-semibold">
        {t('activity.summary.heading')}
      </h2>
      <ListBody
        phase={dataPhase(summary, failed)}
        skeleton={<ListSkeleton label={t('activity.summary.loading')} rows={2} rowClassName="h-40" />}
        failure={
          <ListFailure
            message={t('activity.summary.failed')}
            retryLabel={t('activity.retry')}
            onRetry={() => actor.send({ type: 'summary.retry' })}
          />
        }
        stale={failed}
        staleAt="start"
      >
        {summary && (
          <div aria-busy={loading} className={cn('grid min-w-0 gap-4 lg:grid-cols-2', loading && 'opacity-60')}>
            <Card className="min-w-0 lg:col-span-2">
              <CardContent>
                <MonthsChart summary={summary} locale={locale} />
              </CardContent>
            </Card>
            <BarListCard
              title={t('activity.summary.topStaff')}
              empty={t('activity.summary.noStaff')}
              locale={locale}
              items={summary.top_staff.map((s) => ({ key: String(s.user_id), label: s.name, value: s.messages }))}
              formatValue={messages}
            />
            <BarListCard
              title={t('activity.summary.topCourses')}
              empty={t('activity.summary.noCourses')}
              locale={locale}
              items={summary.top_courses.map((c) => ({ key: String(c.course_id), label: c.name, value: c.messages }))}
              formatValue={messages}
            />
            <Card className="min-w-0 lg:col-span-2">
              <CardHeader>
                <h3 className="text-base font-semibold">{t('activity.summary.devices')}</h3>
              </CardHeader>
              <CardContent className="flex flex-col gap-3 md:flex-row md:items-start md:justify-between">
                <ul className="flex flex-wrap gap-x-6 gap-y-2" data-slot="device-mix">
                  {STATUSES.map((status) => (
                    <li key={status} className="flex items-center gap-2 text-sm" data-status={status}>
                      <DeviceDot status={status} />
                      <span>{t(`device.status.${status}`)}:</span>
                      <span className="font-semibold tabular-nums">
                        {t('activity.summary.deviceCount', { count: summary.devices[status] })}
                      </span>
                    </li>
                  ))}
                </ul>
                <DeviceLegend className="md:max-w-sm" />
              </CardContent>
            </Card>
          </div>
        )}
      </ListBody>
    </section>
  );
}

function MonthsChart({ summary, locale }: { summary: ActivitySummary; locale: string }) {
  const t = useT();
  const data: BarDatum[] = summary.months.map((m) => monthBar(m.month, m.messages, locale));
  const top = peak(data);
  return (
    <BarChart
      title={t('activity.summary.chartTitle', { year: summary.school_year.key })}
      summary={
        top
          ? t('activity.summary.peak', { period: capitalize(top.longLabel ?? top.label), messages: formatNumber(top.value, locale) })
          : t('activity.summary.nothing')
      }
      data={data}
      locale={locale}
      labels={{
        period: t('activity.summary.month'),
        value: t('activity.summary.messages'),
        limit: t('activity.summary.limit'),
        showTable: t('activity.summary.showTable'),
        hideTable: t('activity.summary.hideTable'),
      }}
    />
  );
}
