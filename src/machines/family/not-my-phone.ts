// «No es mi teléfono»: the guardian first reads what it does (every session of this number ends, on every
// device and in every school, and this phone stops receiving notices) and confirms; then the server ends
// them and the app goes back to sign-in (`session.ended` to the root). Offline or a server error leaves
// the guardian signed in with the failure said, to try again or cancel; a 401 means this session had
// already ended, told to the root as `session.expired`.
import { assign, emit, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { toFamilyFailure, type FamilyFailure } from '../../services/family/api';
import { endPhoneSessions } from '../../services/family/devices';
import { isUnauthorizedFailure, screenFailureOf, type ScreenFailure } from './screen-rules';

interface NotMyPhoneContext {
  token: string;
  failure: ScreenFailure | null;
}

type NotMyPhoneEvent = { type: 'release.ask' } | { type: 'release.confirm' } | { type: 'release.cancel' };

type NotMyPhoneEmitted = { type: 'session.ended' } | { type: 'session.expired' };

export const familyNotMyPhoneMachine = setup({
  types: {
    context: {} as NotMyPhoneContext,
    events: {} as NotMyPhoneEvent,
    input: {} as { token: string },
    emitted: {} as NotMyPhoneEmitted,
  },
  actors: { endPhoneSessions },
  actions: {
    clearFailure: assign({ failure: null }),
    assignFailure: assign((_, failure: FamilyFailure) => ({ failure: screenFailureOf(failure) })),
    tellEnded: emit({ type: 'session.ended' } as const),
    tellExpired: emit({ type: 'session.expired' } as const),
  },
  guards: {
    isUnauthorized: (_, failure: FamilyFailure) => isUnauthorizedFailure(failure),
  },
}).createMachine({
  id: 'familyNotMyPhone',
  initial: 'idle',
  context: ({ input }) => ({ token: input.token, failure: null }),
  states: {
    idle: {
      on: { 'release.ask': { target: 'confirming', actions: 'clearFailure' } },
    },
    confirming: {
      on: {
        'release.confirm': { target: 'ending', actions: 'clearFailure' },
        'release.cancel': { target: 'idle', actions: 'clearFailure' },
      },
    },
    ending: {
      tags: 'busy',
      invoke: {
        id: 'endPhoneSessions',
        src: 'endPhoneSessions',
        input: ({ context }) => ({ token: context.token }),
        onDone: { target: 'ended' },
        onError: [
          { guard: { type: 'isUnauthorized', params: ({ event }) => toFamilyFailure(event.error) }, target: 'expired' },
          { target: 'confirming', actions: { type: 'assignFailure', params: ({ event }) => toFamilyFailure(event.error) } },
        ],
      },
    },
    ended: { entry: 'tellEnded', type: 'final' },
    expired: { entry: 'tellExpired', type: 'final' },
  },
});

export type FamilyNotMyPhoneActor = ActorRefFrom<typeof familyNotMyPhoneMachine>;
type NotMyPhoneSnapshot = SnapshotFrom<typeof familyNotMyPhoneMachine>;

export const selectIsConfirming = (s: NotMyPhoneSnapshot): boolean => s.matches('confirming') || s.matches('ending');
export const selectIsEnding = (s: NotMyPhoneSnapshot): boolean => s.hasTag('busy');
export const selectReleaseFailure = (s: NotMyPhoneSnapshot): ScreenFailure | null => s.context.failure;
