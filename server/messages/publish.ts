// What happens in Hermes itself when a message goes out, sent at once (server/compose/send.ts) or fired at
// its scheduled time (./fire-scheduled.ts): colleagues with a Hermes login find it in their inbox, and
// "Enviarme una copia" puts a copy in the author's. The channels' deliveries are the engine's.
//
// Copy to sender: mailbox_entries is unique per (user, message) and the author already has the message in
// "sent", so the copy is a second message row (same title, content and attachments' names are not copied)
// addressed to the author alone, with an inbox entry; `reply_to_id` null.
import { sql } from 'drizzle-orm';
import { fold } from '../../shared/fold';
import type { Queryable } from '../db/client';
import { mailboxEntries, messageRecipients, messages } from '../db/schema/messages';
import { staff } from '../db/schema/school';
import { rowsOf } from '../db/sql';

/**
 * What happens when a message goes out (now, or a scheduled one at its time): colleagues with a Hermes
 * login find it in their inbox (the author already has it in "sent"), and "Enviarme una copia" puts a
 * copy in the author's inbox.
 */
export async function publishToColleagues(
  tx: Queryable,
  p: { messageId: number; institutionId: number; userId: number; senderName: string; now: Date; copyToSender: boolean },
): Promise<void> {
  const at = p.now.toISOString();
  await tx.execute(sql`
    insert into ${mailboxEntries} (user_id, institution_id, message_id, folder, sort_at, counterpart, counterpart_search)
    select s.user_id, ${p.institutionId}, ${p.messageId}, 'inbox', ${at}::timestamptz, ${p.senderName}, ${fold(p.senderName)}
    from ${messageRecipients} r join ${staff} s on s.id = r.recipient_ref_id
    where r.message_id = ${p.messageId} and r.recipient_kind = 'funcionario' and s.user_id is not null and s.user_id <> ${p.userId}
    on conflict do nothing`);
  if (p.copyToSender) await insertCopy(tx, p);
}

/** The copy: the same message as a new row addressed to the author alone, in their inbox. */
async function insertCopy(
  tx: Queryable,
  p: { messageId: number; institutionId: number; userId: number; senderName: string; now: Date },
): Promise<void> {
  const at = p.now.toISOString();
  const result = await tx.execute(sql`
    insert into ${messages} (institution_id, author_user_id, sender_kind, sender_ref_id, sender_name, title, content, channels,
      allow_replies, copy_to_sender, kind, sent_at, search, signature, created_at, updated_at)
    select institution_id, author_user_id, sender_kind, sender_ref_id, sender_name, title, content, channels,
      allow_replies, copy_to_sender, 'sent', ${at}::timestamptz, search, signature, ${at}::timestamptz, ${at}::timestamptz
    from ${messages} where id = ${p.messageId}
    returning id, sender_ref_id`);
  const copy = rowsOf<{ id: number; sender_ref_id: number }>(result)[0]!;
  await tx.insert(messageRecipients).values({
    messageId: Number(copy.id),
    recipientKind: 'funcionario',
    recipientRefId: Number(copy.sender_ref_id),
    displayName: p.senderName,
    groupKind: 'funcionario',
    groupLabel: p.senderName,
    status: 'received',
  });
  await tx.insert(mailboxEntries).values({
    userId: p.userId,
    institutionId: p.institutionId,
    messageId: Number(copy.id),
    folder: 'inbox',
    sortAt: p.now,
    counterpart: p.senderName,
    counterpartSearch: fold(p.senderName),
  });
}
