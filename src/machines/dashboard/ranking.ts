// /ranking/courses and /ranking/users (SPEC §2): one machine for both, its `kind` from the route.
// Courses are ranked by a rate per guardian addressed (read or reached), staff by messages sent or people
// reached; "por mejora" ranks by the change against the previous period, so a small or vulnerable course
// is not shamed by raw counts. The period, the metric and value / improvement are events and live in the
// address (replaced: a link reproduces the view); an address changed by the browser is read back with
// `ranking.address`. A new choice keeps the old table on screen until the new one comes.
import { assertEvent, assign, emit, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { fetchRanking, type RankingKind } from '../../services/dashboard/activity';
import type { CourseMetric, PeriodKind, RankBy, Ranking, UserMetric } from '../../../shared/dashboard-contract';
import type { NavigateEvent } from '../app/effects';
import { loadStates } from '../app/load-states';
import {
  periodOf,
  periodParams,
  queryString,
  samePeriod,
  schoolToday,
  periodAfterShift,
  periodPickerGuards,
  shownKey,
  type PeriodPicker,
  type PeriodQuery,
  type SchoolClock,
  type SchoolToday,
} from './period-rules';

export type { RankingKind };
export type RankingMetric = CourseMetric | UserMetric;

/** The metrics each ranking offers, the first being its default. */
export const METRICS: Record<RankingKind, readonly RankingMetric[]> = { courses: ['read', 'reached'], users: ['messages', 'reached'] };
export const RANK_BY: readonly RankBy[] = ['value', 'improvement'];
const RANKING_PATH: Record<RankingKind, string> = { courses: '/ranking/courses', users: '/ranking/users' };

export interface RankingView {
  period: PeriodQuery;
  metric: RankingMetric;
  by: RankBy;
}

/** What `?period=…&metric=…&by=…` asks of this ranking; anything malformed or foreign reads as the default. */
function rankingViewOf(kind: RankingKind, search: string, today: SchoolToday): RankingView {
  const params = new URLSearchParams(search);
  const metric = params.get('metric');
  const by = params.get('by');
  return {
    period: periodOf(params, today),
    metric: METRICS[kind].find((m) => m === metric) ?? (METRICS[kind][0] as RankingMetric),
    by: by === 'improvement' ? 'improvement' : 'value',
  };
}

/** The address of a view; the defaults are left out, so the bare path is the default view. */
function rankingAddress(kind: RankingKind, view: RankingView): string {
  const params = periodParams(view.period);
  if (view.metric !== METRICS[kind][0]) params.push(['metric', view.metric]);
  if (view.by !== 'value') params.push(['by', view.by]);
  return `${RANKING_PATH[kind]}${queryString(params)}`;
}

const sameView = (a: RankingView, b: RankingView): boolean => samePeriod(a.period, b.period) && a.metric === b.metric && a.by === b.by;

export interface RankingInput {
  kind: RankingKind;
  search: string;
  /** The instant and the school's zone and country: the newest periods offered are the school's. */
  clock: SchoolClock;
}

export interface RankingContext {
  kind: RankingKind;
  today: SchoolToday;
  view: RankingView;
  ranking: Ranking | null;
}

export type RankingEvent =
  | { type: 'ranking.periodKind'; kind: PeriodKind }
  | { type: 'ranking.shift'; step: -1 | 1 }
  | { type: 'ranking.metric'; metric: RankingMetric }
  | { type: 'ranking.by'; by: RankBy }
  /** The address changed without a choice here (Back, Forward, a link). */
  | { type: 'ranking.address'; search: string }
  | { type: 'ranking.retry' };

/** The ranking's period picker: the period asked, the one the answer names, the school's today. */
const pickerOf = (context: RankingContext): PeriodPicker => ({
  asked: context.view.period,
  answered: context.ranking?.period,
  today: context.today,
});

export const rankingMachine = setup({
  types: {
    input: {} as RankingInput,
    context: {} as RankingContext,
    events: {} as RankingEvent,
    emitted: {} as NavigateEvent,
  },
  actors: { fetchRanking },
  actions: {
    assignView: assign({
      view: ({ context, event }) => {
        assertEvent(event, ['ranking.periodKind', 'ranking.shift', 'ranking.metric', 'ranking.by', 'ranking.address']);
        switch (event.type) {
          case 'ranking.periodKind':
            return { ...context.view, period: { kind: event.kind, key: null } };
          case 'ranking.shift':
            return { ...context.view, period: periodAfterShift(pickerOf(context), event.step) };
          case 'ranking.metric':
            return { ...context.view, metric: event.metric };
          case 'ranking.by':
            return { ...context.view, by: event.by };
          default:
            return rankingViewOf(context.kind, event.search, context.today);
        }
      },
    }),
    assignRanking: assign((_, ranking: Ranking) => ({ ranking })),
    showInAddress: emit(({ context }) => ({ type: 'navigate' as const, to: rankingAddress(context.kind, context.view), replace: true })),
  },
  guards: {
    ...periodPickerGuards,
    isOtherMetric: ({ context, event }) => {
      assertEvent(event, 'ranking.metric');
      return event.metric !== context.view.metric && METRICS[context.kind].includes(event.metric);
    },
    isOtherBy: ({ context, event }) => {
      assertEvent(event, 'ranking.by');
      return event.by !== context.view.by;
    },
    isOtherAddress: ({ context, event }) => {
      assertEvent(event, 'ranking.address');
      return !sameView(rankingViewOf(context.kind, event.search, context.today), context.view);
    },
  },
}).createMachine({
  id: 'ranking',
  context: ({ input }) => {
    const today = schoolToday(input.clock);
    return { kind: input.kind, today, view: rankingViewOf(input.kind, input.search, today), ranking: null };
  },
  initial: 'loading',
  on: {
    'ranking.periodKind': {
      guard: { type: 'isOtherKind', params: ({ context, event }) => ({ ...pickerOf(context), kind: event.kind }) },
      target: '.loading',
      reenter: true,
      actions: ['assignView', 'showInAddress'],
    },
    'ranking.shift': {
      guard: { type: 'canShift', params: ({ context, event }) => ({ ...pickerOf(context), step: event.step }) },
      target: '.loading',
      reenter: true,
      actions: ['assignView', 'showInAddress'],
    },
    'ranking.metric': { guard: 'isOtherMetric', target: '.loading', reenter: true, actions: ['assignView', 'showInAddress'] },
    'ranking.by': { guard: 'isOtherBy', target: '.loading', reenter: true, actions: ['assignView', 'showInAddress'] },
    'ranking.address': { guard: 'isOtherAddress', target: '.loading', reenter: true, actions: 'assignView' },
  },
  states: {
    // A failure keeps the last table on screen, said to be out of date, with Reintentar.
    ...loadStates<RankingContext, RankingEvent>()(
      'fetchRanking',
      ({ context }) => ({ kind: context.kind, ...context.view }),
      'assignRanking',
      'ranking.retry',
    ),
  },
});

export type RankingSnapshot = SnapshotFrom<typeof rankingMachine>;
export type RankingActor = ActorRefFrom<typeof rankingMachine>;

export const selectRanking = (s: RankingSnapshot): Ranking | null => s.context.ranking;
export const selectRankingLoading = (s: RankingSnapshot): boolean => s.hasTag('busy');
export const selectRankingFailed = (s: RankingSnapshot): boolean => s.matches('failed');
export const selectRankingPeriodKind = (s: RankingSnapshot): PeriodKind => s.context.view.period.kind;
export const selectRankingPeriodKey = (s: RankingSnapshot): string | null => shownKey(s.context.view.period, s.context.ranking?.period);
export const selectMetric = (s: RankingSnapshot): RankingMetric => s.context.view.metric;
export const selectBy = (s: RankingSnapshot): RankBy => s.context.view.by;
export const selectRankingCanPrevious = (s: RankingSnapshot): boolean => s.can({ type: 'ranking.shift', step: -1 });
export const selectRankingCanNext = (s: RankingSnapshot): boolean => s.can({ type: 'ranking.shift', step: 1 });
