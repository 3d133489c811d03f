// The activity summary (SPEC §2): messages per month of a school year, this month's top staff
// and courses, and the school's device mix for the legend. A child of dashboard/staff-activity.ts, so a failing
// summary never blanks the staff table beside it. It shows the school year the page's period names (the
// server's current one otherwise); a new year keeps the old figures on screen until the new ones come.
import { assertEvent, assign, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { fetchActivitySummary } from '../../services/dashboard/activity';
import type { ActivitySummary } from '../../../shared/dashboard-contract';
import { loadStates } from '../app/load-states';

export interface ActivitySummaryInput {
  /** A school year's start ('YYYY'), or null for the server's current one. */
  year: string | null;
}

export interface ActivitySummaryContext {
  year: string | null;
  summary: ActivitySummary | null;
}

export type ActivitySummaryEvent = { type: 'summary.year'; year: string | null } | { type: 'summary.retry' };

export const activitySummaryMachine = setup({
  types: {
    input: {} as ActivitySummaryInput,
    context: {} as ActivitySummaryContext,
    events: {} as ActivitySummaryEvent,
  },
  actors: { fetchSummary: fetchActivitySummary },
  actions: {
    assignYear: assign({
      year: ({ event }) => {
        assertEvent(event, 'summary.year');
        return event.year;
      },
    }),
    assignSummary: assign((_, summary: ActivitySummary) => ({ summary })),
  },
  guards: {
    isOtherYear: ({ context, event }) => {
      assertEvent(event, 'summary.year');
      return event.year !== context.year;
    },
  },
}).createMachine({
  id: 'activitySummary',
  context: ({ input }) => ({ year: input.year, summary: null }),
  initial: 'loading',
  on: {
    'summary.year': { guard: 'isOtherYear', target: '.loading', reenter: true, actions: 'assignYear' },
  },
  states: {
    ...loadStates<ActivitySummaryContext, ActivitySummaryEvent>()(
      'fetchSummary',
      ({ context }) => ({ year: context.year }),
      'assignSummary',
      'summary.retry',
    ),
  },
});

export type ActivitySummarySnapshot = SnapshotFrom<typeof activitySummaryMachine>;
export type ActivitySummaryActor = ActorRefFrom<typeof activitySummaryMachine>;

export const selectSummary = (s: ActivitySummarySnapshot): ActivitySummary | null => s.context.summary;
export const selectSummaryLoading = (s: ActivitySummarySnapshot): boolean => s.hasTag('busy');
export const selectSummaryFailed = (s: ActivitySummarySnapshot): boolean => s.matches('failed');
