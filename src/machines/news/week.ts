// /mural/news/week?date=YYYY-MM-DD: the printable weekly wall, one A4 page for the school's
// entrance noticeboard. Loads the week holding `date` (absent or malformed: this week in the school's zone,
// the server's call); the previous and next weeks are addresses (selectors), so Back goes back a week;
// "Imprimir" asks the edge for the print dialog. Failures say so in place with Reintentar.
import { assign, emit, setup, type SnapshotFrom } from 'xstate';
import type { NewsWeek } from '../../../shared/news-contract';
import { fetchNewsWeek } from '../../services/news/admin';
import { serverMessage, toApiFailure, type ApiFailure } from '../../services/http/client';
import type { Effect } from '../app/effects';

export interface NewsWeekInput {
  /** The `?date=` as given; null when absent. */
  date: string | null;
}

export interface NewsWeekContext {
  date: string | null;
  week: NewsWeek | null;
  /** The server's Spanish text of a refusal (403 device), else null (a generic text is shown). */
  failure: string | null;
}

export type NewsWeekEvent = { type: 'week.retry' } | { type: 'week.print' };

/** A real calendar day written YYYY-MM-DD, else null. */
export function validDate(value: string | null): string | null {
  if (value === null || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const ms = Date.parse(`${value}T00:00:00Z`);
  return Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value ? null : value;
}

/** The YYYY-MM-DD `days` after `date` (calendar days; no zone involved). */
export function shiftDate(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

const WEEK_PATH = '/mural/news/week';
const weekHref = (date: string) => `${WEEK_PATH}?date=${date}`;

export const newsWeekMachine = setup({
  types: {
    context: {} as NewsWeekContext,
    events: {} as NewsWeekEvent,
    input: {} as NewsWeekInput,
    emitted: {} as Effect,
  },
  actors: { fetchNewsWeek },
  actions: {
    assignWeek: assign((_, week: NewsWeek) => ({ week, failure: null })),
    assignFailure: assign((_, failure: ApiFailure) => ({ failure: serverMessage(failure) })),
    print: emit({ type: 'print' }),
  },
}).createMachine({
  id: 'newsWeek',
  initial: 'loading',
  context: ({ input }) => ({ date: validDate(input.date), week: null, failure: null }),
  states: {
    loading: {
      tags: 'busy',
      invoke: {
        id: 'fetchNewsWeek',
        src: 'fetchNewsWeek',
        input: ({ context }) => ({ date: context.date }),
        onDone: { target: 'shown', actions: { type: 'assignWeek', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'assignFailure', params: ({ event }) => toApiFailure(event.error) } },
      },
    },
    shown: {
      on: { 'week.print': { actions: 'print' } },
    },
    failed: {
      on: { 'week.retry': { target: 'loading' } },
    },
  },
});

export type NewsWeekSnapshot = SnapshotFrom<typeof newsWeekMachine>;

export const selectWeek = (s: NewsWeekSnapshot): NewsWeek | null => s.context.week;
export const selectWeekLoading = (s: NewsWeekSnapshot): boolean => s.matches('loading');
export const selectWeekFailed = (s: NewsWeekSnapshot): boolean => s.matches('failed');
export const selectWeekFailure = (s: NewsWeekSnapshot): string | null => s.context.failure;
export const selectPreviousWeekHref = (s: NewsWeekSnapshot): string | null =>
  s.context.week ? weekHref(shiftDate(s.context.week.from, -7)) : null;
export const selectNextWeekHref = (s: NewsWeekSnapshot): string | null =>
  s.context.week ? weekHref(shiftDate(s.context.week.from, 7)) : null;

/** Posts on the printed page (two columns of four, under the heading and above the QR code). */
export const WEEK_PRINT_MAX = 8;
/** Characters of a post's text on the printed page before it is cut. */
const WEEK_EXCERPT_MAX = 260;

/** The text cut to `max` characters (as people count them) at a word, ending in "…"; whole when short. */
export function excerpt(text: string, max = WEEK_EXCERPT_MAX): string {
  const plain = text.replace(/\s+/g, ' ').trim();
  const chars = [...plain];
  if (chars.length <= max) return plain;
  const cut = chars.slice(0, max).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s.,;:!?¡¿-]+$/u, '')}…`;
}
