// Uploads nobody attached: a file uploaded in compose and then abandoned (tab closed, form cleared) stays
// a pending row (message_id and news_post_id null) with a file on disk. They are kept for a week, since a compose backup in
// the browser may still list them, then deleted with their files.
import { and, isNull, lt } from 'drizzle-orm';
import type { Queryable } from '../db/client';
import { messageAttachments } from '../db/schema/messages';
import type { AttachmentStore } from './attachments';

export const ABANDONED_UPLOAD_AGE_MS = 7 * 24 * 3600_000;

/** Deletes pending uploads created before `before`, rows first, then their files; returns how many. */
export async function deleteAbandonedUploads(db: Queryable, store: AttachmentStore, before: Date): Promise<number> {
  const gone = await db
    .delete(messageAttachments)
    .where(and(isNull(messageAttachments.messageId), isNull(messageAttachments.newsPostId), lt(messageAttachments.createdAt, before)))
    .returning({ key: messageAttachments.storageKey });
  await store.remove(gone.flatMap((row) => (row.key ? [row.key] : [])));
  return gone.length;
}
