// The column mapping an administrator gave a file's headers, kept per school so the next file with the same
// headers is read without asking again.
import { sql } from 'drizzle-orm';
import { fold } from '../../shared/fold';
import { ROSTER_FIELDS, type ColumnMapping } from '../../shared/roster-contract';
import type { Queryable } from '../db/client';
import { rowsOf } from '../db/sql';

/** The headers as one key: case, accents and spacing do not make another file. */
const headerKey = (headers: string[]) => headers.map((h) => fold(h).replace(/\s+/g, ' ').trim()).join('\u001f');

/** A mapping as the request sends it (JSON): one known field per header, or null. */
export function parseMapping(raw: unknown, columns: number | null): ColumnMapping | null {
  if (!Array.isArray(raw) || raw.length === 0) return null;
  if (columns !== null && raw.length !== columns) return null;
  return raw.every((f) => typeof f === 'string' && (ROSTER_FIELDS as readonly string[]).includes(f)) ? (raw as ColumnMapping) : null;
}

export async function savedMapping(db: Queryable, institutionId: number, headers: string[]): Promise<ColumnMapping | null> {
  const [row] = rowsOf<{ mapping: unknown }>(
    await db.execute(
      sql`select mapping from roster_mappings where institution_id = ${institutionId} and header_key = ${headerKey(headers)}`,
    ),
  );
  if (!row) return null;
  return parseMapping(typeof row.mapping === 'string' ? JSON.parse(row.mapping) : row.mapping, headers.length);
}

export async function saveMapping(db: Queryable, institutionId: number, headers: string[], mapping: ColumnMapping): Promise<void> {
  await db.execute(sql`
    insert into roster_mappings (institution_id, header_key, mapping) values (${institutionId}, ${headerKey(headers)}, ${JSON.stringify(mapping)}::jsonb)
    on conflict (institution_id, header_key) do update set mapping = excluded.mapping, updated_at = now()`);
}
