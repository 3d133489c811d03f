// The refused lines as a spreadsheet opens them: `;`-separated (Excel in Spanish), UTF-8 with a BOM, and
// cells that start like a formula prefixed with `'` so a file's text is never run as one.
import type { RowProblem } from '../../shared/roster-contract';

const FORMULA_START = /^[=+\-@\t\r]/;

function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[";\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function problemsCsv(problems: RowProblem[]): string {
  const lines = [['Línea', 'Columna', 'Problema'], ...problems.map((p) => [String(p.line), p.column ?? '', p.message])];
  return `\uFEFF${lines.map((cells) => cells.map(csvCell).join(';')).join('\r\n')}\r\n`;
}
