// Notifications on the guardian's device (family/push.ts): the app's own card first, the browser's question
// only after «Activar avisos»; allowed before, renewed without a card; blocked or impossible, a card that says
// how to turn them on later; «Ahora no» and «Entendido» remembered for 30 days; a subscription that fails
// can be retried; a 401 ends the actor and tells `session.expired`, exactly once. In «Avisos» (place
// 'settings') the guardian came to turn them on: «Ahora no» does not hide the offer, a phone that has a
// subscription says it receives them, and blocked or impossible says so.
import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { describe, expect, it } from 'vitest';
import { FamilyFailureError } from '../../src/services/family/api';
import type { PushStart } from '../../src/services/family/push';
import { DISMISSAL_DAYS, familyPushMachine, isDismissalCurrent, selectPushBusy, selectPushCard } from '../../src/machines/family/push';
import { defineModelTests, send, settle, T0, type StepEnv } from './harness';

type Snapshot = Parameters<typeof selectPushCard>[0];
const snap = (s: AnyMachineSnapshot) => s as unknown as Snapshot;

const failure = (status: number, code: string) => new FamilyFailureError({ status, code, message: '', fieldErrors: {} });
const OFFLINE = failure(0, 'network');
const EXPIRED = failure(401, 'auth.unauthenticated');

const DAY = 24 * 60 * 60 * 1000;
const start = (fields: Partial<PushStart>): PushStart => ({
  supported: true,
  permission: 'default',
  subscribed: false,
  dismissedAt: null,
  checkedAt: T0,
  ...fields,
});
const FIRST_TIME = start({});
const GRANTED = start({ permission: 'granted', dismissedAt: T0 - DAY });
const DENIED = start({ permission: 'denied' });
const UNSUPPORTED = start({ supported: false });
const DISMISSED_YESTERDAY = start({ dismissedAt: T0 - DAY });
const DISMISSED_LONG_AGO = start({ dismissedAt: T0 - (DISMISSAL_DAYS + 1) * DAY });
const DENIED_DISMISSED = start({ permission: 'denied', dismissedAt: T0 - DAY });
const RECEIVING = start({ permission: 'granted', subscribed: true });
const GRANTED_UNSUBSCRIBED_DISMISSED = start({ permission: 'granted', subscribed: false, dismissedAt: T0 - DAY });
const STARTS = [
  FIRST_TIME,
  GRANTED,
  DENIED,
  UNSUPPORTED,
  DISMISSED_YESTERDAY,
  DISMISSED_LONG_AGO,
  DENIED_DISMISSED,
  RECEIVING,
  GRANTED_UNSUBSCRIBED_DISMISSED,
];

/** The test's own account of the 30 days, on the clock as the device read it. */
const dismissedRecently = (s: PushStart) => s.dismissedAt !== null && s.checkedAt - s.dismissedAt < 30 * DAY;

function emits({ event }: StepEnv): AnyEventObject[] {
  const error = (event as { error?: unknown }).error;
  return event.type.startsWith('xstate.error.actor.') && error === EXPIRED ? [{ type: 'session.expired' }] : [];
}

defineModelTests({
  name: 'family-push',
  machine: familyPushMachine,
  oracle: {
    initial: 'checking',
    targets: {
      checking: {
        'xstate.done.actor.readPushStart': ({ event, context }) => {
          const found = event.output as PushStart;
          if (context.place === 'settings') {
            // The guardian came here to turn them on: whatever «Ahora no» said.
            if (!found.supported) return 'unsupported';
            if (found.permission === 'denied') return 'denied';
            return found.permission === 'granted' && found.subscribed ? 'receiving' : 'offering';
          }
          if (found.permission === 'granted') return 'renewing';
          if (dismissedRecently(found)) return 'hidden';
          if (!found.supported) return 'unsupported';
          return found.permission === 'denied' ? 'denied' : 'offering';
        },
        'xstate.error.actor.readPushStart': 'hidden',
      },
      offering: { 'push.enable': 'asking', 'push.dismiss': 'dismissing' },
      asking: {
        'xstate.done.actor.askPermission': ({ event }) =>
          event.output === 'granted' ? 'subscribing' : event.output === 'denied' ? 'denied' : 'offering',
        'xstate.error.actor.askPermission': 'unsupported',
      },
      subscribing: {
        'xstate.done.actor.subscribePush': 'enabled',
        'xstate.error.actor.subscribePush': ({ event }) => (event.error === EXPIRED ? 'expired' : 'failed'),
      },
      renewing: {
        'xstate.done.actor.renewPush': 'hidden',
        'xstate.error.actor.renewPush': ({ event }) => (event.error === EXPIRED ? 'expired' : 'hidden'),
      },
      enabled: { 'push.dismiss': 'hidden' },
      failed: { 'push.enable': 'subscribing', 'push.dismiss': 'dismissing' },
      denied: { 'push.dismiss': 'dismissing' },
      unsupported: { 'push.dismiss': 'dismissing' },
      dismissing: { 'xstate.done.actor.keepDismissal': 'hidden', 'xstate.error.actor.keepDismissal': 'hidden' },
    },
  },
  traversal: {
    input: { token: 'tok' },
    events: [{ type: 'push.enable' }, { type: 'push.dismiss' }],
    internal: [
      ...STARTS.map((output) => ({
        type: 'xstate.done.actor.readPushStart',
        output,
      })),
      { type: 'xstate.error.actor.readPushStart', error: new Error('storage') },
      { type: 'xstate.done.actor.askPermission', output: 'granted' },
      { type: 'xstate.done.actor.askPermission', output: 'denied' },
      { type: 'xstate.done.actor.askPermission', output: 'default' },
      { type: 'xstate.error.actor.askPermission', error: new TypeError('Notification is not defined') },
      { type: 'xstate.done.actor.subscribePush', output: undefined },
      { type: 'xstate.error.actor.subscribePush', error: OFFLINE },
      { type: 'xstate.error.actor.subscribePush', error: EXPIRED },
      { type: 'xstate.done.actor.renewPush', output: undefined },
      { type: 'xstate.error.actor.renewPush', error: OFFLINE },
      { type: 'xstate.error.actor.renewPush', error: EXPIRED },
      { type: 'xstate.done.actor.keepDismissal', output: undefined },
      { type: 'xstate.error.actor.keepDismissal', error: new Error('quota') },
    ],
    limit: 5000,
  },
  variants: [
    { name: 'the card', traversal: {} },
    { name: 'in «Avisos»', traversal: { input: { token: 'tok', place: 'settings' } } },
  ],
  createActor: ({ fakes, inspect, machine, path }) =>
    createActor(
      machine.provide({
        actors: {
          readPushStart: fakes.promise(),
          askPermission: fakes.promise(),
          subscribePush: fakes.promise(),
          keepDismissal: fakes.promise(),
        },
      }),
      { input: path.input as { token: string; place?: 'card' | 'settings' }, inspect },
    ),
  states: {
    checking: (s, env) => {
      expect(selectPushCard(snap(s))).toBe('none');
      expect(env.fakes.isRunning('readPushStart')).toBe(true);
    },
    offering: (s, env) => {
      // The card, not the browser's question.
      expect(env.fakes.isRunning('askPermission')).toBe(false);
      expect(selectPushCard(snap(s))).toBe('offer');
      expect(selectPushBusy(snap(s))).toBe(false);
    },
    asking: (s, env) => {
      // The browser's question only now, after the guardian's «Activar avisos».
      expect(env.history.some((event) => event.type === 'push.enable')).toBe(true);
      expect(env.fakes.isRunning('askPermission')).toBe(true);
      expect(selectPushCard(snap(s))).toBe('offer');
      expect(selectPushBusy(snap(s))).toBe(true);
    },
    subscribing: (s, env) => {
      expect(env.fakes.inputOf('subscribePush')).toEqual({ token: 'tok' });
      expect(selectPushCard(snap(s))).toBe('offer');
      expect(selectPushBusy(snap(s))).toBe(true);
    },
    renewing: (s, env) => {
      expect(env.fakes.inputOf('renewPush')).toEqual({ token: 'tok' });
      expect(selectPushCard(snap(s))).toBe('none');
    },
    enabled: (s) => expect(selectPushCard(snap(s))).toBe('enabled'),
    receiving: (s, env) => {
      expect(selectPushCard(snap(s))).toBe('receiving');
      expect(env.fakes.isRunning('subscribePush')).toBe(false);
    },
    failed: (s) => {
      expect(selectPushCard(snap(s))).toBe('failed');
      expect(selectPushBusy(snap(s))).toBe(false);
    },
    denied: (s) => expect(selectPushCard(snap(s))).toBe('denied'),
    unsupported: (s) => expect(selectPushCard(snap(s))).toBe('unsupported'),
    dismissing: (s, env) => {
      expect(env.history.some((event) => event.type === 'push.dismiss')).toBe(true);
      expect(env.fakes.isRunning('keepDismissal')).toBe(true);
      expect(selectPushCard(snap(s))).toBe('none');
    },
    hidden: (s) => {
      expect(selectPushCard(snap(s))).toBe('none');
      expect(s.status).toBe('active');
    },
    expired: (s) => {
      expect(selectPushCard(snap(s))).toBe('none');
      expect(s.status).toBe('done');
    },
  },
  events: {
    'push.enable': send,
    'push.dismiss': send,
    'xstate.done.actor.readPushStart': settle,
    'xstate.error.actor.readPushStart': settle,
    'xstate.done.actor.askPermission': settle,
    'xstate.error.actor.askPermission': settle,
    'xstate.done.actor.subscribePush': settle,
    'xstate.error.actor.subscribePush': settle,
    'xstate.done.actor.renewPush': settle,
    'xstate.error.actor.renewPush': settle,
    'xstate.done.actor.keepDismissal': settle,
    'xstate.error.actor.keepDismissal': settle,
  },
  emits,
});

describe('«Ahora no» is remembered', () => {
  it('for 30 days from when it was chosen, and not for a time in the future (a clock that moved)', () => {
    expect(isDismissalCurrent(null, T0)).toBe(false);
    expect(isDismissalCurrent(T0, T0)).toBe(true);
    expect(isDismissalCurrent(T0 - 30 * DAY + 1, T0)).toBe(true);
    expect(isDismissalCurrent(T0 - 30 * DAY, T0)).toBe(false);
    expect(isDismissalCurrent(T0 + DAY, T0)).toBe(false);
  });
});
