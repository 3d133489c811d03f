// A scheduled message whose time has come becomes sent, the moment a send makes for a message sent at once:
// the author's entry moves from "scheduled" to "sent", colleagues get it in their inbox and the copy goes
// to the author (publishToColleagues). The delivery engine calls it from its fire job and its sweep, then
// fans the deliveries out.
import { sql } from 'drizzle-orm';
import { rowsOf } from '../db/sql';
import { publishToColleagues } from './publish';
import type { Db } from '../db/client';

/**
 * Fires the message unless it was cancelled, rescheduled later or is in the trash; a second call finds it
 * sent and does nothing. Returns whether it fired.
 */
export function fireScheduled(db: Db, messageId: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    // The author's entry first, in the same order as cancel and trash take their locks, so firing waits
    // for them (and sees their outcome) instead of racing or deadlocking.
    await tx.execute(sql`
      select e.id from mailbox_entries e join messages m on m.id = e.message_id and e.user_id = m.author_user_id
      where m.id = ${messageId} for update of e`);
    const result = await tx.execute(sql`
      update messages m set kind = 'sent', sent_at = now(), updated_at = now()
      where m.id = ${messageId} and m.kind = 'scheduled' and m.scheduled_at <= now() + interval '1 second'
        and not exists (select 1 from mailbox_entries e where e.message_id = m.id and e.user_id = m.author_user_id and e.folder = 'trash')
      returning m.id, m.institution_id, m.author_user_id, m.sender_name, m.copy_to_sender`);
    const row = rowsOf<{ id: number; institution_id: number; author_user_id: number; sender_name: string; copy_to_sender: boolean }>(
      result,
    )[0];
    if (!row) return false;
    await tx.execute(sql`
      update mailbox_entries set folder = 'sent', sort_at = now()
      where message_id = ${messageId} and user_id = ${row.author_user_id} and folder = 'scheduled'`);
    await publishToColleagues(tx, {
      messageId,
      institutionId: Number(row.institution_id),
      userId: Number(row.author_user_id),
      senderName: row.sender_name,
      now: new Date(),
      copyToSender: row.copy_to_sender,
    });
    return true;
  });
}
