// The person's copies in the outbox directory (HERMES_OUTBOX_DIR), which a deployment without SMTP_URL, or
// without an SMS or WhatsApp provider, fills with real families' messages (decision 0286): the .eml file of
// each e-mail delivered to them, the simulator's text of each SMS or WhatsApp to their phone, and a staff
// member's account e-mails. Named in the erasure's transaction, removed after it commits, as attachments are.
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../db/client';
import { rowsOf } from '../db/sql';
import { deliveryKey } from '../delivery/channel';
import { deliveryMessageId, outboxFileName } from '../delivery/email';
import { simulatorMessageFile } from '../delivery/simulator';

/** The .eml files of the e-mail deliveries to `recipients`: one per round (generation) that wrote one. */
export async function emailFilesOf(tx: Queryable, outboxDir: string, recipients: SQL): Promise<string[]> {
  const deliveries = rowsOf<{ id: number; generation: number }>(
    await tx.execute(sql`select d.id, d.generation from deliveries d where d.recipient_id in (${recipients}) and d.channel = 'e-mail'`),
  );
  return deliveries.flatMap((d) =>
    Array.from({ length: Number(d.generation) + 1 }, (_, generation) =>
      path.join(outboxDir, outboxFileName(deliveryMessageId(deliveryKey(Number(d.id), generation)))),
    ),
  );
}

/** The simulator's text files of the messages `ids`. */
export const simulatorFilesOf = (outboxDir: string, ids: readonly string[]): string[] =>
  ids.map((id) => simulatorMessageFile(outboxDir, id));

/**
 * The account e-mails (invitations, password resets) written to `email`: their Message-IDs are nodemailer's,
 * so they are found by their `To:` header among the outbox's files that are no delivery's.
 */
export async function accountEmailFilesTo(outboxDir: string, email: string): Promise<string[]> {
  const names = await readdir(outboxDir).catch(() => [] as string[]);
  const found: string[] = [];
  const to = new RegExp(`^to:.*${email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'im');
  for (const name of names.filter((n) => n.endsWith('.eml') && !n.startsWith('hermes-'))) {
    const file = path.join(outboxDir, name);
    const text = await readFile(file, 'utf8').catch(() => '');
    const headers = text.split(/\r?\n\r?\n/, 1)[0] ?? '';
    if (to.test(headers)) found.push(file);
  }
  return found;
}

export async function removeFiles(files: readonly string[]): Promise<void> {
  await Promise.all(files.map((file) => rm(file, { force: true })));
}
