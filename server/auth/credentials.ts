// Storing a user's password: hashed at today's cost, and the upgrade of a hash of an older cost once a
// sign-in has proved the password (server/auth/password.ts `needsRehash`).
import { and, eq } from 'drizzle-orm';
import type { Queryable } from '../db/client';
import { users } from '../db/schema/auth';
import { hashPassword, needsRehash } from './password';

/** Stores `password` as the user's, at today's cost. */
export async function setPassword(db: Queryable, userId: number, password: string): Promise<void> {
  await db
    .update(users)
    .set({ passwordHash: await hashPassword(password) })
    .where(eq(users.id, userId));
}

/**
 * After a successful check: a hash of an older cost is replaced by one at today's, in the same request.
 * Only when the row still holds the hash just checked, so a password changed meanwhile is never overwritten.
 */
export async function upgradeHashIfOld(db: Queryable, userId: number, password: string, checked: string): Promise<boolean> {
  if (!needsRehash(checked)) return false;
  const hash = await hashPassword(password);
  const updated = await db
    .update(users)
    .set({ passwordHash: hash })
    .where(and(eq(users.id, userId), eq(users.passwordHash, checked)))
    .returning({ id: users.id });
  return updated.length > 0;
}
