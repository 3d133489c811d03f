// A person's data as one ZIP file (decision 0266): LEEME.txt, a summary in Spanish anyone can read without
// tools; datos.json, the whole inventory; a CSV per long list (Excel in es-CL / es-MX opens it as it is); and
// the files they attached to what they wrote, under adjuntos/. fflate streams the archive: entries are
// written as they are produced, the attachments chunk by chunk, so the largest guardian's file never sits
// whole in memory.
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import { sql } from 'drizzle-orm';
import {
  PRIVACY_CSV_SECTIONS,
  PRIVACY_EXPORT_FILES,
  PRIVACY_SECTIONS,
  type PrivacyInventory,
  type PrivacyRow,
} from '../../shared/privacy-contract';
import type { Queryable } from '../db/client';
import { rowsOf } from '../db/sql';
import type { AttachmentStore } from '../storage/attachments';
import { PRIVACY_SECTION_TITLES, PRIVACY_TEXTS } from './texts';

const encoder = new TextEncoder();

/** One CSV field: always quoted, quotes doubled, a would-be formula (= + - @ first) behind an apostrophe. */
function field(value: PrivacyRow[string]): string {
  const text = value === null ? '' : String(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** BOM, `;` separated, CRLF lines; the columns are the first row's (every row of a section has the same). */
function sectionCsv(rows: readonly PrivacyRow[]): string {
  const columns = rows[0] ? Object.keys(rows[0]) : [];
  const lines = [columns.map(field).join(';'), ...rows.map((row) => columns.map((c) => field(row[c] ?? null)).join(';'))];
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

const valueText = (value: PrivacyRow[string]): string =>
  value === null ? '—' : typeof value === 'boolean' ? (value ? 'sí' : 'no') : String(value).replace(/\s+/g, ' ');

/** The summary: who, what each section holds (how many, and the first rows of each in plain lines). */
function summaryText(inventory: PrivacyInventory, school: string): string {
  const t = PRIVACY_TEXTS;
  const p = inventory.person;
  const lines = [
    t.summaryTitle,
    '='.repeat(t.summaryTitle.length),
    '',
    t.summaryIntro(school, inventory.read_at),
    '',
    `${t.identity}`,
    `  ${t.fields.name}: ${p.name}`,
    `  ${t.fields.kind}: ${t.kinds[p.kind]}`,
    `  ${t.fields.dni}: ${p.dni ?? '—'}`,
    `  ${t.fields.email}: ${p.email ?? '—'}`,
    `  ${t.fields.phone}: ${p.phone ?? '—'}`,
  ];
  if (p.birth_date) lines.push(`  ${t.fields.birthDate}: ${p.birth_date}`);
  if (p.withdrawn_at) lines.push(`  ${t.fields.withdrawnAt}: ${p.withdrawn_at}`);
  lines.push('', t.files, '');
  for (const section of PRIVACY_SECTIONS) {
    const rows = inventory.sections[section];
    lines.push(`${PRIVACY_SECTION_TITLES[section]} (${t.count(rows.length)})`);
    for (const row of rows.slice(0, t.shownRows)) {
      lines.push(
        `  - ${Object.entries(row)
          .map(([key, value]) => `${key}: ${valueText(value)}`)
          .join(' · ')}`,
      );
    }
    if (rows.length > t.shownRows)
      lines.push(
        `  ${t.more(rows.length - t.shownRows, PRIVACY_CSV_SECTIONS.includes(section) ? PRIVACY_EXPORT_FILES.csv(section) : PRIVACY_EXPORT_FILES.json)}`,
      );
    lines.push('');
  }
  return lines.join('\r\n');
}

interface AttachmentRow {
  id: number;
  name: string;
  storage_key: string | null;
  content: Uint8Array | null;
}

/** A file name that stays inside its folder on every system. */
const safeName = (name: string) => name.replace(/[\\/:*?"<>|\p{Cc}]/gu, '_').slice(0, 120) || 'archivo';

/** The ZIP of `inventory` as a stream of bytes. */
export function exportStream(
  db: Queryable,
  store: AttachmentStore,
  inventory: PrivacyInventory,
  school: string,
): ReadableStream<Uint8Array> {
  let zip: Zip;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      zip = new Zip((err, chunk, final) => {
        if (err) return controller.error(err);
        controller.enqueue(chunk);
        if (final) controller.close();
      });
      const add = (name: string, text: string) => {
        const entry = new ZipDeflate(name, { level: 6 });
        zip.add(entry);
        entry.push(encoder.encode(text), true);
      };
      const write = async () => {
        add(PRIVACY_EXPORT_FILES.summary, summaryText(inventory, school));
        add(PRIVACY_EXPORT_FILES.json, JSON.stringify(inventory, null, 2));
        for (const section of PRIVACY_CSV_SECTIONS) add(PRIVACY_EXPORT_FILES.csv(section), sectionCsv(inventory.sections[section]));
        const ids = inventory.sections.adjuntos.map((row) => Number(row.adjunto_id));
        if (ids.length > 0) {
          const files = rowsOf<AttachmentRow>(
            await db.execute(sql`select id, name, storage_key, content from message_attachments
              where id in (${sql.join(
                ids.map((id) => sql`${id}`),
                sql`, `,
              )}) order by id`),
          );
          for (const file of files) await addFile(zip, store, file);
        }
        zip.end();
      };
      write().catch((err: unknown) => controller.error(err));
    },
    cancel() {
      zip?.terminate();
    },
  });
}

/** One attachment, stored (its bytes are mostly compressed already), read from disk chunk by chunk. */
async function addFile(zip: Zip, store: AttachmentStore, file: AttachmentRow): Promise<void> {
  const entry = new ZipPassThrough(`adjuntos/${file.id}-${safeName(file.name)}`);
  zip.add(entry);
  if (file.content) return entry.push(new Uint8Array(file.content), true);
  const opened = file.storage_key ? await store.open(file.storage_key) : null;
  if (!opened) return entry.push(new Uint8Array(0), true);
  const reader = opened.stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    entry.push(value);
  }
  entry.push(new Uint8Array(0), true);
}
