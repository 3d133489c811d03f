// Token status (SPEC §4): unknown, valid, refreshing, expired. Refreshes 500 ms before the access token
// expires while the refresh token lives; otherwise tells the user and asks the session to reset.
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
  | { type: 'token.check' };

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
      },
    },
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
/** For the request gate: may a request leave now? */
export const selectCanRequest = (snapshot: TokenSnapshot): boolean => canRequest(snapshot.context.now(), timesOf(snapshot.context));
