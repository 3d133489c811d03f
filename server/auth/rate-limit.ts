// Sliding-window rate limits kept in the database (rate_limit_hits), so every server on it counts the same
// attempts: a limit kept in one process's memory lets a client that is spread over several servers (a load
// balancer does that) try several times as often. A limit is data ({ scope, max, windowMs }); each attempt
// is a row, and a key may have at most `max` rows younger than the window.
import { and, eq, lt, sql } from 'drizzle-orm';
import type { ServerConfig } from '../config';
import type { Db, Queryable } from '../db/client';
import { rowsOf } from '../db/sql';
import { rateLimitHits } from '../db/schema/auth';

export interface RateLimit {
  /** Which limit (`login`, `app-code-ip`, …): the same key counts separately under each. */
  scope: string;
  max: number;
  windowMs: number;
}

const APP_WINDOW_MS = 10 * 60_000;
const RESET_WINDOW_MS = 60 * 60_000;
/** Ten guesses at a 59-bit code in ten minutes: enough for typos, nothing for a guesser. */
const SETUP_CODES_PER_IP = 10;

/** Every limit the server applies, from its settings. */
export function rateLimits(config: ServerConfig) {
  return {
    /** Failed logins per e-mail and IP. */
    login: { scope: 'login', max: config.loginMaxFailures, windowMs: config.loginWindowS * 1000 },
    /** Guardian-app code requests per client IP, whichever the phones (each known phone costs an SMS). */
    appCodeIp: { scope: 'app-code-ip', max: config.appCodesPerIp, windowMs: APP_WINDOW_MS },
    /** Wrong guardian-app codes per client IP, whichever the phones. */
    appWrongCodeIp: { scope: 'app-wrong-code-ip', max: config.appWrongCodesPerIp, windowMs: APP_WINDOW_MS },
    /** Password reset links asked for one address, whoever asks (each may send an e-mail). */
    resetEmail: { scope: 'password-reset-email', max: 3, windowMs: RESET_WINDOW_MS },
    /** Password reset links one client IP asks for, whichever the addresses. */
    resetIp: { scope: 'password-reset-ip', max: 20, windowMs: RESET_WINDOW_MS },
    /** Setup codes per client IP on an install still without a school (a right code is not counted). */
    setupCodeIp: { scope: 'setup-code-ip', max: SETUP_CODES_PER_IP, windowMs: APP_WINDOW_MS },
    /** Single sign-on starts and callbacks per client IP. */
    ssoIp: { scope: 'sso-ip', max: config.ssoPerIp, windowMs: APP_WINDOW_MS },
  } satisfies Record<string, RateLimit>;
}

/** Hits older than this are no use to any limit: what the hourly clean-up may delete. */
export function rateLimitHorizon(config: ServerConfig, now: Date): Date {
  const longest = Math.max(...Object.values(rateLimits(config)).map((l) => l.windowMs));
  return new Date(now.getTime() - longest);
}

/** Seconds until the key may try again: 0 while it has fewer than `max` hits inside the window. */
export async function retryAfterS(db: Queryable, limit: RateLimit, key: string, now: Date): Promise<number> {
  // The max-th newest hit in the window: while it exists the key is full, until it leaves the window.
  const [row] = rowsOf<{ at: string | Date }>(
    await db.execute(sql`
      select at from ${rateLimitHits}
      where scope = ${limit.scope} and key = ${key} and at > ${new Date(now.getTime() - limit.windowMs).toISOString()}::timestamptz
      order by at desc offset ${limit.max - 1} limit 1`),
  );
  if (!row) return 0;
  return Math.max(1, Math.ceil((new Date(row.at).getTime() + limit.windowMs - now.getTime()) / 1000));
}

/**
 * Counts one attempt of the key, unless it has used up the window: 0 when counted, else the seconds to wait
 * (and nothing counted). Counting before the attempt is worked, under a lock per key, is what stops
 * attempts sent at once, to one server or several, from all passing a check none of them has yet counted.
 */
export async function hit(db: Db, limit: RateLimit, key: string, now: Date): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`rate-limit:${limit.scope}:${key}`}))`);
    const wait = await retryAfterS(tx, limit, key, now);
    if (wait > 0) return wait;
    await tx.insert(rateLimitHits).values({ scope: limit.scope, key, at: now });
    return 0;
  });
}

/** Takes back one counted attempt of the key that turned out not to count (a right code). */
export async function unhit(db: Queryable, limit: RateLimit, key: string): Promise<void> {
  await db.execute(sql`
    delete from ${rateLimitHits} where id = (
      select id from ${rateLimitHits} where scope = ${limit.scope} and key = ${key} order by at desc, id desc limit 1)`);
}

/** Forgets the key's attempts (a successful login). */
export async function reset(db: Queryable, limit: RateLimit, key: string): Promise<void> {
  await db.delete(rateLimitHits).where(and(eq(rateLimitHits.scope, limit.scope), eq(rateLimitHits.key, key)));
}

/** The hourly clean-up: hits older than `before` (see rateLimitHorizon) count for nothing. */
export async function deleteOldRateLimitHits(db: Queryable, before: Date): Promise<number> {
  const deleted = await db.delete(rateLimitHits).where(lt(rateLimitHits.at, before)).returning({ id: rateLimitHits.id });
  return deleted.length;
}
