// Token status (SPEC §4): unknown, valid, refreshing, expired. Refreshes 500 ms before the access token
// expires while the refresh token lives, and at once when a request got 401 (`token.refresh`: a phone's tab
// woken before its timer fired); otherwise tells the user and asks the session to reset.
import { assertEvent, assign, emit, setup, type SnapshotFrom } from 'xstate';
import { refreshToken } from '../../services/session/auth';
import { TOKENS_EXPIRED_MESSAGE } from '../../services/http/client';
import { canRequest, isAccessTokenValid, isRefreshTokenValid, msUntilRefresh, type TokenExpiry } from '../../../shared/token-times';
import type { ResetReason } from './rules';
import type { ToastEvent } from '../app/effects';

export interface TokenInput {
  /** Injectable clock so tests are deterministic; Date.now otherwise. */
  now?: () => number;
}

export interface TokenContext {
  tokenExpiresAt: number | null;
  refreshExpiresAt: number | null;
  now: () => number;
}

export type TokenEvent =
  | ({ type: 'token.set' } & TokenExpiry)
  | { type: 'token.clear' }
  /** Sent by the request gate when it refused a request: both tokens are expired right now. */
  | { type: 'token.check' }
  /** A request got 401 (a tab woken before the timer fired): refresh now while the refresh token lives. */
  | { type: 'token.refresh' };

export type TokenEmitted = ToastEvent | { type: 'session.reset'; reason: ResetReason };

const timesOf = (context: TokenContext): TokenExpiry | null =>
  context.tokenExpiresAt === null || context.refreshExpiresAt === null
    ? null
    : { tokenExpiresAt: context.tokenExpiresAt, refreshExpiresAt: context.refreshExpiresAt };

export const tokenMachine = setup({
  types: {
    input: {} as TokenInput,
    context: {} as TokenContext,
    events: {} as TokenEvent,
    emitted: {} as TokenEmitted,
  },
  actors: { refreshToken },
  actions: {
    assignTimes: assign((_, params: TokenExpiry) => ({
      tokenExpiresAt: params.tokenExpiresAt,
      refreshExpiresAt: params.refreshExpiresAt,
    })),
    clearTimes: assign({ tokenExpiresAt: null, refreshExpiresAt: null }),
    // SPEC §8, verbatim and untranslated.
    toastAborted: emit({ type: 'toast', kind: 'error', key: 'session.aborted', message: TOKENS_EXPIRED_MESSAGE }),
    requestReset: emit((_, params: { reason: ResetReason }) => ({ type: 'session.reset' as const, reason: params.reason })),
  },
  guards: {
    canRefresh: ({ context }) => {
      const times = timesOf(context);
      return times !== null && isRefreshTokenValid(context.now(), times);
    },
    areBothExpired: ({ context }) => {
      const times = timesOf(context);
      return times !== null && !canRequest(context.now(), times);
    },
  },
  delays: {
    refreshDue: ({ context }) => {
      const times = timesOf(context);
      return times === null ? 0 : msUntilRefresh(context.now(), times);
    },
  },
}).createMachine({
  id: 'token',
  initial: 'unknown',
  context: ({ input }) => ({ tokenExpiresAt: null, refreshExpiresAt: null, now: input?.now ?? Date.now }),
  on: {
    // New times (login, start-up cookie) restart the timer from wherever the machine was.
    'token.set': {
      target: '.valid',
      reenter: true,
      actions: {
        type: 'assignTimes',
        params: ({ event }) => {
          assertEvent(event, 'token.set');
          return { tokenExpiresAt: event.tokenExpiresAt, refreshExpiresAt: event.refreshExpiresAt };
        },
      },
    },
    'token.clear': { target: '.unknown', actions: 'clearTimes' },
  },
  states: {
    unknown: {},
    valid: {
      after: {
        refreshDue: [
          { guard: 'canRefresh', target: 'refreshing' },
          { target: 'expired', actions: ['toastAborted', { type: 'requestReset', params: { reason: 'tokensExpired' } }] },
        ],
      },
      on: {
        'token.check': {
          guard: 'areBothExpired',
          target: 'expired',
          actions: ['toastAborted', { type: 'requestReset', params: { reason: 'tokensExpired' } }],
        },
        // The server refused the access token before the timer said so: the refresh token decides. The
        // request was sent and refused (SPEC §8's 401, not the gate's abort): the session says it expired.
        'token.refresh': [
          { guard: 'canRefresh', target: 'refreshing' },
          { target: 'expired', actions: { type: 'requestReset', params: { reason: 'refreshFailed' } } },
        ],
      },
    },
    // Every request that got 401 meanwhile waits for this one refresh (`token.refresh` is not taken here).
    refreshing: {
      invoke: {
        id: 'refreshToken',
        src: 'refreshToken',
        onDone: { target: 'valid', actions: { type: 'assignTimes', params: ({ event }) => event.output } },
        onError: { target: 'expired', actions: { type: 'requestReset', params: { reason: 'refreshFailed' } } },
      },
    },
    expired: {},
  },
});

export type TokenSnapshot = SnapshotFrom<typeof tokenMachine>;
export type TokenStatus = 'unknown' | 'valid' | 'refreshing' | 'expired';

export const selectTokenStatus = (snapshot: TokenSnapshot): TokenStatus => snapshot.value;
export const selectIsTokenValid = (snapshot: TokenSnapshot): boolean => {
  const times = timesOf(snapshot.context);
  return times !== null && snapshot.matches('valid') && isAccessTokenValid(snapshot.context.now(), times);
};
/**
 * How a refresh asked for by a 401 came out: still running, renewed (valid again), or not (anything else:
 * expired, or the session cleared meanwhile).
 */
export const selectRefreshOutcome = (snapshot: TokenSnapshot): 'pending' | 'renewed' | 'failed' =>
  snapshot.matches('refreshing') ? 'pending' : snapshot.matches('valid') ? 'renewed' : 'failed';
/** For the request gate: may a request leave now? */
export const selectCanRequest = (snapshot: TokenSnapshot): boolean => canRequest(snapshot.context.now(), timesOf(snapshot.context));
