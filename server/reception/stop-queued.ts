// Stops deliveries still queued, for a reason that came after the send (an opt-out, a block): they fail with
// `error`, what they reserved goes back to their school's quota and their recipients' states follow, in the
// caller's transaction. The caller has locked `ids` (deliveries by id, first): the order every writer of
// reception state takes its locks (./status.ts), with the quota rows where "retry failed" takes them.
import { sql } from 'drizzle-orm';
import { intList } from '../db/arrays';
import type { Queryable } from '../db/client';
import { rowsOf } from '../db/sql';
import { giveBackReserved, type Reserved, reservedMonthSql } from '../quota/refund';
import { refreshRecipients } from './status';

interface Stopped extends Reserved {
  recipient_id: number;
}

/** Fails the locked deliveries of `ids` that are still queued; returns how many it stopped. */
export async function stopQueuedDeliveries(tx: Queryable, ids: readonly number[], error: string): Promise<number> {
  if (ids.length === 0) return 0;
  const stopped = rowsOf<Stopped>(
    await tx.execute(sql`
      with old as (select id, segments from deliveries where id = any(${intList(ids)}::int[])),
      stopped as (
        update deliveries d set status = 'failed', error = ${error}, segments = 0
        from old where d.id = old.id and d.status = 'queued'
        returning d.message_id, d.recipient_id, d.channel, old.segments as charged, d.last_retry_at
      )
      select s.recipient_id, s.channel, s.charged, m.institution_id, ${reservedMonthSql(sql`s.last_retry_at`, 'm', 'i')} as month
      from stopped s join messages m on m.id = s.message_id join institutions i on i.id = m.institution_id`),
  );
  await giveBackReserved(tx, stopped);
  await refreshRecipients(
    tx,
    stopped.map((s) => Number(s.recipient_id)),
  );
  return stopped.length;
}
