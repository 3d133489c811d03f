// A file brought in, up to its preview: read (server/roster/read/) with the mapping the administrator gave,
// or the one saved for the same headers, or none; the mapping given is remembered; the school year checked;
// then the preview recorded (imports.ts). Shared by the route and the command line.
import { sql } from 'drizzle-orm';
import type { ColumnMapping, RosterImport } from '../../shared/roster-contract';
import type { Queryable } from '../db/client';
import { rowsOf } from '../db/sql';
import type { RosterScope } from './apply';
import { NO_REPORT, type RosterReport } from './progress';
import { calendarYear, previewImport } from './imports';
import { saveMapping, savedMapping } from './mappings';
import { readRoster, RosterFileError } from './read';
import { appliedYear } from './snapshot';
import { ROSTER_MESSAGES } from './texts';

export interface Upload {
  bytes: Uint8Array;
  fileName: string;
  mapping: ColumnMapping | null;
  /** Null: the school year the roster is in (the latest applied import's, or the calendar's). */
  schoolYear: number | null;
}

export type UploadOutcome =
  | { kind: 'mapping'; headers: string[]; suggested: ColumnMapping; headerLine: number }
  | { kind: 'preview'; import: RosterImport }
  | { kind: 'file'; message: string }
  | { kind: 'school_year'; message: string };

export async function importFile(
  db: Queryable,
  scope: RosterScope,
  upload: Upload,
  report: RosterReport = NO_REPORT,
  now = new Date(),
): Promise<UploadOutcome> {
  const [school] = rowsOf<{ country: 'CL' | 'MX' }>(
    await db.execute(sql`select country from institutions where id = ${scope.institutionId}`),
  );
  const calendar = await calendarYear(db, scope.institutionId, now);
  const applied = await appliedYear(db, scope.institutionId);
  const schoolYear = upload.schoolYear ?? applied ?? calendar;
  if (applied !== null && schoolYear < applied) return { kind: 'school_year', message: ROSTER_MESSAGES.schoolYearPast(applied) };

  const readingReported = (done: number, total: number) => report({ phase: 'reading', done, total });
  const read = async (mapping: ColumnMapping | undefined) =>
    readRoster({
      bytes: upload.bytes,
      fileName: upload.fileName,
      country: school!.country,
      ...(mapping ? { mapping } : {}),
      onRows: readingReported,
    });
  let result: Awaited<ReturnType<typeof read>>;
  try {
    result = await read(upload.mapping ?? undefined);
    if (result.status === 'mapping' && upload.mapping === null) {
      const saved = await savedMapping(db, scope.institutionId, result.headers);
      if (saved) result = await read(saved);
    }
  } catch (error) {
    if (error instanceof RosterFileError) return { kind: 'file', message: error.message };
    throw error;
  }
  if (result.status === 'mapping') {
    return { kind: 'mapping', headers: result.headers, suggested: result.suggested, headerLine: result.headerLine };
  }
  await report({ phase: 'reading', done: result.rowsRead, total: result.rowsRead });
  if (upload.mapping !== null) await saveMapping(db, scope.institutionId, result.headers, result.mapping);
  const preview = await previewImport(db, scope, {
    fileName: upload.fileName,
    bytes: upload.bytes,
    schoolYear,
    rows: result.rows,
    problems: result.problems,
    rowsRead: result.rowsRead,
    calendarYear: calendar,
  });
  return { kind: 'preview', import: preview };
}
