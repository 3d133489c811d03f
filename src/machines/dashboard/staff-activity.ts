// /dashboard/users (SPEC §2 "data dashboard (users)", §9 "activity percentage can exceed 100 %"):
// each staff member's messages, people reached, read rate and active days in a period, filtered by cargo,
// with the school's activity percentage (`GET /dashboard/users`), and the activity summary beside it, a
// child (dashboard/activity-summary.ts) that fails or crashes on its own. The period, the cargo and the sorted column
// are events and live in the address (replaced, not pushed: a link reproduces the view, Back leaves the
// screen); an address changed by the browser (Back, a link) is read back with `activity.address`. A new
// choice keeps the old table on screen until the new one comes, and aborts a request still under way.
import { assertEvent, assign, emit, raise, sendTo, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { fetchStaffActivity } from '../../services/dashboard/activity';
import type { PeriodKind, StaffActivity, StaffActivityRow } from '../../../shared/dashboard-contract';
import type { NavigateEvent } from '../app/effects';
import { activitySummaryMachine, type ActivitySummaryActor } from './activity-summary';
import { memoPerOwner } from '../app/memo';
import { childPanelRegion } from '../app/child-panel';
import { loadStates } from '../app/load-states';
import {
  periodAfterShift,
  periodPickerGuards,
  schoolToday,
  shownKey,
  type PeriodPicker,
  type SchoolClock,
  type SchoolToday,
} from './period-rules';
import {
  nextSort,
  sameQuery,
  sameSort,
  sortStaff,
  staffAddress,
  staffAddressOf,
  summaryYearOf,
  type StaffColumn,
  type StaffQuery,
  type StaffSort,
} from './staff-activity-rules';

export interface StaffActivityInput {
  /** The address's query string (`?period=month&month=2026-10&position_id=3`). */
  search: string;
  /** The instant and the school's zone and country: the newest periods offered are the school's. */
  clock: SchoolClock;
}

export interface StaffActivityContext {
  today: SchoolToday;
  query: StaffQuery;
  sort: StaffSort;
  activity: StaffActivity | null;
}

export type StaffActivityEvent =
  | { type: 'activity.periodKind'; kind: PeriodKind }
  | { type: 'activity.shift'; step: -1 | 1 }
  | { type: 'activity.position'; positionId: number | null }
  | { type: 'activity.sort'; column: StaffColumn }
  /** The address changed without a choice here (Back, Forward, a link). */
  | { type: 'activity.address'; search: string }
  | { type: 'activity.retry' }
  | { type: 'activity.restartSummary' }
  /** Raised when the period changed, for the summary's region. */
  | { type: 'activity.periodChanged' };

export type StaffActivityEmitted = NavigateEvent;

/** The table's period picker: the period asked, the one the answer names, the school's today. */
const pickerOf = (context: StaffActivityContext): PeriodPicker => ({
  asked: context.query.period,
  answered: context.activity?.period,
  today: context.today,
});

export const staffActivityMachine = setup({
  types: {
    input: {} as StaffActivityInput,
    context: {} as StaffActivityContext,
    events: {} as StaffActivityEvent,
    emitted: {} as StaffActivityEmitted,
    children: {} as { summary: 'summary' },
  },
  actors: { fetchActivity: fetchStaffActivity, summary: activitySummaryMachine },
  actions: {
    assignKind: assign({
      query: ({ context, event }) => {
        assertEvent(event, 'activity.periodKind');
        return { ...context.query, period: { kind: event.kind, key: null } };
      },
    }),
    assignShift: assign({
      query: ({ context, event }) => {
        assertEvent(event, 'activity.shift');
        return { ...context.query, period: periodAfterShift(pickerOf(context), event.step) };
      },
    }),
    assignPosition: assign({
      query: ({ context, event }) => {
        assertEvent(event, 'activity.position');
        return { ...context.query, positionId: event.positionId };
      },
    }),
    assignSort: assign({
      sort: ({ context, event }) => {
        assertEvent(event, 'activity.sort');
        return nextSort(context.sort, event.column);
      },
    }),
    assignAddress: assign(({ context, event }) => {
      assertEvent(event, 'activity.address');
      const read = staffAddressOf(event.search, context.today);
      return {
        query: sameQuery(read.query, context.query) ? context.query : read.query,
        sort: sameSort(read.sort, context.sort) ? context.sort : read.sort,
      };
    }),
    assignActivity: assign((_, activity: StaffActivity) => ({ activity })),
    /** The choice goes in the address, replacing the entry. */
    showInAddress: emit(({ context }) => ({ type: 'navigate' as const, to: staffAddress(context), replace: true })),
    announcePeriod: raise({ type: 'activity.periodChanged' }),
    followPeriod: sendTo('summary', ({ context }) => ({ type: 'summary.year' as const, year: summaryYearOf(context.query.period) })),
  },
  guards: {
    ...periodPickerGuards,
    isOtherPosition: ({ context, event }) => {
      assertEvent(event, 'activity.position');
      return event.positionId !== context.query.positionId;
    },
    isOtherQueryInAddress: ({ context, event }) => {
      assertEvent(event, 'activity.address');
      return !sameQuery(staffAddressOf(event.search, context.today).query, context.query);
    },
    isOtherSortInAddress: ({ context, event }) => {
      assertEvent(event, 'activity.address');
      return !sameSort(staffAddressOf(event.search, context.today).sort, context.sort);
    },
  },
}).createMachine({
  id: 'staffActivity',
  type: 'parallel',
  context: ({ input }) => {
    const today = schoolToday(input.clock);
    return { today, ...staffAddressOf(input.search, today), activity: null };
  },
  on: {
    'activity.sort': { actions: ['assignSort', 'showInAddress'] },
  },
  states: {
    table: {
      initial: 'loading',
      // Targets inside this region, never `reenter`: re-entering the region would exit the whole parallel
      // state, restarting the summary beside it (or reviving a crashed one).
      on: {
        'activity.periodKind': {
          guard: { type: 'isOtherKind', params: ({ context, event }) => ({ ...pickerOf(context), kind: event.kind }) },
          target: '.loading',
          actions: ['assignKind', 'showInAddress', 'announcePeriod'],
        },
        'activity.shift': {
          guard: { type: 'canShift', params: ({ context, event }) => ({ ...pickerOf(context), step: event.step }) },
          target: '.loading',
          actions: ['assignShift', 'showInAddress', 'announcePeriod'],
        },
        'activity.position': { guard: 'isOtherPosition', target: '.loading', actions: ['assignPosition', 'showInAddress'] },
        'activity.address': [
          { guard: 'isOtherQueryInAddress', target: '.loading', actions: ['assignAddress', 'announcePeriod'] },
          { guard: 'isOtherSortInAddress', actions: 'assignAddress' },
        ],
      },
      states: {
        // A failure keeps the last table on screen, said to be out of date, with Reintentar.
        ...loadStates<StaffActivityContext, StaffActivityEvent>()(
          'fetchActivity',
          ({ context }) => context.query,
          'assignActivity',
          'activity.retry',
        ),
      },
    },
    summary: childPanelRegion<StaffActivityContext, StaffActivityEvent>()(
      'summary',
      ({ context }) => ({ year: summaryYearOf(context.query.period) }),
      'activity.restartSummary',
      { 'activity.periodChanged': { actions: 'followPeriod' } },
    ),
  },
});

export type StaffActivitySnapshot = SnapshotFrom<typeof staffActivityMachine>;
export type StaffActivityActor = ActorRefFrom<typeof staffActivityMachine>;

// Selectors: primitives, or references that keep their identity until their value changes.
export const selectActivity = (s: StaffActivitySnapshot): StaffActivity | null => s.context.activity;
export const selectLoading = (s: StaffActivitySnapshot): boolean => s.hasTag('busy');
export const selectFailed = (s: StaffActivitySnapshot): boolean => s.matches({ table: 'failed' });
export const selectPositions = (s: StaffActivitySnapshot): StaffActivity['positions'] | null => s.context.activity?.positions ?? null;
export const selectActivityPercent = (s: StaffActivitySnapshot): number | null => s.context.activity?.activity_percent ?? null;
export const selectActiveStaff = (s: StaffActivitySnapshot): number => s.context.activity?.active_staff ?? 0;
export const selectStaffOnRegister = (s: StaffActivitySnapshot): number => s.context.activity?.staff_on_register ?? 0;
export const selectPeriodKind = (s: StaffActivitySnapshot): PeriodKind => s.context.query.period.kind;
export const selectPeriodKey = (s: StaffActivitySnapshot): string | null => shownKey(s.context.query.period, s.context.activity?.period);
export const selectPositionId = (s: StaffActivitySnapshot): number | null => s.context.query.positionId;
export const selectSortColumn = (s: StaffActivitySnapshot): StaffColumn => s.context.sort.column;
export const selectSortDirection = (s: StaffActivitySnapshot): 'asc' | 'desc' => s.context.sort.direction;
export const selectCanPrevious = (s: StaffActivitySnapshot): boolean => s.can({ type: 'activity.shift', step: -1 });
export const selectCanNext = (s: StaffActivitySnapshot): boolean => s.can({ type: 'activity.shift', step: 1 });
export const selectSummaryActor = (s: StaffActivitySnapshot): ActivitySummaryActor | undefined => s.children.summary;
export const selectSummaryCrashed = (s: StaffActivitySnapshot): boolean => s.matches({ summary: 'crashed' });

/** The rows in the chosen order, remembered per fetched rows array (each actor's own: app/memo.ts). */
const sortedRows = memoPerOwner((rows: readonly StaffActivityRow[], sort: StaffSort) => sortStaff(rows, sort));
/** The rows in the chosen order; the same array until this actor's rows or order change. */
export const selectSortedRows = (s: StaffActivitySnapshot): StaffActivityRow[] | null => {
  const rows = s.context.activity?.rows;
  return rows ? sortedRows(rows, s.context.sort) : null;
};
