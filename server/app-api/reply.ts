// A guardian's answer from the app: a message of its own (sender apoderado, no staff author) addressed to
// the original's author, who finds it in their Hermes inbox. No channel delivers it: it is born received.
// Its channels say how it came (the app), so staff answer it there (shared/message-rules.ts replyChannels).
import { FAMILY_REPLY_MAX } from '../../shared/family-contract';
import { fold } from '../../shared/fold';
import { replyTitle } from '../../shared/message-rules';
import type { Db } from '../db/client';
import { mailboxEntries, messageRecipients, messages } from '../db/schema/messages';
import { senderOf } from '../compose/send';
import { replyTarget, type Reader } from './inbox';

export const REPLY_MAX_LENGTH = FAMILY_REPLY_MAX;

export type ReplyOutcome = { kind: 'created'; id: number; sentAt: Date } | { kind: 'not_found' } | { kind: 'closed' };

export async function sendReply(db: Db, reader: Reader, messageId: number, content: string, now: Date): Promise<ReplyOutcome> {
  return db.transaction(async (tx) => {
    const target = await replyTarget(tx, reader, messageId);
    if (!target) return { kind: 'not_found' };
    // Without an author (their account was deleted) nobody could read the answer.
    if (!target.allowReplies || target.authorUserId === null) return { kind: 'closed' };
    const author = await senderOf(tx, target.authorUserId);
    // Signed by the row the message reached: the school knows this person by its own record.
    const as = target.as;
    const title = replyTitle(target.title);
    const [reply] = await tx
      .insert(messages)
      .values({
        institutionId: as.institutionId,
        authorUserId: null,
        senderKind: 'apoderado',
        senderRefId: as.guardianId,
        senderName: as.name,
        title,
        content,
        channels: ['app-mobile'],
        kind: 'sent',
        sentAt: now,
        replyToId: messageId,
        search: fold(`${title}\n${content}`),
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: messages.id });
    await tx.insert(messageRecipients).values({
      messageId: reply!.id,
      recipientKind: 'funcionario',
      recipientRefId: author.refId,
      displayName: author.name,
      groupKind: 'funcionario',
      groupLabel: author.name,
      status: 'received',
    });
    await tx.insert(mailboxEntries).values({
      userId: target.authorUserId,
      institutionId: as.institutionId,
      messageId: reply!.id,
      folder: 'inbox',
      sortAt: now,
      counterpart: as.name,
      counterpartSearch: fold(as.name),
    });
    return { kind: 'created', id: reply!.id, sentAt: now };
  });
}
