// @vitest-environment node
// Headers the roster reader recognises (Spanish words and synonyms, accents, case and spacing aside), the
// mapping step for the ones it does not, a mapping sent back, and the files it refuses as a whole.
import { describe, expect, it } from 'vitest';
import { RosterFileError, readRoster } from '../../../server/roster/read';
import { suggestMapping } from '../../../server/roster/read/header';
import { ROSTER_FILE_MAX_BYTES, ROSTER_ROWS_MAX } from '../../../shared/roster-contract';
import { utf8, workbook } from './read-helpers';

const csv = (lines: string[]) => utf8(lines.join('\n'));

describe('headers', () => {
  it('recognises Spanish headers and synonyms, whoever they belong to', () => {
    const headers = [
      'R.U.T.',
      'Dígito Verificador',
      'NOMBRES',
      'apellido_paterno',
      'Ap. Materno',
      'Nivel',
      'Letra',
      'F. Nacimiento',
      'E-mail alumno',
      'RUT Apoderado',
      'DV',
      'Nombre',
      'Apellidos apoderado',
      'Parentesco',
      'Titular/Suplente',
      'Fono',
      'Correo',
    ];
    expect(suggestMapping(headers)).toEqual({
      mapping: [
        'student_run',
        'student_dv',
        'student_first_names',
        'student_last_name_father',
        'student_last_name_mother',
        'level',
        'letter',
        'student_birth_date',
        'student_email',
        'guardian_run',
        'guardian_dv',
        'guardian_first_names',
        'guardian_last_name_father',
        'guardian_relationship',
        'guardian_role',
        'guardian_phone',
        'guardian_email',
      ],
      recognised: 17,
      unknown: 0,
    });
  });

  it('reads "Nombre" alone as the whole name, and Mexican headers', () => {
    expect(suggestMapping(['CURP', 'Nombre', 'Grado', 'Grupo', 'Padre o tutor', 'CURP del tutor', 'Celular']).mapping).toEqual([
      'student_curp',
      'student_full_name',
      'level',
      'letter',
      'guardian_full_name',
      'guardian_curp',
      'guardian_phone',
    ]);
  });
});

describe('columns Hermes does not keep', () => {
  it('ignores a list number and the SIGE columns it has no use for, without asking', async () => {
    const file = csv([
      'N°;Año;RBD;Cód Grado;Run;Dígito Ver.;Género;Nombres;Apellido Paterno;Apellido Materno;Desc Grado;Letra Curso;Dirección;Comuna Residencia',
      '1;2027;12345;1;12345678;5;F;Ana;Soto;Pérez;1° Básico;A;Los Aromos 123;Ñuñoa',
    ]);
    const result = await readRoster({ bytes: file, fileName: 'sige.csv', country: 'CL' });
    expect(result).toMatchObject({
      status: 'read',
      mapping: [
        'ignore',
        'ignore',
        'ignore',
        'ignore',
        'student_run',
        'student_dv',
        'ignore',
        'student_first_names',
        'student_last_name_father',
        'student_last_name_mother',
        'level',
        'letter',
        'ignore',
        'ignore',
      ],
      problems: [],
    });
    expect(result.status === 'read' && result.rows[0]!.student).toMatchObject({
      document: { type: 'rut', value: '12345678-5' },
      course: { name: '1° Básico A' },
    });
  });
});

describe('whose a column is', () => {
  it('gives the columns after a guardian-only one (phone, relationship) to the guardian, and ignores their kept-nowhere data', () => {
    expect(
      suggestMapping(['Nombre', 'Curso', 'Nombre apoderado', 'Celular', 'Correo', 'Dirección apoderado', 'Género alumno']).mapping,
    ).toEqual(['student_full_name', 'course', 'guardian_full_name', 'guardian_phone', 'guardian_email', 'ignore', 'ignore']);
    expect(suggestMapping(['Nombre completo', 'Curso', 'Parentesco', 'Nombres', 'Apellidos', 'Correo']).mapping).toEqual([
      'student_full_name',
      'course',
      'guardian_relationship',
      'guardian_first_names',
      'guardian_last_name_father',
      'guardian_email',
    ]);
  });
});

describe('the mapping step', () => {
  const file = csv([
    'Listado de curso',
    'RUN;Nombres;Apellido paterno;Curso;Observaciones;Teléfono de emergencia;Nombre apoderado',
    '12.345.678-5;Ana;Soto;1° Básico A;alergia;9 8765 4321;Carla Pérez',
  ]);

  it('answers mapping when a header is not recognised, with what was found and the header line', async () => {
    expect(await readRoster({ bytes: file, fileName: 'curso.csv', country: 'CL' })).toEqual({
      status: 'mapping',
      headers: ['RUN', 'Nombres', 'Apellido paterno', 'Curso', 'Observaciones', 'Teléfono de emergencia', 'Nombre apoderado'],
      suggested: ['student_run', 'student_first_names', 'student_last_name_father', 'course', 'ignore', 'ignore', 'guardian_full_name'],
      headerLine: 2,
    });
  });

  it('reads the file with the mapping the administrator sends back', async () => {
    const mapping = [
      'student_run',
      'student_first_names',
      'student_last_name_father',
      'course',
      'ignore',
      'guardian_phone',
      'guardian_full_name',
    ] as const;
    const result = await readRoster({ bytes: file, fileName: 'curso.csv', country: 'CL', mapping: [...mapping] });
    expect(result.status).toBe('read');
    if (result.status !== 'read') return;
    expect(result.mapping).toEqual(mapping);
    expect(result.rows).toHaveLength(1);
    expect(result.rows[0]!.line).toBe(3);
    expect(result.rows[0]!.guardian).toMatchObject({ first_names: 'Carla', last_name_father: 'Pérez', phone: '+56987654321' });
  });

  it('answers mapping when no column holds the course, though every header was recognised', async () => {
    const result = await readRoster({ bytes: csv(['Nombres;Apellido paterno', 'Ana;Soto']), fileName: 'a.csv', country: 'CL' });
    expect(result).toMatchObject({ status: 'mapping', suggested: ['student_first_names', 'student_last_name_father'], headerLine: 1 });
  });

  it.each([
    [
      ['student_first_names', 'student_last_name_father'],
      'La asignación de columnas no corresponde al archivo: trae 2 columnas y el archivo tiene 7. Vuelve a asignarlas.',
    ],
    [
      ['student_run', 'student_first_names', 'student_last_name_father', 'ignore', 'ignore', 'ignore', 'guardian_full_name'],
      'Falta la columna del curso: asigna «Curso», o «Nivel» y «Letra».',
    ],
    [
      ['student_run', 'ignore', 'ignore', 'course', 'ignore', 'ignore', 'ignore'],
      'Falta la columna del nombre del estudiante: asigna «Nombres» y «Apellido paterno», o «Nombre completo».',
    ],
    [
      ['student_run', 'student_first_names', 'student_last_name_father', 'course', 'course', 'ignore', 'ignore'],
      'Asignaste dos columnas a «Curso»: cada dato va en una sola columna.',
    ],
    [
      ['student_run', 'student_first_names', 'student_last_name_father', 'course', 'ignore', 'guardian_phone', 'ignore'],
      'Hay columnas del apoderado (RUN, celular, correo o relación) pero ninguna con su nombre: asigna «Nombres apoderado» y «Apellido paterno apoderado», o «Nombre apoderado».',
    ],
    [
      ['student_run', 'student_first_names', 'student_last_name_father', 'course', 'shoe_size', 'ignore', 'ignore'],
      'La asignación de columnas trae un campo desconocido: «shoe_size».',
    ],
  ])('refuses the mapping %j: %s', async (mapping, message) => {
    // biome-ignore lint/suspicious/noExplicitAny: a mapping as the browser could send it, unknown fields included.
    const attempt = readRoster({ bytes: file, fileName: 'curso.csv', country: 'CL', mapping: mapping as any });
    await expect(attempt).rejects.toThrow(RosterFileError);
    await expect(attempt).rejects.toThrow(message);
  });
});

describe('files refused whole', () => {
  const refused = async (bytes: Uint8Array, fileName: string) => {
    try {
      await readRoster({ bytes, fileName, country: 'CL' });
    } catch (error) {
      expect(error).toBeInstanceOf(RosterFileError);
      return (error as Error).message;
    }
    throw new Error('the file was read');
  };

  it('refuses an empty file, a blank one, one too big and one of another type', async () => {
    expect(await refused(new Uint8Array(), 'a.csv')).toBe('El archivo está vacío.');
    expect(await refused(utf8('\n;;;\n\n'), 'a.csv')).toBe('El archivo está vacío.');
    expect(await refused(new Uint8Array(ROSTER_FILE_MAX_BYTES + 1).fill(0x41), 'a.csv')).toBe(
      'El archivo pesa más de 10 MB: divídelo en partes o quita las columnas que Hermes no usa.',
    );
    expect(await refused(utf8('%PDF-1.7'), 'nomina.pdf')).toBe('Sube un archivo CSV o Excel (.xlsx).');
  });

  it('refuses an old .xls, a broken .xlsx and a binary file named .csv', async () => {
    expect(await refused(new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]), 'nomina.xls')).toBe(
      'Ese es un archivo de Excel antiguo (.xls): ábrelo en Excel y guárdalo como .xlsx o CSV.',
    );
    expect(await refused(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]), 'nomina.xlsx')).toBe(
      'No pudimos abrir el archivo de Excel: revisa que sea un .xlsx y que no esté dañado o protegido con contraseña.',
    );
    expect(await refused(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13]), 'nomina.csv')).toBe(
      'El archivo no es un CSV de texto: guárdalo desde Excel como «CSV (delimitado por punto y coma)» o súbelo como .xlsx.',
    );
  });

  it('refuses a file with no header row, and one with the header and no student', async () => {
    expect(await refused(csv(['hola;mundo', '1;2']), 'a.csv')).toBe(
      'No encontramos la fila de títulos de las columnas (por ejemplo RUN, Nombres, Apellido paterno, Curso). Descarga la plantilla para ver cómo escribirlos.',
    );
    expect(await refused(csv(['Nombres;Apellido paterno;Curso', ';;']), 'a.csv')).toBe(
      'El archivo tiene la fila de títulos pero ningún estudiante.',
    );
    expect(await refused(await workbook([['Título'], ['Nombres', 'Curso', 'Apellido']]), 'a.xlsx')).toBe(
      'El archivo tiene la fila de títulos pero ningún estudiante.',
    );
  });

  it(`refuses more than ${ROSTER_ROWS_MAX} rows, and reads exactly that many`, async () => {
    const line = 'Ana;Soto;1° Básico A';
    const lines = (n: number) => ['Nombres;Apellido paterno;Curso', ...Array.from({ length: n }, () => line)];
    expect(await refused(csv(lines(ROSTER_ROWS_MAX + 1)), 'a.csv')).toBe('El archivo tiene más de 20.000 filas: divídelo en partes.');
    const result = await readRoster({ bytes: csv(lines(ROSTER_ROWS_MAX)), fileName: 'a.csv', country: 'CL' });
    expect(result.status === 'read' && result.rowsRead).toBe(ROSTER_ROWS_MAX);
  });
});
