// A guardian's answer from the app (server/messages/family-reply.ts): channels ['app-mobile'], so staff
// answer it in the app.
import { FAMILY_REPLY_MAX } from '../../shared/family-contract';
import type { Db } from '../db/client';
import { insertFamilyReply } from '../messages/family-reply';
import { replyTarget, type Reader } from './inbox';

export const REPLY_MAX_LENGTH = FAMILY_REPLY_MAX;

export type ReplyOutcome = { kind: 'created'; id: number; sentAt: Date } | { kind: 'not_found' } | { kind: 'closed' };

export async function sendReply(db: Db, reader: Reader, messageId: number, content: string, now: Date): Promise<ReplyOutcome> {
  return db.transaction(async (tx) => {
    const target = await replyTarget(tx, reader, messageId);
    if (!target) return { kind: 'not_found' };
    // Without an author (their account was deleted) nobody could read the answer.
    if (!target.allowReplies || target.authorUserId === null) return { kind: 'closed' };
    const id = await insertFamilyReply(tx, {
      as: target.as,
      original: { id: messageId, title: target.title, authorUserId: target.authorUserId },
      content,
      channels: ['app-mobile'],
      now,
    });
    return { kind: 'created', id, sentAt: now };
  });
}
