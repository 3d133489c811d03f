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
import type { Queryable } from '../db/client';
import { rowsOf } from '../db/sql';
import { stopQueuedDeliveries } from '../reception/stop-queued';
import type { OptChannel } from './texts';

/** Fails the queued `channel` deliveries to `phone` as opted out and gives back what they reserved; returns how many. */
export async function stopQueued(tx: Queryable, channel: OptChannel, phone: string): Promise<number> {
  const locked = rowsOf<{ id: number }>(
    await tx.execute(sql`
      select id from deliveries where status = 'queued' and channel = ${channel} and address = ${phone}
      order by id for no key update`),
  );
  return stopQueuedDeliveries(
    tx,
    locked.map((r) => Number(r.id)),
    'opted_out',
  );
}
