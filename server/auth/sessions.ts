// Server-side sessions: one row per signed-in browser holding the hashes of its access and refresh tokens.
import { and, eq, gt, lt, or, sql } from 'drizzle-orm';
import { ACCESS_POLICY } from '../../shared/contract';
import type { Db, Queryable } from '../db/client';
import { sessions, userPolicies, userRoles, users } from '../db/schema/auth';
import { hashToken, newToken } from './tokens';

export interface Lifetimes {
  tokenTtlS: number;
  refreshTtlS: number;
}

/** A session as its CSRF token knows it (server/auth/xsrf.ts): its row and when it began, in epoch ms. */
export interface SessionRef {
  id: number;
  startedAt: number;
}

export interface IssuedTokens {
  access: string;
  refresh: string;
  accessExpiresAt: Date;
  refreshExpiresAt: Date;
  /** The session the tokens open, for the CSRF token issued with them. */
  session: SessionRef;
}

export interface ActiveSession {
  sessionId: number;
  /** When the session began (epoch ms); with the id, what its CSRF token is bound to. */
  sessionStartedAt: number;
  userId: number;
  institutionId: number;
  /** False once the user's `hermes-acceder-sistema` policy was revoked. */
  hasAccess: boolean;
  /** The user's role codes, read with the session so a role check costs no query of its own. */
  roles: string[];
}

function issue(lifetimes: Lifetimes, now: Date): Omit<IssuedTokens, 'session'> {
  return {
    access: newToken(),
    refresh: newToken(),
    accessExpiresAt: new Date(now.getTime() + lifetimes.tokenTtlS * 1000),
    refreshExpiresAt: new Date(now.getTime() + lifetimes.refreshTtlS * 1000),
  };
}

export async function createSession(
  db: Queryable,
  userId: number,
  lifetimes: Lifetimes,
  meta: { userAgent: string | null; ip: string | null },
  now = new Date(),
): Promise<IssuedTokens> {
  const tokens = issue(lifetimes, now);
  // Housekeeping on the way in: this user's dead sessions go.
  await db.delete(sessions).where(and(eq(sessions.userId, userId), lt(sessions.refreshExpiresAt, now)));
  const [row] = await db
    .insert(sessions)
    .values({
      userId,
      accessHash: hashToken(tokens.access),
      refreshHash: hashToken(tokens.refresh),
      accessExpiresAt: tokens.accessExpiresAt,
      refreshExpiresAt: tokens.refreshExpiresAt,
      userAgent: meta.userAgent?.slice(0, 512) ?? null,
      ip: meta.ip,
    })
    .returning({ id: sessions.id, createdAt: sessions.createdAt });
  return { ...tokens, session: { id: row!.id, startedAt: row!.createdAt.getTime() } };
}

/**
 * The lookup every signed-in request makes, built once per database instead of on each request: a prepared
 * query (on PostgreSQL each connection also plans it once). It still reads the session, the user's status, the
 * access policy and the roles on every request, so a sign-out, a deactivation or a revoked policy counts from
 * the next one. Only an active user's session is found: a deactivated account is out at its next request,
 * whichever process deactivated it and even if a session row outlived the deactivation.
 */
function activeSessionQuery(db: Db) {
  return db
    .select({
      sessionId: sessions.id,
      startedAt: sessions.createdAt,
      userId: users.id,
      institutionId: users.institutionId,
      hasAccess: sql<boolean>`exists (select 1 from ${userPolicies} where ${userPolicies.userId} = ${users.id} and ${userPolicies.name} = ${ACCESS_POLICY})`,
      roles: sql<string[]>`array(select ${userRoles.code} from ${userRoles} where ${userRoles.userId} = ${users.id} order by 1)`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.accessHash, sql.placeholder('hash')),
        gt(sessions.accessExpiresAt, sql.placeholder('now')),
        eq(users.status, 'active'),
      ),
    )
    .limit(1)
    .prepare('hermes_active_session');
}

const activeSessionQueries = new WeakMap<Db, ReturnType<typeof activeSessionQuery>>();

/** The session behind an access token, when it exists and has not expired. */
export async function findActiveSession(db: Db, accessToken: string, now = new Date()): Promise<ActiveSession | null> {
  let query = activeSessionQueries.get(db);
  if (!query) {
    query = activeSessionQuery(db);
    activeSessionQueries.set(db, query);
  }
  const row = (await query.execute({ hash: hashToken(accessToken), now }))[0];
  if (!row) return null;
  const { startedAt, ...session } = row;
  return { ...session, sessionStartedAt: startedAt.getTime() };
}

/**
 * The session a browser's auth cookies belong to, expired or not (the CSRF check of a refresh comes with an
 * expired access token), or null when they name none: the browser is then as good as signed out.
 */
export async function findSessionRef(db: Db, tokens: { access?: string; refresh?: string }): Promise<SessionRef | null> {
  for (const [column, token] of [
    [sessions.accessHash, tokens.access],
    [sessions.refreshHash, tokens.refresh],
  ] as const) {
    if (!token) continue;
    const [row] = await db
      .select({ id: sessions.id, createdAt: sessions.createdAt })
      .from(sessions)
      .where(eq(column, hashToken(token)))
      .limit(1);
    if (row) return { id: row.id, startedAt: row.createdAt.getTime() };
  }
  return null;
}

/**
 * Swaps both tokens of the session holding this unexpired refresh token. One UPDATE, so a refresh token
 * works once: a replayed (stolen) one finds nothing. A deactivated user's session does not refresh.
 */
export async function rotateSession(db: Db, refreshToken: string, lifetimes: Lifetimes, now = new Date()): Promise<IssuedTokens | null> {
  const tokens = issue(lifetimes, now);
  const updated = await db
    .update(sessions)
    .set({
      accessHash: hashToken(tokens.access),
      refreshHash: hashToken(tokens.refresh),
      accessExpiresAt: tokens.accessExpiresAt,
      refreshExpiresAt: tokens.refreshExpiresAt,
      refreshedAt: now,
    })
    .where(
      and(
        eq(sessions.refreshHash, hashToken(refreshToken)),
        gt(sessions.refreshExpiresAt, now),
        sql`exists (select 1 from ${users} where ${users.id} = ${sessions.userId} and ${users.status} = 'active')`,
      ),
    )
    .returning({ id: sessions.id, createdAt: sessions.createdAt });
  const row = updated[0];
  return row ? { ...tokens, session: { id: row.id, startedAt: row.createdAt.getTime() } } : null;
}

/** Ends every session of a user (a deactivated account); returns how many. */
export async function deleteUserSessions(db: Queryable, userId: number): Promise<number> {
  const deleted = await db.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id });
  return deleted.length;
}

/** Ends the session identified by either token (the access token may already be expired). */
/** Ends the sessions the tokens name; returns them (who they belonged to), none when the tokens name none. */
export async function deleteSession(
  db: Queryable,
  tokens: { access?: string; refresh?: string },
): Promise<{ id: number; userId: number }[]> {
  const conditions = [
    tokens.access ? eq(sessions.accessHash, hashToken(tokens.access)) : undefined,
    tokens.refresh ? eq(sessions.refreshHash, hashToken(tokens.refresh)) : undefined,
  ].filter((c) => c !== undefined);
  if (conditions.length === 0) return [];
  return db
    .delete(sessions)
    .where(or(...conditions))
    .returning({ id: sessions.id, userId: sessions.userId });
}

export async function deleteSessionById(db: Db, sessionId: number): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}

/** Removes sessions whose refresh token expired; returns how many. Run periodically by main.ts. */
export async function deleteExpiredSessions(db: Db, now = new Date()): Promise<number> {
  const deleted = await db.delete(sessions).where(lt(sessions.refreshExpiresAt, now)).returning({ id: sessions.id });
  return deleted.length;
}
