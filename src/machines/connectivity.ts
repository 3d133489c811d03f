// /dashboard/connectivity (issue 16; SPEC §2, §3 device status): the school's guardians, what each channel
// reaches, the device mix and "cobertura efectiva", then one table per level with its courses. The figures
// are one request (`GET /dashboard/connectivity`), so the page is one panel: loading, shown or failed with
// Reintentar (the figures already shown stay while it asks again). How the table is sorted and which level
// it shows are events; the rows themselves are derived in selectors, never stored.
import { assertEvent, assign, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { fetchConnectivity } from '../services/dashboard';
import type { Connectivity, ConnectivityRow } from '../../shared/dashboard-contract';

/** Contract order (levels in school order, courses by name), or by effective coverage. */
export type ConnectivitySort = 'school' | 'coverageAsc' | 'coverageDesc';
export const CONNECTIVITY_SORTS: readonly ConnectivitySort[] = ['school', 'coverageAsc', 'coverageDesc'];

/** A course is "cut off" when under this share of its addressed guardians was reached (README Decisions). */
export const CUT_OFF_SHARE = 0.5;
export const isCutOff = (row: ConnectivityRow): boolean => row.coverage.share !== null && row.coverage.share < CUT_OFF_SHARE;

export interface ConnectivityContext {
  data: Connectivity | null;
  sort: ConnectivitySort;
  /** The level shown alone, or null: all. */
  level: number | null;
}

export type ConnectivityEvent =
  | { type: 'connectivity.sort'; sort: ConnectivitySort }
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
    assignData: assign(({ context, event }) => {
      const data = (event as unknown as { output: Connectivity }).output;
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
    'connectivity.level': { guard: 'isKnownLevel', actions: 'assignLevel' },
  },
  states: {
    loading: {
      tags: 'busy',
      invoke: {
        id: 'fetchConnectivity',
        src: 'fetchConnectivity',
        onDone: { target: 'shown', actions: 'assignData' },
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

/** Courses in the order asked: by coverage (no messages addressed last), ties by name. */
export function sortCourses(courses: readonly ConnectivityRow[], sort: ConnectivitySort): ConnectivityRow[] {
  if (sort === 'school') return [...courses];
  const sign = sort === 'coverageAsc' ? 1 : -1;
  return [...courses].sort((a, b) => {
    const x = a.coverage.share;
    const y = b.coverage.share;
    if (x === null || y === null) return x === y ? a.name.localeCompare(b.name, 'es') : x === null ? 1 : -1;
    return x === y ? a.name.localeCompare(b.name, 'es') : sign * (x - y);
  });
}

// Selectors: primitives, or references that keep their identity until their value changes.
export const selectData = (s: ConnectivitySnapshot): Connectivity | null => s.context.data;
export const selectLoading = (s: ConnectivitySnapshot): boolean => s.hasTag('busy');
export const selectFailed = (s: ConnectivitySnapshot): boolean => s.matches('failed');
export const selectSort = (s: ConnectivitySnapshot): ConnectivitySort => s.context.sort;
export const selectLevel = (s: ConnectivitySnapshot): number | null => s.context.level;
export const selectCanReload = (s: ConnectivitySnapshot): boolean => s.can({ type: 'connectivity.reload' });
