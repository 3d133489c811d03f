// Bearer tokens of the guardian app (app_tokens): 32 random bytes handed to the device once, only their
// SHA-256 kept (server/auth/tokens.ts), valid 90 days.
import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Queryable } from '../db/client';
import { newToken, hashToken } from '../auth/tokens';
import { rowsOf } from '../db/sql';
import { appLoginCodes, appTokens } from '../db/schema/auth';
import { guardians } from '../db/schema/school';

const APP_TOKEN_TTL_MS = 90 * 24 * 3600_000;
/** `last_used_at` is refreshed at most this often, so reads do not turn every call into a write. */
const LAST_USED_GRANULARITY_MS = 60_000;

export interface GuardianAuth {
  tokenId: number;
  guardianId: number;
  institutionId: number;
  name: string;
}

/** Signs the guardian in: a new token, and the app counts as installed from now on. */
export async function openSession(db: Queryable, guardian: { id: number; institutionId: number }, now: Date) {
  const token = newToken();
  const expiresAt = new Date(now.getTime() + APP_TOKEN_TTL_MS);
  await db.insert(appTokens).values({
    institutionId: guardian.institutionId,
    personKind: 'apoderado',
    personId: guardian.id,
    tokenHash: hashToken(token),
    createdAt: now,
    expiresAt,
  });
  await db
    .update(guardians)
    .set({ appInstalledAt: now })
    .where(and(eq(guardians.id, guardian.id), isNull(guardians.appInstalledAt)));
  return { token, expiresAt };
}

/** The guardian behind a live token; null for unknown, expired or non-guardian tokens. */
export async function authenticate(db: Queryable, token: string, now: Date): Promise<GuardianAuth | null> {
  const result = await db.execute(sql`
    select t.id, t.person_id, t.institution_id, t.last_used_at,
      concat_ws(' ', split_part(g.first_names, ' ', 1), g.last_name_father, nullif(g.last_name_mother, '')) as name
    from ${appTokens} t join ${guardians} g on g.id = t.person_id and g.institution_id = t.institution_id
    where t.token_hash = ${hashToken(token)} and t.person_kind = 'apoderado'
      and t.expires_at > ${now.toISOString()}::timestamptz`);
  const row = rowsOf<{ id: number; person_id: number; institution_id: number; last_used_at: string | Date | null; name: string }>(
    result,
  )[0];
  if (!row) return null;
  const stale = new Date(now.getTime() - LAST_USED_GRANULARITY_MS);
  if (row.last_used_at === null || new Date(row.last_used_at) < stale) {
    await db
      .update(appTokens)
      .set({ lastUsedAt: now })
      .where(and(eq(appTokens.id, row.id), or(isNull(appTokens.lastUsedAt), lt(appTokens.lastUsedAt, stale))));
  }
  return { tokenId: Number(row.id), guardianId: Number(row.person_id), institutionId: Number(row.institution_id), name: row.name };
}

/** Sign-out: the token stops working at once (its row is kept, expired, for the record). */
export async function revokeToken(db: Queryable, tokenId: number, now: Date): Promise<void> {
  await db
    .update(appTokens)
    .set({ expiresAt: now })
    .where(and(eq(appTokens.id, tokenId), gt(appTokens.expiresAt, now)));
}

/**
 * Expired app sessions and sign-in codes older than a day (the throttle only looks back 10 minutes): the
 * hourly sweep deletes them so the tables hold only what can still be used. Returns how many went.
 */
export async function deleteStaleAppLogins(db: Queryable, now = new Date()): Promise<number> {
  const dayAgo = new Date(now.getTime() - 24 * 3600_000);
  const tokens = await db.delete(appTokens).where(lt(appTokens.expiresAt, now)).returning({ id: appTokens.id });
  const codes = await db.delete(appLoginCodes).where(lt(appLoginCodes.createdAt, dayAgo)).returning({ id: appLoginCodes.id });
  return tokens.length + codes.length;
}
