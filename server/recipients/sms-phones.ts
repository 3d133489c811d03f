// The one phone rule: a guardian's number counts as reachable by SMS / WhatsApp — device status, the
// connectivity figures' reach, the course page's "Teléfono inválido", the call list — exactly when the
// delivery engine would text it (and the family has not texted "BAJA" on that channel, server/opt-outs/): `normalizePhone` (./phone.ts), the check the provider adapter makes before
// calling the provider (server/delivery/provider.ts), which fails a landline or an impossible number permanently
// (`not_mobile`, `invalid_number`). The E.164 pattern of `guardians_phone_e164_check` is only the stored
// format: a Santiago landline passes it and still never gets an SMS.
//
// libphonenumber cannot run in SQL, and parsing a school's ~5,000 numbers per request costs ~150 ms, so its
// verdict is stored on the guardian: `sms_phone` (the number it was taken for) and `sms_ok`. A verdict for
// another number than `phone` is stale and counts as no usable number until settled here (the seed writes
// verdicts with its rows; the migration leaves them to this; rows written by anything else are settled by
// the next screen that shows them, and by the server's start).
import { sql, type SQL } from 'drizzle-orm';
import { intList } from '../db/arrays';
import { transactionRetrying, type Queryable } from '../db/client';
import { rowsOf } from '../db/sql';
import { normalizePhone } from './phone';

/** Whether the delivery engine would send an SMS to this stored number (a '+' number parses whatever the default country). */
const smsOk = (phone: string | null): boolean => phone !== null && normalizePhone(phone, 'CL').ok;

/** The verdict columns for a guardian row being written. */
export const smsVerdict = (phone: string | null | undefined): { smsPhone: string | null; smsOk: boolean } => ({
  smsPhone: phone ?? null,
  smsOk: smsOk(phone ?? null),
});

/** SQL over a guardian row aliased `g`: its number is a mobile the engine could text (a verdict for its current phone). */
const smsNumberText = (g: string) => `coalesce(${g}.sms_ok and ${g}.sms_phone = ${g}.phone, false)`;
export const smsNumberSql = (g = 'g'): SQL => sql.raw(smsNumberText(g));

/** The number did not text "BAJA" on `channel` (server/opt-outs/): one primary-key probe. */
const notOptedOutText = (g: string, channel: 'sms' | 'whatsapp') =>
  `not exists (select 1 from channel_opt_outs oo where oo.channel = '${channel}' and oo.phone = ${g}.phone)`;

/**
 * SQL over a guardian row aliased `g`: the engine texts it — a mobile number that has not opted out of SMS.
 * The device status, the picker and the reach read this; a WhatsApp opt-out leaves SMS as it was.
 */
export const smsPhoneText = (g: string) => `(${smsNumberText(g)} and ${notOptedOutText(g, 'sms')})`;
export const smsPhoneSql = (g = 'g'): SQL => sql.raw(smsPhoneText(g));

/** The same for WhatsApp: a mobile number that has not opted out of WhatsApp. */
export const whatsappPhoneSql = (g = 'g'): SQL => sql.raw(`(${smsNumberText(g)} and ${notOptedOutText(g, 'whatsapp')})`);

/** The guardians whose phone has no verdict yet (guardians_sms_stale_idx); the bench prints its plan. */
export function staleSmsPhonesSql(institutionId: number | null): SQL {
  const only = institutionId === null ? sql`` : sql`and institution_id = ${institutionId}`;
  return sql`select id, phone from guardians where phone is distinct from sms_phone ${only}`;
}

/**
 * Settles the stale verdicts of a school's guardians (all schools' when `institutionId` is null): one
 * indexed lookup (guardians_sms_stale_idx) when there are none, the usual case.
 */
export async function settleSmsPhones(db: Queryable, institutionId: number | null): Promise<number> {
  const stale = rowsOf<{ id: number; phone: string | null }>(await db.execute(staleSmsPhonesSql(institutionId)));
  if (stale.length === 0) return 0;
  const verdicts = JSON.stringify(stale.map((r) => ({ id: Number(r.id), phone: r.phone, ok: smsOk(r.phone) })));
  await transactionRetrying(db, async (tx) => {
    // Guardians are locked in id order, as every writer of their rows does (server/reception/status.ts).
    await tx.execute(
      sql`select id from guardians where id = any(${intList(stale.map((r) => Number(r.id)))}::int[]) order by id for no key update`,
    );
    // Only where the phone is still the one judged (a concurrent change waits for its own settling).
    await tx.execute(sql`
      update guardians g set sms_phone = v.phone, sms_ok = v.ok
      from json_to_recordset(${verdicts}::json) as v(id int, phone text, ok boolean)
      where g.id = v.id and g.phone is not distinct from v.phone`);
  });
  return stale.length;
}
