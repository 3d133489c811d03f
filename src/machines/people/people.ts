// /settings/people (the school's leadership): the school's students and guardians, searched (debounced),
// filtered by kind and standing, one numbered page at a time. The search, filters and page live in the address
// (replaced, not pushed, so Back leaves the screen and a reload shows the same page); an address changed by
// the browser (Back, a link) is read back with `people.address`. A new choice aborts the request under way;
// a failure keeps the last page on screen, said to be out of date, with Reintentar.
import { assertEvent, assign, emit, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { PeopleKind, PeoplePage, PeopleStatus } from '../../../shared/people-contract';
import { fetchPeople, type PeopleListQuery } from '../../services/people/people';
import type { NavigateEvent } from '../app/effects';
import { peopleAddress, peopleQueryOf, sameQuery } from './people-rules';

export interface PeopleInput {
  /** The address's query string (`?q=perez&kind=estudiante&page=2`). */
  search: string;
}

export interface PeopleContext {
  query: PeopleListQuery;
  /** The last page the server answered (kept while the next loads or fails). */
  answer: PeoplePage | null;
}

export type PeopleEvent =
  | { type: 'people.search'; q: string }
  | { type: 'people.kind'; kind: PeopleKind | null }
  | { type: 'people.status'; status: PeopleStatus }
  | { type: 'people.page'; page: number }
  /** The address changed without a choice here (Back, Forward, a link). */
  | { type: 'people.address'; search: string }
  | { type: 'people.retry' };

/** Quiet time after the last keystroke before the search is asked. */
export const PEOPLE_DEBOUNCE_MS = 300;

export const peopleMachine = setup({
  types: {
    input: {} as PeopleInput,
    context: {} as PeopleContext,
    events: {} as PeopleEvent,
    emitted: {} as NavigateEvent,
  },
  actors: { fetchPeople },
  delays: { debounce: PEOPLE_DEBOUNCE_MS },
  actions: {
    assignSearch: assign(({ context, event }) => {
      assertEvent(event, 'people.search');
      return { query: { ...context.query, q: event.q, page: 1 } };
    }),
    assignKind: assign(({ context, event }) => {
      assertEvent(event, 'people.kind');
      return { query: { ...context.query, kind: event.kind, page: 1 } };
    }),
    assignStatus: assign(({ context, event }) => {
      assertEvent(event, 'people.status');
      return { query: { ...context.query, status: event.status, page: 1 } };
    }),
    assignPage: assign(({ context, event }) => {
      assertEvent(event, 'people.page');
      return { query: { ...context.query, page: event.page } };
    }),
    assignAddress: assign(({ event }) => {
      assertEvent(event, 'people.address');
      return { query: peopleQueryOf(event.search) };
    }),
    assignAnswer: assign((_, answer: PeoplePage) => ({ answer })),
    /** The choice goes in the address, replacing the entry (no history step per keystroke). */
    showInAddress: emit(({ context }) => ({ type: 'navigate' as const, to: peopleAddress(context.query), replace: true })),
  },
  guards: {
    isOtherKind: ({ context, event }) => {
      assertEvent(event, 'people.kind');
      return event.kind !== context.query.kind;
    },
    isOtherStatus: ({ context, event }) => {
      assertEvent(event, 'people.status');
      return event.status !== context.query.status;
    },
    /** A page that exists and is not the one shown (the last answer says how many there are). */
    canTurnTo: ({ context, event }) => {
      assertEvent(event, 'people.page');
      const last = context.answer?.meta.last_page ?? 1;
      return Number.isInteger(event.page) && event.page >= 1 && event.page <= last && event.page !== context.query.page;
    },
    isOtherAddress: ({ context, event }) => {
      assertEvent(event, 'people.address');
      return !sameQuery(peopleQueryOf(event.search), context.query);
    },
  },
}).createMachine({
  id: 'people',
  initial: 'loading',
  context: ({ input }) => ({ query: peopleQueryOf(input.search), answer: null }),
  on: {
    // Typing waits for a pause; the address follows each keystroke (replaced).
    'people.search': { target: '.typing', actions: ['assignSearch', 'showInAddress'] },
    'people.kind': { guard: 'isOtherKind', target: '.loading', actions: ['assignKind', 'showInAddress'] },
    'people.status': { guard: 'isOtherStatus', target: '.loading', actions: ['assignStatus', 'showInAddress'] },
    'people.page': { guard: 'canTurnTo', target: '.loading', actions: ['assignPage', 'showInAddress'] },
    'people.address': { guard: 'isOtherAddress', target: '.loading', actions: 'assignAddress' },
  },
  states: {
    typing: {
      after: { debounce: { target: 'loading' } },
    },
    loading: {
      tags: 'busy',
      invoke: {
        id: 'fetchPeople',
        src: 'fetchPeople',
        input: ({ context }) => context.query,
        onDone: { target: 'shown', actions: { type: 'assignAnswer', params: ({ event }) => event.output } },
        onError: { target: 'failed' },
      },
    },
    shown: {},
    failed: {
      on: { 'people.retry': { target: 'loading' } },
    },
  },
});

export type PeopleActor = ActorRefFrom<typeof peopleMachine>;
export type PeopleSnapshot = SnapshotFrom<typeof peopleMachine>;

// Selectors: primitives, or references the context keeps.
export const selectPeopleQ = (s: PeopleSnapshot): string => s.context.query.q;
export const selectPeopleKind = (s: PeopleSnapshot): PeopleKind | null => s.context.query.kind;
export const selectPeopleStatus = (s: PeopleSnapshot): PeopleStatus => s.context.query.status;
export const selectPeoplePage = (s: PeopleSnapshot): number => s.context.query.page;
export const selectPeopleAnswer = (s: PeopleSnapshot): PeoplePage | null => s.context.answer;
export const selectPeopleLastPage = (s: PeopleSnapshot): number => s.context.answer?.meta.last_page ?? 1;
export const selectPeopleTotal = (s: PeopleSnapshot): number | null => s.context.answer?.meta.total ?? null;
export const selectPeopleLoading = (s: PeopleSnapshot): boolean => s.hasTag('busy') || s.matches('typing');
export const selectPeopleFailed = (s: PeopleSnapshot): boolean => s.matches('failed');
/** «Anterior»: the page before, or the last there is when the address asked for one beyond it. */
export const selectPreviousPage = (s: PeopleSnapshot): number => Math.min(s.context.query.page - 1, s.context.answer?.meta.last_page ?? 1);
export const selectCanPrevious = (s: PeopleSnapshot): boolean => s.can({ type: 'people.page', page: selectPreviousPage(s) });
export const selectCanNext = (s: PeopleSnapshot): boolean => s.can({ type: 'people.page', page: s.context.query.page + 1 });
