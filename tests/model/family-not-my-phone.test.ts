// «No es mi teléfono» (family/not-my-phone.ts): asked, then confirmed or cancelled; confirmed, the server
// ends every session of the phone and the root hears `session.ended`, exactly once; offline or a server
// error keeps the question open with the failure said (try again or cancel); a 401 tells `session.expired`.
import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import { FamilyFailureError } from '../../src/services/family/api';
import { familyNotMyPhoneMachine, selectIsConfirming, selectIsEnding, selectReleaseFailure } from '../../src/machines/family/not-my-phone';
import { defineModelTests, send, settle, type StepEnv } from './harness';

type Snapshot = Parameters<typeof selectIsConfirming>[0];
const snap = (s: AnyMachineSnapshot) => s as unknown as Snapshot;

const failure = (status: number, code: string) => new FamilyFailureError({ status, code, message: '', fieldErrors: {} });
const OFFLINE = failure(0, 'network');
const SERVER = failure(500, 'server.error');
const EXPIRED = failure(401, 'auth.unauthenticated');

function emits({ event }: StepEnv): AnyEventObject[] {
  if (event.type === 'xstate.done.actor.endPhoneSessions') return [{ type: 'session.ended' }];
  const error = (event as { error?: unknown }).error;
  return event.type === 'xstate.error.actor.endPhoneSessions' && error === EXPIRED ? [{ type: 'session.expired' }] : [];
}

defineModelTests({
  name: 'family-not-my-phone',
  machine: familyNotMyPhoneMachine,
  oracle: {
    initial: 'idle',
    targets: {
      idle: { 'release.ask': 'confirming' },
      confirming: { 'release.confirm': 'ending', 'release.cancel': 'idle' },
      ending: {
        'xstate.done.actor.endPhoneSessions': 'ended',
        'xstate.error.actor.endPhoneSessions': ({ event }) => (event.error === EXPIRED ? 'expired' : 'confirming'),
      },
    },
  },
  traversal: {
    input: { token: 'tok' },
    events: [{ type: 'release.ask' }, { type: 'release.confirm' }, { type: 'release.cancel' }],
    internal: [
      { type: 'xstate.done.actor.endPhoneSessions', output: { sessions: 2, subscriptions: 1 } },
      { type: 'xstate.error.actor.endPhoneSessions', error: OFFLINE },
      { type: 'xstate.error.actor.endPhoneSessions', error: SERVER },
      { type: 'xstate.error.actor.endPhoneSessions', error: EXPIRED },
    ],
    limit: 2000,
  },
  createActor: ({ fakes, inspect, machine, path }) =>
    createActor(machine.provide({ actors: { endPhoneSessions: fakes.promise() } }), { input: path.input as { token: string }, inspect }),
  states: {
    idle: (s) => {
      expect(selectIsConfirming(snap(s))).toBe(false);
      expect(selectIsEnding(snap(s))).toBe(false);
      // Cancelled: the failure of a try before is not said any more.
      expect(selectReleaseFailure(snap(s))).toBeNull();
    },
    confirming: (s, env) => {
      expect(selectIsConfirming(snap(s))).toBe(true);
      expect(selectIsEnding(snap(s))).toBe(false);
      const error = (env.event as { error?: unknown }).error;
      if (env.event.type === 'xstate.error.actor.endPhoneSessions')
        expect(selectReleaseFailure(snap(s))).toBe(error === OFFLINE ? 'offline' : 'error');
      // Asked anew: nothing failed yet.
      if (env.from.matches('idle')) expect(selectReleaseFailure(snap(s))).toBeNull();
    },
    ending: (s, env) => {
      expect(selectIsEnding(snap(s))).toBe(true);
      expect(selectIsConfirming(snap(s))).toBe(true);
      expect(selectReleaseFailure(snap(s))).toBeNull();
      expect(env.fakes.inputOf('endPhoneSessions')).toEqual({ token: 'tok' });
    },
    ended: (s) => {
      expect(s.status).toBe('done');
    },
    expired: (s) => {
      expect(s.status).toBe('done');
    },
  },
  events: {
    'release.ask': send,
    'release.confirm': send,
    'release.cancel': send,
    'xstate.done.actor.endPhoneSessions': settle,
    'xstate.error.actor.endPhoneSessions': settle,
  },
  emits,
});
