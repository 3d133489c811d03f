// An Excel workbook's first sheet as sheet rows, through read-excel-file (a maintained reader with no open
// advisories; never the npm `xlsx` package). Numbers come as the text the file stores ("912345678",
// "12345678": RUNs and phones keep their digits), date cells as yyyy-mm-dd, formulas as the value Excel
// saved (never evaluated); a text cell such as "=1+1" stays that text.
import { readSheet } from 'read-excel-file/node';
import { FILE_ERRORS } from './messages';
import { RosterFileError } from './errors';
import { cleanCell, isBlank, type SheetRow } from './sheet';

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString().slice(0, 10);
  if (typeof value === 'boolean') return value ? 'VERDADERO' : 'FALSO';
  return cleanCell(String(value));
}

export async function readXlsx(bytes: Uint8Array): Promise<SheetRow[]> {
  let data: unknown[][];
  try {
    data = await readSheet<string>(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
      parseNumber: (text: string) => text,
      trim: false,
    });
  } catch {
    throw new RosterFileError(FILE_ERRORS.unreadableXlsx);
  }
  const rows: SheetRow[] = [];
  data.forEach((row, index) => {
    const cells = row.map(cellText);
    if (!isBlank(cells)) rows.push({ line: index + 1, cells });
  });
  return rows;
}
