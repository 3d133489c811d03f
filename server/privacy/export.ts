// A person's data as one ZIP file (decision 0266): LEEME.txt, a summary in Spanish anyone can read without
// tools; datos.json, the whole inventory; a CSV per long list (Excel in es-CL / es-MX opens it as it is); and
// the files they attached to what they wrote, under adjuntos/. The summary and the CSV headers speak the
// school's country's words and give times in its zone (decision 0282). fflate builds the archive as the
// reader asks for it (pull): a step (an entry, or one chunk of one attachment) is taken only when what was
// produced so far has been read, and each attachment's row is read alone, so a slow download never holds the
// whole ZIP, nor every attachment, in memory.
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
import { inZone } from '../db/time';
import type { AttachmentStore } from '../storage/attachments';
import { exportTexts, type ExportSchool } from './texts';

const encoder = new TextEncoder();

/** The school of `institutionId` as the export names it, speaks and tells the time. */
export async function exportSchoolOf(db: Queryable, institutionId: number): Promise<ExportSchool> {
  const [row] = rowsOf<{ name: string; country: string; timezone: string }>(
    await db.execute(sql`select name, country, timezone from institutions where id = ${institutionId}`),
  );
  return { name: row!.name, country: row!.country === 'MX' ? 'MX' : 'CL', timezone: row!.timezone };
}

/** One CSV field: always quoted, quotes doubled, a would-be formula (= + - @ first) behind an apostrophe. */
function field(value: PrivacyRow[string]): string {
  const text = value === null ? '' : String(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** BOM, `;` separated, CRLF lines; the columns are the first row's (every row of a section has the same). */
function sectionCsv(rows: readonly PrivacyRow[], column: (key: string) => string): string {
  const columns = rows[0] ? Object.keys(rows[0]) : [];
  const lines = [columns.map((c) => field(column(c))).join(';'), ...rows.map((row) => columns.map((c) => field(row[c] ?? null)).join(';'))];
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

const valueText = (value: PrivacyRow[string], t: ReturnType<typeof exportTexts>): string =>
  value === null ? '—' : typeof value === 'boolean' ? (value ? t.yes : t.no) : String(value).replace(/\s+/g, ' ');

/** The summary: who, what each section holds (how many, and the first rows of each in plain lines). */
function summaryText(inventory: PrivacyInventory, school: ExportSchool): string {
  const t = exportTexts(school.country);
  const p = inventory.person;
  const lines = [
    t.summaryTitle,
    '='.repeat(t.summaryTitle.length),
    '',
    t.summaryIntro(school.name, inZone(new Date(inventory.read_at), school.timezone)),
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
    lines.push(`${t.sectionTitles[section]} (${t.count(rows.length)})`);
    for (const row of rows.slice(0, t.shownRows)) {
      lines.push(
        `  - ${Object.entries(row)
          .map(([key, value]) => `${t.column(key)}: ${valueText(value, t)}`)
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

/** The ZIP of `inventory` as a stream of bytes, built as it is read. */
export function exportStream(
  db: Queryable,
  store: AttachmentStore,
  inventory: PrivacyInventory,
  school: ExportSchool,
): ReadableStream<Uint8Array> {
  // fflate hands over its output synchronously while an entry is pushed: gathered here, enqueued by pull().
  const produced: Uint8Array[] = [];
  let finished = false;
  const zip = new Zip((err, chunk, final) => {
    if (err) throw err;
    produced.push(chunk);
    if (final) finished = true;
  });
  const steps = zipSteps(db, store, zip, inventory, school);
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        while (produced.length === 0 && !finished) {
          if ((await steps.next()).done) break;
        }
        for (const chunk of produced.splice(0)) controller.enqueue(chunk);
        if (finished) controller.close();
      },
      async cancel() {
        zip.terminate();
        await steps.return();
      },
    },
    // One chunk ahead of the reader: a step is taken when the previous one has been read.
    { highWaterMark: 1 },
  );
}

/** The archive's entries, one step at a time: each text file, then each attachment chunk by chunk. */
async function* zipSteps(
  db: Queryable,
  store: AttachmentStore,
  zip: Zip,
  inventory: PrivacyInventory,
  school: ExportSchool,
): AsyncGenerator<void, void, undefined> {
  const t = exportTexts(school.country);
  const add = (name: string, text: string) => {
    const entry = new ZipDeflate(name, { level: 6 });
    zip.add(entry);
    entry.push(encoder.encode(text), true);
  };
  add(PRIVACY_EXPORT_FILES.summary, summaryText(inventory, school));
  yield;
  add(PRIVACY_EXPORT_FILES.json, JSON.stringify(inventory, null, 2));
  yield;
  for (const section of PRIVACY_CSV_SECTIONS) {
    add(PRIVACY_EXPORT_FILES.csv(section), sectionCsv(inventory.sections[section], t.column));
    yield;
  }
  for (const row of inventory.sections.adjuntos) {
    const [file] = rowsOf<AttachmentRow>(
      await db.execute(sql`select id, name, storage_key, content from message_attachments where id = ${Number(row.adjunto_id)}`),
    );
    if (file) yield* addFile(zip, store, file);
  }
  zip.end();
}

/** One attachment, stored (its bytes are mostly compressed already), read from disk a chunk per step. */
async function* addFile(zip: Zip, store: AttachmentStore, file: AttachmentRow): AsyncGenerator<void, void, undefined> {
  const entry = new ZipPassThrough(`adjuntos/${file.id}-${safeName(file.name)}`);
  zip.add(entry);
  if (file.content) {
    entry.push(new Uint8Array(file.content), true);
    return yield;
  }
  const opened = file.storage_key ? await store.open(file.storage_key) : null;
  if (!opened) {
    entry.push(new Uint8Array(0), true);
    return yield;
  }
  const reader = opened.stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      entry.push(value);
      yield;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  entry.push(new Uint8Array(0), true);
  yield;
}
