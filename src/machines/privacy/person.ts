// /privacy/:kind/:id (the school's administrators): everything Hermes holds about one person, read once as
// the page opens (the server writes that it was seen). A failure says so with Reintentar; another school's
// person or one that does not exist says there is no such person here. While shown, the person's requests
// (blocking, erasure: privacy-requests/requests.ts) run as its child; an erasure done reads the person again.
import { assign, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { PRIVACY_SECTIONS, type PrivacyIdentity, type PrivacyInventory, type PrivacySection } from '../../../shared/privacy-contract';
import { fetchPrivacyInventory, type PrivacyPersonKey } from '../../services/privacy/privacy';
import { toApiFailure, type ApiFailure } from '../../services/http/client';
import { privacyRequestsMachine, type PrivacyRequestsActor } from '../privacy-requests/requests';

export interface PrivacyPersonContext {
  key: PrivacyPersonKey;
  inventory: PrivacyInventory | null;
  /** The last failure was a 404: no such person in this school. */
  notFound: boolean;
}

export type PrivacyPersonEvent = { type: 'person.retry' };

export const privacyPersonMachine = setup({
  types: {
    input: {} as PrivacyPersonKey,
    context: {} as PrivacyPersonContext,
    events: {} as PrivacyPersonEvent,
    children: {} as { privacyRequests: 'privacyRequests' },
  },
  actors: { fetchPrivacyInventory, privacyRequests: privacyRequestsMachine },
  actions: {
    assignInventory: assign((_, inventory: PrivacyInventory) => ({ inventory, notFound: false })),
    assignFailure: assign((_, failure: ApiFailure) => ({ notFound: failure.status === 404 })),
  },
}).createMachine({
  id: 'privacyPerson',
  initial: 'loading',
  context: ({ input }) => ({ key: input, inventory: null, notFound: false }),
  states: {
    loading: {
      tags: 'busy',
      invoke: {
        id: 'fetchPrivacyInventory',
        src: 'fetchPrivacyInventory',
        input: ({ context }) => context.key,
        onDone: { target: 'shown', actions: { type: 'assignInventory', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'assignFailure', params: ({ event }) => toApiFailure(event.error) } },
      },
    },
    shown: {
      invoke: {
        id: 'privacyRequests',
        src: 'privacyRequests',
        input: ({ context }) => ({
          key: context.key,
          block: context.inventory?.bloqueo ?? null,
          erasedAt: context.inventory?.eliminado_el ?? null,
        }),
        onDone: { target: 'loading' },
        onError: { target: 'failed', actions: { type: 'assignFailure', params: ({ event }) => toApiFailure(event.error) } },
      },
    },
    failed: {
      on: { 'person.retry': { target: 'loading' } },
    },
  },
});

export type PrivacyPersonActor = ActorRefFrom<typeof privacyPersonMachine>;
export type PrivacyPersonSnapshot = SnapshotFrom<typeof privacyPersonMachine>;

export const selectIdentity = (s: PrivacyPersonSnapshot): PrivacyIdentity | null => s.context.inventory?.person ?? null;
export const selectInventory = (s: PrivacyPersonSnapshot): PrivacyInventory | null => s.context.inventory;
export const selectPersonLoading = (s: PrivacyPersonSnapshot): boolean => s.hasTag('busy');
export const selectPersonFailed = (s: PrivacyPersonSnapshot): boolean => s.matches('failed') && !s.context.notFound;
export const selectPersonNotFound = (s: PrivacyPersonSnapshot): boolean => s.matches('failed') && s.context.notFound;
/** How many rows in all, for the page's heading. */
export const selectHeldTotal = (s: PrivacyPersonSnapshot): number =>
  PRIVACY_SECTIONS.reduce((sum, section: PrivacySection) => sum + (s.context.inventory?.sections[section].length ?? 0), 0);
/** The person's requests (blocking, erasure) while the person is shown. */
export const selectRequestsActor = (s: PrivacyPersonSnapshot): PrivacyRequestsActor | undefined => s.children.privacyRequests;
/** The person was erased: their data can no longer be downloaded (what is left identifies no one). */
export const selectPersonErased = (s: PrivacyPersonSnapshot): boolean => (s.context.inventory?.eliminado_el ?? null) !== null;
