// The roster's CSV files as a spreadsheet opens them: `;`-separated (Excel in Spanish), UTF-8 with a BOM,
// CRLF lines, and cells that start like a formula prefixed with `'` so a file's text is never run as one.
// The refused lines of one import, and the school's history of imports.
import type { ImportState, RosterImport, RowProblem } from '../../shared/roster-contract';
import { minuteIn } from '../db/time';

const FORMULA_START = /^[=+\-@\t\r]/;

function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[";\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

const csvFile = (lines: readonly (readonly string[])[]): string =>
  `\uFEFF${lines.map((cells) => cells.map(csvCell).join(';')).join('\r\n')}\r\n`;

export function problemsCsv(problems: RowProblem[]): string {
  return csvFile([['Línea', 'Columna', 'Problema'], ...problems.map((p) => [String(p.line), p.column ?? '', p.message])]);
}

/** The states as the screen's history names them. */
const STATE_WORDS: Readonly<Record<ImportState, string>> = { previewed: 'Sin aplicar', applied: 'Aplicada', discarded: 'Descartada' };
/** Guardians and courses as each country's schools say them (the screen's es-CL and es-MX words). */
const COUNTRY_WORDS = {
  CL: { guardians: 'Apoderados', courses: 'Cursos' },
  MX: { guardians: 'Padres o tutores', courses: 'Grupos' },
} as const;

/** Every import given, in that order (newest first from the route), its dates as the school reads its clock. */
export function importsCsv(imports: readonly RosterImport[], timezone: string, country: 'CL' | 'MX'): string {
  const { guardians, courses } = COUNTRY_WORDS[country];
  const header = [
    'Fecha',
    'Aplicada',
    'Quién',
    'Archivo',
    'SHA-256',
    'Año escolar',
    'Estado',
    'Alumnos nuevos',
    'Alumnos modificados',
    'Alumnos sin cambios',
    'Alumnos retirados',
    `${guardians} nuevos`,
    `${guardians} modificados`,
    `${guardians} sin cambios`,
    `${courses} nuevos`,
    'Filas leídas',
    'Filas válidas',
    'Filas rechazadas',
  ];
  const lines = imports.map((i) => {
    const { students: s, guardians: g, courses: c, rows: r } = i.counts;
    const counts = [s.new, s.changed, s.unchanged, s.withdrawn, g.new, g.changed, g.unchanged, c.new, r.read, r.valid, r.refused];
    return [
      minuteIn(new Date(i.created_at), timezone),
      i.applied_at === null ? '' : minuteIn(new Date(i.applied_at), timezone),
      i.created_by,
      i.file_name,
      i.file_hash,
      String(i.school_year),
      STATE_WORDS[i.state],
      ...counts.map(String),
    ];
  });
  return csvFile([header, ...lines]);
}
