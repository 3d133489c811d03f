// Who a staff member is as a message's sender. Compose signs their messages with it, and a family's answer is
// addressed to it, so it lives with the messages rather than with compose.
import { eq } from 'drizzle-orm';
import type { Queryable } from '../db/client';
import { users } from '../db/schema/auth';
import { staff } from '../db/schema/school';

/** The author as a sender: name and staff id (the seed's convention: user id when they have no staff row). */
export async function senderOf(db: Queryable, userId: number) {
  const [row] = await db
    .select({ name: users.name, staffId: staff.id })
    .from(users)
    .leftJoin(staff, eq(staff.userId, users.id))
    .where(eq(users.id, userId));
  return { name: row!.name, refId: row!.staffId ?? userId };
}
