// The activity summary (dashboard/activity-summary.ts, child of dashboard/staff-activity.ts): it asks for the year it was given
// (null: the server's current school year), a new year asks again and keeps the old figures on screen
// meanwhile, the same year asks nothing, a failure keeps the last figures and offers Reintentar.
import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import {
  activitySummaryMachine,
  selectSummary,
  selectSummaryFailed,
  selectSummaryLoading,
  type ActivitySummarySnapshot,
} from '../../src/machines/dashboard/activity-summary';
import { defineModelTests, send, settle } from './harness';
import { failure } from './fixtures';
import { activitySummary } from '../fixtures/dashboard-activity';

const snap = (s: AnyMachineSnapshot) => s as unknown as ActivitySummarySnapshot;

const EVENTS: AnyEventObject[] = [{ type: 'summary.year', year: '2025' }, { type: 'summary.year', year: null }, { type: 'summary.retry' }];
/** The year on screen after these events, in the test's words: the input's (null), then the last one chosen. */
const yearAfter = (history: readonly AnyEventObject[]): string | null =>
  history.reduce<string | null>((year, event) => (event.type === 'summary.year' ? (event.year as string | null) : year), null);

const INTERNAL: AnyEventObject[] = [
  { type: 'xstate.done.actor.fetchSummary', output: activitySummary('2026') },
  { type: 'xstate.done.actor.fetchSummary', output: activitySummary('2025') },
  { type: 'xstate.error.actor.fetchSummary', error: failure(500, 'server.error') },
];

defineModelTests({
  name: 'activity-summary',
  machine: activitySummaryMachine,
  // The header and SPEC §2: the summary loads its year, shows it or fails with Reintentar; another year
  // asks again from wherever it is (restarting a request still out), the same year asks nothing.
  oracle: {
    initial: 'loading',
    targets: {
      '*': { 'summary.year': ({ event, context, stay }) => (event.year === context.year ? stay : 'loading') },
      loading: { 'xstate.done.actor.fetchSummary': 'shown', 'xstate.error.actor.fetchSummary': 'failed' },
      failed: { 'summary.retry': 'loading' },
    },
  },
  traversal: {
    events: EVENTS,
    internal: INTERNAL,
    // The server answers the year asked (null: its current one, 2026).
    filterEvents: (s, event) => {
      if (event.type !== 'xstate.done.actor.fetchSummary') return true;
      const output = (event as AnyEventObject).output as ReturnType<typeof activitySummary>;
      return output.school_year.key === ((s.context.year as string | null) ?? '2026');
    },
    serializeState: (s) => JSON.stringify([s.value, s.context.year, s.context.summary?.school_year.key ?? null]),
    limit: 200,
    input: { year: null },
  },
  createActor: ({ fakes, path, inspect, machine }) =>
    createActor(machine.provide({ actors: { fetchSummary: fakes.promise() } }), { input: path.input as never, inspect }),
  states: {
    loading: (snapshot, env) => {
      expect(selectSummaryLoading(snap(snapshot))).toBe(true);
      expect(env.fakes.inputOf('fetchSummary')).toEqual({ year: snapshot.context.year });
      // The figures on screen stay until the new ones come.
      expect(snapshot.context.summary).toEqual(env.event.type === 'xstate.init' ? null : env.from.context.summary);
      if (env.event.type === 'summary.year') expect(snapshot.context.year).toBe(env.event.year);
      // The year asked is the one last chosen; each entry (a new year while one is out too) asks once.
      expect(env.fakes.inputOf('fetchSummary')).toEqual({ year: yearAfter(env.history) });
      const asks = !env.from.matches('loading') || (env.event.type === 'summary.year' && env.event.year !== env.from.context.year);
      if (env.event.type !== 'xstate.init') expect(env.started, 'requests started').toEqual(asks ? ['fetchSummary'] : []);
    },
    shown: (snapshot, env) => {
      expect(selectSummaryLoading(snap(snapshot))).toBe(false);
      expect(env.fakes.isRunning('fetchSummary')).toBe(false);
      expect(selectSummary(snap(snapshot))?.school_year.key).toBe(snapshot.context.year ?? '2026');
      expect(selectSummary(snap(snapshot))?.school_year.key).toBe(yearAfter(env.history) ?? '2026');
      expect(snapshot.can({ type: 'summary.retry' })).toBe(false);
    },
    failed: (snapshot, env) => {
      expect(selectSummaryFailed(snap(snapshot))).toBe(true);
      expect(env.fakes.isRunning('fetchSummary')).toBe(false);
      expect(snapshot.can({ type: 'summary.retry' })).toBe(true);
      expect(selectSummary(snap(snapshot))).toEqual(env.from.context.summary);
    },
  },
  events: {
    'summary.year': send,
    'summary.retry': send,
    'xstate.done.actor.fetchSummary': settle,
    'xstate.error.actor.fetchSummary': settle,
  },
  emits: () => [],
});
