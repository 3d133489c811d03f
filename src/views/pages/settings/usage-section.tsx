// The usage chart (settings/quota-usage.ts): Mensual / Anual, the calendar (January–December or the school year),
// the year with its arrows (monthly view), the bars with the limit, and this month's top senders and
// courses. A new choice keeps the old bars on screen (dimmed, aria-busy) until the new ones come.
import type { QuotaUsage, UsageCalendar, UsageView } from '../../../../shared/quota-contract';
import {
  selectCalendar,
  selectNextYear,
  selectPreviousYear,
  selectUsage,
  selectUsageFailed,
  selectUsageLoading,
  selectView,
  selectYear,
  type QuotaUsageActor,
} from '../../../machines/settings/quota-usage';
import { BarChart } from '../../charts/bar-chart';
import { BarListCard } from '../../charts/bar-list';
import { capitalize, monthBar } from '../../charts/periods';
import { formatNumber, peak, type BarDatum } from '../../charts/scale';
import { useT, type Translate } from '../../lib/i18n';
import { cn } from '../../lib/utils';
import { ChoiceButtons } from '../../ui/choice-buttons';
import { Card, CardContent, CardHeader } from '../../ui/card';
import { ListFailure, ListSkeleton } from '../../ui/list-state';
import { dataPhase, ListBody } from '../../ui/list-page';
import { NativeSelect } from '../../ui/native-select';
import { StepButton } from '../../ui/step-button';
import { useSelectors } from '../../lib/selectors';

const VIEWS: UsageView[] = ['monthly', 'annual'];

/** The bars as the chart takes them: months by their short and long names, years as they are. */
function usageBars(usage: QuotaUsage, locale: string): BarDatum[] {
  return usage.bars.map((bar) =>
    usage.view === 'monthly'
      ? { ...monthBar(bar.period, bar.used, locale), limit: bar.limit }
      : { key: bar.period, label: bar.period, value: bar.used, limit: bar.limit },
  );
}

function chartTitle(t: Translate, usage: QuotaUsage): string {
  if (usage.view === 'annual') return t(usage.calendar === 'school' ? 'quota.chart.titleAnnualSchool' : 'quota.chart.titleAnnual');
  return t(usage.calendar === 'school' ? 'quota.chart.titleMonthlySchool' : 'quota.chart.titleMonthly', { year: String(usage.year) });
}

/** "Marzo de 2026 es el mes con más SMS: 4.210 de 5.000.", or that nothing was sent. */
function chartSummary(t: Translate, usage: QuotaUsage, data: BarDatum[], locale: string): string {
  const top = peak(data);
  if (!top) return t('quota.chart.nothing');
  const params = {
    period: capitalize(top.longLabel ?? top.label),
    used: formatNumber(top.value, locale),
    limit: formatNumber(top.limit ?? 0, locale),
  };
  return t(usage.view === 'monthly' ? 'quota.chart.peakMonth' : 'quota.chart.peakYear', params);
}

export function UsageSection({ usage: actor, locale }: { usage: QuotaUsageActor; locale: string }) {
  const t = useT();
  const { usage, loading, failed } = useSelectors(actor, { usage: selectUsage, loading: selectUsageLoading, failed: selectUsageFailed });
  const retry = () => actor.send({ type: 'usage.retry' });
  // This month's most SMS ("1.204 SMS").
  const sms = (value: number) => t('quota.top.sms', { value: formatNumber(value, locale) });
  return (
    <>
      <Card className="min-w-0">
        <CardHeader className="gap-3">
          <h3 className="text-lg leading-tight font-semibold">{t('quota.chart.heading')}</h3>
          <Controls actor={actor} />
        </CardHeader>
        <CardContent aria-busy={loading} className={cn('flex flex-col gap-3', loading && usage && 'opacity-60')}>
          <ListBody
            phase={dataPhase(usage, failed)}
            skeleton={<ListSkeleton label={t('quota.chart.loading')} rows={1} rowClassName="h-56" />}
            failure={<ListFailure message={t('quota.chart.failed')} retryLabel={t('quota.retry')} onRetry={retry} />}
            stale={failed}
            staleAt="start"
          >
            {usage && <Chart usage={usage} locale={locale} />}
          </ListBody>
        </CardContent>
      </Card>
      {usage ? (
        <div className="grid min-w-0 gap-6 md:grid-cols-2">
          <BarListCard
            title={t('quota.top.senders')}
            empty={t('quota.top.noSenders')}
            locale={locale}
            items={usage.top_senders.map((sender) => ({
              key: String(sender.user_id),
              label: sender.name,
              value: sender.segments,
              detail: t('quota.top.messages', { count: sender.messages }),
            }))}
            formatValue={sms}
          />
          <BarListCard
            title={t('quota.top.courses')}
            empty={t('quota.top.noCourses')}
            locale={locale}
            items={usage.top_courses.map((course) => ({ key: String(course.course_id), label: course.name, value: course.segments }))}
            formatValue={sms}
          />
        </div>
      ) : null}
    </>
  );
}

function Chart({ usage, locale }: { usage: QuotaUsage; locale: string }) {
  const t = useT();
  const data = usageBars(usage, locale);
  return (
    <BarChart
      title={chartTitle(t, usage)}
      summary={chartSummary(t, usage, data, locale)}
      data={data}
      locale={locale}
      labels={{
        period: t('quota.chart.period'),
        value: t('quota.chart.used'),
        limit: t('quota.chart.limit'),
        showTable: t('quota.chart.showTable'),
        hideTable: t('quota.chart.hideTable'),
      }}
    />
  );
}

function Controls({ actor }: { actor: QuotaUsageActor }) {
  const t = useT();
  const { view, calendar, year, previous, next } = useSelectors(actor, {
    view: selectView,
    calendar: selectCalendar,
    year: selectYear,
    previous: selectPreviousYear,
    next: selectNextYear,
  });
  return (
    <div className="flex flex-wrap items-center gap-3">
      <ChoiceButtons
        label={t('quota.chart.view')}
        options={VIEWS}
        value={view}
        optionLabel={(option) => t(option === 'monthly' ? 'quota.chart.monthly' : 'quota.chart.annual')}
        onChoose={(option) => actor.send({ type: 'usage.view', view: option })}
      />
      <label className="flex items-center gap-2 text-sm">
        <span className="sr-only">{t('quota.chart.calendar')}</span>
        <NativeSelect
          id="quota-calendar"
          value={calendar}
          aria-label={t('quota.chart.calendar')}
          onChange={(event) => actor.send({ type: 'usage.calendar', calendar: event.target.value as UsageCalendar })}
        >
          <option value="civil">{t('quota.chart.civil')}</option>
          <option value="school">{t('quota.chart.school')}</option>
        </NativeSelect>
      </label>
      {view === 'monthly' && year !== null ? (
        <div className="inline-flex items-center gap-1">
          <StepButton
            direction="previous"
            label={t('quota.chart.previous')}
            disabled={previous === null}
            onClick={() => previous !== null && actor.send({ type: 'usage.year', year: previous })}
          />
          <span aria-live="polite" className="min-w-12 text-center text-sm font-medium tabular-nums" data-slot="quota-year">
            {year}
          </span>
          <StepButton
            direction="next"
            label={t('quota.chart.next')}
            disabled={next === null}
            onClick={() => next !== null && actor.send({ type: 'usage.year', year: next })}
          />
        </div>
      ) : null}
    </div>
  );
}
