// The roster reader: a school's enrolment file (CSV or .xlsx) read into normalised rows and the lines it
// refuses, in Spanish, with their line numbers. Nothing is written; server/roster/ previews and applies.
import {
  ROSTER_FILE_MAX_BYTES,
  ROSTER_ROWS_MAX,
  type ColumnMapping,
  type RosterRow,
  type RowProblem,
} from '../../../shared/roster-contract';
import { decodeText, looksBinary } from './decode';
import { readCsv } from './csv';
import { checkAcrossLines } from './duplicates';
import { RosterFileError } from './errors';
import { checkMapping, findHeader, headerCells, headerKey, mappingProblem, suggestMapping } from './header';
import { FILE_ERRORS, FILE_TEXTS } from './messages';
import { readRows } from './rows';
import type { SheetRow } from './sheet';
import { readXlsx } from './xlsx';

export { RosterFileError } from './errors';

export type ReadResult =
  | { status: 'mapping'; headers: string[]; suggested: ColumnMapping; headerLine: number }
  | { status: 'read'; headers: string[]; mapping: ColumnMapping; rows: RosterRow[]; problems: RowProblem[]; rowsRead: number };

const startsWith = (bytes: Uint8Array, prefix: readonly number[]) => prefix.every((b, i) => bytes[i] === b);
const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

async function sheetOf(bytes: Uint8Array, fileName: string): Promise<SheetRow[]> {
  const extension = /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase() ?? '';
  if (startsWith(bytes, OLE) || extension === 'xls') throw new RosterFileError(FILE_ERRORS.oldExcel);
  // The content decides over the name: a workbook renamed .csv is still a workbook.
  if (startsWith(bytes, ZIP)) {
    if (extension !== 'xlsx' && extension !== 'csv' && extension !== '') throw new RosterFileError(FILE_ERRORS.type);
    return readXlsx(bytes);
  }
  if (extension === 'xlsx') throw new RosterFileError(FILE_ERRORS.unreadableXlsx);
  if (extension !== 'csv' && extension !== 'txt' && extension !== '') throw new RosterFileError(FILE_ERRORS.type);
  const text = decodeText(bytes);
  if (looksBinary(text)) throw new RosterFileError(FILE_ERRORS.notText);
  return readCsv(text);
}

/**
 * Reads a roster file. Without `mapping`, the header's columns are recognised by their names; when one is
 * not (or the roster's required columns are missing) the answer is `mapping`, with what was found. With
 * `mapping` (one field per header column), that mapping is used. Throws RosterFileError for a file it
 * cannot read as a whole.
 */
/**
 * A staff list (name, e-mail and a role column, as the staff screen's invitation takes it) rather than an
 * enrolment: a bare role column and no course, level, grade or group. A guardian's role column names its
 * guardian ("Rol apoderado"), so it is not bare.
 */
function isStaffList(headerKeys: readonly string[]): boolean {
  const bareRole = headerKeys.some((key) => /^(rol|roles|perfil|perfiles|cargo)$/.test(key));
  const course = headerKeys.some((key) => /\b(curso|nivel|grado|grupo|letra|seccion)\b/.test(key));
  return bareRole && !course;
}

export async function readRoster(input: {
  bytes: Uint8Array;
  fileName: string;
  country: 'CL' | 'MX';
  mapping?: ColumnMapping;
  /** Told how many data lines were read of how many, at the start and as the lines go (the import's progress). */
  onRows?: (done: number, total: number) => Promise<void>;
}): Promise<ReadResult> {
  const { bytes, fileName, country } = input;
  const errors = FILE_TEXTS[country];
  if (bytes.byteLength === 0) throw new RosterFileError(FILE_ERRORS.empty);
  if (bytes.byteLength > ROSTER_FILE_MAX_BYTES) throw new RosterFileError(FILE_ERRORS.tooBig);
  const sheet = await sheetOf(bytes, fileName);
  if (sheet.length === 0) throw new RosterFileError(FILE_ERRORS.empty);

  const headerIndex = findHeader(sheet);
  if (headerIndex === null) throw new RosterFileError(errors.noHeader);
  const headerRow = sheet[headerIndex]!;
  const headers = headerCells(headerRow);
  // A header written again further down (a file pasted course by course) is not a student.
  const headerKeys = headers.map(headerKey);
  const isHeader = (row: SheetRow) =>
    headerKey(row.cells[0] ?? '') === headerKeys[0] && headerCells(row).map(headerKey).join('|') === headerKeys.join('|');
  const data = sheet.slice(headerIndex + 1).filter((row) => !isHeader(row));
  if (data.length > ROSTER_ROWS_MAX) throw new RosterFileError(FILE_ERRORS.tooManyRows);

  let mapping: ColumnMapping;
  if (input.mapping) mapping = checkMapping(input.mapping, headers, country);
  else {
    if (isStaffList(headerKeys)) throw new RosterFileError(errors.staffFile);
    const suggested = suggestMapping(headers);
    if (suggested.unknown > 0 || mappingProblem(suggested.mapping, country) !== null)
      return { status: 'mapping', headers, suggested: suggested.mapping, headerLine: headerRow.line };
    mapping = suggested.mapping;
  }
  if (data.length === 0) throw new RosterFileError(errors.noRows);

  const { onRows } = input;
  await onRows?.(0, data.length);
  const read = await readRows(data, headers, mapping, country, new Date(), onRows && ((done) => onRows(done, data.length)));
  const checked = checkAcrossLines(read.rows, country);
  const problems = [...read.problems, ...checked.problems].sort((a, b) => a.line - b.line);
  return { status: 'read', headers, mapping, rows: checked.rows, problems, rowsRead: data.length };
}
