// @vitest-environment node
// Birth dates typed with a two-digit year ("15-03-19", "01/02/08"), as many schools' files have them: a student
// is born in this century, so the year is 20yy; one that would then be after today is refused with a text
// that asks for the four digits instead of being read as 19yy by guess.
import { describe, expect, it } from 'vitest';
import { readRoster } from '../../../server/roster/read';
import { windows1252 } from './read-helpers';

describe('two-digit years in birth dates', () => {
  it('reads dd-mm-yy, dd/mm/yy and d.m.yy as this century, and refuses a year that would be after today', async () => {
    const file = windows1252(
      [
        'Nómina 2027;;;',
        'Nombres;Apellido paterno;Curso;Fecha nac.',
        'Ana;Soto;1° Básico A;15-03-19',
        'Luis;Rojas;IV Medio B;01/02/08',
        'Sofía;Araya;Kínder;5.3.21',
        'Tomás;Vera;1° Básico A;15-03-2019',
        'Pedro;Díaz;2° Básico A;15-03-99',
        'Marta;Luna;2° Básico A;31-02-19',
        'Rosa;Peña;3° Básico A;2/11/45',
      ].join('\r\n'),
    );
    const result = await readRoster({ bytes: file, fileName: 'nomina.csv', country: 'CL' });
    if (result.status !== 'read') throw new Error(`expected the file read, got ${JSON.stringify(result)}`);
    expect(result.rows.map((r) => [r.student.first_names, r.student.birth_date])).toEqual([
      ['Ana', '2019-03-15'],
      ['Luis', '2008-02-01'],
      ['Sofía', '2021-03-05'],
      ['Tomás', '2019-03-15'],
    ]);
    expect(result.problems).toEqual([
      {
        line: 7,
        column: 'Fecha nac.',
        message:
          'El año «99» de la fecha de nacimiento se lee como 2099, que es posterior a hoy: escríbelo con cuatro dígitos, por ejemplo 15-03-1999.',
      },
      { line: 8, column: 'Fecha nac.', message: 'Escribe la fecha de nacimiento como día-mes-año, por ejemplo 15-03-2018.' },
      {
        line: 9,
        column: 'Fecha nac.',
        message:
          'El año «45» de la fecha de nacimiento se lee como 2045, que es posterior a hoy: escríbelo con cuatro dígitos, por ejemplo 2/11/1945.',
      },
    ]);
  });
});
