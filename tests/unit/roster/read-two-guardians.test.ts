// @vitest-environment node
// Both guardians of a student on one line, side by side (titular and suplente, madre and padre, tutor 1 and
// tutor 2): the reader gives a row per guardian with the line's number, finds their columns by their headers,
// names the second guardian's cells in its problems and counts both toward a student's two guardians.
import { describe, expect, it } from 'vitest';
import { RosterFileError, readRoster } from '../../../server/roster/read';
import { suggestMapping } from '../../../server/roster/read/header';
import { utf8, workbook } from './read-helpers';

async function read(bytes: Uint8Array, fileName: string, country: 'CL' | 'MX' = 'CL') {
  const result = await readRoster({ bytes, fileName, country });
  if (result.status !== 'read') throw new Error(`expected the file read, got ${JSON.stringify(result)}`);
  return result;
}
const csv = (lines: string[]) => utf8(lines.join('\n'));

const SIDE_BY_SIDE =
  'RUN;Nombres;Apellido paterno;Curso;Apoderado titular;RUT apoderado titular;Celular titular;Correo titular;Apoderado suplente;RUT suplente;Celular suplente;Correo suplente';

const ANA = {
  document: { type: 'rut', value: '12345678-5' },
  first_names: 'Ana',
  last_name_father: 'Soto',
  last_name_mother: '',
  course: { level: '1° Básico', letter: 'A', name: '1° Básico A', position: 2 },
  birth_date: null,
  email: null,
};

describe('titular and suplente side by side', () => {
  it('reads a row per guardian, both with the line of the file, the first titular and the second suplente', async () => {
    const result = await read(
      csv([
        SIDE_BY_SIDE,
        '12.345.678-5;Ana;Soto;1° Básico A;Carla Pérez Rojas;11.111.111-1;9 8765 4321;carla@correo.cl;Juan Soto Díaz;22.222.222-2;9 6123 4567;Juan@Correo.cl',
        '9.876.543-3;Luis;Rojas;1° Básico A;Marta Rojas Vera;;+56 9 8765 4321;;;;;',
        '10.000.004-0;Tomás;Vera;1° Básico A;;;;;;;;',
      ]),
      'nomina.csv',
    );
    expect(result.mapping).toEqual([
      'student_run',
      'student_first_names',
      'student_last_name_father',
      'course',
      'guardian_full_name',
      'guardian_run',
      'guardian_phone',
      'guardian_email',
      'guardian2_full_name',
      'guardian2_run',
      'guardian2_phone',
      'guardian2_email',
    ]);
    expect(result.problems).toEqual([]);
    expect(result.rowsRead).toBe(3);
    expect(result.rows.slice(0, 2)).toEqual([
      {
        line: 2,
        student: ANA,
        guardian: {
          document: { type: 'rut', value: '11111111-1' },
          first_names: 'Carla',
          last_name_father: 'Pérez',
          last_name_mother: 'Rojas',
          role: 'titular',
          relationship: 'Apoderado',
          phone: '+56987654321',
          email: 'carla@correo.cl',
        },
      },
      {
        line: 2,
        student: ANA,
        guardian: {
          document: { type: 'rut', value: '22222222-2' },
          first_names: 'Juan',
          last_name_father: 'Soto',
          last_name_mother: 'Díaz',
          role: 'suplente',
          relationship: 'Apoderado',
          phone: '+56961234567',
          email: 'juan@correo.cl',
        },
      },
    ]);
    // A line whose second guardian's cells are all empty is one row; one with no guardian, one row without.
    expect(result.rows.slice(2).map((r) => [r.line, r.student.first_names, r.guardian?.first_names ?? null, r.guardian?.role])).toEqual([
      [3, 'Luis', 'Marta', 'titular'],
      [4, 'Tomás', null, undefined],
    ]);
  });

  it('takes the roles the role columns give over the columns order', async () => {
    const result = await read(
      csv([
        'Nombre completo;Curso;Apoderado 1;Tipo apoderado 1;Apoderado 2;Tipo apoderado 2',
        'Ana Soto Pérez;1° Básico A;Carla Pérez Rojas;Suplente;Juan Soto Díaz;Titular',
        'Luis Rojas Díaz;1° Básico A;Marta Rojas Vera;;Pedro Rojas Soto;',
      ]),
      'nomina.csv',
    );
    expect(result.mapping).toEqual([
      'student_full_name',
      'course',
      'guardian_full_name',
      'guardian_role',
      'guardian2_full_name',
      'guardian2_role',
    ]);
    expect(result.problems).toEqual([]);
    expect(result.rows.map((r) => [r.line, r.guardian?.first_names, r.guardian?.role])).toEqual([
      [2, 'Carla', 'suplente'],
      [2, 'Juan', 'titular'],
      [3, 'Marta', 'titular'],
      [3, 'Pedro', 'suplente'],
    ]);
  });
});

describe('madre and padre side by side', () => {
  it('reads a workbook with the mother and the father: the relationship from the header, titular the first', async () => {
    const file = await workbook([
      ['Nómina 2027'],
      ['RUN', 'Nombres', 'Apellido paterno', 'Curso', 'Nombre madre', 'Teléfono madre', 'Nombre padre', 'Teléfono padre', 'Correo padre'],
      ['12.345.678-5', 'Ana', 'Soto', '1° Básico A', 'Carla Pérez Rojas', '987654321', 'Juan Soto Díaz', '961234567', 'juan@correo.cl'],
      ['9.876.543-3', 'Luis', 'Rojas', '2° Básico B', null, null, 'Pedro Rojas Soto', '+56 9 6123 4567', null],
    ]);
    const result = await read(file, 'nomina.xlsx');
    expect(result.mapping).toEqual([
      'student_run',
      'student_first_names',
      'student_last_name_father',
      'course',
      'guardian_full_name',
      'guardian_phone',
      'guardian2_full_name',
      'guardian2_phone',
      'guardian2_email',
    ]);
    expect(result.problems).toEqual([]);
    expect(
      result.rows.map((r) => [r.line, r.student.first_names, r.guardian?.first_names, r.guardian?.relationship, r.guardian?.role]),
    ).toEqual([
      [3, 'Ana', 'Carla', 'Madre', 'titular'],
      [3, 'Ana', 'Juan', 'Padre', 'suplente'],
      // Only the father on the line: the student's only guardian, titular.
      [4, 'Luis', 'Pedro', 'Padre', 'titular'],
    ]);
    expect(result.rows[1]!.guardian).toMatchObject({ phone: '+56961234567', email: 'juan@correo.cl' });
  });

  it('keeps a relationship column over the header word', async () => {
    const result = await read(
      csv(['Nombre;Curso;Nombre madre;Parentesco madre;Nombre padre', 'Ana Soto Pérez;1° Básico A;Carla Pérez Rojas;Abuela;']),
      'nomina.csv',
    );
    expect(result.rows.map((r) => r.guardian?.relationship)).toEqual(['Abuela']);
  });
});

describe('Mexico: tutor 1 and tutor 2', () => {
  it('reads both tutors of a line', async () => {
    const result = await read(
      csv([
        'CURP;Nombre del alumno;Grado;Grupo;Tutor 1;CURP tutor 1;Teléfono tutor 1;Tutor 2;Teléfono tutor 2',
        'GOPA150312HDFNRN08;Andrés González Pérez;1° de Primaria;A;María López Hernández;LOHM850101MDFPRR05;55 1234 5678;José González Ruiz;044 55 1234 5679',
      ]),
      'lista.csv',
      'MX',
    );
    expect(result.problems).toEqual([]);
    expect(
      result.rows.map((r) => [r.line, r.guardian?.first_names, r.guardian?.document?.value ?? null, r.guardian?.phone, r.guardian?.role]),
    ).toEqual([
      [2, 'María', 'LOHM850101MDFPRR05', '+525512345678', 'titular'],
      [2, 'José', null, '+525512345679', 'suplente'],
    ]);
  });
});

describe('headers of two guardians', () => {
  it.each([
    [
      ['Nombre', 'Curso', 'Nombre de la madre', 'Celular de la madre', 'Nombre del padre', 'Celular del padre'],
      ['student_full_name', 'course', 'guardian_full_name', 'guardian_phone', 'guardian2_full_name', 'guardian2_phone'],
    ],
    [
      [
        'Nombre completo',
        'Curso',
        'RUT padre',
        'DV',
        'Nombres padre',
        'Apellidos padre',
        'RUT madre',
        'DV',
        'Nombres madre',
        'Apellidos madre',
      ],
      [
        'student_full_name',
        'course',
        'guardian_run',
        'guardian_dv',
        'guardian_first_names',
        'guardian_last_name_father',
        'guardian2_run',
        'guardian2_dv',
        'guardian2_first_names',
        'guardian2_last_name_father',
      ],
    ],
    [
      ['Nombre', 'Curso', 'Apoderado 1', 'Celular apoderado 1', 'Apoderado 2', 'Celular apoderado 2', 'Correo apoderado 2'],
      ['student_full_name', 'course', 'guardian_full_name', 'guardian_phone', 'guardian2_full_name', 'guardian2_phone', 'guardian2_email'],
    ],
    // Columns that do not say whose, after the suplente's, are the suplente's.
    [
      ['Nombre', 'Curso', 'Nombre apoderado', 'Celular', 'Apoderado suplente', 'Celular', 'Correo'],
      ['student_full_name', 'course', 'guardian_full_name', 'guardian_phone', 'guardian2_full_name', 'guardian2_phone', 'guardian2_email'],
    ],
    // "Titular" and "Suplente" alone name the guardians when other columns are the titular's or the suplente's.
    [
      ['Nombre', 'Curso', 'Titular', 'Celular titular', 'Suplente', 'Celular suplente'],
      ['student_full_name', 'course', 'guardian_full_name', 'guardian_phone', 'guardian2_full_name', 'guardian2_phone'],
    ],
    [
      ['Nombre', 'Curso', 'Apoderado', 'Titular'],
      ['student_full_name', 'course', 'guardian_full_name', 'guardian_role'],
    ],
    // "Padre o tutor" is one guardian, whoever they are.
    [
      ['Nombre', 'Grado', 'Grupo', 'Nombre del padre o tutor', 'Teléfono'],
      ['student_full_name', 'level', 'letter', 'guardian_full_name', 'guardian_phone'],
    ],
  ])('%j', (headers, mapping) => {
    expect(suggestMapping(headers)).toEqual({ mapping, recognised: headers.length, unknown: 0 });
  });

  it('asks for a mapping when the second guardian has a phone but no name, and refuses such a mapping sent back', async () => {
    const file = csv([
      'Nombres;Apellido paterno;Curso;Apoderado;Celular;Celular suplente',
      'Ana;Soto;1° Básico A;Carla Pérez;987654321;961234567',
    ]);
    expect(await readRoster({ bytes: file, fileName: 'a.csv', country: 'CL' })).toEqual({
      status: 'mapping',
      headers: ['Nombres', 'Apellido paterno', 'Curso', 'Apoderado', 'Celular', 'Celular suplente'],
      suggested: ['student_first_names', 'student_last_name_father', 'course', 'guardian_full_name', 'guardian_phone', 'guardian2_phone'],
      headerLine: 1,
    });
    const attempt = readRoster({
      bytes: file,
      fileName: 'a.csv',
      country: 'CL',
      mapping: ['student_first_names', 'student_last_name_father', 'course', 'guardian_full_name', 'guardian_phone', 'guardian2_phone'],
    });
    await expect(attempt).rejects.toThrow(RosterFileError);
    await expect(attempt).rejects.toThrow(
      'Hay columnas del segundo apoderado (RUN, celular, correo o relación) pero ninguna con su nombre: asigna «Nombres del segundo apoderado» y «Apellido paterno del segundo apoderado», o «Nombre completo del segundo apoderado».',
    );
  });
});

describe("the second guardian's problems", () => {
  it('names the second guardian’s column and the line, and refuses the whole line', async () => {
    const result = await read(
      csv([
        SIDE_BY_SIDE,
        '12.345.678-5;Ana;Soto;1° Básico A;Carla Pérez Rojas;11.111.111-1;9 8765 4321;;Juan Soto Díaz;22.222.222-3;9 6123 4567;',
        '9.876.543-3;Luis;Rojas;1° Básico A;Marta Rojas Vera;;9 8765 4321;;;;12345;juan@',
        '10.000.004-0;Tomás;Vera;1° Básico A;Rosa Vera Díaz;;;;Pedro;;;',
        '10.000.013-K;Sofía;Araya;1° Básico A;Rosa Araya Díaz;;;;Pedro Araya Soto;;;',
      ]),
      'nomina.csv',
    );
    expect(result.problems).toEqual([
      { line: 2, column: 'RUT suplente', message: 'El RUT no es válido: revisa el dígito verificador.' },
      { line: 3, column: 'Apoderado suplente', message: 'Falta el nombre del apoderado.' },
      { line: 3, column: 'Celular suplente', message: 'Ese número de celular no existe en el país de su prefijo. Revisa los dígitos.' },
      { line: 3, column: 'Correo suplente', message: 'Ingresa un correo electrónico válido, por ejemplo nombre@dominio.cl.' },
      {
        line: 4,
        column: 'Apoderado suplente',
        message: 'Escribe nombres y apellidos: con una sola palabra no sabemos cuál es el apellido.',
      },
    ]);
    expect(result.rows.map((r) => [r.line, r.guardian?.first_names])).toEqual([
      [5, 'Rosa'],
      [5, 'Pedro'],
    ]);
  });
});

describe('two guardians at most, one titular, across lines', () => {
  it('counts both guardians of a line toward the student’s two', async () => {
    const result = await read(
      csv([
        SIDE_BY_SIDE,
        '12.345.678-5;Ana;Soto;1° Básico A;Carla Pérez Rojas;11.111.111-1;;;Juan Soto Díaz;22.222.222-2;;',
        // The same two again: nothing new.
        '12.345.678-5;Ana;Soto;1° Básico A;Carla Pérez Rojas;11.111.111-1;;;Juan Soto Díaz;22.222.222-2;;',
        // A third, alone on its line.
        '12.345.678-5;Ana;Soto;1° Básico A;Rosa Díaz Vera;7.000.000-8;;;;;;',
        // One guardian on an earlier line, two new ones on this.
        '9.876.543-3;Luis;Rojas;1° Básico A;;;;;Marta Rojas Vera;;;',
        '9.876.543-3;Luis;Rojas;1° Básico A;Pedro Rojas Soto;;;;Rosa Díaz Vera;7.000.000-8;;',
        // The same person as titular and suplente.
        '10.000.004-0;Tomás;Vera;1° Básico A;Carla Pérez Rojas;11.111.111-1;;;Carla Pérez Rojas;11.111.111-1;;',
      ]),
      'nomina.csv',
    );
    expect(result.problems).toEqual([
      { line: 4, column: null, message: 'El estudiante ya tiene dos apoderados (línea 2): Hermes guarda un titular y un suplente.' },
      {
        line: 6,
        column: null,
        message:
          'El estudiante ya tiene un apoderado en la línea 5: con los dos de esta línea serían tres, y Hermes guarda un titular y un suplente.',
      },
      {
        line: 7,
        column: null,
        message: 'Los dos apoderados de esta línea son la misma persona: deja vacías las columnas del segundo o corrígelas.',
      },
    ]);
    expect(result.rows.map((r) => [r.line, r.guardian?.first_names, r.guardian?.role])).toEqual([
      [2, 'Carla', 'titular'],
      [2, 'Juan', 'suplente'],
      [3, 'Carla', 'titular'],
      [3, 'Juan', 'suplente'],
      [5, 'Marta', 'suplente'],
    ]);
  });

  it('refuses two titulares, on one line or across lines', async () => {
    const result = await read(
      csv([
        'Nombre completo;Curso;Apoderado 1;Tipo apoderado 1;Apoderado 2;Tipo apoderado 2',
        'Ana Soto Pérez;1° Básico A;Carla Pérez Rojas;Titular;Juan Soto Díaz;Titular',
        'Luis Rojas Díaz;1° Básico A;Marta Rojas Vera;Titular;;',
        'Luis Rojas Díaz;1° Básico A;Marta Rojas Vera;;Rosa Díaz Vera;Titular',
      ]),
      'nomina.csv',
    );
    expect(result.problems).toEqual([
      {
        line: 2,
        column: null,
        message: 'Los dos apoderados de esta línea están marcados como titular: marca uno como suplente.',
      },
      {
        line: 4,
        column: null,
        message: 'El estudiante ya tiene un apoderado titular en la línea 3: marca uno de los dos como suplente.',
      },
    ]);
    expect(result.rows.map((r) => [r.line, r.guardian?.first_names, r.guardian?.role])).toEqual([[3, 'Marta', 'titular']]);
  });
});
