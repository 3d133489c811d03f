// Replies and conversations. A reply is a message whose `reply_to_id` names the one it answers; a
// conversation is what those links join: the messages a message answers (up) and every answer below it
// (down). Staff answer what shared/message-rules.ts `canReply` allows; send, estimate and drafts check a
// `reply_to_id` here, the same way. The guardian app reads the same conversation (server/app-api/inbox.ts).
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { CHANNEL_CODES, type ChannelCode, type PersonKind } from '../../shared/codes';
import { canReply, senderPick } from '../../shared/message-rules';
import { summarizeReach, type PickScope } from '../recipients/expand';
import type { Queryable } from '../db/client';
import { mailboxEntries, messages } from '../db/schema/messages';
import { type FieldErrors, addFieldError } from '../http/field-errors';

/** Links followed each way: deeper is no conversation anyone reads, and it bounds a (corrupt) cycle. */
const MAX_DEPTH = 50;

export const REPLY_MESSAGES = {
  missing: 'El mensaje al que respondes no existe.',
  closed: 'El mensaje al que respondes no admite respuestas.',
} as const;

/**
 * CTEs (to follow `with recursive`) ending in `conversation(id)`: the messages of `messageId`'s
 * conversation, itself left out. Down the links it walks `messages_reply_to_idx`.
 */
export function conversationCtes(messageId: number): SQL {
  return sql`
    up (id, reply_to_id, depth) as (
      select id, reply_to_id, 0 from messages where id = ${messageId}
      union all
      select m.id, m.reply_to_id, up.depth + 1 from messages m join up on m.id = up.reply_to_id where up.depth < ${MAX_DEPTH}
    ),
    down (id, depth) as (
      select id, 0 from messages where id = ${messageId}
      union all
      select m.id, down.depth + 1 from messages m join down on m.reply_to_id = down.id where down.depth < ${MAX_DEPTH}
    ),
    conversation as (
      select id from up where id <> ${messageId} union select id from down where id <> ${messageId}
    )`;
}

/** Whether `userId` may answer `messageId`: null when they may, else why not (the field error of `reply_to_id`). */
async function replyRefusal(db: Queryable, userId: number, messageId: number): Promise<string | null> {
  const [row] = await db
    .select({
      folder: mailboxEntries.folder,
      deletedFrom: mailboxEntries.deletedFrom,
      senderKind: messages.senderKind,
      allowReplies: messages.allowReplies,
    })
    .from(mailboxEntries)
    .innerJoin(messages, eq(messages.id, mailboxEntries.messageId))
    .where(and(eq(mailboxEntries.userId, userId), eq(mailboxEntries.messageId, messageId)));
  if (!row) return REPLY_MESSAGES.missing;
  // Trashed after the answer was begun, it can still be answered: what counts is where it came from.
  const received = (row.folder === 'trash' ? row.deletedFrom : row.folder) === 'inbox';
  return canReply(received ? 'received' : 'sent', row.senderKind, row.allowReplies) ? null : REPLY_MESSAGES.closed;
}

/** Adds the refusal of `replyToId` (if any) to a body's field errors, as send, estimate and drafts answer it. */
export async function checkReplyTo(db: Queryable, userId: number, replyToId: number | null, errors: FieldErrors): Promise<void> {
  if (replyToId === null) return;
  const refusal = await replyRefusal(db, userId, replyToId);
  if (refusal) addFieldError(errors, 'reply_to_id', refusal);
}

/** The channels on which `sender` has an address (contract order), as the expansion of a reply would find them. */
export async function channelsReaching(
  db: Queryable,
  scope: PickScope,
  sender: { id: number; name: string; kind: PersonKind },
): Promise<ChannelCode[]> {
  const reach = await summarizeReach(db, scope, [senderPick(sender)]);
  const addresses: Record<ChannelCode, number> = {
    'app-mobile': reach.app,
    'e-mail': reach.email,
    sms: reach.phone,
    whatsapp: reach.phone,
  };
  return CHANNEL_CODES.filter((code) => addresses[code] > 0);
}
