import { createActor, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import { selectCanRequest, selectIsTokenValid, selectTokenStatus, tokenMachine, type TokenSnapshot } from '../../src/machines/token';
import { ApiFailureError, TOKENS_EXPIRED_MESSAGE } from '../../src/services/http';
import { defineModelTests, elapse, send, settle, T0, type StepEnv } from './harness';

const token = (snapshot: AnyMachineSnapshot) => snapshot as unknown as TokenSnapshot;

// Times relative to T0 chosen so the model (clock frozen at T0) and the real actor (clock advanced by
// the fake timers) reach the same guard results.
const LONG = { tokenExpiresAt: T0 + 60_000, refreshExpiresAt: T0 + 600_000 };
const ACCESS_EXPIRED = { tokenExpiresAt: T0 - 1_000, refreshExpiresAt: T0 + 600_000 };
const BOTH_EXPIRED = { tokenExpiresAt: T0 - 2_000, refreshExpiresAt: T0 - 1_000 };
const REFRESHED = { tokenExpiresAt: T0 + 1_800_000, refreshExpiresAt: T0 + 3_600_000 };

const refreshExpired = new ApiFailureError({ status: 401, code: 'auth.refresh_expired', message: 'expired', fieldErrors: {} });

const timesOf = (snapshot: AnyMachineSnapshot) => ({
  tokenExpiresAt: snapshot.context.tokenExpiresAt,
  refreshExpiresAt: snapshot.context.refreshExpiresAt,
});

/** The refresh call runs exactly while refreshing: leaving the state cancels it. */
function expectRefreshRunning(env: StepEnv, running: boolean) {
  expect(env.fakes.isRunning('refreshToken')).toBe(running);
}

defineModelTests({
  name: 'token',
  machine: tokenMachine,
  oracle: 'none yet',
  traversal: {
    events: [
      { type: 'token.set', ...LONG },
      { type: 'token.set', ...ACCESS_EXPIRED },
      { type: 'token.set', ...BOTH_EXPIRED },
      { type: 'token.clear' },
      { type: 'token.check' },
    ],
    internal: [
      { type: 'xstate.after.refreshDue.token.valid' },
      { type: 'xstate.done.actor.refreshToken', output: REFRESHED },
      { type: 'xstate.error.actor.refreshToken', error: refreshExpired },
    ],
    input: { now: () => T0 },
    limit: 500,
  },
  createActor: ({ fakes }) =>
    createActor(tokenMachine.provide({ actors: { refreshToken: fakes.promise() } }), { input: { now: () => Date.now() } }),
  states: {
    unknown: (snapshot, env) => {
      expect(selectTokenStatus(token(snapshot))).toBe('unknown');
      expect(timesOf(snapshot)).toEqual({ tokenExpiresAt: null, refreshExpiresAt: null });
      // Without times the gate never blocks: the server decides.
      expect(selectCanRequest(token(snapshot))).toBe(true);
      expectRefreshRunning(env, false);
    },
    valid: (snapshot, env) => {
      expect(selectTokenStatus(token(snapshot))).toBe('valid');
      if (env.event.type === 'token.set') {
        const { type: _type, ...times } = env.event;
        expect(timesOf(snapshot)).toEqual(times);
      }
      if (env.event.type === 'xstate.done.actor.refreshToken') expect(timesOf(snapshot)).toEqual(REFRESHED);
      expectRefreshRunning(env, false);
    },
    refreshing: (snapshot, env) => {
      expect(selectTokenStatus(token(snapshot))).toBe('refreshing');
      // Only a live refresh token is ever used.
      expect(snapshot.context.refreshExpiresAt).toBeGreaterThan(Date.now() + 500);
      expectRefreshRunning(env, true);
    },
    expired: (snapshot, env) => {
      expect(selectTokenStatus(token(snapshot))).toBe('expired');
      expect(selectIsTokenValid(token(snapshot))).toBe(false);
      // Entered because both tokens ran out: the gate must now refuse requests.
      const enteredByTime = !env.from.matches('expired') && env.event.type !== 'xstate.error.actor.refreshToken';
      if (enteredByTime) expect(selectCanRequest(token(snapshot))).toBe(false);
      expectRefreshRunning(env, false);
    },
  },
  events: {
    'token.set': send,
    'token.clear': send,
    'token.check': send,
    'xstate.after.refreshDue.token.valid': elapse,
    'xstate.done.actor.refreshToken': settle,
    'xstate.error.actor.refreshToken': settle,
  },
  emits: ({ from, to, event }) => {
    const enteredExpired = !from.matches('expired') && to.matches('expired');
    if (!enteredExpired) return [];
    if (event.type === 'xstate.error.actor.refreshToken') return [{ type: 'session.reset', reason: 'refreshFailed' }];
    // Both tokens gone: SPEC §8's message, verbatim, then the session reset.
    return [
      { type: 'toast', kind: 'error', key: 'session.aborted', message: TOKENS_EXPIRED_MESSAGE },
      { type: 'session.reset', reason: 'tokensExpired' },
    ];
  },
});
