// @vitest-environment node
// The reader speaks the school's country: a Mexican school reads alumno, padre o tutor, grado y grupo and
// CURP in every problem of its file and every refusal of the file as a whole; a Chilean school reads what it
// always read. The texts are written out here as each school reads them.
import { describe, expect, it } from 'vitest';
import type { ColumnMapping } from '../../../shared/roster-contract';
import { RosterFileError, readRoster } from '../../../server/roster/read';
import mexicanScreen from '../../../src/i18n/roster/es-MX.json';
import { utf8 } from './read-helpers';

const csv = (lines: string[]) => utf8(lines.join('\n'));

async function problemsOf(lines: string[], country: 'CL' | 'MX') {
  const result = await readRoster({ bytes: csv(lines), fileName: 'inscripcion.csv', country });
  if (result.status !== 'read') throw new Error(`expected the file read, got ${JSON.stringify(result)}`);
  return result.problems;
}

async function fileError(lines: string[], country: 'CL' | 'MX', mapping?: string[]): Promise<string> {
  try {
    await readRoster({
      bytes: csv(lines),
      fileName: 'inscripcion.csv',
      country,
      ...(mapping ? { mapping: mapping as ColumnMapping } : {}),
    });
  } catch (error) {
    if (error instanceof RosterFileError) return error.message;
    throw error;
  }
  throw new Error('expected the file refused');
}

/** A Mexican file with a problem of each kind a line can have. */
const MEXICAN_FILE = [
  'CURP;Nombres;Apellido paterno;Grado;Grupo;Fecha de nacimiento;Nombre del tutor;Apellido paterno del tutor;Tipo;Celular tutor;Nombre tutor 2;Apellido paterno tutor 2',
  'GOPA150312HDFNRN08;Andrés;González;1° de Primaria;A;;María;López;Titular;55 1234 5678;;',
  ';;Pérez;2° de Primaria;B;;;;;;;',
  ';Luis;;2° de Primaria;B;;;;;;;',
  ';Sofía;Araya;7° de Primaria;A;;;;;;;',
  ';Pedro;Díaz;;;;;;;;;',
  ';Marta;Vera;3° de Primaria;A;;;López;;;;',
  ';Lucía;Vera;3° de Primaria;A;;Juan;Vera;jefe;55 1234 5679;;',
  'GOPA150312HDFNRN08;Andrés;González;2° de Primaria;A;;;;;;;',
  ';Rosa;Mena;3° de Primaria;A;;Juan;Vera;Titular;;Juan;Vera',
  ';Ema;Luna;3° de Primaria;A;;Ana;Luna;Titular;;Eva;Luna',
  ';Ema;Luna;3° de Primaria;A;;Rita;Luna;;;;',
  ';Ema;Luna;3° de Primaria;A;;Ana;Luna;Titular;55 1111 2222;;',
];

/** Words a Mexican school does not use for its people, courses or school. */
const CHILEAN_WORDS = /\b(apoderad[oa]s?|RUN|RUT|colegio|estudiantes?|cursos?|letra|básico|nómina)\b/i;

describe('a Mexican school', () => {
  it('reads the problems of its lines in Mexican words', async () => {
    expect(await problemsOf(MEXICAN_FILE, 'MX')).toEqual([
      { line: 3, column: 'Nombres', message: 'Falta el nombre del alumno.' },
      { line: 4, column: 'Apellido paterno', message: 'Falta el apellido paterno del alumno.' },
      { line: 5, column: 'Grado', message: 'No reconocemos el grado y grupo «7° de Primaria A»: escríbelo como «1° de Primaria A».' },
      { line: 6, column: 'Grado', message: 'Falta el grado y grupo.' },
      { line: 7, column: 'Nombre del tutor', message: 'Falta el nombre del padre o tutor.' },
      {
        line: 8,
        column: 'Tipo',
        message: 'No reconocemos «jefe» como tipo de padre o tutor: escribe titular o suplente.',
      },
      { line: 9, column: null, message: 'El alumno ya aparece en la línea 2 con otro grupo (1° de Primaria A).' },
      {
        line: 10,
        column: null,
        message: 'Los dos padres o tutores de esta línea son la misma persona: deja vacías las columnas del segundo o corrígelas.',
      },
      {
        line: 12,
        column: null,
        message: 'El alumno ya tiene dos padres o tutores (línea 11): Hermes guarda un titular y un suplente.',
      },
      { line: 13, column: null, message: 'El padre o tutor ya aparece en la línea 11 con otro celular (ninguno).' },
    ]);
  });

  it('reads the refusals of its file in Mexican words', async () => {
    expect(await fileError(['Inscripción 2027', 'Observaciones;Comentarios', 'x;y'], 'MX')).toBe(
      'No encontramos la fila de títulos de las columnas (por ejemplo CURP, Nombres, Apellido paterno, Grado, Grupo). Descarga la plantilla para ver cómo escribirlos.',
    );
    expect(await fileError(['CURP;Nombres;Apellido paterno;Grado'], 'MX')).toBe('El archivo tiene la fila de títulos pero ningún alumno.');
    const header = ['CURP;Nombres;Apellido paterno;Grado;Celular', ';Ana;Soto;1° de Primaria;55 1234 5678'];
    expect(await fileError(header, 'MX', ['student_curp', 'student_first_names', 'ignore', 'level', 'ignore'])).toBe(
      'Falta la columna del nombre del alumno: asigna «Nombres del alumno» y «Apellido paterno del alumno», o «Nombre completo del alumno».',
    );
    expect(await fileError(header, 'MX', ['student_curp', 'student_first_names', 'student_last_name_father', 'ignore', 'ignore'])).toBe(
      'Falta la columna del grado: asigna «Grado y grupo», o «Grado» y «Grupo».',
    );
    expect(
      await fileError(header, 'MX', ['student_curp', 'student_first_names', 'student_last_name_father', 'level', 'guardian_phone']),
    ).toBe(
      'Hay columnas del padre o tutor (CURP, celular, correo o parentesco) pero ninguna con su nombre: asigna «Nombres del padre o tutor» y «Apellido paterno del padre o tutor», o «Nombre completo del padre o tutor».',
    );
    expect(
      await fileError(header, 'MX', ['student_curp', 'student_first_names', 'student_last_name_father', 'level', 'guardian2_phone']),
    ).toBe(
      'Hay columnas del segundo padre o tutor (CURP, celular, correo o parentesco) pero ninguna con su nombre: asigna «Nombres del segundo padre o tutor» y «Apellido paterno del segundo padre o tutor», o «Nombre completo del segundo padre o tutor».',
    );
    expect(
      await fileError(header, 'MX', ['student_curp', 'student_first_names', 'student_last_name_father', 'level', 'student_curp']),
    ).toBe('Asignaste dos columnas a «CURP del alumno»: cada dato va en una sola columna.');
  });

  it('finds none of the Chilean words in any problem or refusal it can be given', async () => {
    const texts = (await problemsOf(MEXICAN_FILE, 'MX')).map((p) => p.message);
    const header = ['CURP;Nombres;Apellido paterno;Grado;Celular;DV', ';Ana;Soto;1° de Primaria;55 1234 5678;1'];
    const mappings = [
      ['student_curp', 'student_first_names', 'ignore', 'level', 'ignore', 'ignore'],
      ['student_curp', 'student_first_names', 'student_last_name_father', 'ignore', 'ignore', 'ignore'],
      ['student_curp', 'student_first_names', 'student_last_name_father', 'level', 'guardian_phone', 'ignore'],
      ['student_curp', 'student_first_names', 'student_last_name_father', 'level', 'guardian2_phone', 'ignore'],
      ['student_curp', 'student_first_names', 'student_last_name_father', 'level', 'ignore', 'student_dv'],
      ['student_curp', 'student_first_names', 'student_last_name_father', 'level', 'ignore', 'guardian_dv'],
      ['student_curp', 'student_first_names', 'student_last_name_father', 'level', 'ignore', 'guardian2_dv'],
      ['student_curp', 'student_first_names', 'student_last_name_father', 'level', 'level', 'ignore'],
      ['student_curp', 'student_first_names', 'student_last_name_father', 'letter', 'letter', 'ignore'],
      ['student_curp', 'student_first_names', 'student_last_name_father', 'level', 'guardian_curp', 'guardian_curp'],
    ];
    for (const mapping of mappings) texts.push(await fileError(header, 'MX', mapping));
    texts.push(await fileError(['Observaciones;Comentarios', 'x;y'], 'MX'));
    texts.push(await fileError(['CURP;Nombres;Apellido paterno;Grado'], 'MX'));
    texts.push(await fileError(['Nombre;Correo;Rol', 'Ana Soto;ana@escuela.mx;docente'], 'MX'));
    texts.push(
      ...(
        await problemsOf(
          [
            'RUN;DV;Nombres;Apellido paterno;Grado y grupo;Fecha de nacimiento;CURP tutor;Nombre tutor;Apellido tutor;Tipo;Celular tutor;Nombre tutor 2;Apellido tutor 2;Tipo tutor 2',
            ';4;Ana;Soto;1A;15-03-2040;;Eva;Soto;Titular;;;;',
            '12.345.678-5;4;Ana;Soto;1A;;;Eva;Soto;Titular;;;;',
            ';;Ema;Rojas;1A;;;Eva;Rojas;Titular;;Raúl;Rojas;',
            ';;Ema;Rojas;1A;;;Rita;Rojas;;;;;',
            ';;Lía;Ríos;1A;;;Eva;Ríos;Titular;;;;',
            ';;Lía;Ríos;1A;;;Raúl;Ríos;Titular;;;;',
            ';;Uma;Paz;1A;;;Eva;Paz;;;;;',
            ';;Uma;Paz;1A;;;Rita;Paz;;;Raúl;Paz;',
            ';;Sol;Paz;1A;;LOHM850101MDFPRR05;María;López;;55 1234 5678;;;',
            ';;Río;Paz;1A;;LOHM850101MDFPRR05;María;López;;55 1234 5679;;;',
            ';;Eli;Mar;1A;;;Eva;Mar;Titular;;Raúl;Mar;Titular',
          ],
          'MX',
        )
      ).map((p) => p.message),
    );
    expect(texts.length).toBeGreaterThan(25);
    expect(texts.filter((text) => CHILEAN_WORDS.test(text))).toEqual([]);
  });

  it('names a field assigned twice as its mapping step labels it', async () => {
    const header = ['CURP;Nombres;Apellido paterno;Grado;A;B', ';Ana;Soto;1° de Primaria;x;y'];
    const labels = mexicanScreen.roster.field;
    for (const field of ['student_curp', 'guardian_phone', 'guardian2_relationship', 'letter'] as const) {
      const mapping = ['student_curp', 'student_first_names', 'student_last_name_father', 'level', field, field];
      if (field === 'student_curp') mapping[0] = 'ignore';
      expect(await fileError(header, 'MX', mapping)).toBe(`Asignaste dos columnas a «${labels[field]}»: cada dato va en una sola columna.`);
    }
  });
});

describe('a Chilean school', () => {
  it('reads its problems and refusals as it always did', async () => {
    expect(
      await problemsOf(
        [
          'RUN;Nombres;Apellido paterno;Curso;Nombre apoderado;Tipo',
          ';;Soto;1° Básico A;;',
          ';Ana;Soto;9° Básico A;;',
          ';Luis;Rojas;1° Básico A;Eva Rojas;jefe',
          '12.345.678-5;Ema;Luna;1° Básico A;;',
          '12.345.678-5;Ema;Luna;2° Básico A;;',
        ],
        'CL',
      ),
    ).toEqual([
      { line: 2, column: 'Nombres', message: 'Falta el nombre del estudiante.' },
      { line: 3, column: 'Curso', message: 'No reconocemos el curso «9° Básico A»: escríbelo como «1° Básico A».' },
      { line: 4, column: 'Tipo', message: 'No reconocemos «jefe» como tipo de apoderado: escribe titular o suplente.' },
      { line: 6, column: null, message: 'El estudiante ya aparece en la línea 5 con otro curso (1° Básico A).' },
    ]);
    expect(await fileError(['Observaciones;Comentarios', 'x;y'], 'CL')).toBe(
      'No encontramos la fila de títulos de las columnas (por ejemplo RUN, Nombres, Apellido paterno, Curso). Descarga la plantilla para ver cómo escribirlos.',
    );
    const header = ['RUN;Nombres;Apellido paterno;Curso;Celular', ';Ana;Soto;1° Básico A;9 8765 4321'];
    expect(await fileError(header, 'CL', ['student_run', 'student_first_names', 'student_last_name_father', 'ignore', 'ignore'])).toBe(
      'Falta la columna del curso: asigna «Curso», o «Nivel» y «Letra».',
    );
    expect(
      await fileError(header, 'CL', ['student_run', 'student_first_names', 'student_last_name_father', 'course', 'guardian_phone']),
    ).toBe(
      'Hay columnas del apoderado (RUN, celular, correo o relación) pero ninguna con su nombre: asigna «Nombres apoderado» y «Apellido paterno apoderado», o «Nombre apoderado».',
    );
  });
});
