// The quota screen's usage chart (settings/quota-usage.ts): the first load asks with no year (the server's, this
// month's), a view, a calendar or a year asks again with it, the old bars stay while it loads, and a
// choice made while loading asks anew. Years go back YEARS_BACK from this one, never forward, only in the
// monthly view; another calendar forgets the year (its "this year" may differ). A failure keeps the last
// bars and offers Reintentar; a saved limit reloads.
import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import {
  quotaUsageMachine,
  selectCanNextYear,
  selectCanPreviousYear,
  selectNextYear,
  selectPreviousYear,
  selectUsage,
  selectUsageFailed,
  selectUsageLoading,
  selectYear,
  YEARS_BACK,
  type QuotaUsageSnapshot,
} from '../../src/machines/settings/quota-usage';
import { defineModelTests, send, settle, type StepEnv } from './harness';
import { failure } from './fixtures';
import { quotaUsage } from '../fixtures/quota';

const snap = (s: AnyMachineSnapshot) => s as unknown as QuotaUsageSnapshot;

/** What the server answers is what was asked (its default year 2026). */
const answerFor = (s: AnyMachineSnapshot) => {
  const q = s.context.query;
  return quotaUsage(q.view, q.view === 'annual' ? 2026 : (q.year ?? 2026), q.calendar);
};

const EVENTS: AnyEventObject[] = [
  { type: 'usage.view', view: 'annual' },
  { type: 'usage.view', view: 'monthly' },
  { type: 'usage.calendar', calendar: 'school' },
  { type: 'usage.calendar', calendar: 'civil' },
  { type: 'usage.year', year: 2025 },
  { type: 'usage.year', year: 2026 },
  // Next year, and past the last YEARS_BACK: never.
  { type: 'usage.year', year: 2027 },
  { type: 'usage.year', year: 2026 - YEARS_BACK - 1 },
  { type: 'usage.retry' },
  { type: 'usage.reload' },
];

/** Every answer a path can get; each is offered only where it answers what was asked (answerFor). */
const ANSWERS = [
  ...Array.from({ length: YEARS_BACK + 1 }, (_, i) => quotaUsage('monthly', 2026 - i, 'civil')),
  quotaUsage('monthly', 2026, 'school'),
  quotaUsage('annual', 2026, 'civil'),
  quotaUsage('annual', 2026, 'school'),
];
const INTERNAL: AnyEventObject[] = [
  ...ANSWERS.map((output) => ({ type: 'xstate.done.actor.fetchUsage', output })),
  { type: 'xstate.error.actor.fetchUsage', error: failure(500, 'server.error') },
];

/** The oracle of the request a step starts (or null: none). */
function asked(env: StepEnv): object | null {
  const { from, event } = env;
  const q = from.context.query;
  const view = q.view as string;
  const latest = from.context.latestYear as number | null;
  const shown = q.year ?? latest;
  switch (event.type) {
    case 'usage.view':
      return event.view === view ? null : { ...q, view: event.view, year: event.view === 'annual' ? null : q.year };
    case 'usage.calendar':
      return event.calendar === q.calendar ? null : { view, calendar: event.calendar, year: null };
    case 'usage.year': {
      const year = event.year as number;
      const ok = view === 'monthly' && latest !== null && year <= latest && year >= latest - YEARS_BACK && year !== shown;
      return ok ? { ...q, year } : null;
    }
    case 'usage.retry':
      return from.matches('failed') ? { ...q, year: view === 'annual' ? null : q.year } : null;
    // After a save the bars are asked again, a request still out too: it may predate the new limit.
    case 'usage.reload':
      return { ...q, year: view === 'annual' ? null : q.year };
    default:
      return null;
  }
}

defineModelTests({
  name: 'quota-usage',
  machine: quotaUsageMachine,
  // The header and decision 0102: the chart loads, shows or fails (Reintentar). A view, a calendar or a year
  // it can show that is not the one shown asks again from wherever it is, restarting a request still
  // out; a saved limit asks again too (a request already out may not have it).
  oracle: {
    initial: 'loading',
    targets: {
      '*': {
        'usage.view': ({ event, context, stay }) => (event.view === context.query.view ? stay : 'loading'),
        'usage.calendar': ({ event, context, stay }) => (event.calendar === context.query.calendar ? stay : 'loading'),
        // Only the monthly view has years; it goes from this year (the one the server answered for "no
        // year", so unknown before its first monthly answer) back YEARS_BACK.
        'usage.year': ({ event, context, stay }) => {
          const thisYear = context.latestYear;
          if (context.query.view !== 'monthly' || thisYear === null) return stay;
          const shown = context.query.year ?? thisYear;
          return event.year <= thisYear && event.year >= thisYear - YEARS_BACK && event.year !== shown ? 'loading' : stay;
        },
      },
      loading: { 'xstate.done.actor.fetchUsage': 'shown', 'xstate.error.actor.fetchUsage': 'failed', 'usage.reload': 'loading' },
      shown: { 'usage.reload': 'loading' },
      failed: { 'usage.retry': 'loading', 'usage.reload': 'loading' },
    },
  },
  traversal: {
    events: EVENTS,
    internal: INTERNAL,
    // A year is chosen only on the monthly civil calendar; retries and reloads from the first state.
    filterEvents: (s, event) => {
      if (event.type === 'xstate.done.actor.fetchUsage') {
        const expected = answerFor(s);
        const output = (event as AnyEventObject).output as typeof expected;
        return output.view === expected.view && output.year === expected.year && output.calendar === expected.calendar;
      }
      if (event.type === 'usage.year')
        return s.context.query.view === 'monthly' && s.context.query.calendar === 'civil' && !s.matches('loading');
      return true;
    },
    serializeState: (s) =>
      JSON.stringify([
        s.value,
        s.context.query,
        s.context.latestYear,
        s.context.usage && [s.context.usage.view, s.context.usage.year, s.context.usage.calendar],
      ]),
    limit: 800,
    input: {},
  },
  createActor: ({ fakes, path, inspect, machine }) =>
    createActor(machine.provide({ actors: { fetchUsage: fakes.promise() } }), { input: path.input as object, inspect }),
  states: {
    loading: (snapshot, env) => {
      expect(selectUsageLoading(snap(snapshot))).toBe(true);
      const q = snapshot.context.query;
      expect(env.fakes.inputOf('fetchUsage')).toEqual({ ...q, year: q.view === 'annual' ? null : q.year });
      // The request just started is the oracle's; a step that starts none leaves the one running.
      const expected = env.event.type === 'xstate.init' ? { view: 'monthly', calendar: 'civil', year: null } : asked(env);
      if (expected) expect(env.fakes.calls.at(-1)?.input).toEqual(expected);
      // Exactly the steps that ask start a request, once.
      if (env.event.type !== 'xstate.init') expect(env.started, 'requests started').toEqual(expected ? ['fetchUsage'] : []);
      // The old bars stay on screen meanwhile.
      expect(snapshot.context.usage === null).toBe(env.from.context.usage === null);
    },
    shown: (snapshot, env) => {
      expect(selectUsageLoading(snap(snapshot))).toBe(false);
      expect(selectUsageFailed(snap(snapshot))).toBe(false);
      expect(selectUsage(snap(snapshot))).not.toBeNull();
      expect(env.fakes.isRunning('fetchUsage')).toBe(false);
      const year = selectYear(snap(snapshot));
      const latest = snapshot.context.latestYear as number | null;
      // Never past this year, never more than YEARS_BACK back; arrows only in the monthly view.
      if (snapshot.context.query.view === 'annual') {
        expect([selectCanPreviousYear(snap(snapshot)), selectCanNextYear(snap(snapshot))]).toEqual([false, false]);
        expect([selectPreviousYear(snap(snapshot)), selectNextYear(snap(snapshot))]).toEqual([null, null]);
      } else if (latest !== null && year !== null) {
        expect(selectCanNextYear(snap(snapshot))).toBe(year < latest);
        expect(selectCanPreviousYear(snap(snapshot))).toBe(year > latest - YEARS_BACK);
        // The year each arrow asks for (what the view sends).
        expect(selectNextYear(snap(snapshot))).toBe(year < latest ? year + 1 : null);
        expect(selectPreviousYear(snap(snapshot))).toBe(year > latest - YEARS_BACK ? year - 1 : null);
      }
    },
    failed: (snapshot, env) => {
      expect(selectUsageFailed(snap(snapshot))).toBe(true);
      expect(env.fakes.isRunning('fetchUsage')).toBe(false);
      expect(snapshot.can({ type: 'usage.retry' })).toBe(true);
      // The last bars are kept.
      if (env.from.context.usage !== null) expect(snapshot.context.usage).not.toBeNull();
    },
  },
  events: {
    'usage.view': send,
    'usage.calendar': send,
    'usage.year': send,
    'usage.retry': send,
    'usage.reload': send,
    'xstate.done.actor.fetchUsage': settle,
    'xstate.error.actor.fetchUsage': settle,
  },
  emits: () => [],
});
