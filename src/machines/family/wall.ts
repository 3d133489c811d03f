// The school's wall in the families' app: the posts for the school and for the levels and courses of the
// guardian's children (the server decides which), pinned first then newest, 20 a page with «Ver más».
// Loading, empty, failed (offline said apart) with retry and refresh; a page that fails keeps the posts
// shown; a 401 anywhere tells the root `session.expired`. The pictures load on their own (wall-file.ts).
import { assign, emit, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { NewsPost } from '../../../shared/news-contract';
import { toFamilyFailure, type FamilyFailure } from '../../services/family/api';
import { fetchWallPage, type FamilyWallPage } from '../../services/family/wall';
import type { SessionExpired } from './inbox';
import { isUnauthorizedFailure, screenFailureOf, type ScreenFailure } from './screen-rules';

interface WallContext {
  token: string;
  posts: NewsPost[];
  page: number;
  lastPage: number;
  failure: ScreenFailure | null;
  /** «Ver más» failed; the posts already shown stay. */
  moreFailure: ScreenFailure | null;
}

type WallEvent = { type: 'wall.retry' } | { type: 'wall.refresh' } | { type: 'wall.more' };

export const familyWallMachine = setup({
  types: {
    context: {} as WallContext,
    events: {} as WallEvent,
    input: {} as { token: string },
    emitted: {} as SessionExpired,
  },
  actors: { fetchWallPage },
  actions: {
    showFirstPage: assign((_, page: FamilyWallPage) => ({
      posts: page.data,
      page: page.meta.current_page,
      lastPage: page.meta.last_page,
      failure: null,
      moreFailure: null,
    })),
    appendPage: assign(({ context }, page: FamilyWallPage) => {
      // A post published meanwhile shifts the pages: one already shown is not shown twice.
      const shown = new Set(context.posts.map((post) => post.id));
      return {
        posts: [...context.posts, ...page.data.filter((post) => !shown.has(post.id))],
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
    hasPosts: (_, page: FamilyWallPage) => page.data.length > 0,
    hasMorePages: ({ context }) => context.page < context.lastPage,
    isUnauthorized: (_, failure: FamilyFailure) => isUnauthorizedFailure(failure),
  },
}).createMachine({
  id: 'familyWall',
  initial: 'loading',
  context: ({ input }) => ({ token: input.token, posts: [], page: 0, lastPage: 0, failure: null, moreFailure: null }),
  states: {
    loading: {
      tags: 'busy',
      invoke: {
        id: 'fetchFirstPage',
        src: 'fetchWallPage',
        input: ({ context }) => ({ token: context.token, page: 1 }),
        onDone: [
          {
            guard: { type: 'hasPosts', params: ({ event }) => event.output },
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
        'wall.more': { guard: 'hasMorePages', target: 'loadingMore' },
        'wall.refresh': { target: 'loading' },
      },
    },
    loadingMore: {
      tags: 'busy',
      invoke: {
        id: 'fetchNextPage',
        src: 'fetchWallPage',
        input: ({ context }) => ({ token: context.token, page: context.page + 1 }),
        onDone: { target: 'loaded', actions: { type: 'appendPage', params: ({ event }) => event.output } },
        onError: [
          { guard: { type: 'isUnauthorized', params: ({ event }) => toFamilyFailure(event.error) }, target: 'expired' },
          { target: 'loaded', actions: { type: 'assignMoreFailure', params: ({ event }) => toFamilyFailure(event.error) } },
        ],
      },
    },
    empty: {
      on: { 'wall.refresh': { target: 'loading' } },
    },
    failed: {
      on: { 'wall.retry': { target: 'loading' } },
    },
    expired: {
      entry: 'tellExpired',
      type: 'final',
    },
  },
});

export type FamilyWallActor = ActorRefFrom<typeof familyWallMachine>;
type FamilyWallSnapshot = SnapshotFrom<typeof familyWallMachine>;

type WallPhase = 'loading' | 'loaded' | 'empty' | 'failed' | 'expired';

export function selectWallPhase(s: FamilyWallSnapshot): WallPhase {
  if (s.matches('loading')) return 'loading';
  if (s.matches('empty')) return 'empty';
  if (s.matches('failed')) return 'failed';
  if (s.matches('expired')) return 'expired';
  return 'loaded';
}
/** The posts: the same array until a page arrives. */
export const selectWallPosts = (s: FamilyWallSnapshot): readonly NewsPost[] => s.context.posts;
export const selectWallFailure = (s: FamilyWallSnapshot): ScreenFailure | null => s.context.failure;
export const selectWallMoreFailure = (s: FamilyWallSnapshot): ScreenFailure | null => s.context.moreFailure;
export const selectCanLoadMorePosts = (s: FamilyWallSnapshot): boolean => s.can({ type: 'wall.more' });
export const selectIsLoadingMorePosts = (s: FamilyWallSnapshot): boolean => s.matches('loadingMore');
