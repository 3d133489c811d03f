// Sign-in codes of the guardian app: a 6-digit code sent by SMS to the guardian's phone, of which only the
// SHA-256 is kept. Requests are answered the same whether or not the phone belongs to a guardian (no account
// enumeration): an unknown phone gets a code row too (never sent), so the throttle behaves identically.
import { textList } from '../db/arrays';
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db, Queryable } from '../db/client';
import { rowsOf } from '../db/sql';
import { appLoginCodes } from '../db/schema/auth';
import { normalizePhone } from '../recipients/phone';
import type { Locale } from '../../shared/contract';

const CODE_TTL_MS = 10 * 60_000;
/** At most this many codes per phone per CODE_TTL_MS. */
const CODES_PER_WINDOW = 3;
/** Wrong answers a code survives; the next one kills it. */
const MAX_ATTEMPTS = 5;

const CODE_DIGITS = 6;

const hashCode = (code: string): string => createHash('sha256').update(code).digest('base64url');

/** The stored phone format (guardians_phone_e164_check). */
const E164 = /^\+[1-9][0-9]{7,14}$/;

/**
 * E.164 forms a typed phone may stand for: read as Chilean, then Mexican (a "+" prefix wins either way),
 * and a number written in E.164 as is, even where the numbering plan data doubts it: the guardian row
 * holds whatever the school registered, and the lookup only has to match it.
 */
export function phoneCandidates(raw: string): string[] {
  const found = new Set<string>();
  for (const country of ['CL', 'MX'] as const) {
    const result = normalizePhone(raw, country);
    if (result.ok) found.add(result.e164);
  }
  const compact = raw.trim().replace(/[\s().\-/]/g, '');
  if (E164.test(compact)) found.add(compact);
  return [...found];
}

export interface CodeGuardian {
  id: number;
  name: string;
  institutionId: number;
  institutionName: string;
  /** The school's locale: the app speaks it once signed in. */
  institutionLocale: Locale;
  phone: string;
}

/**
 * The guardian a phone signs in as. Several guardian rows can share a phone (a parent registered twice, or
 * in two schools): the most recently created one (highest id) wins, so the choice is stable.
 */
async function guardianByPhone(db: Queryable, phones: string[]): Promise<CodeGuardian | null> {
  if (phones.length === 0) return null;
  const result = await db.execute(sql`
    select g.id, concat_ws(' ', split_part(g.first_names, ' ', 1), g.last_name_father, nullif(g.last_name_mother, '')) as name,
      g.institution_id, i.name as institution_name, i.locale as institution_locale, g.phone
    from guardians g join institutions i on i.id = g.institution_id
    where g.phone = any(${textList(phones)}::text[])
    order by g.id desc limit 1`);
  const row = rowsOf<{
    id: number;
    name: string;
    institution_id: number;
    institution_name: string;
    institution_locale: Locale;
    phone: string;
  }>(result)[0];
  return row
    ? {
        id: Number(row.id),
        name: row.name,
        institutionId: Number(row.institution_id),
        institutionName: row.institution_name,
        institutionLocale: row.institution_locale,
        phone: row.phone,
      }
    : null;
}

export type CodeRequest =
  | { kind: 'throttled'; retryAfterS: number }
  /** `guardian` null: the phone is nobody's; the code was recorded but must not be sent. */
  | { kind: 'issued'; codeId: number; code: string; guardian: CodeGuardian | null; phone: string };

/** Records a new code for the phone unless the window's quota is used up. */
export async function issueCode(db: Db, phones: string[], now: Date): Promise<CodeRequest> {
  return db.transaction(async (tx) => {
    const guardian = await guardianByPhone(tx, phones);
    // The number the code is bound to: the guardian's, else the first reading of what was typed.
    const phone = guardian?.phone ?? phones[0]!;
    // Serialises requests for one phone, so concurrent requests cannot slip past the throttle.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`app-code:${phone}`}))`);
    const since = new Date(now.getTime() - CODE_TTL_MS);
    const recent = rowsOf<{ n: number; oldest: string | Date | null }>(
      await tx.execute(sql`
        select count(*)::int as n, min(created_at) as oldest from ${appLoginCodes}
        where phone = ${phone} and created_at > ${since.toISOString()}::timestamptz`),
    )[0]!;
    if (Number(recent.n) >= CODES_PER_WINDOW) {
      const oldest = new Date(recent.oldest!).getTime();
      return { kind: 'throttled', retryAfterS: Math.max(1, Math.ceil((oldest + CODE_TTL_MS - now.getTime()) / 1000)) };
    }
    const code = String(randomInt(0, 10 ** CODE_DIGITS)).padStart(CODE_DIGITS, '0');
    const [row] = await tx
      .insert(appLoginCodes)
      .values({ phone, codeHash: hashCode(code), createdAt: now, expiresAt: new Date(now.getTime() + CODE_TTL_MS) })
      .returning({ id: appLoginCodes.id });
    return { kind: 'issued', codeId: row!.id, code, guardian, phone };
  });
}

export type CodeCheck = { ok: true; guardian: CodeGuardian } | { ok: false };

/**
 * Checks `code` against the latest live code of the phone. A wrong answer costs an attempt (committed even
 * though the check fails); the MAX_ATTEMPTS-th wrong answer leaves the code dead. A right one consumes it.
 */
export async function checkCode(db: Db, phones: string[], code: string, now: Date): Promise<CodeCheck> {
  if (phones.length === 0) return { ok: false };
  return db.transaction(async (tx) => {
    const guardian = await guardianByPhone(tx, phones);
    const phone = guardian?.phone ?? phones[0]!;
    const [row] = rowsOf<{ id: number; code_hash: string; attempts: number; unexpired: boolean }>(
      await tx.execute(sql`
        select id, code_hash, attempts, expires_at > ${now.toISOString()}::timestamptz as unexpired
        from ${appLoginCodes}
        where phone = ${phone} and consumed_at is null
        order by created_at desc, id desc limit 1 for update`),
    );
    if (!row?.unexpired || Number(row.attempts) >= MAX_ATTEMPTS) return { ok: false };
    const given = Buffer.from(hashCode(code));
    const stored = Buffer.from(row.code_hash);
    const matches = given.length === stored.length && timingSafeEqual(given, stored);
    if (!matches || !guardian) {
      await tx.execute(sql`update ${appLoginCodes} set attempts = attempts + 1 where id = ${row.id}`);
      return { ok: false };
    }
    await tx.execute(sql`update ${appLoginCodes} set consumed_at = ${now.toISOString()}::timestamptz where id = ${row.id}`);
    return { ok: true, guardian };
  });
}
