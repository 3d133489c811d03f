// /dashboard/users (dashboard/staff-activity.ts): the table asks for the period and cargo the address names, each
// choice (period kind, arrows, cargo) asks again with the old table kept and writes the address (replacing
// the entry), a header sorts without asking, an address read back (Back, a link) asks only when its query
// differs and never writes; the summary child is told the school year whenever the period changes, and
// crashes and restarts on its own while the table goes on.
import { createActor, createMachine, fromPromise, waitFor, type AnyActorRef, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { describe, expect, it } from 'vitest';
import {
  selectActivity,
  selectCanNext,
  selectCanPrevious,
  selectFailed,
  selectLoading,
  selectPeriodKey,
  selectSortedRows,
  selectSummaryActor,
  selectSummaryCrashed,
  staffActivityMachine,
  type StaffActivitySnapshot,
} from '../../src/machines/dashboard/staff-activity';
import { withBrowserZone } from '../fixtures/browser-zone';
import { defineModelTests, send, settle, type StepEnv } from './harness';
import { failure } from './fixtures';
import { listStandIn } from './doubles';
import { periodFor, staffActivity } from '../fixtures/dashboard-activity';

const snap = (s: AnyMachineSnapshot) => s as unknown as StaffActivitySnapshot;

// A browser in Mexico City at 21:30 on 30 September looks at a Chilean school, where it is 00:30 on
// 1 October: the newest month offered is the school's October.
withBrowserZone('America/Mexico_City');
const CLOCK = { now: Date.parse('2026-10-01T03:30:00Z'), timeZone: 'America/Santiago', country: 'CL' };
const TODAY = '2026-10';

interface Query {
  period: { kind: 'month' | 'school-year'; key: string | null };
  positionId: number | null;
}
interface Sort {
  column: string;
  direction: 'asc' | 'desc';
}
const queryOf = (s: AnyMachineSnapshot) => s.context.query as Query;
const sortOf = (s: AnyMachineSnapshot) => s.context.sort as Sort;
const keyAsked = (period: Query['period']) => period.key ?? (period.kind === 'month' ? TODAY : '2026');
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The address of a view, spelled out here (defaults left out: this month, every cargo, most messages first). */
function address(query: Query, sort: Sort): string {
  const parts: string[] = [];
  if (query.period.kind === 'school-year') parts.push('period=school-year', ...(query.period.key ? [`year=${query.period.key}`] : []));
  else if (query.period.key) parts.push('period=month', `month=${query.period.key}`);
  if (query.positionId !== null) parts.push(`position_id=${query.positionId}`);
  if (sort.column !== 'messages' || sort.direction !== 'desc') parts.push(`sort=${sort.column}`, `dir=${sort.direction}`);
  return `/dashboard/users${parts.length ? `?${parts.join('&')}` : ''}`;
}

const EVENTS: AnyEventObject[] = [
  { type: 'activity.periodKind', kind: 'school-year' },
  { type: 'activity.periodKind', kind: 'month' },
  { type: 'activity.shift', step: -1 },
  { type: 'activity.shift', step: 1 },
  { type: 'activity.position', positionId: 3 },
  { type: 'activity.position', positionId: null },
  { type: 'activity.sort', column: 'name' },
  { type: 'activity.sort', column: 'read_rate' },
  { type: 'activity.address', search: '' },
  { type: 'activity.address', search: '?position_id=3&sort=name&dir=asc' },
  { type: 'activity.address', search: '?sort=read_rate&dir=desc' },
  { type: 'activity.address', search: '?period=school-year&year=2031&position_id=x' },
  { type: 'activity.retry' },
  { type: 'activity.restartSummary' },
  { type: 'activity.periodChanged' },
];

const PERIODS = [
  ...['2026-10', '2026-09', '2026-08'].map((key) => periodFor('month', key)),
  ...['2026', '2025'].map((key) => periodFor('school-year', key)),
];
const INTERNAL: AnyEventObject[] = [
  ...PERIODS.flatMap((period) =>
    [null, 3].map((position) => ({ type: 'xstate.done.actor.fetchActivity', output: staffActivity(period, position) })),
  ),
  { type: 'xstate.error.actor.fetchActivity', error: failure(500, 'server.error') },
  { type: 'xstate.error.actor.summary', error: new Error('summary: a bug') },
];

/** The range offered on the school's October 2026 (Chile): the last 24 months, the last 5 school years. */
const OFFERED = { month: ['2024-11', TODAY], 'school-year': ['2022', '2026'] } as const;

/** The period `step` away from `key`: the month before or after, or the school year. */
function stepped(kind: Query['period']['kind'], key: string, step: number): string {
  if (kind === 'school-year') return String(Number(key) + step);
  const [year, month] = key.split('-').map(Number) as [number, number];
  const at = new Date(Date.UTC(year, month - 1 + step, 1));
  return `${at.getUTCFullYear()}-${String(at.getUTCMonth() + 1).padStart(2, '0')}`;
}

/**
 * Whether an arrow moves, in the test's words: from the period shown (the one asked, or the one the
 * server's answer names when its default was asked, none before it answers) to one begun and offered.
 */
function arrowMoves(context: { query: Query; activity: { period: { kind: string; key: string } } | null }, step: number): boolean {
  const { period } = context.query;
  const shown = period.key ?? (context.activity?.period.kind === period.kind ? context.activity.period.key : null);
  if (shown === null) return false;
  const [oldest, newest] = OFFERED[period.kind];
  const key = stepped(period.kind, shown, step);
  return key >= oldest && key <= newest;
}

/** The period and cargo each address of this test names, read by hand (a future year or a bad id: the default). */
function queryNamed(search: string): Query {
  switch (search) {
    case '':
    case '?sort=read_rate&dir=desc':
      return { period: { kind: 'month', key: null }, positionId: null };
    case '?position_id=3&sort=name&dir=asc':
      return { period: { kind: 'month', key: null }, positionId: 3 };
    case '?period=school-year&year=2031&position_id=x':
      return { period: { kind: 'school-year', key: null }, positionId: null };
    default:
      throw new Error(`queryNamed: say what ${search} names`);
  }
}
const sameQuery = (a: Query, b: Query) => a.period.kind === b.period.kind && a.period.key === b.period.key && a.positionId === b.positionId;

/** Whether the step changed the period or the cargo shown (and so asked again). */
const queryChanged = ({ from, to }: StepEnv) => !same(queryOf(from), queryOf(to));
const periodChanged = ({ from, to }: StepEnv) => !same(queryOf(from).period, queryOf(to).period);

/** The step told the summary its year: a period changed here, an address read back with another query, or the raise itself. */
const announced = (env: StepEnv) =>
  env.event.type === 'activity.periodChanged' ||
  (['activity.periodKind', 'activity.shift'].includes(env.event.type) && periodChanged(env)) ||
  (env.event.type === 'activity.address' && queryChanged(env));

function emits(env: StepEnv): AnyEventObject[] {
  const write = { type: 'navigate', to: address(queryOf(env.to), sortOf(env.to)), replace: true };
  if (env.event.type === 'activity.sort') return [write];
  if (['activity.periodKind', 'activity.shift', 'activity.position'].includes(env.event.type) && queryChanged(env)) return [write];
  return [];
}

const summaryOf = (env: StepEnv) => selectSummaryActor(snap(env.actor.getSnapshot() as AnyMachineSnapshot)) as AnyActorRef | undefined;
const summaryYear = (query: Query) => (query.period.kind === 'school-year' ? query.period.key : null);

defineModelTests({
  name: 'staff-activity',
  machine: staffActivityMachine,
  // The header, SPEC §2 and decision 0084, each region apart. The table asks again (aborting a request
  // still out) for another period kind, an arrow that moves, another cargo, or an address read back that
  // names another period or cargo; sorting never asks; a failure offers Reintentar. The summary runs
  // beside it, and a crash of it is offered a restart.
  oracle: {
    initial: { table: 'loading', summary: 'running' },
    targets: {
      table: {
        'activity.periodKind': ({ event, context, stay }) => (event.kind === context.query.period.kind ? stay : 'table.loading'),
        'activity.shift': ({ event, context, stay }) => (arrowMoves(context, event.step) ? 'table.loading' : stay),
        'activity.position': ({ event, context, stay }) => (event.positionId === context.query.positionId ? stay : 'table.loading'),
        'activity.address': ({ event, context, stay }) => (sameQuery(queryNamed(event.search), context.query) ? stay : 'table.loading'),
      },
      'table.loading': { 'xstate.done.actor.fetchActivity': 'table.shown', 'xstate.error.actor.fetchActivity': 'table.failed' },
      'table.failed': { 'activity.retry': 'table.loading' },
      'summary.running': { 'xstate.error.actor.summary': 'summary.crashed' },
      'summary.crashed': { 'activity.restartSummary': 'summary.running' },
    },
  },
  traversal: {
    events: EVENTS,
    internal: INTERNAL,
    filterEvents: (s, event) => {
      const q = queryOf(s);
      if (event.type === 'xstate.done.actor.fetchActivity') {
        const output = (event as AnyEventObject).output as ReturnType<typeof staffActivity>;
        const filtered = output.rows.length < 4;
        return output.period.kind === q.period.kind && output.period.key === keyAsked(q.period) && filtered === (q.positionId !== null);
      }
      const atStart = q.period.key === null && q.period.kind === 'month' && q.positionId === null;
      const plainSort = sortOf(s).column === 'messages';
      // Periods move with every cargo and the default order; cargo and order change on this month.
      if (event.type === 'activity.shift') {
        const key = s.context.activity ? keyAsked(q.period) : null;
        const from =
          (event as AnyEventObject).step === -1 ? ['2026-10', '2026-09', '2026'] : ['2026-10', '2026-09', '2026-08', '2026', '2025'];
        return plainSort && (key === null || from.includes(key));
      }
      if (event.type === 'activity.periodKind') return plainSort;
      if (event.type === 'activity.position') return q.period.key === null && q.period.kind === 'month' && plainSort;
      if (event.type === 'activity.sort') return atStart && sortOf(s).direction === 'desc';
      if (event.type === 'activity.address' || event.type === 'activity.periodChanged') return atStart && s.matches({ table: 'shown' });
      if (event.type === 'activity.retry') return s.matches({ table: 'failed' }) || (atStart && plainSort && s.matches({ table: 'shown' }));
      if (event.type === 'xstate.error.actor.summary') return atStart && plainSort;
      if (event.type === 'activity.restartSummary') return atStart;
      return true;
    },
    serializeState: (s) => JSON.stringify([s.value, s.context.query, s.context.sort, s.context.activity === null]),
    limit: 20_000,
    input: { search: '', clock: CLOCK },
  },
  createActor: ({ fakes, path, inspect, machine }) =>
    createActor(machine.provide({ actors: { fetchActivity: fakes.promise(), summary: listStandIn as never } }), {
      input: path.input as never,
      inspect,
    }),
  states: {
    // The table and the summary live side by side: neither region's state stops the other.
    table: (snapshot) => expect(snapshot.matches('summary')).toBe(true),
    summary: (snapshot) => expect(snapshot.matches('table')).toBe(true),
    'table.loading': (snapshot, env) => {
      expect(selectLoading(snap(snapshot))).toBe(true);
      expect(snapshot.context.today).toEqual({ month: TODAY, country: 'CL' });
      expect(env.fakes.inputOf('fetchActivity')).toEqual(queryOf(snapshot));
      expect(selectActivity(snap(snapshot))).toEqual(env.event.type === 'xstate.init' ? null : env.from.context.activity);
      if (env.event.type === 'xstate.init') expect(queryOf(snapshot)).toEqual({ period: { kind: 'month', key: null }, positionId: null });
      // A new period or cargo asks once, aborting a request still out (the live one is the new query's).
      const asks = !env.from.matches({ table: 'loading' }) || !sameQuery(queryOf(env.from), queryOf(snapshot));
      if (env.event.type !== 'xstate.init') expect(env.started, 'requests started').toEqual(asks ? ['fetchActivity'] : []);
    },
    'table.shown': (snapshot, env) => {
      expect(selectLoading(snap(snapshot))).toBe(false);
      expect(selectFailed(snap(snapshot))).toBe(false);
      expect(env.fakes.isRunning('fetchActivity')).toBe(false);
      const q = queryOf(snapshot);
      const shown = selectActivity(snap(snapshot));
      expect([shown?.period.kind, shown?.period.key]).toEqual([q.period.kind, keyAsked(q.period)]);
      const key = selectPeriodKey(snap(snapshot));
      expect(key).toBe(keyAsked(q.period));
      // Never the future; back to the range offered.
      expect(selectCanNext(snap(snapshot))).toBe(key !== (q.period.kind === 'month' ? TODAY : '2026'));
      expect(selectCanPrevious(snap(snapshot))).toBe(true);
      // The rows in the order chosen; a rate nobody could read goes last.
      const rows = selectSortedRows(snap(snapshot)) ?? [];
      const sort = sortOf(snapshot);
      const names = rows.map((r) => r.name);
      if (sort.column === 'messages' && sort.direction === 'desc')
        expect(names).toEqual(q.positionId === 3 ? ['Ana Pérez', 'Carla Soto'] : ['Ana Pérez', 'Carla Soto', 'Bruno Díaz', 'Óscar Ruiz']);
      if (sort.column === 'name')
        expect(names).toEqual(
          sort.direction === 'asc'
            ? [...names].sort((a, b) => a.localeCompare(b, 'es'))
            : [...names].sort((a, b) => b.localeCompare(a, 'es')),
        );
      if (sort.column === 'read_rate')
        expect(rows.map((r) => r.read_rate)).toEqual(
          q.positionId === 3
            ? sort.direction === 'desc'
              ? [0.9, 0.625]
              : [0.625, 0.9]
            : sort.direction === 'desc'
              ? [0.9, 0.625, null, null]
              : [0.625, 0.9, null, null],
        );
      // The same array while nothing changes (a selector's identity).
      expect(selectSortedRows(snap(snapshot))).toBe(selectSortedRows(snap(snapshot)));
    },
    'table.failed': (snapshot, env) => {
      expect(selectFailed(snap(snapshot))).toBe(true);
      expect(env.fakes.isRunning('fetchActivity')).toBe(false);
      expect(snapshot.can({ type: 'activity.retry' })).toBe(true);
      expect(selectActivity(snap(snapshot))).toEqual(env.from.context.activity);
    },
    'summary.running': (snapshot, env) => {
      expect(selectSummaryActor(snap(snapshot))).toBeDefined();
      expect(selectSummaryCrashed(snap(snapshot))).toBe(false);
      const told = env.delivered.filter((d) => d.to === 'summary' && !/^(test|xstate)\./.test(d.event.type)).map((d) => d.event);
      const tells = announced(env) && env.from.matches({ summary: 'running' });
      expect(told).toEqual(tells ? [{ type: 'summary.year', year: summaryYear(queryOf(snapshot)) }] : []);
      if (env.event.type === 'xstate.init' || env.from.matches({ summary: 'crashed' })) {
        expect((summaryOf(env)!.getSnapshot() as AnyMachineSnapshot).context.input).toEqual({ year: summaryYear(queryOf(snapshot)) });
      }
    },
    'summary.crashed': (snapshot, env) => {
      expect(selectSummaryActor(snap(snapshot))).toBeUndefined();
      expect(selectSummaryCrashed(snap(snapshot))).toBe(true);
      expect(snapshot.can({ type: 'activity.restartSummary' })).toBe(true);
      // The table goes on regardless.
      expect(snapshot.matches({ table: 'shown' }) || snapshot.matches({ table: 'loading' }) || snapshot.matches({ table: 'failed' })).toBe(
        true,
      );
      expect(env.delivered.filter((d) => d.to === 'summary' && !/^(test|xstate)\./.test(d.event.type))).toEqual([]);
    },
  },
  events: {
    'activity.periodKind': send,
    'activity.shift': send,
    'activity.position': send,
    'activity.sort': send,
    'activity.address': send,
    'activity.retry': send,
    'activity.restartSummary': send,
    'activity.periodChanged': send,
    'xstate.done.actor.fetchActivity': settle,
    'xstate.error.actor.fetchActivity': settle,
    'xstate.error.actor.summary': (env) => summaryOf(env)?.send({ type: 'test.crash' }),
  },
  emits,
});

// The sorted rows are derived per actor: two pages' actors read in turn (a test after another, the page
// and a leaving page during a transition) each keep their own array, as useSelector needs to skip a render.
describe('staff-activity: sorted rows of two actors read in turn', () => {
  it('answers each actor its own order, the same array each time', async () => {
    const machine = staffActivityMachine.provide({
      actors: { fetchActivity: fromPromise(async () => staffActivity()), summary: createMachine({}) as never },
    });
    const byMessages = createActor(machine, { input: { search: '', clock: { ...CLOCK, country: 'CL' as const } } }).start();
    const byName = createActor(machine, { input: { search: '?sort=name&dir=asc', clock: { ...CLOCK, country: 'CL' as const } } }).start();
    await waitFor(byMessages, (s) => s.matches({ table: 'shown' }));
    await waitFor(byName, (s) => s.matches({ table: 'shown' }));
    const first = selectSortedRows(byMessages.getSnapshot());
    const second = selectSortedRows(byName.getSnapshot());
    expect(first?.map((r) => r.name)).toEqual(['Ana Pérez', 'Carla Soto', 'Bruno Díaz', 'Óscar Ruiz']);
    expect(second?.map((r) => r.name)).toEqual(['Ana Pérez', 'Bruno Díaz', 'Carla Soto', 'Óscar Ruiz']);
    for (let turn = 0; turn < 3; turn++) {
      expect(selectSortedRows(byMessages.getSnapshot())).toBe(first);
      expect(selectSortedRows(byName.getSnapshot())).toBe(second);
    }
    // A new order in one actor is that actor's alone.
    byName.send({ type: 'activity.sort', column: 'name' });
    expect(selectSortedRows(byName.getSnapshot())?.map((r) => r.name)).toEqual(['Óscar Ruiz', 'Carla Soto', 'Bruno Díaz', 'Ana Pérez']);
    expect(selectSortedRows(byMessages.getSnapshot())).toBe(first);
    byMessages.stop();
    byName.stop();
  });
});
