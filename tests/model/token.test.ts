import { createActor, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import {
  selectCanRequest,
  selectIsTokenValid,
  selectTokenStatus,
  tokenMachine,
  type TokenSnapshot,
} from '../../src/machines/session/token';
import { ApiFailureError, TOKENS_EXPIRED_MESSAGE } from '../../src/services/http/client';
import { defineModelTests, elapse, send, settle, T0, type StepEnv } from './harness';

const token = (snapshot: AnyMachineSnapshot) => snapshot as unknown as TokenSnapshot;

// Times relative to T0 chosen so the model (clock frozen at T0) and the real actor (clock advanced by
// the fake timers) reach the same guard results.
const LONG = { tokenExpiresAt: T0 + 60_000, refreshExpiresAt: T0 + 600_000 };
const ACCESS_EXPIRED = { tokenExpiresAt: T0 - 1_000, refreshExpiresAt: T0 + 600_000 };
const BOTH_EXPIRED = { tokenExpiresAt: T0 - 2_000, refreshExpiresAt: T0 - 1_000 };
const REFRESHED = { tokenExpiresAt: T0 + 1_800_000, refreshExpiresAt: T0 + 3_600_000 };

/** SPEC §4: a token counts as expired 500 ms before its time. */
const MARGIN = 500;

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
  // SPEC §4 (500 ms margin) and §8: refresh when the access token is due while the refresh token lives.
  oracle: {
    initial: 'unknown',
    targets: {
      // New times (a login, the start-up cookie) count from now, whatever came before; a logout forgets them.
      '*': { 'token.set': 'valid', 'token.clear': 'unknown' },
      valid: {
        // Due 500 ms before the access token expires (at once if it already has): refreshed if the
        // refresh token still lives then, else the session is over.
        'xstate.after.refreshDue.token.valid': ({ context: { tokenExpiresAt, refreshExpiresAt } }) => {
          const due = Math.max(Date.now(), (tokenExpiresAt ?? 0) - MARGIN);
          return refreshExpiresAt !== null && due < refreshExpiresAt - MARGIN ? 'refreshing' : 'expired';
        },
        // The request gate refused a request: over only if both tokens are past their margin now.
        'token.check': ({ context, stay }) => {
          const now = Date.now();
          const alive = (expiresAt: number | null) => expiresAt !== null && now < expiresAt - MARGIN;
          return alive(context.tokenExpiresAt) || alive(context.refreshExpiresAt) ? stay : 'expired';
        },
        // A request got 401 (a tab woken before its timer fired, a token the server dropped): refresh now
        // if the refresh token lives past its margin, whatever the access token's own time says; else over.
        'token.refresh': ({ context }) =>
          context.refreshExpiresAt !== null && Date.now() < context.refreshExpiresAt - MARGIN ? 'refreshing' : 'expired',
      },
      // A 401 while a refresh runs waits for that one: no second refresh (no entry: it stays).
      refreshing: { 'xstate.done.actor.refreshToken': 'valid', 'xstate.error.actor.refreshToken': 'expired' },
    },
  },
  traversal: {
    events: [
      { type: 'token.set', ...LONG },
      { type: 'token.set', ...ACCESS_EXPIRED },
      { type: 'token.set', ...BOTH_EXPIRED },
      { type: 'token.clear' },
      { type: 'token.check' },
      { type: 'token.refresh' },
    ],
    internal: [
      { type: 'xstate.after.refreshDue.token.valid' },
      { type: 'xstate.done.actor.refreshToken', output: REFRESHED },
      { type: 'xstate.error.actor.refreshToken', error: refreshExpired },
    ],
    input: { now: () => T0 },
    limit: 500,
  },
  createActor: ({ fakes, machine }) =>
    createActor(machine.provide({ actors: { refreshToken: fakes.promise() } }), { input: { now: () => Date.now() } }),
  states: {
    unknown: (snapshot, env) => {
      expect(selectTokenStatus(token(snapshot))).toBe('unknown');
      expect(timesOf(snapshot)).toEqual({ tokenExpiresAt: null, refreshExpiresAt: null });
      // Without times the gate never blocks: the server decides.
      expect(selectCanRequest(token(snapshot))).toBe(true);
      expect(selectIsTokenValid(token(snapshot)), 'no token known').toBe(false);
      expectRefreshRunning(env, false);
    },
    valid: (snapshot, env) => {
      expect(selectTokenStatus(token(snapshot))).toBe('valid');
      // Valid for the views while the access token lives, SPEC §4's margin before its time.
      expect(selectIsTokenValid(token(snapshot))).toBe(Date.now() < snapshot.context.tokenExpiresAt - MARGIN);
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
      expect(selectIsTokenValid(token(snapshot)), 'while refreshing').toBe(false);
      expectRefreshRunning(env, true);
    },
    expired: (snapshot, env) => {
      expect(selectTokenStatus(token(snapshot))).toBe('expired');
      expect(selectIsTokenValid(token(snapshot))).toBe(false);
      // Entered because both tokens ran out: the gate must now refuse requests.
      const enteredByTime =
        !env.from.matches('expired') && env.event.type !== 'xstate.error.actor.refreshToken' && env.event.type !== 'token.refresh';
      if (enteredByTime) expect(selectCanRequest(token(snapshot))).toBe(false);
      expectRefreshRunning(env, false);
    },
  },
  events: {
    'token.set': send,
    'token.clear': send,
    'token.check': send,
    'token.refresh': send,
    'xstate.after.refreshDue.token.valid': elapse,
    'xstate.done.actor.refreshToken': settle,
    'xstate.error.actor.refreshToken': settle,
  },
  emits: ({ from, to, event }) => {
    const enteredExpired = !from.matches('expired') && to.matches('expired');
    if (!enteredExpired) return [];
    // A refresh that failed, or a 401 with no refresh token left to try: the session ends as after any 401.
    if (event.type === 'xstate.error.actor.refreshToken' || event.type === 'token.refresh') {
      return [{ type: 'session.reset', reason: 'refreshFailed' }];
    }
    // Both tokens gone: SPEC §8's message, verbatim, then the session reset.
    return [
      { type: 'toast', kind: 'error', key: 'session.aborted', message: TOKENS_EXPIRED_MESSAGE },
      { type: 'session.reset', reason: 'tokensExpired' },
    ];
  },
});
