// Notifications on this device, after sign-in: the app explains them in a card of its own before the
// browser's question (asked straight away, most guardians would refuse without knowing what for), and
// only when the guardian chooses «Activar avisos». Allowed before, the subscription is renewed quietly;
// blocked or impossible here, the card says how to turn them on later; «Ahora no» is remembered on the
// device for DISMISSAL_DAYS, so the app does not ask every visit. A 401 tells the root `session.expired`.
// The same machine runs in «Avisos» (`place: 'settings'`), where the guardian came to turn them on: there
// «Ahora no» does not hide the offer, a phone with a subscription says it receives them, and nothing is
// dismissed (decision 0222).
import { emit, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { askPermission, keepDismissal, readPushStart, subscribePush, type PushStart } from '../../services/family/push';
import { toFamilyFailure, type FamilyFailure } from '../../services/family/api';
import type { SessionExpired } from './inbox';
import { isUnauthorizedFailure } from './screen-rules';

/** Days a «Ahora no» (or «Entendido») keeps the card away. */
export const DISMISSAL_DAYS = 30;

/** Whether a dismissal made at `at` (ms) still holds at `now`. */
export const isDismissalCurrent = (at: number | null, now: number): boolean =>
  at !== null && at <= now && now - at < DISMISSAL_DAYS * 24 * 60 * 60 * 1000;

type PushEvent = { type: 'push.enable' } | { type: 'push.dismiss' };

/** Where the machine runs: the card above the inbox, or the «Avisos» screen. */
export type PushPlace = 'card' | 'settings';

interface PushInput {
  token: string;
  /** The card when not said. */
  place?: PushPlace;
}

export const familyPushMachine = setup({
  types: {
    context: {} as { token: string; place: PushPlace },
    events: {} as PushEvent,
    input: {} as PushInput,
    emitted: {} as SessionExpired,
  },
  actors: { readPushStart, askPermission, subscribePush, keepDismissal },
  actions: {
    tellExpired: emit({ type: 'session.expired' } as const),
  },
  guards: {
    isUnsupported: (_, start: PushStart) => !start.supported,
    isDismissed: ({ context }, start: PushStart) => context.place === 'card' && isDismissalCurrent(start.dismissedAt, start.checkedAt),
    /** «Avisos» on a phone that already receives them. */
    isReceivingHere: ({ context }, start: PushStart) =>
      context.place === 'settings' && start.supported && start.permission === 'granted' && start.subscribed,
    /** «Avisos» on a phone that could receive them and does not: allowed but never subscribed, or not asked yet. */
    isOfferedHere: ({ context }, start: PushStart) => context.place === 'settings' && start.supported && start.permission !== 'denied',
    isDenied: (_, start: PushStart) => start.permission === 'denied',
    isGranted: (_, start: PushStart) => start.permission === 'granted',
    isGrantedAnswer: (_, answer: NotificationPermission) => answer === 'granted',
    isDeniedAnswer: (_, answer: NotificationPermission) => answer === 'denied',
    isUnauthorized: (_, failure: FamilyFailure) => isUnauthorizedFailure(failure),
  },
}).createMachine({
  id: 'familyPush',
  initial: 'checking',
  context: ({ input }) => ({ token: input.token, place: input.place ?? 'card' }),
  states: {
    checking: {
      invoke: {
        id: 'readPushStart',
        src: 'readPushStart',
        onDone: [
          { guard: { type: 'isReceivingHere', params: ({ event }) => event.output }, target: 'receiving' },
          { guard: { type: 'isOfferedHere', params: ({ event }) => event.output }, target: 'offering' },
          // Allowed already: renewed whatever was dismissed.
          { guard: { type: 'isGranted', params: ({ event }) => event.output }, target: 'renewing' },
          { guard: { type: 'isDismissed', params: ({ event }) => event.output }, target: 'hidden' },
          { guard: { type: 'isUnsupported', params: ({ event }) => event.output }, target: 'unsupported' },
          { guard: { type: 'isDenied', params: ({ event }) => event.output }, target: 'denied' },
          { target: 'offering' },
        ],
        onError: { target: 'hidden' },
      },
    },
    /** The card: what notifications are and what they show, «Activar avisos» and «Ahora no». */
    offering: {
      on: {
        'push.enable': { target: 'asking' },
        'push.dismiss': { target: 'dismissing' },
      },
    },
    /** The browser's own question. Closed without an answer, the card stays. */
    asking: {
      tags: 'busy',
      invoke: {
        id: 'askPermission',
        src: 'askPermission',
        onDone: [
          { guard: { type: 'isGrantedAnswer', params: ({ event }) => event.output }, target: 'subscribing' },
          { guard: { type: 'isDeniedAnswer', params: ({ event }) => event.output }, target: 'denied' },
          { target: 'offering' },
        ],
        onError: { target: 'unsupported' },
      },
    },
    subscribing: {
      tags: 'busy',
      invoke: {
        id: 'subscribePush',
        src: 'subscribePush',
        input: ({ context }) => ({ token: context.token }),
        onDone: { target: 'enabled' },
        onError: [
          { guard: { type: 'isUnauthorized', params: ({ event }) => toFamilyFailure(event.error) }, target: 'expired' },
          { target: 'failed' },
        ],
      },
    },
    /** Allowed on an earlier visit: the subscription made again if needed and registered, without a card. */
    renewing: {
      invoke: {
        id: 'renewPush',
        src: 'subscribePush',
        input: ({ context }) => ({ token: context.token }),
        onDone: { target: 'hidden' },
        // Offline or a push service that refused: the next start tries again; nothing to show now.
        onError: [
          { guard: { type: 'isUnauthorized', params: ({ event }) => toFamilyFailure(event.error) }, target: 'expired' },
          { target: 'hidden' },
        ],
      },
    },
    /** «Avisos»: this phone has a subscription (the card's actor registers it with the server at each start). */
    receiving: {},
    /** «Listo» until the guardian closes it. */
    enabled: {
      on: { 'push.dismiss': { target: 'hidden' } },
    },
    failed: {
      on: {
        'push.enable': { target: 'subscribing' },
        'push.dismiss': { target: 'dismissing' },
      },
    },
    /** Blocked in the browser: how to allow them there. */
    denied: {
      on: { 'push.dismiss': { target: 'dismissing' } },
    },
    /** No Web Push here (an iPhone's Safari outside the home screen, an old browser). */
    unsupported: {
      on: { 'push.dismiss': { target: 'dismissing' } },
    },
    dismissing: {
      invoke: {
        id: 'keepDismissal',
        src: 'keepDismissal',
        onDone: { target: 'hidden' },
        onError: { target: 'hidden' },
      },
    },
    hidden: {},
    expired: {
      entry: 'tellExpired',
      type: 'final',
    },
  },
});

export type FamilyPushActor = ActorRefFrom<typeof familyPushMachine>;
type FamilyPushSnapshot = SnapshotFrom<typeof familyPushMachine>;

/** What the card shows. */
export type PushCard = 'none' | 'offer' | 'enabled' | 'receiving' | 'failed' | 'denied' | 'unsupported';

export function selectPushCard(s: FamilyPushSnapshot): PushCard {
  if (s.matches('offering') || s.matches('asking') || s.matches('subscribing')) return 'offer';
  if (s.matches('enabled')) return 'enabled';
  if (s.matches('receiving')) return 'receiving';
  if (s.matches('failed')) return 'failed';
  if (s.matches('denied')) return 'denied';
  if (s.matches('unsupported')) return 'unsupported';
  return 'none';
}
export const selectPushBusy = (s: FamilyPushSnapshot): boolean => s.hasTag('busy');
