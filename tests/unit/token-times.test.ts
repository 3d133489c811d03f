import { describe, expect, it } from 'vitest';
import { canRequest, isAccessTokenValid, isRefreshTokenValid, msUntilRefresh, TOKEN_SAFETY_MARGIN_MS } from '../../shared/token-times';

const times = { tokenExpiresAt: 10_000, refreshExpiresAt: 20_000 };

describe('token times (SPEC §4, §8, §9)', () => {
  it('uses a 500 ms safety margin', () => {
    expect(TOKEN_SAFETY_MARGIN_MS).toBe(500);
    expect(isAccessTokenValid(9_499, times)).toBe(true);
    expect(isAccessTokenValid(9_500, times)).toBe(false);
    expect(isRefreshTokenValid(19_499, times)).toBe(true);
    expect(isRefreshTokenValid(19_500, times)).toBe(false);
  });

  it('refuses requests only when both tokens are expired', () => {
    expect(canRequest(0, null)).toBe(true);
    expect(canRequest(9_000, times)).toBe(true);
    expect(canRequest(15_000, times)).toBe(true);
    expect(canRequest(19_500, times)).toBe(false);
  });

  it('schedules the refresh at expiry minus the margin, never in the past', () => {
    expect(msUntilRefresh(0, times)).toBe(9_500);
    expect(msUntilRefresh(9_500, times)).toBe(0);
    expect(msUntilRefresh(50_000, times)).toBe(0);
    expect(msUntilRefresh(0, { tokenExpiresAt: Number.MAX_SAFE_INTEGER, refreshExpiresAt: 0 })).toBe(2_147_483_647);
  });
});
