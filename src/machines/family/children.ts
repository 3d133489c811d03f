// The guardian's children, in every school of the session (GET /app/children): each with school, course
// and unread count, for the chips that narrow the inbox to one child. Loading, failed (offline said apart)
// with retry; one actor per visit of the inbox, so the counts are fresh after reading a message; a 401 ends
// the screen and tells the root `session.expired`.
import { assign, emit, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { FamilyChild } from '../../../shared/family-contract';
import { fetchChildren, toFamilyFailure, type FamilyFailure } from '../../services/family/api';
import type { SessionExpired } from './inbox';
import { isUnauthorizedFailure, screenFailureOf, type ScreenFailure } from './screen-rules';

interface ChildrenContext {
  token: string;
  children: FamilyChild[];
  failure: ScreenFailure | null;
}

type ChildrenEvent = { type: 'children.retry' };

export const familyChildrenMachine = setup({
  types: {
    context: {} as ChildrenContext,
    events: {} as ChildrenEvent,
    input: {} as { token: string },
    emitted: {} as SessionExpired,
  },
  actors: { fetchChildren },
  actions: {
    assignChildren: assign((_, children: FamilyChild[]) => ({ children, failure: null })),
    assignFailure: assign((_, failure: FamilyFailure) => ({ failure: screenFailureOf(failure) })),
    tellExpired: emit({ type: 'session.expired' } as const),
  },
  guards: {
    isUnauthorized: (_, failure: FamilyFailure) => isUnauthorizedFailure(failure),
  },
}).createMachine({
  id: 'familyChildren',
  initial: 'loading',
  context: ({ input }) => ({ token: input.token, children: [], failure: null }),
  states: {
    loading: {
      tags: 'busy',
      invoke: {
        id: 'fetchChildren',
        src: 'fetchChildren',
        input: ({ context }) => ({ token: context.token }),
        onDone: { target: 'loaded', actions: { type: 'assignChildren', params: ({ event }) => event.output } },
        onError: [
          { guard: { type: 'isUnauthorized', params: ({ event }) => toFamilyFailure(event.error) }, target: 'expired' },
          { target: 'failed', actions: { type: 'assignFailure', params: ({ event }) => toFamilyFailure(event.error) } },
        ],
      },
    },
    loaded: {},
    failed: {
      on: { 'children.retry': { target: 'loading' } },
    },
    expired: {
      entry: 'tellExpired',
      type: 'final',
    },
  },
});

export type FamilyChildrenActor = ActorRefFrom<typeof familyChildrenMachine>;
type FamilyChildrenSnapshot = SnapshotFrom<typeof familyChildrenMachine>;

/** The children: the same array until an answer arrives. */
export const selectChildren = (s: FamilyChildrenSnapshot): readonly FamilyChild[] => s.context.children;
export const selectChildrenFailed = (s: FamilyChildrenSnapshot): boolean => s.matches('failed');
export const selectChildrenFailure = (s: FamilyChildrenSnapshot): ScreenFailure | null => s.context.failure;
