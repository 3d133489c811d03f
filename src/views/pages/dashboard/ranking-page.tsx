// /ranking/courses and /ranking/users: the ordered table (position, name, size or cargo, value,
// change against the previous period as an arrow AND words, never colour alone), the period, the metric
// and "Por valor" / "Por mejora". Courses say in one line why they are compared by a rate per guardian.
// The view lives in the address: the page opens with what it says and follows Back / Forward.
import { useSelector } from '@xstate/react';
import type { Ranking, RankingRow } from '../../../../shared/dashboard-contract';
import {
  METRICS,
  RANK_BY,
  rankingMachine,
  selectBy,
  selectMetric,
  selectRanking,
  selectRankingCanNext,
  selectRankingCanPrevious,
  selectRankingFailed,
  selectRankingLoading,
  selectRankingPeriodKey,
  selectRankingPeriodKind,
  type RankingActor,
  type RankingKind,
  type RankingMetric,
} from '../../../machines/dashboard/ranking';
import type { MessageKey } from '../../../i18n';
import { formatNumber } from '../../charts/scale';
import { type Translate, useLocale, useT } from '../../lib/i18n';
import { usePageActor, wholeQuery } from '../../lib/page-actor';
import { ChoiceButtons } from '../../ui/choice-buttons';
import { ListFailure, ListSkeleton } from '../../ui/list-state';
import { dataPhase, ListBody } from '../../ui/list-page';
import { NativeSelect } from '../../ui/native-select';
import { SortableHeader } from '../../ui/sortable-header';
import { ColumnHeader, NumberCell, RowName, TableCard, TableEmpty, TableHead } from '../../ui/data-table';
import { formatDecimal, formatRate, periodName } from './activity/format';
import { PeriodPicker } from './activity/period-picker';
import { useSchoolClock } from './school-clock';
import { DashboardShell } from './shell';
import { useSelectors } from '../../lib/selectors';

const METRIC_LABEL: Record<RankingKind, Partial<Record<RankingMetric, MessageKey>>> = {
  courses: { read: 'ranking.metric.read', reached: 'ranking.metric.reached' },
  users: { messages: 'ranking.metric.messages', reached: 'ranking.metric.usersReached' },
};

export function RankingPage({ kind }: { kind: RankingKind }) {
  const t = useT();
  const clock = useSchoolClock();
  const actor = usePageActor(rankingMachine, {
    input: { kind, clock },
    address: { read: wholeQuery, event: 'ranking.address' },
  });
  return (
    <DashboardShell title={kind === 'courses' ? 'pages.rankingCourses' : 'pages.rankingUsers'} className="max-w-4xl">
      <div className="flex min-w-0 flex-col gap-4" data-slot="ranking">
        <p className="text-sm text-muted-foreground" data-slot="ranking-intro">
          {t(kind === 'courses' ? 'ranking.courses.intro' : 'ranking.users.intro')}
        </p>
        {actor ? <RankingScreen actor={actor} kind={kind} /> : <ListSkeleton label={t('ranking.loading')} rows={4} rowClassName="h-12" />}
      </div>
    </DashboardShell>
  );
}

function RankingScreen({ actor, kind }: { actor: RankingActor; kind: RankingKind }) {
  const t = useT();
  const locale = useLocale();
  const { ranking, failed } = useSelectors(actor, { ranking: selectRanking, failed: selectRankingFailed });
  return (
    <>
      <Controls actor={actor} kind={kind} locale={locale} />
      <ListBody
        phase={dataPhase(ranking, failed)}
        skeleton={<ListSkeleton label={t('ranking.loading')} rows={4} rowClassName="h-12" />}
        failure={
          <ListFailure
            message={t(ranking ? 'ranking.staleFailed' : 'ranking.loadFailed')}
            retryLabel={t('ranking.retry')}
            onRetry={() => actor.send({ type: 'ranking.retry' })}
          />
        }
        stale={failed}
        staleAt="start"
      >
        {ranking && <RankingTable actor={actor} ranking={ranking} kind={kind} locale={locale} />}
      </ListBody>
    </>
  );
}

function Controls({ actor, kind, locale }: { actor: RankingActor; kind: RankingKind; locale: string }) {
  const t = useT();
  const { periodKind, periodKey, canPrevious, canNext, metric, by } = useSelectors(actor, {
    periodKind: selectRankingPeriodKind,
    periodKey: selectRankingPeriodKey,
    canPrevious: selectRankingCanPrevious,
    canNext: selectRankingCanNext,
    metric: selectMetric,
    by: selectBy,
  });
  return (
    <div className="flex flex-wrap items-center gap-3" data-slot="ranking-controls">
      <PeriodPicker
        id="ranking-period"
        kind={periodKind}
        periodKey={periodKey}
        canPrevious={canPrevious}
        canNext={canNext}
        locale={locale}
        onKind={(value) => actor.send({ type: 'ranking.periodKind', kind: value })}
        onShift={(step) => actor.send({ type: 'ranking.shift', step })}
      />
      <NativeSelect
        id="ranking-metric"
        aria-label={t('ranking.metric.label')}
        value={metric}
        onChange={(event) => actor.send({ type: 'ranking.metric', metric: event.target.value as RankingMetric })}
      >
        {METRICS[kind].map((m) => (
          <option key={m} value={m}>
            {t(METRIC_LABEL[kind][m] as MessageKey)}
          </option>
        ))}
      </NativeSelect>
      <ChoiceButtons
        label={t('ranking.by.label')}
        options={RANK_BY}
        value={by}
        optionLabel={(option) => t(option === 'value' ? 'ranking.by.value' : 'ranking.by.improvement')}
        onChoose={(option) => actor.send({ type: 'ranking.by', by: option })}
      />
    </div>
  );
}

/** A value as read: a course's rate as a percentage, a staff member's count as a number. */
const valueText = (kind: RankingKind, value: number, locale: string): string =>
  kind === 'courses' ? formatRate(value, locale) : formatNumber(value, locale);

/** The change against the previous period in words ("sube 5 pts.", "baja 12", "sin cambio", "sin dato anterior"). */
function changeText(t: Translate, kind: RankingKind, change: number | null, locale: string): { arrow: string; text: string } {
  if (change === null) return { arrow: '–', text: t('ranking.new') };
  if (change === 0) return { arrow: '=', text: t('ranking.same') };
  const size =
    kind === 'courses'
      ? t('ranking.points', { value: formatDecimal(Math.abs(change) * 100, locale) })
      : formatNumber(Math.abs(change), locale);
  return change > 0 ? { arrow: '↑', text: t('ranking.up', { change: size }) } : { arrow: '↓', text: t('ranking.down', { change: size }) };
}

function RankingTable({ actor, ranking, kind, locale }: { actor: RankingActor; ranking: Ranking; kind: RankingKind; locale: string }) {
  const t = useT();
  const loading = useSelector(actor, selectRankingLoading);
  const heading = t(kind === 'courses' ? 'ranking.courses.heading' : 'ranking.users.heading');
  const period = periodName(t, ranking.period.kind, ranking.period.key, locale);
  const previous = periodName(t, ranking.previous_period.kind, ranking.previous_period.key, locale);
  return (
    <div className="flex min-w-0 flex-col gap-2">
      <p className="text-sm text-muted-foreground" data-slot="ranking-previous">
        {t('ranking.previousPeriod', { period: previous.charAt(0).toLocaleLowerCase() + previous.slice(1) })}
      </p>
      {ranking.rows.length === 0 ? (
        <TableEmpty data-slot="ranking-empty">{t('ranking.empty')}</TableEmpty>
      ) : (
        <TableCard
          captionId="ranking-caption"
          caption={t('ranking.caption', { ranking: heading, period })}
          busy={loading}
          data-slot="ranking-table"
        >
          <TableHead>
            {/* The ranking's order is its positions, the server's: said, not offered to change. */}
            <SortableHeader align="end" direction="ascending" directionLabel={t('activity.table.ascending')}>
              {t('ranking.position')}
            </SortableHeader>
            <ColumnHeader>{t(kind === 'courses' ? 'ranking.courses.name' : 'ranking.users.name')}</ColumnHeader>
            <ColumnHeader align="end">{t('ranking.value')}</ColumnHeader>
            <ColumnHeader>{t('ranking.change')}</ColumnHeader>
          </TableHead>
          <tbody>
            {ranking.rows.map((row) => (
              <Row key={row.id} row={row} kind={kind} locale={locale} />
            ))}
          </tbody>
        </TableCard>
      )}
    </div>
  );
}

function Row({ row, kind, locale }: { row: RankingRow; kind: RankingKind; locale: string }) {
  const t = useT();
  const change = changeText(t, kind, row.change, locale);
  const detail =
    kind === 'courses'
      ? typeof row.detail === 'number'
        ? t('ranking.courses.detailValue', { count: row.detail })
        : null
      : typeof row.detail === 'string'
        ? row.detail
        : t('ranking.users.noPosition');
  return (
    <tr className="border-b last:border-b-0" data-id={row.id}>
      <NumberCell strong data-col="position">
        {row.position}°
      </NumberCell>
      <RowName name={row.name} detail={detail} />
      <NumberCell nowrap data-col="value">
        {valueText(kind, row.value, locale)}
      </NumberCell>
      <td
        className="px-3 py-2"
        data-col="change"
        data-trend={row.change === null ? 'none' : row.change > 0 ? 'up' : row.change < 0 ? 'down' : 'same'}
      >
        <span aria-hidden="true" className="mr-1 font-semibold">
          {change.arrow}
        </span>
        {change.text}
      </td>
    </tr>
  );
}
