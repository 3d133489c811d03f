// Pure token-time rules (SPEC §4, §8, §9), shared by the token machine, the session start-up check and
// the request gate. Times are epoch ms; "expired" includes the 500 ms safety margin before expiry.
import type { TokenTimes } from './contract';

export const TOKEN_SAFETY_MARGIN_MS = 500;
/** setTimeout's ceiling (~24.8 days); longer delays would fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

/** The token machine's view of the times (camelCase, as in `token.set`). */
export interface TokenExpiry {
  tokenExpiresAt: number;
  refreshExpiresAt: number;
}

export function toTokenExpiry(times: TokenTimes): TokenExpiry {
  return { tokenExpiresAt: times.token_expires_at, refreshExpiresAt: times.refresh_expires_at };
}

export function isAccessTokenValid(now: number, times: TokenExpiry): boolean {
  return now < times.tokenExpiresAt - TOKEN_SAFETY_MARGIN_MS;
}

export function isRefreshTokenValid(now: number, times: TokenExpiry): boolean {
  return now < times.refreshExpiresAt - TOKEN_SAFETY_MARGIN_MS;
}

/**
 * Whether a request may leave. Unknown times (no session yet) never block: the server decides.
 * Only when both tokens are expired is the request aborted (SPEC §8).
 */
export function canRequest(now: number, times: TokenExpiry | null): boolean {
  if (times === null) return true;
  return isAccessTokenValid(now, times) || isRefreshTokenValid(now, times);
}

/** Milliseconds until the access token must be refreshed (its expiry minus the margin), never negative. */
export function msUntilRefresh(now: number, times: TokenExpiry): number {
  return Math.min(MAX_TIMER_MS, Math.max(0, times.tokenExpiresAt - TOKEN_SAFETY_MARGIN_MS - now));
}
