// @vitest-environment node
// The refused lines as a spreadsheet opens them (server/roster/csv.ts): a BOM, `;`, quoting, and a cell that
// looks like a formula made plain text.
import { describe, expect, it } from 'vitest';
import { problemsCsv } from '../../../server/roster/csv';

describe('the CSV of refused lines', () => {
  it('starts with a BOM, separates with ; and ends lines with CRLF', () => {
    expect(problemsCsv([{ line: 3, column: 'RUN', message: 'El RUN no es válido.' }])).toBe(
      '\uFEFFLínea;Columna;Problema\r\n3;RUN;El RUN no es válido.\r\n',
    );
  });

  it('prefixes cells that start like a formula with an apostrophe, and quotes separators and quotes', () => {
    const csv = problemsCsv([
      { line: 4, column: '=Curso', message: '+56 9 no es un celular; revisa "Celular"' },
      { line: 5, column: '@nombre', message: '-1 no es un año' },
      { line: 6, column: null, message: 'Fila repetida' },
    ]);
    expect(csv.split('\r\n').slice(1, 4)).toEqual([
      `4;'=Curso;"'+56 9 no es un celular; revisa ""Celular"""`,
      "5;'@nombre;'-1 no es un año",
      '6;;Fila repetida',
    ]);
  });
});
