// An Excel workbook's roster sheet as sheet rows, through read-excel-file (a maintained reader with no open
// advisories; never the npm `xlsx` package). Numbers come as the text the file stores ("912345678",
// "12345678": RUNs and phones keep their digits), date cells as yyyy-mm-dd, formulas as the value Excel
// saved (never evaluated); a text cell such as "=1+1" stays that text.
import readXlsxFile from 'read-excel-file/node';
import { FILE_ERRORS } from './messages';
import { RosterFileError } from './errors';
import { findHeader } from './header';
import { cleanCell, isBlank, type SheetRow } from './sheet';

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString().slice(0, 10);
  if (typeof value === 'boolean') return value ? 'VERDADERO' : 'FALSO';
  return cleanCell(String(value));
}

/** The workbook's first sheet with a roster header (an instructions sheet may come before it), else its first. */
export async function readXlsx(bytes: Uint8Array): Promise<SheetRow[]> {
  let sheets: { data: unknown[][] }[];
  try {
    sheets = await readXlsxFile<string>(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
      parseNumber: (text: string) => text,
      trim: false,
    });
  } catch {
    throw new RosterFileError(FILE_ERRORS.unreadableXlsx);
  }
  const read = sheets.map((sheet) => sheetRows(sheet.data));
  return read.find((rows) => findHeader(rows) !== null) ?? read[0] ?? [];
}

function sheetRows(data: unknown[][]): SheetRow[] {
  const rows: SheetRow[] = [];
  data.forEach((row, index) => {
    const cells = row.map(cellText);
    if (!isBlank(cells)) rows.push({ line: index + 1, cells });
  });
  return rows;
}
