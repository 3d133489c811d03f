// Who may download a news post's file: latam staff of the post's school while the post is on the wall
// (managers whatever its status, the trash included), and through the app, a guardian the post is
// addressed to while it is on the wall. Anything else is not found.
import { and, eq, isNotNull } from 'drizzle-orm';
import { isNewsManager } from '../../shared/news-rules';
import type { Queryable } from '../db/client';
import { users } from '../db/schema/auth';
import { messageAttachments } from '../db/schema/messages';
import { newsPosts } from '../db/schema/news';
import type { StoredFile } from '../http/download';
import { findPost, liveAt, type NewsReader } from './posts';

const FILE = {
  name: messageAttachments.name,
  contentType: messageAttachments.contentType,
  content: messageAttachments.content,
  storageKey: messageAttachments.storageKey,
};

/** A post's file for a signed-in staff user (GET /attachments/:id), or null. */
export async function findNewsAttachment(
  db: Queryable,
  user: { userId: number; institutionId: number; roles: readonly string[] },
  attachmentId: number,
  now: Date,
): Promise<StoredFile | null> {
  const manager = isNewsManager(user.roles);
  const [row] = await db
    .select(FILE)
    .from(messageAttachments)
    .innerJoin(newsPosts, eq(newsPosts.id, messageAttachments.newsPostId))
    .innerJoin(users, and(eq(users.id, user.userId), eq(users.device, 'latam')))
    .where(
      and(
        eq(messageAttachments.id, attachmentId),
        isNotNull(messageAttachments.newsPostId),
        eq(newsPosts.institutionId, user.institutionId),
        manager ? undefined : liveAt(now),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** A file of a post the guardian may read (GET /app/wall/:id/attachments/:attachmentId), or null. */
export async function findGuardianWallFile(
  db: Queryable,
  reader: NewsReader & { kind: 'guardian' },
  postId: number,
  attachmentId: number,
  now: Date,
): Promise<StoredFile | null> {
  if (!(await findPost(db, reader, postId, now))) return null;
  const [row] = await db
    .select(FILE)
    .from(messageAttachments)
    .where(and(eq(messageAttachments.id, attachmentId), eq(messageAttachments.newsPostId, postId)))
    .limit(1);
  return row ?? null;
}
