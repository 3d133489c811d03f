// What a delivery stopped by an opt-out reserved goes back to its school: the SMS segments to the month they
// were counted in, a WhatsApp message to the balance. Whether the opt-out stopped it while queued
// (server/opt-outs/stop-queued.ts) or the engine's own check did as it came to it (server/delivery/attempt.ts, recorded by
// server/reception/status.ts recordOutcomes): the same refund either way.
import { type SQL, sql } from 'drizzle-orm';
import { intList } from '../db/arrays';
import type { Queryable } from '../db/client';

/** One stopped delivery: its channel, the segments it was charged (SMS), its school and the month it reserved in. */
export interface Reserved {
  channel: 'sms' | 'whatsapp';
  charged: number;
  institution_id: number;
  month: string;
}

/**
 * The month a delivery reserved in, from its row (`d`), its message (`m`) and school (`i`), read before the
 * row changes: a retry's round the month of its retry, else the schedule's, else the send's
 * (server/compose/send.ts, server/reception/reception.ts retryFailed).
 */
export const reservedMonthSql = (lastRetryAt: SQL, message: string, institution: string): SQL =>
  sql`to_char(coalesce(${lastRetryAt}, ${sql.raw(message)}.scheduled_at, ${sql.raw(message)}.sent_at, now()) at time zone ${sql.raw(institution)}.timezone, 'YYYY-MM')`;

/** Gives back what these deliveries reserved. Locks the schools' quota rows, after the deliveries (their order). */
export async function giveBackReserved(tx: Queryable, stopped: readonly Reserved[]): Promise<void> {
  if (stopped.length === 0) return;
  const refunds = new Map<string, { institution: number; month: string; sms: number; whatsapp: number }>();
  for (const s of stopped) {
    const key = `${s.institution_id}:${s.month}`;
    const refund = refunds.get(key) ?? { institution: Number(s.institution_id), month: s.month, sms: 0, whatsapp: 0 };
    if (s.channel === 'sms') refund.sms += Number(s.charged);
    else refund.whatsapp += 1;
    refunds.set(key, refund);
  }
  const schools = [...new Set([...refunds.values()].map((r) => r.institution))].sort((a, b) => a - b);
  await tx.execute(sql`
    select institution_id from institution_quotas where institution_id = any(${intList(schools)}::int[])
    order by institution_id for update`);
  for (const r of refunds.values()) {
    if (r.sms > 0) {
      await tx.execute(sql`
        update sms_usage set segments = greatest(0, segments - ${r.sms})
        where institution_id = ${r.institution} and month = ${r.month}`);
    }
  }
  for (const school of schools) {
    const whatsapp = [...refunds.values()].filter((r) => r.institution === school).reduce((sum, r) => sum + r.whatsapp, 0);
    // An unlimited (null) balance stays unlimited.
    if (whatsapp > 0) {
      await tx.execute(sql`
        update institution_quotas set whatsapp_balance = whatsapp_balance + ${whatsapp} where institution_id = ${school}`);
    }
  }
}
