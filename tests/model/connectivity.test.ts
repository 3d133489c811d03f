// /dashboard/connectivity (dashboard/connectivity.ts): the figures load once (a failure offers Reintentar), Actualizar
// asks again with the figures kept on screen, and a failure then keeps them. The table's order and level are
// events: any of the three orders, a level the figures have or all of them; an unknown level or order, or
// the one shown, changes nothing; a level gone from new figures stops being the filter. The "Cobertura"
// header turns the coverage order around; the table's rules (dashboard/connectivity-rules.ts) are checked by hand values.
import { createActor, fromPromise, waitFor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { describe, expect, it } from 'vitest';
import {
  connectivityMachine,
  selectCanReload,
  selectData,
  selectFailed,
  selectLevel,
  selectLoading,
  selectShownLevels,
  selectSort,
  type ConnectivitySnapshot,
} from '../../src/machines/dashboard/connectivity';
import { isCutOff, nextCoverageSort, shownLevels, sortCourses } from '../../src/machines/dashboard/connectivity-rules';
import type { Connectivity } from '../../shared/dashboard-contract';
import { defineModelTests, send, settle, type StepEnv } from './harness';
import { failure } from './fixtures';
import { connectivity, COURSE_1A, COURSE_1B, COURSE_1M, connectivityRow } from '../fixtures/dashboard';

const snap = (s: AnyMachineSnapshot) => s as unknown as ConnectivitySnapshot;

const FULL = connectivity();
/** New figures where level 2 (Media) is gone. */
const ONE_LEVEL: Connectivity = { ...FULL, levels: FULL.levels.slice(0, 1) };

const EVENTS: AnyEventObject[] = [
  { type: 'connectivity.sort', sort: 'coverageAsc' },
  { type: 'connectivity.sort', sort: 'school' },
  { type: 'connectivity.sort', sort: 'bogus' },
  { type: 'connectivity.sortByCoverage' },
  { type: 'connectivity.level', level: 2 },
  { type: 'connectivity.level', level: null },
  { type: 'connectivity.level', level: 99 },
  { type: 'connectivity.retry' },
  { type: 'connectivity.reload' },
];
const INTERNAL: AnyEventObject[] = [
  { type: 'xstate.done.actor.fetchConnectivity', output: FULL },
  { type: 'xstate.done.actor.fetchConnectivity', output: ONE_LEVEL },
  { type: 'xstate.error.actor.fetchConnectivity', error: failure(500, 'server.error') },
];

/** The figures of the last answer so far (null before any): what the page shows, loading or failed too. */
const lastFigures = (history: readonly AnyEventObject[]): Connectivity | null =>
  ([...history].reverse().find((event) => event.type === 'xstate.done.actor.fetchConnectivity')?.output as Connectivity | undefined) ??
  null;

const levelIds = (s: AnyMachineSnapshot) => ((s.context.data as Connectivity | null)?.levels ?? []).map((l) => l.id);

/** The order and level after a step: the oracle, from the event alone and what was shown before. */
function choicesAfter(env: StepEnv): { sort: string; level: number | null } {
  const { from, event } = env;
  const before = { sort: from.context.sort as string, level: from.context.level as number | null };
  switch (event.type) {
    case 'connectivity.sort':
      return ['school', 'coverageAsc', 'coverageDesc'].includes(event.sort as string) ? { ...before, sort: event.sort as string } : before;
    // The "Cobertura" header: least covered first, then it turns around.
    case 'connectivity.sortByCoverage':
      return { ...before, sort: before.sort === 'coverageAsc' ? 'coverageDesc' : 'coverageAsc' };
    case 'connectivity.level': {
      const level = event.level as number | null;
      return level === null || levelIds(from).includes(level) ? { ...before, level } : before;
    }
    case 'xstate.done.actor.fetchConnectivity': {
      const ids = (event.output as Connectivity).levels.map((l) => l.id);
      return { ...before, level: before.level !== null && ids.includes(before.level) ? before.level : null };
    }
    default:
      return before;
  }
}

/** Each course's name, by level id: the school's order (the fixture's). */
const COURSE_NAMES: Record<number, string[]> = { 1: ['1° Básico A', '1° Básico B'], 2: ['1° Medio A'] };
/** The same by coverage (1° Básico B 25 %, A 90 %; nothing addressed last either way), worked out by hand. */
const BY_COVERAGE: Record<string, Record<number, string[]>> = {
  school: COURSE_NAMES,
  coverageAsc: { 1: ['1° Básico B', '1° Básico A'], 2: ['1° Medio A'] },
  coverageDesc: { 1: ['1° Básico A', '1° Básico B'], 2: ['1° Medio A'] },
};

function checkChoices(snapshot: AnyMachineSnapshot, env: StepEnv) {
  const expected = env.event.type === 'xstate.init' ? { sort: 'school', level: null } : choicesAfter(env);
  expect([selectSort(snap(snapshot)), selectLevel(snap(snapshot))]).toEqual([expected.sort, expected.level]);
  // The table as shown: the levels chosen, each with its courses in the order chosen; the same array while
  // nothing changes.
  const shown = selectShownLevels(snap(snapshot));
  if (!snapshot.context.data) expect(shown).toBeNull();
  else {
    const ids = expected.level === null ? levelIds(snapshot) : [expected.level];
    expect(shown?.map((l) => [l.level.id, l.courses.map((c) => c.name)])).toEqual(ids.map((id) => [id, BY_COVERAGE[expected.sort]![id]]));
    expect(selectShownLevels(snap(snapshot))).toBe(shown);
  }
}

defineModelTests({
  name: 'connectivity',
  machine: connectivityMachine,
  // The header and SPEC §2: one panel, loading, shown or failed with Reintentar; Actualizar asks again
  // from the figures shown. The table's order and level never move the panel.
  oracle: {
    initial: 'loading',
    targets: {
      loading: { 'xstate.done.actor.fetchConnectivity': 'shown', 'xstate.error.actor.fetchConnectivity': 'failed' },
      shown: { 'connectivity.reload': 'loading' },
      failed: { 'connectivity.retry': 'loading' },
    },
  },
  traversal: {
    events: EVENTS,
    internal: INTERNAL,
    serializeState: (s) => JSON.stringify([s.value, s.context.sort, s.context.level, levelIds(s)]),
    limit: 500,
  },
  createActor: ({ fakes, inspect, machine }) =>
    createActor(machine.provide({ actors: { fetchConnectivity: fakes.promise() } }), { inspect }),
  states: {
    loading: (snapshot, env) => {
      checkChoices(snapshot, env);
      expect(selectLoading(snap(snapshot))).toBe(true);
      expect(env.fakes.isRunning('fetchConnectivity')).toBe(true);
      expect(selectCanReload(snap(snapshot))).toBe(false);
      // Actualizar and Reintentar ask once; a choice in the table while it asks starts nothing.
      if (env.event.type !== 'xstate.init')
        expect(env.started, 'requests started').toEqual(env.from.matches('loading') ? [] : ['fetchConnectivity']);
      // The figures shown stay while it asks again.
      if (env.event.type !== 'xstate.init') expect(selectData(snap(snapshot))).toBe(env.from.context.data);
      else expect(selectData(snap(snapshot))).toBeNull();
      expect(selectData(snap(snapshot))).toBe(lastFigures(env.history));
    },
    shown: (snapshot, env) => {
      checkChoices(snapshot, env);
      expect(selectLoading(snap(snapshot))).toBe(false);
      expect(selectFailed(snap(snapshot))).toBe(false);
      expect(env.fakes.isRunning('fetchConnectivity')).toBe(false);
      expect(selectData(snap(snapshot))).not.toBeNull();
      if (env.event.type === 'xstate.done.actor.fetchConnectivity') expect(selectData(snap(snapshot))).toBe(env.event.output);
      expect(selectData(snap(snapshot))).toBe(lastFigures(env.history));
      expect(selectCanReload(snap(snapshot))).toBe(true);
    },
    failed: (snapshot, env) => {
      checkChoices(snapshot, env);
      expect(selectFailed(snap(snapshot))).toBe(true);
      expect(selectLoading(snap(snapshot))).toBe(false);
      expect(env.fakes.isRunning('fetchConnectivity')).toBe(false);
      expect(snapshot.can({ type: 'connectivity.retry' })).toBe(true);
      // What was shown before the failure is kept.
      expect(selectData(snap(snapshot))).toBe(env.from.context.data);
      expect(selectData(snap(snapshot))).toBe(lastFigures(env.history));
    },
  },
  events: {
    'connectivity.sort': send,
    'connectivity.sortByCoverage': send,
    'connectivity.level': send,
    'connectivity.retry': send,
    'connectivity.reload': send,
    'xstate.done.actor.fetchConnectivity': settle,
    'xstate.error.actor.fetchConnectivity': settle,
  },
  emits: () => [],
});

describe('connectivity table rules', () => {
  const A = connectivityRow(1, 'A', { coverage: { reached: 5, addressed: 10, share: 0.5 } });
  const B = connectivityRow(2, 'B', { coverage: { reached: 1, addressed: 10, share: 0.1 } });
  const C = connectivityRow(3, 'C', { coverage: { reached: 0, addressed: 0, share: null } });
  const D = connectivityRow(4, 'D', { coverage: { reached: 1, addressed: 10, share: 0.1 } });
  it('sorts by coverage either way, ties by name, courses with nothing addressed last', () => {
    expect(sortCourses([A, B, C, D], 'school').map((r) => r.name)).toEqual(['A', 'B', 'C', 'D']);
    expect(sortCourses([A, C, D, B], 'coverageAsc').map((r) => r.name)).toEqual(['B', 'D', 'A', 'C']);
    expect(sortCourses([C, B, D, A], 'coverageDesc').map((r) => r.name)).toEqual(['A', 'B', 'D', 'C']);
  });
  it('the header turns the coverage order around, starting with the least covered', () => {
    expect(nextCoverageSort('school')).toBe('coverageAsc');
    expect(nextCoverageSort('coverageAsc')).toBe('coverageDesc');
    expect(nextCoverageSort('coverageDesc')).toBe('coverageAsc');
  });
  it('shows the level chosen or all, each with its courses in order', () => {
    const full = connectivity();
    expect(shownLevels(full, null, 'coverageAsc').map((l) => [l.level.name, l.courses.map((c) => c.name)])).toEqual([
      ['Básica', ['1° Básico B', '1° Básico A']],
      ['Media', ['1° Medio A']],
    ]);
    expect(shownLevels(full, 2, 'school').map((l) => l.level.name)).toEqual(['Media']);
    expect(shownLevels(full, 99, 'school')).toEqual([]);
  });
  it('keeps each actor its own shown rows: two tables alternating neither share nor evict them', async () => {
    const one = createActor(
      connectivityMachine.provide({ actors: { fetchConnectivity: fromPromise(async () => connectivity()) } }),
    ).start();
    const two = createActor(
      connectivityMachine.provide({ actors: { fetchConnectivity: fromPromise(async () => connectivity()) } }),
    ).start();
    await waitFor(one, (s) => s.matches('shown'));
    await waitFor(two, (s) => s.matches('shown'));
    two.send({ type: 'connectivity.sort', sort: 'coverageAsc' });
    const first = selectShownLevels(one.getSnapshot());
    const second = selectShownLevels(two.getSnapshot());
    expect(first?.[0]?.courses.map((c) => c.name)).toEqual(['1° Básico A', '1° Básico B']);
    expect(second?.[0]?.courses.map((c) => c.name)).toEqual(['1° Básico B', '1° Básico A']);
    expect(selectShownLevels(one.getSnapshot())).toBe(first);
    expect(selectShownLevels(two.getSnapshot())).toBe(second);
    one.stop();
    two.stop();
  });
  it('marks as cut off a course under half its addressed guardians reached, never one with nothing addressed', () => {
    expect([A, B, C].map(isCutOff)).toEqual([false, true, false]);
    expect([COURSE_1A, COURSE_1B, COURSE_1M].map(isCutOff)).toEqual([false, true, false]);
  });
});
