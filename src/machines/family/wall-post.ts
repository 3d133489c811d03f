// One post of the school's wall in the families' app: loaded, or failed (offline, missing: not for this
// guardian or off the wall, for good; anything else) with retry; a 401 tells the root `session.expired`.
import { assign, emit, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { NewsPost } from '../../../shared/news-contract';
import { toFamilyFailure, type FamilyFailure } from '../../services/family/api';
import { fetchWallPost } from '../../services/family/wall';
import type { SessionExpired } from './inbox';
import { isUnauthorizedFailure, screenFailureOf, type ScreenFailure } from './screen-rules';

interface WallPostContext {
  token: string;
  id: number;
  post: NewsPost | null;
  failure: ScreenFailure | null;
}

export const familyWallPostMachine = setup({
  types: {
    context: {} as WallPostContext,
    events: {} as { type: 'post.retry' },
    input: {} as { token: string; id: number },
    emitted: {} as SessionExpired,
  },
  actors: { fetchWallPost },
  actions: {
    assignPost: assign((_, post: NewsPost) => ({ post, failure: null })),
    assignFailure: assign((_, failure: FamilyFailure) => ({ failure: screenFailureOf(failure) })),
    tellExpired: emit({ type: 'session.expired' } as const),
  },
  guards: {
    isUnauthorized: (_, failure: FamilyFailure) => isUnauthorizedFailure(failure),
    // A post that is not this guardian's stays missing however often it is asked for.
    canRetry: ({ context }) => context.failure !== 'missing',
  },
}).createMachine({
  id: 'familyWallPost',
  initial: 'loading',
  context: ({ input }) => ({ token: input.token, id: input.id, post: null, failure: null }),
  states: {
    loading: {
      tags: 'busy',
      invoke: {
        id: 'fetchWallPost',
        src: 'fetchWallPost',
        input: ({ context }) => ({ token: context.token, id: context.id }),
        onDone: { target: 'shown', actions: { type: 'assignPost', params: ({ event }) => event.output } },
        onError: [
          { guard: { type: 'isUnauthorized', params: ({ event }) => toFamilyFailure(event.error) }, target: 'expired' },
          { target: 'failed', actions: { type: 'assignFailure', params: ({ event }) => toFamilyFailure(event.error) } },
        ],
      },
    },
    shown: {},
    failed: {
      on: { 'post.retry': { guard: 'canRetry', target: 'loading' } },
    },
    expired: {
      entry: 'tellExpired',
      type: 'final',
    },
  },
});

export type FamilyWallPostActor = ActorRefFrom<typeof familyWallPostMachine>;
type FamilyWallPostSnapshot = SnapshotFrom<typeof familyWallPostMachine>;

export function selectPostPhase(s: FamilyWallPostSnapshot): 'loading' | 'shown' | 'failed' | 'expired' {
  if (s.matches('loading')) return 'loading';
  if (s.matches('failed')) return 'failed';
  if (s.matches('expired')) return 'expired';
  return 'shown';
}
export const selectPost = (s: FamilyWallPostSnapshot): NewsPost | null => s.context.post;
export const selectPostFailure = (s: FamilyWallPostSnapshot): ScreenFailure | null => s.context.failure;
export const selectCanRetryPost = (s: FamilyWallPostSnapshot): boolean => s.can({ type: 'post.retry' });
