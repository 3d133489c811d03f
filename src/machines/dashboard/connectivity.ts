// /dashboard/connectivity (SPEC §2, §3 device status): the school's guardians, what each channel
// reaches, the device mix and "cobertura efectiva", then one table per level with its courses. The figures
// are one request (`GET /dashboard/connectivity`), so the page is one panel: loading, shown or failed with
// Reintentar (the figures already shown stay while it asks again). How the table is sorted (the order
// chosen, or the "Cobertura" header pressed) and which level it shows are events; the rows themselves are
// derived in selectors (rules in dashboard/connectivity-rules.ts), never stored.
import { assertEvent, assign, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { fetchConnectivity } from '../../services/dashboard/connectivity';
import type { Connectivity } from '../../../shared/dashboard-contract';
import { CONNECTIVITY_SORTS, nextCoverageSort, shownLevels, type ConnectivitySort, type ShownLevel } from './connectivity-rules';
import { memoPerOwner } from '../app/memo';

export { CONNECTIVITY_SORTS, CUT_OFF_SHARE, isCutOff } from './connectivity-rules';
export type { ConnectivitySort, ShownLevel } from './connectivity-rules';

export interface ConnectivityContext {
  data: Connectivity | null;
  sort: ConnectivitySort;
  /** The level shown alone, or null: all. */
  level: number | null;
}

export type ConnectivityEvent =
  | { type: 'connectivity.sort'; sort: ConnectivitySort }
  /** The "Cobertura" header pressed: least covered first, then the other way. */
  | { type: 'connectivity.sortByCoverage' }
  | { type: 'connectivity.level'; level: number | null }
  | { type: 'connectivity.retry' }
  | { type: 'connectivity.reload' };

export const connectivityMachine = setup({
  types: {
    context: {} as ConnectivityContext,
    events: {} as ConnectivityEvent,
  },
  actors: { fetchConnectivity },
  actions: {
    assignData: assign(({ context }, data: Connectivity) => {
      // A level that is gone from the new figures is no longer a filter.
      const level = context.level !== null && data.levels.some((l) => l.id === context.level) ? context.level : null;
      return { data, level };
    }),
    assignSort: assign({
      sort: ({ event }) => {
        assertEvent(event, 'connectivity.sort');
        return event.sort;
      },
    }),
    assignCoverageSort: assign({ sort: ({ context }) => nextCoverageSort(context.sort) }),
    assignLevel: assign({
      level: ({ event }) => {
        assertEvent(event, 'connectivity.level');
        return event.level;
      },
    }),
  },
  guards: {
    isOtherSort: ({ context, event }) => {
      assertEvent(event, 'connectivity.sort');
      return event.sort !== context.sort && CONNECTIVITY_SORTS.includes(event.sort);
    },
    /** All levels, or one the figures have; not the one shown. */
    isKnownLevel: ({ context, event }) => {
      assertEvent(event, 'connectivity.level');
      if (event.level === context.level) return false;
      return event.level === null || (context.data?.levels.some((l) => l.id === event.level) ?? false);
    },
  },
}).createMachine({
  id: 'connectivity',
  context: { data: null, sort: 'school', level: null },
  initial: 'loading',
  on: {
    'connectivity.sort': { guard: 'isOtherSort', actions: 'assignSort' },
    'connectivity.sortByCoverage': { actions: 'assignCoverageSort' },
    'connectivity.level': { guard: 'isKnownLevel', actions: 'assignLevel' },
  },
  states: {
    loading: {
      tags: 'busy',
      invoke: {
        id: 'fetchConnectivity',
        src: 'fetchConnectivity',
        onDone: { target: 'shown', actions: { type: 'assignData', params: ({ event }) => event.output } },
        onError: { target: 'failed' },
      },
    },
    shown: {
      on: { 'connectivity.reload': { target: 'loading' } },
    },
    failed: {
      on: { 'connectivity.retry': { target: 'loading' } },
    },
  },
});

export type ConnectivitySnapshot = SnapshotFrom<typeof connectivityMachine>;
export type ConnectivityActor = ActorRefFrom<typeof connectivityMachine>;

// Selectors: primitives, or references that keep their identity until their value changes.
export const selectData = (s: ConnectivitySnapshot): Connectivity | null => s.context.data;
export const selectLoading = (s: ConnectivitySnapshot): boolean => s.hasTag('busy');
export const selectFailed = (s: ConnectivitySnapshot): boolean => s.matches('failed');
export const selectSort = (s: ConnectivitySnapshot): ConnectivitySort => s.context.sort;
export const selectLevel = (s: ConnectivitySnapshot): number | null => s.context.level;
export const selectCanReload = (s: ConnectivitySnapshot): boolean => s.can({ type: 'connectivity.reload' });

/** The table's rows, remembered per figures (each actor's own answer): the same array while nothing changes. */
const shownOf = memoPerOwner((data: Connectivity, level: number | null, sort: ConnectivitySort) => shownLevels(data, level, sort));

/** The levels the table shows with their courses in order (shownLevels), null before the figures. */
export function selectShownLevels(s: ConnectivitySnapshot): ShownLevel[] | null {
  const { context } = s;
  return context.data ? shownOf(context.data, context.level, context.sort) : null;
}
