// Where an opt-out (server/opt-outs/) takes effect, as SQL every reader shares: the expansion's reach and the
// send's deliveries (./expand.ts, server/compose/), the engine's attempt (server/delivery/attempt.ts), "retry
// failed" and reception (server/reception/), connectivity (server/dashboard/connectivity/). A phone opted out
// of a channel counts as having no address there — but is named as opted out, not as missing. Beside the
// phone rule (./sms-phones.ts), below the opt-outs feature that writes them, so every reader may import it.
import { sql, type SQL } from 'drizzle-orm';

/** SQL true when `phone` (E.164) is opted out of `channel` ('sms' | 'whatsapp') now: one primary-key probe. */
export const optedOutSql = (channel: SQL, phone: SQL): SQL =>
  sql`exists (select 1 from channel_opt_outs oo where oo.channel = ${channel} and oo.phone = ${phone})`;

/** SQL of the date `phone` opted out of `channel` now, null when it has not. */
export const optedOutAtSql = (channel: SQL, phone: SQL): SQL =>
  sql`(select oo.opted_out_at from channel_opt_outs oo where oo.channel = ${channel} and oo.phone = ${phone})`;

/**
 * SQL of the last time `phone` opted out of `channel`, whether or not it came back since: what a delivery
 * failed for, shown beside it after the family re-joined.
 */
export const lastOptOutAtSql = (channel: SQL, phone: SQL): SQL =>
  sql`(select max(e.at) from channel_opt_out_events e where e.channel = ${channel} and e.phone = ${phone} and e.kind = 'out')`;
