// A CSV's text as sheet rows, through papaparse (quotes, separators and line breaks inside quotes). The
// separator is detected among `;` (Excel in Spanish), `,` and tab, over the first lines: the one that
// splits most of them into the same number of cells, more than one. A title row above the header does
// not fool it: it is one line among many.
import Papa from 'papaparse';
import { RosterFileError } from './errors';
import { FILE_ERRORS } from './messages';
import { cleanCell, isBlank, type SheetRow } from './sheet';

const SEPARATORS = [';', ',', '\t'] as const;
const SAMPLE_LINES = 40;

function detectSeparator(text: string): string {
  let best: { separator: string; score: number } = { separator: ';', score: -1 };
  for (const separator of SEPARATORS) {
    const sample = Papa.parse<string[]>(text, { delimiter: separator, preview: SAMPLE_LINES, skipEmptyLines: true });
    const widths = new Map<number, number>();
    for (const row of sample.data) if (row.length > 1) widths.set(row.length, (widths.get(row.length) ?? 0) + 1);
    // The most common width, counted once per line that has it; wider rows break ties.
    let score = 0;
    for (const [width, count] of widths) score = Math.max(score, count * 1000 + width);
    if (score > best.score) best = { separator, score };
  }
  return best.separator;
}

export function readCsv(text: string): SheetRow[] {
  const parsed = Papa.parse<string[]>(text, { delimiter: detectSeparator(text), skipEmptyLines: false });
  // An unclosed quote swallows the rest of the file into one cell: no line after it could be trusted.
  const open = parsed.errors.find((e) => e.code === 'MissingQuotes');
  if (open) throw new RosterFileError(FILE_ERRORS.openQuote((open.row ?? 0) + 1));
  const rows: SheetRow[] = [];
  // One record is one spreadsheet line, even when a quoted cell spans several lines of the text.
  parsed.data.forEach((record, index) => {
    const cells = record.map(cleanCell);
    if (!isBlank(cells)) rows.push({ line: index + 1, cells });
  });
  return rows;
}
