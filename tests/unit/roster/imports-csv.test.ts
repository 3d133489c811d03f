// @vitest-environment node
// The history of imports as a spreadsheet opens it (server/roster/csv.ts): one line per import in the order
// given, the dates in the school's time zone, the country's words, and a file name that looks like a formula
// made plain text, as the refused lines' CSV does.
import { describe, expect, it } from 'vitest';
import type { RosterImport } from '../../../shared/roster-contract';
import { importsCsv } from '../../../server/roster/csv';

const APPLIED: RosterImport = {
  id: 8,
  state: 'applied',
  file_name: 'nomina 2027.csv',
  file_hash: 'ab'.repeat(32),
  school_year: 2027,
  // 23:30 UTC on the 1st of March is 20:30 in Santiago (summer time, UTC−3) and 17:30 in Mexico City (UTC−6).
  created_at: '2027-03-01T23:30:00.000Z',
  created_by: 'Marcela Fuentes',
  applied_at: '2027-03-01T23:45:00.000Z',
  counts: {
    students: { new: 1, changed: 2, unchanged: 3, withdrawn: 4 },
    guardians: { new: 5, changed: 6, unchanged: 7 },
    courses: { new: 8, unchanged: 9 },
    rows: { read: 10, valid: 11, refused: 12 },
    conflicts: 0,
  },
};
const PREVIEWED: RosterImport = { ...APPLIED, id: 9, state: 'previewed', file_name: '=HYPERLINK("x")', applied_at: null, created_by: '' };

describe('the CSV of past imports', () => {
  it('has a BOM, Spanish headers, `;` and CRLF, a line per import with its dates in the school’s zone and every count', () => {
    expect(importsCsv([APPLIED], 'America/Santiago', 'CL')).toBe(
      '\uFEFFFecha;Aplicada;Quién;Archivo;SHA-256;Año escolar;Estado;' +
        'Alumnos nuevos;Alumnos modificados;Alumnos sin cambios;Alumnos retirados;' +
        'Apoderados nuevos;Apoderados modificados;Apoderados sin cambios;Cursos nuevos;' +
        'Filas leídas;Filas válidas;Filas rechazadas\r\n' +
        `2027-03-01 20:30;2027-03-01 20:45;Marcela Fuentes;nomina 2027.csv;${'ab'.repeat(32)};2027;Aplicada;` +
        '1;2;3;4;5;6;7;8;10;11;12\r\n',
    );
  });

  it('says guardians and courses as a Mexican school does, in its zone; an import never applied and a formula-looking name stay plain', () => {
    const [head, first, second, end] = importsCsv([PREVIEWED, APPLIED], 'America/Mexico_City', 'MX').split('\r\n');
    expect(head).toContain(';Padres o tutores nuevos;Padres o tutores modificados;Padres o tutores sin cambios;Grupos nuevos;');
    expect(first).toBe(`2027-03-01 17:30;;;"'=HYPERLINK(""x"")";${'ab'.repeat(32)};2027;Sin aplicar;1;2;3;4;5;6;7;8;10;11;12`);
    expect(second?.startsWith('2027-03-01 17:30;2027-03-01 17:45;Marcela Fuentes;')).toBe(true);
    expect(end).toBe('');
  });

  it('is its header alone when the school has imported nothing', () => {
    expect(importsCsv([], 'America/Santiago', 'CL').split('\r\n')).toHaveLength(2);
  });
});
