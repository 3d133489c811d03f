// A guardian's answer to a school message: a message of its own (sender apoderado, no staff author)
// addressed to the original's author, who finds it in their Hermes inbox. No channel delivers it: it is born
// received. Its channels say how it came (the app, an SMS, a WhatsApp), so staff answer it there
// (shared/message-rules.ts replyChannels). Written from the families' app (server/app-api/reply.ts) and from
// a family's SMS or WhatsApp (server/inbound/).
import type { ChannelCode } from '../../shared/codes';
import { fold } from '../../shared/fold';
import { replyTitle } from '../../shared/message-rules';
import type { Queryable } from '../db/client';
import { mailboxEntries, messageRecipients, messages } from '../db/schema/messages';
import { senderOf } from './sender';

export interface FamilyReply {
  /** The guardian row the original reached: the school knows this person by its own record. */
  as: { guardianId: number; institutionId: number; name: string };
  /** The message answered, its title as this guardian read it, and its author (who gets the answer). */
  original: { id: number; title: string; authorUserId: number };
  content: string;
  channels: ChannelCode[];
  now: Date;
}

/** Inserts the answer, its one recipient (the author) and the author's inbox entry; returns its id. */
export async function insertFamilyReply(tx: Queryable, reply: FamilyReply): Promise<number> {
  const { as, original, content, now } = reply;
  const author = await senderOf(tx, original.authorUserId);
  const title = replyTitle(original.title);
  const [row] = await tx
    .insert(messages)
    .values({
      institutionId: as.institutionId,
      authorUserId: null,
      senderKind: 'apoderado',
      senderRefId: as.guardianId,
      senderName: as.name,
      title,
      content,
      channels: reply.channels,
      kind: 'sent',
      sentAt: now,
      replyToId: original.id,
      search: fold(`${title}\n${content}`),
      createdAt: now,
      updatedAt: now,
    })
    .returning({ id: messages.id });
  await tx.insert(messageRecipients).values({
    messageId: row!.id,
    recipientKind: 'funcionario',
    recipientRefId: author.refId,
    displayName: author.name,
    groupKind: 'funcionario',
    groupLabel: author.name,
    status: 'received',
  });
  await tx.insert(mailboxEntries).values({
    userId: original.authorUserId,
    institutionId: as.institutionId,
    messageId: row!.id,
    folder: 'inbox',
    sortAt: now,
    counterpart: as.name,
    counterpartSearch: fold(as.name),
  });
  return row!.id;
}
