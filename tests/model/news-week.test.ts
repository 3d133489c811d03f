// The printable weekly wall (news/week.ts): the week holding `?date=` loads (a malformed date asks for this
// week), a failure keeps the server's Spanish refusal and offers Reintentar, Imprimir asks the edge for the
// print dialog only once the week is shown; previous and next are the weeks around `from`.
import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { describe, expect, it } from 'vitest';
import {
  excerpt,
  newsWeekMachine,
  selectNextWeekHref,
  selectPreviousWeekHref,
  selectWeekFailure,
  shiftDate,
  validDate,
  type NewsWeekSnapshot,
} from '../../src/machines/news/week';
import { defineModelTests, send, settle, type StepEnv } from './harness';
import { failure } from './fixtures';
import { newsWeek } from '../fixtures/news-admin';
import { NEWS_TEXTS } from '../../shared/news-contract';

const wk = (snapshot: AnyMachineSnapshot) => snapshot as unknown as NewsWeekSnapshot;
const WEEK = newsWeek();

/** What the page asks the server for, by its `?date=` (decision 0091): a real day as given, else this week (null). */
const ASKED: Record<string, string | null> = { '2026-03-04': '2026-03-04', '2026-02-30': null, none: null };
/** The date this path's actor was started with (set by `createActor`), so the invariants know what it should ask. */
let startInput: { date: string | null } = { date: null };

const emits = ({ from, event }: StepEnv): AnyEventObject[] =>
  event.type === 'week.print' && from.matches('shown') ? [{ type: 'print' }] : [];

defineModelTests({
  name: 'news-week',
  machine: newsWeekMachine,
  // The header and decision 0091: the week loads, then shows; a failure waits for Reintentar, which asks again.
  // Imprimir only asks the edge for the dialog: the page stays as it is.
  oracle: {
    initial: 'loading',
    targets: {
      loading: { 'xstate.done.actor.fetchNewsWeek': 'shown', 'xstate.error.actor.fetchNewsWeek': 'failed' },
      failed: { 'week.retry': 'loading' },
    },
  },
  traversal: {
    input: { date: '2026-03-04' },
    events: [{ type: 'week.retry' }, { type: 'week.print' }],
    internal: [
      { type: 'xstate.done.actor.fetchNewsWeek', output: WEEK },
      { type: 'xstate.error.actor.fetchNewsWeek', error: failure(403, 'news.device', NEWS_TEXTS.device) },
      { type: 'xstate.error.actor.fetchNewsWeek', error: failure(0, 'network', 'Failed to fetch') },
    ],
    limit: 500,
  },
  variants: [
    { name: 'no date', traversal: { input: { date: null } } },
    { name: 'a malformed date', traversal: { input: { date: '2026-02-30' } } },
  ],
  createActor: ({ fakes, path, inspect, machine }) => {
    startInput = path.input as { date: string | null };
    return createActor(machine.provide({ actors: { fetchNewsWeek: fakes.promise() } }), { input: path.input as never, inspect });
  },
  states: {
    loading: (s, env) => {
      // A real day is asked as given; none or a malformed one asks for this week (null).
      expect(['2026-03-04', null]).toContain(s.context.date);
      expect(env.fakes.inputOf('fetchNewsWeek')).toEqual({ date: s.context.date });
      expect(env.fakes.inputOf('fetchNewsWeek'), 'the week asked for').toEqual({ date: ASKED[startInput.date ?? 'none'] });
      // Each entry asks once (a retry asks again); an ignored event meanwhile lets the call run.
      const entered = env.event.type === 'xstate.init' || !env.from.matches('loading');
      expect(env.started, 'requests started').toEqual(entered ? ['fetchNewsWeek'] : []);
      expect(s.hasTag('busy')).toBe(true);
      expect(s.can({ type: 'week.print' })).toBe(false);
    },
    shown: (s, env) => {
      expect(env.fakes.isRunning('fetchNewsWeek')).toBe(false);
      expect(s.context.week).toEqual(WEEK);
      expect(selectPreviousWeekHref(wk(s))).toBe('/mural/news/week?date=2026-02-23');
      expect(selectNextWeekHref(wk(s))).toBe('/mural/news/week?date=2026-03-09');
      expect(s.can({ type: 'week.print' })).toBe(true);
    },
    failed: (s, env) => {
      expect(env.fakes.isRunning('fetchNewsWeek')).toBe(false);
      // The server's Spanish text is kept; the client's English is not (the page shows its own text).
      const error = (env.event as { error?: { code?: string } }).error;
      if (error) expect(selectWeekFailure(wk(s))).toBe(error.code === 'news.device' ? NEWS_TEXTS.device : null);
      expect(s.can({ type: 'week.retry' })).toBe(true);
      expect(s.can({ type: 'week.print' })).toBe(false);
    },
  },
  events: {
    'week.retry': send,
    'week.print': send,
    'xstate.done.actor.fetchNewsWeek': settle,
    'xstate.error.actor.fetchNewsWeek': settle,
  },
  emits,
});

describe('news-week dates and text', () => {
  it('asks for this week when the date is malformed', () => {
    for (const [date, asked] of [
      ['2026-03-04', '2026-03-04'],
      ['2026-02-30', null],
      [null, null],
    ] as const) {
      const actor = createActor(newsWeekMachine, { input: { date } });
      expect(actor.getSnapshot().context.date).toBe(asked);
    }
  });
  it('accepts only real calendar days', () => {
    expect(validDate('2026-03-04')).toBe('2026-03-04');
    expect(validDate('2024-02-29')).toBe('2024-02-29');
    for (const bad of ['2026-02-30', '2026-3-4', 'hoy', '', '2026-13-01', null]) expect(validDate(bad)).toBeNull();
  });
  it('moves by weeks across months and years', () => {
    expect(shiftDate('2026-03-02', -7)).toBe('2026-02-23');
    expect(shiftDate('2025-12-29', 7)).toBe('2026-01-05');
  });
  it('cuts long texts at a word with "…" and keeps short ones whole', () => {
    expect(excerpt('Hola  a\n todos')).toBe('Hola a todos');
    const long = 'palabra '.repeat(100);
    const cut = excerpt(long, 50);
    expect(cut.endsWith('palabra…')).toBe(true);
    expect([...cut].length).toBeLessThanOrEqual(51);
    expect(excerpt('ñandú '.repeat(3), 11)).toBe('ñandú ñandú…');
  });
});
