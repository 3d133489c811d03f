// An opt-out stops at once what is already on its way to that phone on that channel, in every school: the
// deliveries still queued (a scheduled message, a send still working through its queue, a retry's round)
// fail `opted_out` in the opt-out's own transaction, what they reserved goes back to their school's quota, and
// their recipients' states follow. The engine's deliver job then finds its row done and does nothing; one
// already in the provider's hands at that instant goes out (the engine's own check, server/delivery/attempt.ts,
// covers the rows it loads after this commits).
//
// Locks in the order every writer of reception state takes them (server/reception/status.ts), with the quota
// rows where "retry failed" takes them: deliveries by id, the schools' quota rows, then the recipients'
// refresh (activity days, recipients, guardians).
import { sql } from 'drizzle-orm';
import { intList } from '../db/arrays';
import type { Queryable } from '../db/client';
import { rowsOf } from '../db/sql';
import { refreshRecipients } from '../reception/status';
import type { OptChannel } from './texts';

interface Stopped {
  recipient_id: number;
  channel: OptChannel;
  charged: number;
  institution_id: number;
  month: string;
}

/** Fails the queued `channel` deliveries to `phone` as opted out and gives back what they reserved; returns how many. */
export async function stopQueued(tx: Queryable, channel: OptChannel, phone: string): Promise<number> {
  const locked = rowsOf<{ id: number }>(
    await tx.execute(sql`
      select id from deliveries where status = 'queued' and channel = ${channel} and address = ${phone}
      order by id for no key update`),
  );
  if (locked.length === 0) return 0;
  const ids = intList(locked.map((r) => Number(r.id)));
  // The month each reserved in: a retry's round the month of its retry, else the schedule's, else the send's
  // (server/compose/send.ts, server/reception/reception.ts retryFailed).
  const stopped = rowsOf<Stopped>(
    await tx.execute(sql`
      with old as (select id, segments from deliveries where id = any(${ids}::int[])),
      stopped as (
        update deliveries d set status = 'failed', error = 'opted_out', segments = 0
        from old where d.id = old.id and d.status = 'queued'
        returning d.message_id, d.recipient_id, d.channel, old.segments as charged, d.last_retry_at
      )
      select s.recipient_id, s.channel, s.charged, m.institution_id,
        to_char(coalesce(s.last_retry_at, m.scheduled_at, m.sent_at, now()) at time zone i.timezone, 'YYYY-MM') as month
      from stopped s join messages m on m.id = s.message_id join institutions i on i.id = m.institution_id`),
  );
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
  await refreshRecipients(
    tx,
    stopped.map((s) => Number(s.recipient_id)),
  );
  return stopped.length;
}
