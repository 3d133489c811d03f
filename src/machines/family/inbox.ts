// The families' inbox: every message the app-mobile channel brought this guardian, newest first (the
// server's order), unread marked, 20 a page with «Ver más». Loading, empty, failed (offline said apart) and
// retry; a 401 means the session ended, told to the root as `session.expired`.
// It is all the children's together or one child's (`inbox.child`, from the address: the view owns it),
// narrowed by words typed in the search box (`inbox.search`), asked for once typing pauses (`searchDelay`);
// the rows shown stay while it waits. An empty answer to a narrowed inbox is «no results», not «no messages».
import { assertEvent, assign, emit, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { FamilyInboxPage, FamilyMessageSummary } from '../../../shared/family-contract';
import { fetchInboxPage, toFamilyFailure, type FamilyFailure } from '../../services/family/api';
import { isUnauthorizedFailure, screenFailureOf, type ScreenFailure } from './screen-rules';

interface InboxContext {
  token: string;
  /** One child's inbox (a `FamilyChild` id), or all of them (null). */
  student: number | null;
  /** The search box as typed. */
  q: string;
  items: FamilyMessageSummary[];
  page: number;
  lastPage: number;
  /** Unread over every page of this inbox (the server's count): the header's badge, not only the rows loaded. */
  unread: number;
  failure: ScreenFailure | null;
  /** «Ver más» failed; the rows already shown stay. */
  moreFailure: ScreenFailure | null;
}

type InboxEvent =
  | { type: 'inbox.retry' }
  | { type: 'inbox.refresh' }
  | { type: 'inbox.more' }
  | { type: 'inbox.child'; student: number | null }
  | { type: 'inbox.search'; q: string };

/** The pause in typing after which the search is asked for: a call per word, not per key. */
export const SEARCH_DELAY_MS = 350;

/** What the server is asked: the words without the spaces around them. */
const queryOf = (context: InboxContext, page: number) => ({ token: context.token, page, student: context.student, q: context.q.trim() });

export type SessionExpired = { type: 'session.expired' };

export const familyInboxMachine = setup({
  types: {
    context: {} as InboxContext,
    events: {} as InboxEvent,
    input: {} as { token: string; student: number | null },
    emitted: {} as SessionExpired,
  },
  actors: { fetchInboxPage },
  delays: { searchDelay: SEARCH_DELAY_MS },
  actions: {
    assignChild: assign(({ event }) => {
      assertEvent(event, 'inbox.child');
      return { student: event.student };
    }),
    assignSearch: assign(({ event }) => {
      assertEvent(event, 'inbox.search');
      return { q: event.q };
    }),
    showFirstPage: assign((_, page: FamilyInboxPage) => ({
      items: page.data,
      page: page.meta.current_page,
      lastPage: page.meta.last_page,
      unread: page.meta.unread,
      failure: null,
      moreFailure: null,
    })),
    appendPage: assign(({ context }, page: FamilyInboxPage) => {
      // A message that arrived meanwhile shifts the pages: a row already shown is not shown twice.
      const shown = new Set(context.items.map((item) => item.id));
      return {
        items: [...context.items, ...page.data.filter((item) => !shown.has(item.id))],
        page: page.meta.current_page,
        lastPage: page.meta.last_page,
        unread: page.meta.unread,
        moreFailure: null,
      };
    }),
    assignFailure: assign((_, failure: FamilyFailure) => ({ failure: screenFailureOf(failure) })),
    assignMoreFailure: assign((_, failure: FamilyFailure) => ({ moreFailure: screenFailureOf(failure) })),
    tellExpired: emit({ type: 'session.expired' } as const),
  },
  guards: {
    hasMessages: (_, page: FamilyInboxPage) => page.data.length > 0,
    hasMorePages: ({ context }) => context.page < context.lastPage,
    isUnauthorized: (_, failure: FamilyFailure) => isUnauthorizedFailure(failure),
    isOtherChild: ({ context, event }) => {
      assertEvent(event, 'inbox.child');
      return event.student !== context.student;
    },
  },
}).createMachine({
  id: 'familyInbox',
  initial: 'loading',
  context: ({ input }) => ({
    token: input.token,
    student: input.student,
    q: '',
    items: [],
    page: 0,
    lastPage: 0,
    unread: 0,
    failure: null,
    moreFailure: null,
  }),
  on: {
    // Another child: asked at once (a tap, not typing), with the words already typed.
    'inbox.child': { guard: 'isOtherChild', target: '.loading', actions: 'assignChild' },
    // Each key restarts the wait.
    'inbox.search': { target: '.waiting', actions: 'assignSearch' },
  },
  states: {
    loading: {
      tags: 'busy',
      invoke: {
        id: 'fetchFirstPage',
        src: 'fetchInboxPage',
        input: ({ context }) => queryOf(context, 1),
        onDone: [
          {
            guard: { type: 'hasMessages', params: ({ event }) => event.output },
            target: 'loaded',
            actions: { type: 'showFirstPage', params: ({ event }) => event.output },
          },
          { target: 'empty', actions: { type: 'showFirstPage', params: ({ event }) => event.output } },
        ],
        onError: [
          { guard: { type: 'isUnauthorized', params: ({ event }) => toFamilyFailure(event.error) }, target: 'expired' },
          { target: 'failed', actions: { type: 'assignFailure', params: ({ event }) => toFamilyFailure(event.error) } },
        ],
      },
    },
    loaded: {
      on: {
        'inbox.more': { guard: 'hasMorePages', target: 'loadingMore' },
        'inbox.refresh': { target: 'loading' },
      },
    },
    loadingMore: {
      tags: 'busy',
      invoke: {
        id: 'fetchNextPage',
        src: 'fetchInboxPage',
        input: ({ context }) => queryOf(context, context.page + 1),
        onDone: { target: 'loaded', actions: { type: 'appendPage', params: ({ event }) => event.output } },
        onError: [
          { guard: { type: 'isUnauthorized', params: ({ event }) => toFamilyFailure(event.error) }, target: 'expired' },
          { target: 'loaded', actions: { type: 'assignMoreFailure', params: ({ event }) => toFamilyFailure(event.error) } },
        ],
      },
    },
    // Typing: the rows of the last answer stay until the pause.
    waiting: {
      after: { searchDelay: { target: 'loading' } },
    },
    empty: {
      on: { 'inbox.refresh': { target: 'loading' } },
    },
    failed: {
      on: { 'inbox.retry': { target: 'loading' } },
    },
    expired: {
      entry: 'tellExpired',
      type: 'final',
    },
  },
});

export type FamilyInboxActor = ActorRefFrom<typeof familyInboxMachine>;
type FamilyInboxSnapshot = SnapshotFrom<typeof familyInboxMachine>;

type InboxPhase = 'loading' | 'loaded' | 'empty' | 'noResults' | 'failed' | 'expired';

/** A child chosen or words typed: nothing found is said as such. */
const isNarrowed = (s: FamilyInboxSnapshot): boolean => s.context.student !== null || s.context.q.trim() !== '';

export function selectInboxPhase(s: FamilyInboxSnapshot): InboxPhase {
  if (s.matches('loading')) return 'loading';
  if (s.matches('waiting')) return s.context.items.length > 0 ? 'loaded' : 'loading';
  if (s.matches('empty')) return isNarrowed(s) ? 'noResults' : 'empty';
  if (s.matches('failed')) return 'failed';
  if (s.matches('expired')) return 'expired';
  return 'loaded';
}
/** The rows: the same array until a page arrives, so a view re-renders only then. */
export const selectInboxItems = (s: FamilyInboxSnapshot): readonly FamilyMessageSummary[] => s.context.items;
export const selectInboxFailure = (s: FamilyInboxSnapshot): ScreenFailure | null => s.context.failure;
export const selectMoreFailure = (s: FamilyInboxSnapshot): ScreenFailure | null => s.context.moreFailure;
export const selectCanLoadMore = (s: FamilyInboxSnapshot): boolean => s.can({ type: 'inbox.more' });
export const selectIsLoadingMore = (s: FamilyInboxSnapshot): boolean => s.matches('loadingMore');
export const selectSearch = (s: FamilyInboxSnapshot): string => s.context.q;
export const selectIsSearching = (s: FamilyInboxSnapshot): boolean => s.matches('waiting') || (s.matches('loading') && s.context.q !== '');
export const selectUnreadCount = (s: FamilyInboxSnapshot): number => s.context.unread;
