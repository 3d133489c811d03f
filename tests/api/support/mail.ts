// Helpers for the mailbox tests: look up seeded message ids straight from the database.
import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../../server/db/client';
import { users } from '../../../server/db/schema/auth';
import { mailboxEntries } from '../../../server/db/schema/messages';
import type { MessageSummary, Paged } from '../../../shared/messages-contract';
import type { Client } from './server';
import type { Folder } from '../../../shared/codes';

/** Message ids in one user's folder, newest first. */
export async function folderIds(db: Db, email: string, folder: Folder): Promise<number[]> {
  const rows = await db
    .select({ id: mailboxEntries.messageId })
    .from(mailboxEntries)
    .innerJoin(users, eq(users.id, mailboxEntries.userId))
    .where(and(eq(users.email, email), eq(mailboxEntries.folder, folder)))
    .orderBy(desc(mailboxEntries.sortAt), desc(mailboxEntries.id));
  return rows.map((r) => r.id);
}

export async function list(client: Client, query: string): Promise<Paged<MessageSummary>> {
  const res = await client.get(`/api/messages?${query}`);
  if (res.status !== 200) throw new Error(`GET /api/messages?${query} → ${res.status} ${await res.text()}`);
  return (await res.json()) as Paged<MessageSummary>;
}
