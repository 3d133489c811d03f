// The record of every import: created at its preview (who, when, the file's name and SHA-256, the school
// year, the counts, the rows and refused lines), listed newest first, applied or discarded once.
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type {
  ImportState,
  PeopleChangeFilter,
  PreviewCounts,
  PreviewPerson,
  RosterImport,
  RosterRow,
  RowProblem,
} from '../../shared/roster-contract';
import { schoolYearOf } from '../../shared/school-year';
import type { Queryable } from '../db/client';
import { rowsOf } from '../db/sql';
import { monthIn } from '../db/time';
import type { RosterScope } from './apply';
import { planImport } from './plan';
import { loadSnapshot, rosterStamp } from './snapshot';

interface ImportRow {
  id: number;
  state: ImportState;
  file_name: string;
  file_hash: string;
  school_year: number;
  created_at: string;
  created_by: string | null;
  applied_at: string | null;
  counts: PreviewCounts | string;
}

const json = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

function toImport(r: ImportRow): RosterImport {
  return {
    id: Number(r.id),
    state: r.state,
    file_name: r.file_name,
    file_hash: r.file_hash,
    school_year: Number(r.school_year),
    created_at: new Date(r.created_at).toISOString(),
    created_by: r.created_by ?? '',
    applied_at: r.applied_at === null ? null : new Date(r.applied_at).toISOString(),
    counts: json(r.counts),
  };
}

const IMPORT_COLUMNS = sql`i.id, i.state, i.file_name, i.file_hash, i.school_year, i.created_at, u.name as created_by, i.applied_at, i.counts`;

/** The school year the calendar is in at the school (a Chilean summer: the one just ended). */
export async function calendarYear(db: Queryable, institutionId: number, now: Date): Promise<number> {
  const [row] = rowsOf<{ country: 'CL' | 'MX'; timezone: string }>(
    await db.execute(sql`select country, timezone from institutions where id = ${institutionId}`),
  );
  return schoolYearOf(monthIn(now, row!.timezone), row!.country);
}

export interface PreviewInput {
  fileName: string;
  bytes: Uint8Array;
  schoolYear: number;
  rows: RosterRow[];
  problems: RowProblem[];
  rowsRead: number;
  calendarYear: number;
}

/** Plans the import against the school's roster now and records it as previewed; nothing else is written. */
export async function previewImport(db: Queryable, scope: RosterScope, input: PreviewInput): Promise<RosterImport> {
  const { snapshot, stamp } = await db.transaction(async (tx) => ({
    snapshot: await loadSnapshot(tx, scope.institutionId, input.calendarYear),
    stamp: await rosterStamp(tx, scope.institutionId),
  }));
  const plan = planImport(snapshot, input.rows);
  const refused = new Set(input.problems.map((p) => p.line)).size;
  // Lines, not rows: a line with both guardians gives two rows.
  const valid = new Set(input.rows.map((r) => r.line)).size;
  const counts: PreviewCounts = { ...plan.counts, rows: { read: input.rowsRead, valid, refused } };
  const hash = createHash('sha256').update(input.bytes).digest('hex');
  const [inserted] = rowsOf<{ id: number }>(
    await db.execute(sql`
      insert into roster_imports (institution_id, created_by, file_name, file_hash, school_year, counts, rows, problems, people, roster_stamp)
      values (${scope.institutionId}, ${scope.userId}::int, ${input.fileName}, ${hash}, ${input.schoolYear}, ${JSON.stringify(counts)}::jsonb,
        ${JSON.stringify(input.rows)}::jsonb, ${JSON.stringify(input.problems)}::jsonb, ${JSON.stringify(plan.people)}::jsonb, ${stamp})
      returning id`),
  );
  return (await findImport(db, scope, Number(inserted!.id)))!;
}

/** One import of the school, or null (another school's is not found). */
export async function findImport(db: Queryable, scope: RosterScope, id: number): Promise<RosterImport | null> {
  const [row] = rowsOf<ImportRow>(
    await db.execute(sql`
      select ${IMPORT_COLUMNS} from roster_imports i left join users u on u.id = i.created_by
      where i.id = ${id} and i.institution_id = ${scope.institutionId}`),
  );
  return row ? toImport(row) : null;
}

export async function pageOfImports(
  db: Queryable,
  scope: RosterScope,
  page: number,
  perPage: number,
): Promise<{ items: RosterImport[]; total: number }> {
  const [count] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from roster_imports where institution_id = ${scope.institutionId}`),
  );
  const rows = rowsOf<ImportRow>(
    await db.execute(sql`
      select ${IMPORT_COLUMNS} from roster_imports i left join users u on u.id = i.created_by
      where i.institution_id = ${scope.institutionId}
      order by i.id desc limit ${perPage} offset ${(page - 1) * perPage}`),
  );
  return { items: rows.map(toImport), total: Number(count!.n) };
}

/** Every import of the school, newest first, with the school's clock and country to write them down by. */
export async function importHistory(
  db: Queryable,
  scope: RosterScope,
): Promise<{ imports: RosterImport[]; timezone: string; country: 'CL' | 'MX' }> {
  const [school] = rowsOf<{ country: 'CL' | 'MX'; timezone: string }>(
    await db.execute(sql`select country, timezone from institutions where id = ${scope.institutionId}`),
  );
  // A school's imports are a few a year: all of them at once, without the rows and people they carry.
  const rows = rowsOf<ImportRow>(
    await db.execute(sql`
      select ${IMPORT_COLUMNS} from roster_imports i left join users u on u.id = i.created_by
      where i.institution_id = ${scope.institutionId}
      order by i.id desc`),
  );
  return { imports: rows.map(toImport), timezone: school!.timezone, country: school!.country };
}

export interface PeopleFilter {
  change: PeopleChangeFilter | null;
  kind: 'student' | 'guardian' | null;
  page: number;
  perPage: number;
}

/** `conflicts`: a person with a field the file would change over a correction by hand. */
const isOfChange = (person: PreviewPerson, change: PeopleChangeFilter | null): boolean =>
  change === null || (change === 'conflicts' ? person.changes.some((c) => c.manual) : person.change === change);

/** A page of the preview's people; null when the import is not the school's. */
export async function pageOfPeople(
  db: Queryable,
  scope: RosterScope,
  id: number,
  filter: PeopleFilter,
): Promise<{ items: PreviewPerson[]; total: number } | null> {
  const [row] = rowsOf<{ people: PreviewPerson[] | string }>(
    await db.execute(sql`select people from roster_imports where id = ${id} and institution_id = ${scope.institutionId}`),
  );
  if (!row) return null;
  const people = json(row.people).filter((p) => isOfChange(p, filter.change) && (filter.kind === null || p.kind === filter.kind));
  const start = (filter.page - 1) * filter.perPage;
  return { items: people.slice(start, start + filter.perPage), total: people.length };
}

/** The refused lines of an import, or null when it is not the school's. */
export async function problemsOf(
  db: Queryable,
  scope: RosterScope,
  id: number,
): Promise<{ fileName: string; problems: RowProblem[] } | null> {
  const [row] = rowsOf<{ file_name: string; problems: RowProblem[] | string }>(
    await db.execute(sql`select file_name, problems from roster_imports where id = ${id} and institution_id = ${scope.institutionId}`),
  );
  return row ? { fileName: row.file_name, problems: json(row.problems) } : null;
}

/** Discards a previewed import: 'state' when it was applied or discarded already. */
export async function discardImport(db: Queryable, scope: RosterScope, id: number): Promise<'done' | 'not_found' | 'state'> {
  const [row] = rowsOf<{ state: ImportState }>(
    await db.execute(sql`select state from roster_imports where id = ${id} and institution_id = ${scope.institutionId}`),
  );
  if (!row) return 'not_found';
  if (row.state !== 'previewed') return 'state';
  await db.execute(sql`update roster_imports set state = 'discarded' where id = ${id} and state = 'previewed'`);
  return 'done';
}

/** The conflict keys (`guardian:12:fono_celular`) of an import's preview, or null when it is not the school's. */
export async function conflictKeys(db: Queryable, scope: RosterScope, id: number): Promise<string[] | null> {
  const [row] = rowsOf<{ people: PreviewPerson[] | string }>(
    await db.execute(sql`select people from roster_imports where id = ${id} and institution_id = ${scope.institutionId}`),
  );
  if (!row) return null;
  return json(row.people).flatMap((p) => p.changes.filter((c) => c.manual).map((c) => `${p.kind}:${p.id}:${c.field}`));
}
