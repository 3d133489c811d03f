// @vitest-environment node
// The levels below and above the ones every school has: Chile's early years (sala cuna, nivel medio, the two
// levels of transition) and Mexico's preescolar and bachillerato (by year or by semester), each read from a
// file as the school writes it, with its place in the school's order.
import { describe, expect, it } from 'vitest';
import { readRoster } from '../../../server/roster/read';
import { parseCourse } from '../../../server/roster/read/course';
import { utf8, windows1252, workbook } from './read-helpers';

async function read(bytes: Uint8Array, fileName: string, country: 'CL' | 'MX') {
  const result = await readRoster({ bytes, fileName, country });
  if (result.status !== 'read') throw new Error(`expected the file read, got ${JSON.stringify(result)}`);
  return result;
}
const courses = (result: Awaited<ReturnType<typeof read>>) =>
  result.rows.map(({ student: { course } }) => [course.name, course.level, course.position]);

describe("a Chilean school's early years", () => {
  it('reads sala cuna, nivel medio and the levels of transition from a jardín file saved by Excel', async () => {
    const file = windows1252(
      [
        'Nómina párvulos 2027;;;',
        'Nombres;Apellido paterno;Nivel;Letra',
        'Ema;Soto;Sala cuna menor;A',
        'Lía;Rojas;Sala Cuna Mayor;',
        'Tomás;Vera;Nivel Medio Menor;B',
        'Iván;Díaz;Medio mayor;A',
        'Sofía;Araya;Pre-Kínder;A',
        'Mateo;Muñoz;Prekinder;B',
        'Julia;Paz;NT1;C',
        'Ana;Luna;Primer nivel de transición;D',
        'Luis;Mena;Kinder;A',
        'Rosa;Peña;NT2;B',
        'Emilio;Ríos;Segundo nivel de transición;C',
        'Pedro;Mar;1° Básico;A',
      ].join('\r\n'),
    );
    const result = await read(file, 'parvulos.csv', 'CL');
    expect(result.problems).toEqual([]);
    expect(courses(result)).toEqual([
      ['Sala Cuna Menor A', 'Sala Cuna Menor', -4],
      ['Sala Cuna Mayor', 'Sala Cuna Mayor', -3],
      ['Medio Menor B', 'Medio Menor', -2],
      ['Medio Mayor A', 'Medio Mayor', -1],
      ['Pre-kínder A', 'Pre-kínder', 0],
      ['Pre-kínder B', 'Pre-kínder', 0],
      ['Pre-kínder C', 'Pre-kínder', 0],
      ['Pre-kínder D', 'Pre-kínder', 0],
      ['Kínder A', 'Kínder', 1],
      ['Kínder B', 'Kínder', 1],
      ['Kínder C', 'Kínder', 1],
      ['1° Básico A', '1° Básico', 2],
    ]);
  });

  it.each([
    ['Sala cuna menor', 'Sala Cuna Menor', ''],
    ['SALA CUNA MAYOR B', 'Sala Cuna Mayor', 'B'],
    ['Nivel medio menor', 'Medio Menor', ''],
    ['Medio Mayor C', 'Medio Mayor', 'C'],
    ['1er nivel de transición A', 'Pre-kínder', 'A'],
    ['2° nivel transición', 'Kínder', ''],
    ['NT 2 A', 'Kínder', 'A'],
  ])('"%s" is %s %s', (text, level, letter) => {
    expect(parseCourse(text, 'CL')).toMatchObject({ level, letter });
  });

  it.each(['Sala cuna', 'Medio', 'Sala cuna menor 2', 'Medio menor 3° básico', 'III Medio Mayor'])('"%s" is no Chilean course', (text) => {
    expect(parseCourse(text, 'CL')).toBeNull();
  });

  it('keeps Medio Menor and Medio Mayor out of a Mexican school', () => {
    expect(parseCourse('Medio Menor A', 'MX')).toBeNull();
    expect(parseCourse('Sala cuna mayor', 'MX')).toBeNull();
  });
});

describe("a Mexican school's preescolar and bachillerato", () => {
  it('reads preescolar however the school writes its grades', async () => {
    const bytes = await workbook([
      ['Control escolar — ciclo 2026-2027', null, null],
      ['Nombre del alumno', 'Grado y grupo', 'CURP'],
      ['Andrés González Pérez', '1° de preescolar A', null],
      ['María López Hernández', '2o Preescolar B', null],
      ['Luis Rojas Díaz', '3ro de kínder', null],
      ['Ana Soto Vera', 'Kínder 2 C', null],
      ['Rosa Peña Mar', '3° Preescolar', null],
    ]);
    const result = await read(bytes, 'preescolar.xlsx', 'MX');
    expect(result.problems).toEqual([]);
    expect(courses(result)).toEqual([
      ['1° de Preescolar A', '1° de Preescolar', 0],
      ['2° de Preescolar B', '2° de Preescolar', 1],
      ['3° de Preescolar', '3° de Preescolar', 2],
      ['2° de Preescolar C', '2° de Preescolar', 1],
      ['3° de Preescolar', '3° de Preescolar', 2],
    ]);
  });

  it('reads a bachillerato by semester and one by year, and a bare grade in a bachillerato file', async () => {
    const bySemester = await read(
      utf8(
        [
          'CURP;Nombre completo;Grado;Grupo',
          ';Andrés González Pérez;1er semestre de bachillerato;A',
          ';María López Hernández;3er Semestre Prepa;B',
          ';Luis Rojas Díaz;6° semestre;C',
          ';Ana Soto Vera;Quinto semestre de preparatoria;A',
        ].join('\n'),
      ),
      'prepa.csv',
      'MX',
    );
    expect(bySemester.problems).toEqual([]);
    expect(courses(bySemester)).toEqual([
      ['1° Semestre de Bachillerato A', '1° Semestre de Bachillerato', 12],
      ['3° Semestre de Bachillerato B', '3° Semestre de Bachillerato', 14],
      ['6° Semestre de Bachillerato C', '6° Semestre de Bachillerato', 17],
      ['5° Semestre de Bachillerato A', '5° Semestre de Bachillerato', 16],
    ]);
    const byYear = await read(
      utf8(
        [
          'CURP;Nombre completo;Grado;Grupo',
          ';Andrés González Pérez;1° de Bachillerato;A',
          ';María López Hernández;2do de preparatoria;B',
          ';Luis Rojas Díaz;3;A',
        ].join('\n'),
      ),
      'prepa.csv',
      'MX',
    );
    expect(byYear.problems).toEqual([]);
    expect(courses(byYear)).toEqual([
      ['1° de Bachillerato A', '1° de Bachillerato', 12],
      ['2° de Bachillerato B', '2° de Bachillerato', 13],
      ['3° de Bachillerato A', '3° de Bachillerato', 14],
    ]);
  });

  it.each(['4° de Bachillerato', '7° semestre de bachillerato', '2° semestre de primaria', 'Semestre A', '4° de Preescolar'])(
    '"%s" is no Mexican course',
    (text) => {
      expect(parseCourse(text, 'MX')).toBeNull();
    },
  );

  it('keeps bachillerato out of a Chilean school', () => {
    expect(parseCourse('1° de Bachillerato A', 'CL')).toBeNull();
    expect(parseCourse('3er semestre A', 'CL')).toBeNull();
  });
});
