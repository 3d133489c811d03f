// API contract of the roster import (the /settings/roster screen of administrators and `npm run hermes --
// roster …`): a school's enrolment file (CSV or .xlsx) read into students, guardians and courses, previewed,
// then applied in one transaction. Shared by the SPA and `server/`. Plain types and constants only.
import type { NumberedPage } from './recipient-lists-contract';

/** Largest file accepted (a 3,000-student, 5,000-guardian school's workbook is well under it). */
export const ROSTER_FILE_MAX_BYTES = 10 * 1024 * 1024;
/** Lines one file may carry (a line per student and guardian, or per student with both guardians side by side). */
export const ROSTER_ROWS_MAX = 20_000;
export const ROSTER_FILE_TYPES = ['csv', 'xlsx'] as const;
export type RosterFileType = (typeof ROSTER_FILE_TYPES)[number];

/**
 * What a column of the file can hold. A file gives a student's RUN either whole (`student_run` "12.345.678-5")
 * or split (`student_run` body + `student_dv`); names either split or whole (`*_full_name`); the course either
 * whole (`course` "1° Básico A") or as level/grade + letter/group. `guardian2_*` are a second guardian's columns
 * beside the first's on the same line (titular and suplente, madre and padre, tutor 1 and tutor 2). `ignore` is
 * a column the school keeps for itself.
 */
export const ROSTER_FIELDS = [
  'student_run',
  'student_dv',
  'student_curp',
  'student_first_names',
  'student_last_name_father',
  'student_last_name_mother',
  'student_full_name',
  'student_birth_date',
  'student_email',
  'course',
  'level',
  'letter',
  'guardian_run',
  'guardian_dv',
  'guardian_curp',
  'guardian_first_names',
  'guardian_last_name_father',
  'guardian_last_name_mother',
  'guardian_full_name',
  'guardian_role',
  'guardian_relationship',
  'guardian_phone',
  'guardian_email',
  'guardian2_run',
  'guardian2_dv',
  'guardian2_curp',
  'guardian2_first_names',
  'guardian2_last_name_father',
  'guardian2_last_name_mother',
  'guardian2_full_name',
  'guardian2_role',
  'guardian2_relationship',
  'guardian2_phone',
  'guardian2_email',
  'ignore',
] as const;
export type RosterField = (typeof ROSTER_FIELDS)[number];

/** Column index (0-based, in file order) → what it holds; every column of the header has an entry. */
export type ColumnMapping = RosterField[];

/** A person's identity document as the file gave it, normalised: RUN "12345678-5" (no dots), CURP in capitals. */
export interface RosterDocument {
  type: 'rut' | 'curp';
  value: string;
}

/** A course normalised from however the file wrote it ("1ro básico a", "1A", "1° Básico A" → level + letter). */
export interface RosterCourse {
  /** The level as the school's country names it ("1° Básico", "IV Medio", "1° de Primaria", "3° de Secundaria"). */
  level: string;
  /** The group letter in capitals ("A"); empty for a level with a single group. */
  letter: string;
  /** level + letter, as lists, compose and dashboards show it ("1° Básico A"). */
  name: string;
  /** The level's place in the school's order (Pre-kínder 0 … IV Medio; Preescolar … 3° de Secundaria). */
  position: number;
}

export interface RosterStudent {
  /** Null when the file gave none: the student is then matched by name and a guardian's phone (shown as such). */
  document: RosterDocument | null;
  first_names: string;
  last_name_father: string;
  last_name_mother: string;
  course: RosterCourse;
  /** ISO date (yyyy-mm-dd), null when the file has no birth date. */
  birth_date: string | null;
  email: string | null;
}

export type GuardianRole = 'titular' | 'suplente';

export interface RosterGuardian {
  document: RosterDocument | null;
  first_names: string;
  last_name_father: string;
  last_name_mother: string;
  role: GuardianRole;
  /** Madre, Padre, Abuela… ("Apoderado" when the file says nothing). */
  relationship: string;
  /** E.164 by the school's country (libphonenumber), null when none was given. */
  phone: string | null;
  email: string | null;
}

/**
 * A student and, when the line names one, a guardian of theirs. A line with two guardians side by side gives
 * two rows with the same `line`, the first guardian's first; a line with none, one row with `guardian` null.
 */
export interface RosterRow {
  /** 1-based line number in the file as a spreadsheet shows it (title and header rows counted). */
  line: number;
  student: RosterStudent;
  guardian: RosterGuardian | null;
}

/** A line refused, and why, in Spanish; `column` is the header as the file wrote it (null: the whole line). */
export interface RowProblem {
  line: number;
  column: string | null;
  message: string;
}

/** A student or guardian the preview matched without a document: by name and phone, shown as such. */
export type MatchBasis = 'document' | 'name_phone' | 'new';

/** What applying would do to one person or course. */
export type ChangeKind = 'new' | 'changed' | 'unchanged' | 'withdrawn';

/** A field that differs between Hermes and the file; `manual` when an administrator corrected it by hand and no import has written it since. */
export interface FieldChange {
  field: string;
  from: string | null;
  to: string | null;
  manual: boolean;
}

export interface PreviewPerson {
  kind: 'student' | 'guardian';
  change: ChangeKind;
  match: MatchBasis;
  /** The Hermes id when matched. */
  id: number | null;
  name: string;
  document: string | null;
  /** Students: their course (the file's for new/changed, Hermes' for withdrawn). */
  course: string | null;
  /** The file's lines this person comes from. */
  lines: number[];
  changes: FieldChange[];
}

export interface PreviewCounts {
  students: Record<ChangeKind, number>;
  guardians: Record<Exclude<ChangeKind, 'withdrawn'>, number>;
  courses: Record<'new' | 'unchanged', number>;
  rows: { read: number; valid: number; refused: number };
  /** Field changes the file would make over an administrator's correction: each needs a choice before applying. */
  conflicts: number;
}

/**
 * `POST /roster/imports` (multipart: `file`, optional `mapping` as JSON ColumnMapping, optional `school_year`)
 * reads the file and answers one of:
 * - `mapping`: some header was not recognised; the administrator assigns it (`suggested` has what was found,
 *   `ignore` where nothing was) and sends the file again with `mapping`. A mapping saved by an earlier import
 *   of a file with the same headers is used without asking.
 * - `preview`: nothing written yet but the import record; `counts`, the people, refused lines.
 */
export type RosterReadAnswer =
  | { status: 'mapping'; headers: string[]; suggested: ColumnMapping; header_line: number }
  | { status: 'preview'; import: RosterImport };

export const IMPORT_STATES = ['previewed', 'applied', 'discarded'] as const;
export type ImportState = (typeof IMPORT_STATES)[number];

/** One import as the history and the preview show it. */
export interface RosterImport {
  id: number;
  state: ImportState;
  file_name: string;
  /** SHA-256 of the file, hex. */
  file_hash: string;
  /** The school year the file enrols students into (a new one rolls the school over). */
  school_year: number;
  created_at: string;
  created_by: string;
  applied_at: string | null;
  counts: PreviewCounts;
}

/** `GET /roster/imports/{id}/people?change=&kind=&page=` → NumberedPage<PreviewPerson>. */
export type PreviewPeoplePage = NumberedPage<PreviewPerson>;

/** Body of `POST /roster/imports/{id}/apply`: for each conflict (`person kind:id:field`), keep Hermes' value or take the file's. */
export interface ApplyInput {
  conflicts?: Record<string, 'keep' | 'file'>;
}

/**
 * Administrators of the school only (401 without a session, 403 otherwise); another school's import is 404.
 * - POST /roster/imports                       multipart → RosterReadAnswer (422 `errors.file` for a file that is not
 *                                              CSV/xlsx, empty, over ROSTER_FILE_MAX_BYTES or ROSTER_ROWS_MAX)
 * - GET  /roster/imports?page=                 NumberedPage<RosterImport>, newest first
 * - GET  /roster/imports.csv                  every import of the school newest first, a line each: dates in the school's
 *                                              time zone, who, file name, SHA-256, school year, state, the counts; as problems.csv
 * - GET  /roster/imports/{id}                  { data: RosterImport }
 * - GET  /roster/imports/{id}/people           PreviewPeoplePage
 * - GET  /roster/imports/{id}/problems.csv     the refused lines (line; column; message), UTF-8 with BOM, `;`
 * - POST /roster/imports/{id}/apply            ApplyInput → { data: RosterImport } all or nothing
 *                                              (409 `roster.state` when not previewed, `roster.stale` when the school's
 *                                              roster changed since the preview, 422 `errors.conflicts` when a conflict has no choice)
 * - DELETE /roster/imports/{id}                discard a previewed import
 * - GET  /roster/template.{csv|xlsx}?country=CL|MX   the documented columns with an example row
 */
export const ROSTER_API = {
  imports: '/roster/imports',
  history: '/roster/imports.csv',
  import: (id: number) => `/roster/imports/${id}`,
  people: (id: number) => `/roster/imports/${id}/people`,
  problems: (id: number) => `/roster/imports/${id}/problems.csv`,
  apply: (id: number) => `/roster/imports/${id}/apply`,
  template: (type: RosterFileType) => `/roster/template.${type}`,
} as const;
