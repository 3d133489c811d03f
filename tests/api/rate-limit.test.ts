// server/auth/rate-limit.ts on the real store, with the clock injected: the sliding window, Retry-After,
// reset and take-back, the clean-up, and hits from two "processes" at once never getting past the limit
// (on PostgreSQL two connection pools on one database, really concurrent; on PGlite one handle).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv, DEFAULT_CONFIG } from '../../server/config';
import {
  deleteOldRateLimitHits,
  hit,
  rateLimitHorizon,
  rateLimits,
  reset,
  retryAfterS,
  unhit,
  type RateLimit,
} from '../../server/auth/rate-limit';
import type { Db } from '../../server/db/client';
import { count } from './support/compose';
import { openSharedCopy } from './support/server';

let shared: Awaited<ReturnType<typeof openSharedCopy>>;
let dbs: [Db, Db];

beforeAll(async () => {
  shared = await openSharedCopy();
  dbs = shared.dbs;
});
afterAll(() => shared?.dispose());

const T0 = new Date('2026-03-02T12:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const limit = (scope: string): RateLimit => ({ scope, max: 3, windowMs: 60_000 });
const hitsOf = (scope: string, key: string) =>
  count(dbs[0], sql`select count(*)::int as n from rate_limit_hits where scope = ${scope} and key = ${key}`);

describe('rate limits in the database', () => {
  it('allows max hits in the window, then says how long until the oldest leaves it', async () => {
    const l = limit('window');
    expect(await hit(dbs[0], l, 'k', at(0))).toBe(0);
    expect(await hit(dbs[1], l, 'k', at(10_000))).toBe(0);
    expect(await retryAfterS(dbs[0], l, 'k', at(15_000))).toBe(0);
    expect(await hit(dbs[0], l, 'k', at(20_000))).toBe(0);
    expect(await retryAfterS(dbs[1], l, 'k', at(20_000))).toBe(40);
    // A refused hit is not counted: it does not push the wait further.
    expect(await hit(dbs[1], l, 'k', at(30_500))).toBe(30);
    expect(await hitsOf('window', 'k')).toBe(3);
    // The first hit leaves the window at 60 s: one slot, then full again until the second leaves at 70 s.
    expect(await retryAfterS(dbs[0], l, 'k', at(60_000))).toBe(0);
    expect(await hit(dbs[0], l, 'k', at(60_001))).toBe(0);
    expect(await retryAfterS(dbs[0], l, 'k', at(60_002))).toBe(10);
    // Other keys and other scopes count on their own.
    expect(await hit(dbs[0], l, 'other', at(60_002))).toBe(0);
    expect(await hit(dbs[0], { ...l, scope: 'window-2' }, 'k', at(60_002))).toBe(0);
  });

  it('waits at least a second, never 0, while refused', async () => {
    const l = limit('second');
    for (const ms of [0, 1, 2]) expect(await hit(dbs[0], l, 'k', at(ms))).toBe(0);
    expect(await retryAfterS(dbs[0], l, 'k', at(59_999))).toBe(1);
  });

  it('reset forgets a key; unhit takes back its latest hit only', async () => {
    const l = limit('reset');
    for (const ms of [0, 1, 2]) await hit(dbs[0], l, 'k', at(ms));
    await hit(dbs[0], l, 'kept', at(0));
    await reset(dbs[1], l, 'k');
    expect(await hitsOf('reset', 'k')).toBe(0);
    expect(await hitsOf('reset', 'kept')).toBe(1);

    for (const ms of [0, 1, 2]) await hit(dbs[0], l, 'k', at(ms));
    await unhit(dbs[1], l, 'k');
    expect(await retryAfterS(dbs[0], l, 'k', at(3))).toBe(0);
    // The one taken back was the newest: the oldest still sets the wait once full again.
    await hit(dbs[0], l, 'k', at(4));
    expect(await retryAfterS(dbs[0], l, 'k', at(5_000))).toBe(55);
  });

  it('hits from two processes at once never get past the limit', async () => {
    const l: RateLimit = { scope: 'race', max: 5, windowMs: 60_000 };
    const now = new Date();
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => hit(dbs[i % 2]!, l, 'k', now)));
    expect(answers.filter((wait) => wait === 0)).toHaveLength(5);
    expect(answers.filter((wait) => wait === 60)).toHaveLength(35);
    expect(await hitsOf('race', 'k')).toBe(5);
  });

  it('the clean-up deletes the hits older than the longest window, and only those', async () => {
    const now = new Date();
    const horizon = rateLimitHorizon(DEFAULT_CONFIG, now);
    // The forgotten password's hour is the longest of the default limits.
    expect(now.getTime() - horizon.getTime()).toBe(60 * 60_000);
    const { resetIp } = rateLimits(DEFAULT_CONFIG);
    await hit(dbs[0], resetIp, 'old', new Date(horizon.getTime() - 1));
    await hit(dbs[0], resetIp, 'young', new Date(horizon.getTime() + 1));
    expect(await deleteOldRateLimitHits(dbs[1], horizon)).toBeGreaterThanOrEqual(1);
    expect(await hitsOf(resetIp.scope, 'old')).toBe(0);
    expect(await hitsOf(resetIp.scope, 'young')).toBe(1);
  });

  it('the guardian app limits per IP are settings', () => {
    const { appCodeIp, appWrongCodeIp } = rateLimits(
      configFromEnv({ HERMES_APP_CODES_PER_IP: '200', HERMES_APP_WRONG_CODES_PER_IP: '40' }),
    );
    expect([appCodeIp.max, appWrongCodeIp.max]).toEqual([200, 40]);
    expect([DEFAULT_CONFIG.appCodesPerIp, DEFAULT_CONFIG.appWrongCodesPerIp]).toEqual([60, 30]);
    expect(() => configFromEnv({ HERMES_APP_CODES_PER_IP: '0' })).toThrow(/HERMES_APP_CODES_PER_IP debe ser un entero positivo/);
  });
});
