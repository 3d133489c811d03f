// Files the roster reader's tests build: CSV text in the encodings schools save, and workbooks written by write-excel-file.
import writeXlsxFile from 'write-excel-file/node';

type Cell = string | number | Date | null;

export const utf8 = (text: string) => new TextEncoder().encode(text);
export const utf8Bom = (text: string) => new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]);

/** Windows-1252 as Excel in Spanish saves it: the Latin-1 letters are one byte each. */
export function windows1252(text: string): Uint8Array {
  return Uint8Array.from(
    [...text].map((c) => {
      const code = c.charCodeAt(0);
      if (code > 0xff) throw new Error(`not in Windows-1252 here: ${c}`);
      return code;
    }),
  );
}

export async function workbook(rows: Cell[][]): Promise<Uint8Array> {
  const data = rows.map((row) => row.map((value) => (value instanceof Date ? { value, format: 'dd-mm-yyyy' } : value)));
  return new Uint8Array(await writeXlsxFile(data).toBuffer());
}
