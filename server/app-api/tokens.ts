// Bearer tokens of the guardian app (app_tokens): 32 random bytes handed to the device once, only their
// SHA-256 kept (server/auth/tokens.ts), valid 90 days. A token is its guardian row's (person_id, the row
// the code picked) and its phone's: every guardian row with that phone, in any school, is the session's
// too (docs/decisions/0208), so one sign-in shows a family all its schools.
import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Queryable } from '../db/client';
import { newToken, hashToken } from '../auth/tokens';
import { rowsOf } from '../db/sql';
import { appLoginCodes, appTokens } from '../db/schema/auth';
import { guardians } from '../db/schema/school';

const APP_TOKEN_TTL_MS = 90 * 24 * 3600_000;
/** `last_used_at` is refreshed at most this often, so reads do not turn every call into a write. */
const LAST_USED_GRANULARITY_MS = 60_000;

/** One guardian row of a session: a school's record of this person. */
interface GuardianRow {
  guardianId: number;
  institutionId: number;
  /** As this school registered them (a reply to this school is signed with it). */
  name: string;
}

/**
 * The session behind a token: its own row (the fields of GuardianRow, as before sessions spanned schools)
 * and `rows`, every guardian row of the session, its own first. What the app reads or does is looked up
 * over `rows`; an id outside them is a 404.
 */
export interface GuardianAuth extends GuardianRow {
  tokenId: number;
  rows: GuardianRow[];
}

/**
 * Signs the guardian in: a new token bound to the row and its phone, and the app counts as installed from
 * now on for every row of that phone (the same phone has it, whichever school writes). Without a phone
 * (tests, tools) the token reaches its own row only.
 */
export async function openSession(db: Queryable, guardian: { id: number; institutionId: number; phone?: string | null }, now: Date) {
  const phone = guardian.phone ?? null;
  const token = newToken();
  const expiresAt = new Date(now.getTime() + APP_TOKEN_TTL_MS);
  await db.insert(appTokens).values({
    institutionId: guardian.institutionId,
    personKind: 'apoderado',
    personId: guardian.id,
    phone,
    tokenHash: hashToken(token),
    createdAt: now,
    expiresAt,
  });
  await db
    .update(guardians)
    .set({ appInstalledAt: now })
    .where(
      and(
        phone === null ? eq(guardians.id, guardian.id) : or(eq(guardians.id, guardian.id), eq(guardians.phone, phone)),
        isNull(guardians.appInstalledAt),
      ),
    );
  return { token, expiresAt };
}

/**
 * The guardian rows behind a live token; null for unknown, expired or non-guardian tokens, and for a token
 * whose own row is gone, moved or no longer has the phone it signed in with (the school corrected a
 * mistyped number: whoever holds the old one must not keep reading that family; the phone's other rows do
 * not keep it alive).
 */
export async function authenticate(db: Queryable, token: string, now: Date): Promise<GuardianAuth | null> {
  const result = await db.execute(sql`
    select t.id, t.last_used_at, g.id as guardian_id, g.institution_id,
      concat_ws(' ', split_part(g.first_names, ' ', 1), g.last_name_father, nullif(g.last_name_mother, '')) as name
    from ${appTokens} t
    join ${guardians} own on own.id = t.person_id and own.institution_id = t.institution_id
      and (t.phone is null or own.phone = t.phone)
    join ${guardians} g on g.id = own.id or (t.phone is not null and g.phone = t.phone)
    where t.token_hash = ${hashToken(token)} and t.person_kind = 'apoderado'
      and t.expires_at > ${now.toISOString()}::timestamptz
    order by (g.id = own.id) desc, g.id desc`);
  const found = rowsOf<{ id: number; last_used_at: string | Date | null; guardian_id: number; institution_id: number; name: string }>(
    result,
  );
  const row = found[0];
  if (!row) return null;
  const stale = new Date(now.getTime() - LAST_USED_GRANULARITY_MS);
  if (row.last_used_at === null || new Date(row.last_used_at) < stale) {
    await db
      .update(appTokens)
      .set({ lastUsedAt: now })
      .where(and(eq(appTokens.id, row.id), or(isNull(appTokens.lastUsedAt), lt(appTokens.lastUsedAt, stale))));
  }
  const rows = found.map((r) => ({ guardianId: Number(r.guardian_id), institutionId: Number(r.institution_id), name: r.name }));
  return { tokenId: Number(row.id), ...rows[0]!, rows };
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
