// Helpers for the compose and attachment tests: uploads, send/schedule with an idempotency key, and small
// raw-SQL lookups of the rows a send writes. Request bodies come from tests/fixtures/compose.ts.
import { randomUUID } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import { IDEMPOTENCY_HEADER } from '../../../shared/compose-contract';
import type { AttachmentSummary } from '../../../shared/messages-contract';
import type { Db } from '../../../server/db/client';
import type { Client } from './server';

export const MB = 1024 * 1024;

/** A PDF-looking file of exactly `size` bytes (magic header, then zeros). */
export function pdfBytes(size: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  bytes.set(new TextEncoder().encode('%PDF-1.4\n'));
  return bytes;
}

export function upload(client: Client, name: string, type: string, bytes: Uint8Array<ArrayBuffer>): Promise<Response> {
  const form = new FormData();
  form.set('file', new File([bytes], name, { type }));
  return client.fetch('/api/attachments', { method: 'POST', body: form });
}

export async function uploadOk(client: Client, name: string, type: string, bytes: Uint8Array<ArrayBuffer>): Promise<AttachmentSummary> {
  const res = await upload(client, name, type, bytes);
  if (res.status !== 201) throw new Error(`upload ${name} → ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: AttachmentSummary }).data;
}

export function send(
  client: Client,
  body: object,
  key: string | null = randomUUID(),
  path: '/api/messages/send' | '/api/messages/schedule' = '/api/messages/send',
): Promise<Response> {
  return client.post(path, body, { headers: key === null ? {} : { [IDEMPOTENCY_HEADER]: key } });
}

export async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

export async function one<T>(db: Db, query: SQL): Promise<T> {
  const [row] = await rows<T>(db, query);
  if (!row) throw new Error('no row');
  return row;
}

export async function count(db: Db, query: SQL): Promise<number> {
  return Number((await one<{ n: number }>(db, query)).n);
}
