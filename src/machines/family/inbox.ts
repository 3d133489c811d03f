// The families' inbox: every message the app-mobile channel brought this guardian, newest first (the
// server's order), unread marked, 20 a page with «Ver más». Loading, empty, failed (offline said apart) and
// retry; a 401 means the session ended, told to the root as `session.expired`.
import { assign, emit, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { FamilyInboxPage, FamilyMessageSummary } from '../../../shared/family-contract';
import { fetchInboxPage, toFamilyFailure, type FamilyFailure } from '../../services/family/api';
import { isUnauthorizedFailure, screenFailureOf, type ScreenFailure } from './screen-rules';

interface InboxContext {
  token: string;
  items: FamilyMessageSummary[];
  page: number;
  lastPage: number;
  failure: ScreenFailure | null;
  /** «Ver más» failed; the rows already shown stay. */
  moreFailure: ScreenFailure | null;
}

type InboxEvent = { type: 'inbox.retry' } | { type: 'inbox.refresh' } | { type: 'inbox.more' };

export type SessionExpired = { type: 'session.expired' };

export const familyInboxMachine = setup({
  types: {
    context: {} as InboxContext,
    events: {} as InboxEvent,
    input: {} as { token: string },
    emitted: {} as SessionExpired,
  },
  actors: { fetchInboxPage },
  actions: {
    showFirstPage: assign((_, page: FamilyInboxPage) => ({
      items: page.data,
      page: page.meta.current_page,
      lastPage: page.meta.last_page,
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
  },
}).createMachine({
  id: 'familyInbox',
  initial: 'loading',
  context: ({ input }) => ({ token: input.token, items: [], page: 0, lastPage: 0, failure: null, moreFailure: null }),
  states: {
    loading: {
      tags: 'busy',
      invoke: {
        id: 'fetchFirstPage',
        src: 'fetchInboxPage',
        input: ({ context }) => ({ token: context.token, page: 1 }),
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
        input: ({ context }) => ({ token: context.token, page: context.page + 1 }),
        onDone: { target: 'loaded', actions: { type: 'appendPage', params: ({ event }) => event.output } },
        onError: [
          { guard: { type: 'isUnauthorized', params: ({ event }) => toFamilyFailure(event.error) }, target: 'expired' },
          { target: 'loaded', actions: { type: 'assignMoreFailure', params: ({ event }) => toFamilyFailure(event.error) } },
        ],
      },
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

type InboxPhase = 'loading' | 'loaded' | 'empty' | 'failed' | 'expired';

export function selectInboxPhase(s: FamilyInboxSnapshot): InboxPhase {
  if (s.matches('loading')) return 'loading';
  if (s.matches('empty')) return 'empty';
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
export const selectUnreadCount = (s: FamilyInboxSnapshot): number => s.context.items.filter((item) => !item.read).length;
