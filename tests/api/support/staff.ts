// What the staff tests share: a JSON call with any method, and a user's id by e-mail.
import { eq } from 'drizzle-orm';
import type { Db } from '../../../server/db/client';
import { users } from '../../../server/db/schema/auth';
import type { Client } from './server';

/** `method path` with a JSON body (none when `body` is undefined). */
export const sendJson = (client: Client, method: string, path: string, body?: unknown) =>
  client.fetch(path, {
    method,
    headers: { 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

export async function userIdOf(db: Db, email: string): Promise<number> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (!row) throw new Error(`sin usuario ${email}`);
  return row.id;
}
