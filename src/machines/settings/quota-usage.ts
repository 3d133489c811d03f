// The quota screen's usage chart (child of settings/quota.ts): which view (monthly bars of a year, or the
// last years), which calendar (January–December, or the school year: Chile March–December, Mexico
// August–July) and which year, and the bars and this month's top senders and courses the server answers.
// A new choice while a request is under way asks again with it; the old bars stay on screen meanwhile.
import { assertEvent, assign, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { fetchQuotaUsage, type UsageQuery } from '../../services/settings/quota';
import type { QuotaUsage, UsageCalendar, UsageView } from '../../../shared/quota-contract';

/** How many years back the monthly view goes (the annual view shows the last 5). */
export const YEARS_BACK = 4;

export interface QuotaUsageInput {
  view?: UsageView;
  calendar?: UsageCalendar;
}

export interface QuotaUsageContext {
  query: UsageQuery;
  usage: QuotaUsage | null;
  /** The year holding this month in the calendar shown (the server's default), once known. */
  latestYear: number | null;
}

export type QuotaUsageEvent =
  | { type: 'usage.view'; view: UsageView }
  | { type: 'usage.calendar'; calendar: UsageCalendar }
  | { type: 'usage.year'; year: number }
  | { type: 'usage.retry' }
  | { type: 'usage.reload' };

/** The year the monthly view shows (the server's default until one is chosen). */
const shownYear = (context: QuotaUsageContext): number | null => context.query.year ?? context.latestYear;

/** What is asked: the annual view takes no year. */
const usageRequest = (query: UsageQuery): UsageQuery => (query.view === 'annual' ? { ...query, year: null } : query);

export const quotaUsageMachine = setup({
  types: {
    input: {} as QuotaUsageInput,
    context: {} as QuotaUsageContext,
    events: {} as QuotaUsageEvent,
  },
  actors: { fetchUsage: fetchQuotaUsage },
  actions: {
    assignView: assign({
      query: ({ context, event }) => {
        assertEvent(event, 'usage.view');
        return { ...context.query, view: event.view };
      },
    }),
    /** Another calendar: its "this year" may differ (Mexico's school year starts in August), learnt anew. */
    assignCalendar: assign(({ context, event }) => {
      assertEvent(event, 'usage.calendar');
      return { query: { ...context.query, calendar: event.calendar, year: null }, latestYear: null };
    }),
    assignYear: assign({
      query: ({ context, event }) => {
        assertEvent(event, 'usage.year');
        return { ...context.query, year: event.year };
      },
    }),
    assignUsage: assign(({ context }, usage: QuotaUsage) => {
      // The server's default year (asked with none) is this month's: the newest the chart goes to.
      const asked = usageRequest(context.query);
      return { usage, latestYear: asked.year === null && usage.view === 'monthly' ? usage.year : context.latestYear };
    }),
  },
  guards: {
    isOtherView: ({ context, event }) => {
      assertEvent(event, 'usage.view');
      return event.view !== context.query.view;
    },
    isOtherCalendar: ({ context, event }) => {
      assertEvent(event, 'usage.calendar');
      return event.calendar !== context.query.calendar;
    },
    /** Monthly view, a year known, within the last YEARS_BACK years, not the one shown. */
    canShowYear: ({ context, event }) => {
      assertEvent(event, 'usage.year');
      const latest = context.latestYear;
      return (
        context.query.view === 'monthly' &&
        latest !== null &&
        event.year <= latest &&
        event.year >= latest - YEARS_BACK &&
        event.year !== shownYear(context)
      );
    },
  },
}).createMachine({
  id: 'quotaUsage',
  context: ({ input }) => ({
    query: { view: input.view ?? 'monthly', calendar: input.calendar ?? 'civil', year: null },
    usage: null,
    latestYear: null,
  }),
  initial: 'loading',
  on: {
    'usage.view': { guard: 'isOtherView', target: '.loading', reenter: true, actions: 'assignView' },
    'usage.calendar': { guard: 'isOtherCalendar', target: '.loading', reenter: true, actions: 'assignCalendar' },
    'usage.year': { guard: 'canShowYear', target: '.loading', reenter: true, actions: 'assignYear' },
  },
  states: {
    loading: {
      tags: 'busy',
      invoke: {
        id: 'fetchUsage',
        src: 'fetchUsage',
        input: ({ context }) => usageRequest(context.query),
        onDone: { target: 'shown', actions: { type: 'assignUsage', params: ({ event }) => event.output } },
        onError: { target: 'failed' },
      },
      // A save while the bars are on their way: the request out may predate the new limit, so ask again.
      on: { 'usage.reload': { target: 'loading', reenter: true } },
    },
    shown: {
      // The limit changed (a save): the bars are asked for again.
      on: { 'usage.reload': { target: 'loading' } },
    },
    failed: {
      on: { 'usage.retry': { target: 'loading' }, 'usage.reload': { target: 'loading' } },
    },
  },
});

export type QuotaUsageSnapshot = SnapshotFrom<typeof quotaUsageMachine>;
export type QuotaUsageActor = ActorRefFrom<typeof quotaUsageMachine>;

export const selectUsage = (s: QuotaUsageSnapshot): QuotaUsage | null => s.context.usage;
export const selectUsageLoading = (s: QuotaUsageSnapshot): boolean => s.hasTag('busy');
export const selectUsageFailed = (s: QuotaUsageSnapshot): boolean => s.matches('failed');
export const selectView = (s: QuotaUsageSnapshot): UsageView => s.context.query.view;
export const selectCalendar = (s: QuotaUsageSnapshot): UsageCalendar => s.context.query.calendar;
/** The year chosen or the server's default; null before the first answer. */
export const selectYear = (s: QuotaUsageSnapshot): number | null => shownYear(s.context);
/** The year ‹ / › go to, or null where the chart goes no further (the machine's guard says). */
const yearAt = (s: QuotaUsageSnapshot, step: -1 | 1): number | null => {
  const year = shownYear(s.context);
  return year !== null && s.can({ type: 'usage.year', year: year + step }) ? year + step : null;
};
export const selectPreviousYear = (s: QuotaUsageSnapshot): number | null => yearAt(s, -1);
export const selectNextYear = (s: QuotaUsageSnapshot): number | null => yearAt(s, 1);
export const selectCanPreviousYear = (s: QuotaUsageSnapshot): boolean => selectPreviousYear(s) !== null;
export const selectCanNextYear = (s: QuotaUsageSnapshot): boolean => selectNextYear(s) !== null;
