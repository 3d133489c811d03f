// The rankings (dashboard/ranking.ts), courses and users: the view the address names (a bad one reads as the
// default), the period (month / school year, arrows never into the future nor past the range offered), the
// metric (only the ranking's own) and value / improvement; each choice asks again, keeps the old table on
// screen meanwhile and writes the address (replacing the entry), while an address read back asks without
// writing it; a failure keeps the last table and offers Reintentar.
import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import {
  rankingMachine,
  selectBy,
  selectMetric,
  selectRanking,
  selectRankingCanNext,
  selectRankingCanPrevious,
  selectRankingFailed,
  selectRankingLoading,
  selectRankingPeriodKey,
  type RankingSnapshot,
} from '../../src/machines/dashboard/ranking';
import { withBrowserZone } from '../fixtures/browser-zone';
import { defineModelTests, send, settle, type StepEnv } from './harness';
import { failure } from './fixtures';
import { periodFor, ranking } from '../fixtures/dashboard-activity';

const snap = (s: AnyMachineSnapshot) => s as unknown as RankingSnapshot;

// The browser is in Santiago; the newest periods offered are the school's, by its zone and school year.
withBrowserZone('America/Santiago');
/** A Chilean school in October 2026. */
const CL_CLOCK = { now: Date.parse('2026-10-15T15:00:00Z'), timeZone: 'America/Santiago', country: 'CL' };
/**
 * A Mexican school at 21:30 on 28 February 2026, its time — already 1 March in the browser's Santiago: its
 * month is February, and its newest school year 2025–2026 (August–July), 2026's not having begun.
 */
const MX_CLOCK = { now: Date.parse('2026-03-01T03:30:00Z'), timeZone: 'America/Mexico_City', country: 'MX' };
/** Worked out by hand for each clock: the newest and oldest month and school year offered. */
const OFFERED = {
  CL: { month: '2026-10', year: '2026', oldestMonth: '2024-11', oldestYear: '2022' },
  MX: { month: '2026-02', year: '2025', oldestMonth: '2024-03', oldestYear: '2021' },
} as const;
const offeredOf = (s: AnyMachineSnapshot) => OFFERED[(s.context.today as { country: 'CL' | 'MX' }).country];

interface View {
  period: { kind: 'month' | 'school-year'; key: string | null };
  metric: string;
  by: string;
}
const viewOf = (s: AnyMachineSnapshot) => s.context.view as View;
const kindOf = (s: AnyMachineSnapshot) => s.context.kind as 'courses' | 'users';

/** The server's default: this month, this school year (the school's). */
const keyAsked = (s: AnyMachineSnapshot, period: View['period']) =>
  period.key ?? (period.kind === 'month' ? offeredOf(s).month : offeredOf(s).year);

/** The address a view is written as, spelled out here (the defaults left out). */
function address(kind: 'courses' | 'users', view: View): string {
  const parts: string[] = [];
  if (view.period.kind === 'school-year') parts.push('period=school-year', ...(view.period.key ? [`year=${view.period.key}`] : []));
  else if (view.period.key) parts.push('period=month', `month=${view.period.key}`);
  if (view.metric !== (kind === 'courses' ? 'read' : 'messages')) parts.push(`metric=${view.metric}`);
  if (view.by !== 'value') parts.push(`by=${view.by}`);
  return `/ranking/${kind}${parts.length ? `?${parts.join('&')}` : ''}`;
}

const EVENTS: AnyEventObject[] = [
  { type: 'ranking.periodKind', kind: 'school-year' },
  { type: 'ranking.periodKind', kind: 'month' },
  { type: 'ranking.shift', step: -1 },
  { type: 'ranking.shift', step: 1 },
  { type: 'ranking.metric', metric: 'reached' },
  { type: 'ranking.metric', metric: 'read' },
  { type: 'ranking.metric', metric: 'messages' },
  { type: 'ranking.by', by: 'improvement' },
  { type: 'ranking.by', by: 'value' },
  // Back to the bare address, a link with a month, one with nonsense (reads as the default).
  { type: 'ranking.address', search: '' },
  { type: 'ranking.address', search: '?period=month&month=2026-09&by=improvement' },
  { type: 'ranking.address', search: '?period=month&month=2031-01&metric=bogus' },
  { type: 'ranking.retry' },
];

const PERIODS = [
  ...['2026-10', '2026-09', '2026-08', '2024-11', '2024-12'].map((key) => periodFor('month', key)),
  ...['2026', '2025', '2024'].map((key) => periodFor('school-year', key)),
];
const INTERNAL: AnyEventObject[] = [
  ...(['courses', 'users'] as const).flatMap((kind) =>
    PERIODS.flatMap((period) =>
      (kind === 'courses' ? ['read', 'reached'] : ['messages', 'reached']).flatMap((metric) =>
        ['value', 'improvement'].map((by) => ({
          type: 'xstate.done.actor.fetchRanking',
          output: ranking(kind, period, metric as never, by as never),
        })),
      ),
    ),
  ),
  { type: 'xstate.error.actor.fetchRanking', error: failure(500, 'server.error') },
];

/** The ranking's own metrics, its default first (SPEC §2: courses by a rate, staff by a count). */
const METRICS_OF = { courses: ['read', 'reached'], users: ['messages', 'reached'] } as const;

/** The period `step` away from `key`: the month before or after, or the school year. */
function stepped(kind: View['period']['kind'], key: string, step: number): string {
  if (kind === 'school-year') return String(Number(key) + step);
  const [year, month] = key.split('-').map(Number) as [number, number];
  const at = new Date(Date.UTC(year, month - 1 + step, 1));
  return `${at.getUTCFullYear()}-${String(at.getUTCMonth() + 1).padStart(2, '0')}`;
}

/**
 * Whether an arrow moves, in the test's words: from the period shown (the one asked, or the one the
 * server's answer names when its default was asked, none before it answers) to one begun and offered.
 */
function arrowMoves(
  context: { view: View; ranking: { period: { kind: string; key: string } } | null; today: { country: 'CL' | 'MX' } },
  step: number,
): boolean {
  const { period } = context.view;
  const shown = period.key ?? (context.ranking?.period.kind === period.kind ? context.ranking.period.key : null);
  if (shown === null) return false;
  const offered = OFFERED[context.today.country];
  const [oldest, newest] = period.kind === 'month' ? [offered.oldestMonth, offered.month] : [offered.oldestYear, offered.year];
  const key = stepped(period.kind, shown, step);
  return key >= oldest && key <= newest;
}

/** The view each address of this test names, read by hand (anything future or unknown is the default). */
function viewNamed(kind: 'courses' | 'users', search: string, country: 'CL' | 'MX'): View {
  const metric = METRICS_OF[kind][0];
  switch (search) {
    case '':
    case '?period=month&month=2031-01&metric=bogus':
      return { period: { kind: 'month', key: null }, metric, by: 'value' };
    case '?period=month&month=2026-09&by=improvement':
      // September 2026 has not begun for the Mexican school of this test (its month is February).
      return { period: { kind: 'month', key: country === 'CL' ? '2026-09' : null }, metric, by: 'improvement' };
    default:
      throw new Error(`viewNamed: say what ${search} names`);
  }
}
const sameView = (a: View, b: View) =>
  a.period.kind === b.period.kind && a.period.key === b.period.key && a.metric === b.metric && a.by === b.by;

/** Whether the step wrote the address: a choice that asked again (an address read back is not written). */
const wrote = ({ from, to, event }: StepEnv) =>
  ['ranking.periodKind', 'ranking.shift', 'ranking.metric', 'ranking.by'].includes(event.type) &&
  JSON.stringify(viewOf(from)) !== JSON.stringify(viewOf(to));

const commonStates = {
  loading: (snapshot: AnyMachineSnapshot, env: StepEnv) => {
    expect(selectRankingLoading(snap(snapshot))).toBe(true);
    expect(env.fakes.inputOf('fetchRanking')).toEqual({ kind: kindOf(snapshot), ...viewOf(snapshot) });
    // A new view asks once, aborting a request still out (the live one is the new view's); nothing else asks.
    const asks = !env.from.matches('loading') || !sameView(viewOf(env.from), viewOf(snapshot));
    if (env.event.type !== 'xstate.init') expect(env.started, 'requests started').toEqual(asks ? ['fetchRanking'] : []);
    // The old table stays while the new one comes.
    expect(selectRanking(snap(snapshot))).toEqual(env.event.type === 'xstate.init' ? null : env.from.context.ranking);
    // The school's today, by its zone and school year, whatever the browser's.
    expect(snapshot.context.today).toEqual({
      month: offeredOf(snapshot).month,
      country: (snapshot.context.today as { country: string }).country,
    });
    // Never the future, never another ranking's metric.
    expect(
      viewOf(snapshot).period.key === null ||
        keyAsked(snapshot, viewOf(snapshot).period) <=
          (viewOf(snapshot).period.kind === 'month' ? offeredOf(snapshot).month : offeredOf(snapshot).year),
    ).toBe(true);
    expect(kindOf(snapshot) === 'courses' ? ['read', 'reached'] : ['messages', 'reached']).toContain(selectMetric(snap(snapshot)));
  },
  shown: (snapshot: AnyMachineSnapshot, env: StepEnv) => {
    expect(selectRankingLoading(snap(snapshot))).toBe(false);
    expect(env.fakes.isRunning('fetchRanking')).toBe(false);
    const shown = selectRanking(snap(snapshot));
    const view = viewOf(snapshot);
    expect([shown?.period.kind, shown?.period.key, shown?.metric, shown?.by]).toEqual([
      view.period.kind,
      keyAsked(snapshot, view.period),
      selectMetric(snap(snapshot)),
      selectBy(snap(snapshot)),
    ]);
    const key = selectRankingPeriodKey(snap(snapshot));
    expect(key).toBe(keyAsked(snapshot, view.period));
    // The arrows: not past this month / the newest school year begun, not before the range offered.
    const offered = offeredOf(snapshot);
    const newest = view.period.kind === 'month' ? offered.month : offered.year;
    const oldest = view.period.kind === 'month' ? offered.oldestMonth : offered.oldestYear;
    expect(selectRankingCanNext(snap(snapshot))).toBe(key !== newest);
    expect(selectRankingCanPrevious(snap(snapshot))).toBe(key !== oldest);
  },
  failed: (snapshot: AnyMachineSnapshot, env: StepEnv) => {
    expect(selectRankingFailed(snap(snapshot))).toBe(true);
    expect(env.fakes.isRunning('fetchRanking')).toBe(false);
    expect(snapshot.can({ type: 'ranking.retry' })).toBe(true);
    expect(selectRanking(snap(snapshot))).toEqual(env.from.context.ranking);
  },
};

defineModelTests({
  name: 'ranking',
  machine: rankingMachine,
  // The header, SPEC §2 and decision 0084: every choice that changes the view asks again from wherever the
  // table is (aborting a request still out); so does an address read back that names another view. A
  // failure offers Reintentar.
  oracle: {
    initial: 'loading',
    targets: {
      '*': {
        'ranking.periodKind': ({ event, context, stay }) => (event.kind === context.view.period.kind ? stay : 'loading'),
        'ranking.shift': ({ event, context, stay }) => (arrowMoves(context, event.step) ? 'loading' : stay),
        'ranking.metric': ({ event, context, stay }) =>
          event.metric !== context.view.metric && (METRICS_OF[context.kind] as readonly string[]).includes(event.metric) ? 'loading' : stay,
        'ranking.by': ({ event, context, stay }) => (event.by === context.view.by ? stay : 'loading'),
        'ranking.address': ({ event, context, stay }) =>
          sameView(viewNamed(context.kind, event.search, context.today.country), context.view) ? stay : 'loading',
      },
      loading: { 'xstate.done.actor.fetchRanking': 'shown', 'xstate.error.actor.fetchRanking': 'failed' },
      failed: { 'ranking.retry': 'loading' },
    },
  },
  traversal: {
    events: EVENTS,
    internal: INTERNAL,
    filterEvents: (s, event) => {
      const view = viewOf(s);
      if (event.type === 'xstate.done.actor.fetchRanking') {
        const output = (event as AnyEventObject).output as ReturnType<typeof ranking>;
        const courses = output.rows.some((row) => typeof row.detail === 'number');
        return (
          courses === (kindOf(s) === 'courses') &&
          output.period.kind === view.period.kind &&
          output.period.key === keyAsked(s, view.period) &&
          output.metric === view.metric &&
          output.by === view.by
        );
      }
      // Two steps back at most (the oldest edge is its own variant), metric and "by" only on the default period.
      // Periods move with the default metric and order, or with the link's (reached, by improvement).
      const plain = (view.metric === 'read' || view.metric === 'messages') && view.by === 'value';
      const linked = view.metric === 'reached' && view.by === 'improvement';
      if ((event.type === 'ranking.shift' || event.type === 'ranking.periodKind') && !plain && !linked) return false;
      if (event.type === 'ranking.shift') {
        const key = s.context.ranking ? keyAsked(s, view.period) : null;
        const from =
          (event as AnyEventObject).step === -1
            ? ['2026-10', '2026-09', '2026', '2025', '2024-11', '2024-12']
            : ['2026-10', '2026-09', '2026-08', '2026', '2025', '2024', '2024-11'];
        return key === null || from.includes(key);
      }
      if (event.type === 'ranking.metric' || event.type === 'ranking.by')
        return (view.period.key === null && view.period.kind === 'month') || view.period.key === '2025';
      // Addresses and a stray Reintentar are tried from the first table only (and Reintentar where it fails).
      if (event.type === 'ranking.address') return s.matches('shown') && view.period.key === null && (plain || linked);
      if (event.type === 'ranking.retry') return s.matches('failed') || (s.matches('shown') && view.period.key === null && plain);
      return true;
    },
    // The table kept on screen matters only as there or not (the invariants compare it with the step's).
    serializeState: (s) => JSON.stringify([s.value, viewOf(s), s.context.ranking === null]),
    limit: 20_000,
    input: { kind: 'courses', search: '', clock: CL_CLOCK },
  },
  variants: [
    { name: 'courses', traversal: {} },
    {
      name: 'users, a school year by improvement from a link',
      traversal: {
        input: { kind: 'users', search: '?period=school-year&year=2025&metric=reached&by=improvement', clock: CL_CLOCK },
        stopWhen: (s) => viewOf(s).period.kind === 'month',
      },
    },
    {
      name: 'courses, at the oldest month offered',
      traversal: {
        input: { kind: 'courses', search: '?period=month&month=2024-11', clock: CL_CLOCK },
        limit: 2_000,
        stopWhen: (s) => !['2024-11', '2024-12'].includes(viewOf(s).period.key ?? ''),
      },
    },
    // Its February, Santiago's March: 2026 is neither its month's year nor a school year begun.
    {
      name: 'users, a Mexican school year on the last evening of February',
      traversal: {
        input: { kind: 'users', search: '?period=school-year&year=2026', clock: MX_CLOCK },
        stopWhen: (s) => viewOf(s).period.kind === 'month',
      },
    },
  ],
  createActor: ({ fakes, path, inspect, machine }) =>
    createActor(machine.provide({ actors: { fetchRanking: fakes.promise() } }), { input: path.input as never, inspect }),
  states: commonStates,
  events: {
    'ranking.periodKind': send,
    'ranking.shift': send,
    'ranking.metric': send,
    'ranking.by': send,
    'ranking.address': send,
    'ranking.retry': send,
    'xstate.done.actor.fetchRanking': settle,
    'xstate.error.actor.fetchRanking': settle,
  },
  emits: (env) => (wrote(env) ? [{ type: 'navigate', to: address(kindOf(env.to), viewOf(env.to)), replace: true }] : []),
});
