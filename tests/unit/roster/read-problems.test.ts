// @vitest-environment node
// Lines the roster reader refuses, each with its spreadsheet line number, the column as the file wrote it
// and the reason in Spanish; and the checks across lines (a student twice with different data, a guardian
// with another phone, a third guardian, two titulares). The texts are written out here as the school reads them.
import { describe, expect, it } from 'vitest';
import { readRoster } from '../../../server/roster/read';
import { utf8 } from './read-helpers';

async function read(lines: string[], country: 'CL' | 'MX' = 'CL') {
  const result = await readRoster({ bytes: utf8(lines.join('\n')), fileName: 'nomina.csv', country });
  if (result.status !== 'read') throw new Error(`expected the file read, got ${JSON.stringify(result)}`);
  return result;
}

describe('a Chilean file with broken rows', () => {
  it('refuses each broken line with its line number, column and reason, and keeps the others', async () => {
    const result = await read([
      'Nómina 2027',
      'RUN;Nombres;Apellido paterno;Curso;Fecha de nacimiento;Nombre apoderado;Celular;Correo apoderado',
      '12.345.678-9;Ana;Soto;1° Básico A;;;;',
      '9.876.543-3;Luis;Rojas;1° Básico A;;Carla Pérez;12345;',
      '11.111.111-1;Sofía;Araya;Sala cuna;;;;',
      '22.222.222-2;;Muñoz;2° Básico A;;;;',
      'abc;Pedro;Díaz;2° Básico A;;;;',
      '10.000.013-k;Marta;Vera;3° Básico B;31-02-2019;Juan Vera;22 123 4567;juan@',
      '10.000.004-0;Tomás;Vera;3° Básico B;01/02/2019;Juan Vera;+56 9 8765 4321;Juan.Vera@Correo.CL',
      '7.000.000-8;;;;;;;',
    ]);
    expect(result.rowsRead).toBe(8);
    expect(result.problems).toEqual([
      { line: 3, column: 'RUN', message: 'El RUT no es válido: revisa el dígito verificador.' },
      { line: 4, column: 'Celular', message: 'Ese número de celular no existe en el país de su prefijo. Revisa los dígitos.' },
      { line: 5, column: 'Curso', message: 'No reconocemos el curso «Sala cuna»: escríbelo como «1° Básico A».' },
      { line: 6, column: 'Nombres', message: 'Falta el nombre del estudiante.' },
      { line: 7, column: 'RUN', message: 'Ingresa el RUT con su dígito verificador, por ejemplo 12.345.678-5.' },
      { line: 8, column: 'Fecha de nacimiento', message: 'Escribe la fecha de nacimiento como día-mes-año, por ejemplo 15-03-2018.' },
      { line: 8, column: 'Celular', message: 'Ese número no es de un celular: los SMS y WhatsApp solo llegan a celulares.' },
      { line: 8, column: 'Correo apoderado', message: 'Ingresa un correo electrónico válido, por ejemplo nombre@dominio.cl.' },
      { line: 10, column: 'Nombres', message: 'Falta el nombre del estudiante.' },
      { line: 10, column: 'Curso', message: 'Falta el curso.' },
    ]);
    expect(result.rows).toHaveLength(1);
    expect(result.rows[0]).toMatchObject({
      line: 9,
      student: { document: { type: 'rut', value: '10000004-0' }, first_names: 'Tomás', birth_date: '2019-02-01' },
      guardian: {
        first_names: 'Juan',
        last_name_father: 'Vera',
        phone: '+56987654321',
        email: 'juan.vera@correo.cl',
        relationship: 'Apoderado',
      },
    });
  });

  it('refuses a surname missing, a one-word whole name, an unknown role and over-long names', async () => {
    const long = 'A'.repeat(81);
    const result = await read([
      'Nombres;Apellido paterno;Curso;Apoderado;Tipo',
      'Ana;;1° Básico A;;',
      'Luis;Rojas;1° Básico A;Carla;',
      'Sofía;Araya;1° Básico A;Carla Pérez;abuela',
      `${long};Araya;1° Básico A;;`,
    ]);
    expect(result.problems).toEqual([
      { line: 2, column: 'Apellido paterno', message: 'Falta el apellido paterno del estudiante.' },
      { line: 3, column: 'Apoderado', message: 'Escribe nombres y apellidos: con una sola palabra no sabemos cuál es el apellido.' },
      { line: 4, column: 'Tipo', message: 'No reconocemos «abuela» como tipo de apoderado: escribe titular o suplente.' },
      { line: 5, column: 'Nombres', message: 'Los nombres pueden tener hasta 80 caracteres.' },
    ]);
    expect(result.rows).toEqual([]);
  });
});

describe('a Mexican file with broken rows', () => {
  it('checks CURP shape and check digit and Mexican phones, in Mexican words', async () => {
    const result = await read(
      [
        'CURP;Nombre del alumno;Grado;Grupo;Nombre del tutor;Teléfono;Correo del tutor',
        'ABC;Andrés González Pérez;1° de Primaria;A;;;',
        'GOPA150312HDFNRN09;Andrés González Pérez;1° de Primaria;A;;;',
        'GOPA150312HDFNRN08;Andrés González Pérez;7° de Primaria;A;;;',
        'gopa150312hdfnrn08;Andrés González Pérez;1° de Primaria;A;María López Hernández;123;maria@',
        'GOPA150312HDFNRN08;Andrés González Pérez;1° de Primaria;A;María López Hernández;044 55 1234 5678;Maria@Correo.mx',
      ],
      'MX',
    );
    expect(result.problems).toEqual([
      { line: 2, column: 'CURP', message: 'La CURP tiene 18 letras y números, por ejemplo HEGG560427MVZRRL04.' },
      { line: 3, column: 'CURP', message: 'La CURP no es válida: revisa el dígito verificador.' },
      { line: 4, column: 'Grado', message: 'No reconocemos el grado y grupo «7° de Primaria A»: escríbelo como «1° de Primaria A».' },
      { line: 5, column: 'Teléfono', message: 'Ese número de celular no existe en el país de su prefijo. Revisa los dígitos.' },
      { line: 5, column: 'Correo del tutor', message: 'Ingresa un correo electrónico válido, por ejemplo nombre@dominio.mx.' },
    ]);
    expect(result.rows).toEqual([
      {
        line: 6,
        student: {
          document: { type: 'curp', value: 'GOPA150312HDFNRN08' },
          first_names: 'Andrés',
          last_name_father: 'González',
          last_name_mother: 'Pérez',
          course: { level: '1° de Primaria', letter: 'A', name: '1° de Primaria A', position: 3 },
          birth_date: null,
          email: null,
        },
        guardian: {
          document: null,
          first_names: 'María',
          last_name_father: 'López',
          last_name_mother: 'Hernández',
          role: 'titular',
          relationship: 'Tutor',
          phone: '+525512345678',
          email: 'maria@correo.mx',
        },
      },
    ]);
  });
});

describe('checks across lines', () => {
  const header = 'RUN;Nombres;Apellido paterno;Curso;RUN apoderado;Nombre apoderado;Tipo;Celular apoderado';
  it('refuses a student twice with another course, a guardian with another phone, a third guardian and two titulares', async () => {
    const result = await read([
      header,
      '12.345.678-5;Ana;Soto;1° Básico A;11.111.111-1;Carla Pérez;;9 8765 4321',
      '12.345.678-5;Ana;Soto;1ro básico a;22.222.222-2;Juan Soto;;9 6123 4567',
      '12.345.678-5;Ana;Soto;1° Básico A;7.000.000-8;Rosa Díaz;;',
      '12.345.678-5;Ana;Soto;2° Básico A;;;;',
      '9.876.543-3;Luis;Rojas;3° Básico B;11.111.111-1;Carla Pérez;;9 6123 4567',
      '10.000.004-0;Tomás;Vera;3° Básico B;10.000.013-K;Juan Vera;titular;',
      '10.000.004-0;Tomás;Vera;3° Básico B;11.111.111-1;Carla Pérez;Titular;9 8765 4321',
      '10.000.004-0;Tomás;Vera;3° Básico B;11.111.111-1;Carla Pérez;Titular;9 8765 4321',
    ]);
    expect(result.problems).toEqual([
      {
        line: 4,
        column: null,
        message: 'El estudiante ya tiene dos apoderados (líneas 2 y 3): Hermes guarda un titular y un suplente.',
      },
      { line: 5, column: null, message: 'El estudiante ya aparece en la línea 2 con otro curso (1° Básico A).' },
      { line: 6, column: null, message: 'El apoderado ya aparece en la línea 2 con otro celular (+56987654321).' },
      {
        line: 8,
        column: null,
        message: 'El estudiante ya tiene un apoderado titular en la línea 7: marca uno de los dos como suplente.',
      },
      {
        line: 9,
        column: null,
        message: 'El estudiante ya tiene un apoderado titular en la línea 7: marca uno de los dos como suplente.',
      },
    ]);
    expect(result.rows.map((r) => [r.line, r.guardian?.first_names, r.guardian?.role])).toEqual([
      [2, 'Carla', 'titular'],
      [3, 'Juan', 'suplente'],
      [7, 'Juan', 'titular'],
    ]);
  });

  it('makes an unmarked guardian the suplente when another line names the titular', async () => {
    const result = await read([
      header,
      '12.345.678-5;Ana;Soto;1° Básico A;11.111.111-1;Carla Pérez;;',
      '12.345.678-5;Ana;Soto;1° Básico A;22.222.222-2;Juan Soto;Titular;',
    ]);
    expect(result.problems).toEqual([]);
    expect(result.rows.map((r) => r.guardian?.role)).toEqual(['suplente', 'titular']);
  });

  it('accepts the same student and guardian repeated with the same data', async () => {
    const result = await read([
      header,
      '12.345.678-5;Ana;Soto;1° Básico A;11.111.111-1;Carla Pérez;;9 8765 4321',
      '9.876.543-3;Luis;Soto;1° Básico B;11.111.111-1;Carla Pérez;;+56987654321',
      '12.345.678-5;Ana;Soto;1A;11.111.111-1;Carla Pérez;;',
    ]);
    expect(result.rows.map((r) => r.line)).toEqual([2, 3]);
    expect(result.problems).toEqual([
      { line: 4, column: null, message: 'El apoderado ya aparece en la línea 2 con otro celular (+56987654321).' },
    ]);
  });
});

describe('columns written their own way', () => {
  it('reads "Apellidos y nombres" surname first, and a whole RUN beside an empty or repeated DV', async () => {
    const result = await read([
      'RUN;DV;Apellidos y nombres;Curso',
      '12.345.678-5;5;Soto Pérez Ana María;1° Básico A',
      '9.876.543-3;;De la Fuente Araya Sofía;1° Básico A',
      '10000004;0;Vera Tomás;1° Básico A',
    ]);
    expect(result.problems).toEqual([]);
    expect(
      result.rows.map((r) => [r.student.document?.value, r.student.first_names, r.student.last_name_father, r.student.last_name_mother]),
    ).toEqual([
      ['12345678-5', 'Ana María', 'Soto', 'Pérez'],
      ['9876543-3', 'Sofía', 'De la Fuente', 'Araya'],
      ['10000004-0', 'Tomás', 'Vera', ''],
    ]);
  });

  it('refuses a whole RUN whose DV column says another digit', async () => {
    const result = await read(['RUN;DV;Nombres;Apellido paterno;Curso', '12.345.678-5;4;Ana;Soto;1° Básico A']);
    expect(result.problems).toEqual([{ line: 2, column: 'DV', message: 'El dígito verificador no coincide con el del RUN.' }]);
  });
});

describe('courses in several columns', () => {
  it('reads a Mexican Nivel + Grado + Grupo, and a letter repeated in its own column', async () => {
    const mx = await readRoster({
      bytes: utf8(
        ['CURP;Nombre completo;Nivel;Grado;Grupo', ';Andrés González Pérez;Secundaria;3;B', ';Luis Rojas Díaz;Primaria;6°;'].join('\n'),
      ),
      fileName: 'a.csv',
      country: 'MX',
    });
    expect(mx).toMatchObject({ status: 'read', mapping: ['student_curp', 'student_full_name', 'level', 'course', 'letter'], problems: [] });
    expect(mx.status === 'read' && mx.rows.map((r) => r.student.course.name)).toEqual(['3° de Secundaria B', '6° de Primaria']);
    const cl = await read(['Nombres;Apellido paterno;Curso;Letra', 'Ana;Soto;1° Básico A;A', 'Luis;Rojas;2° Básico;B']);
    expect(cl.problems).toEqual([]);
    expect(cl.rows.map((r) => r.student.course.name)).toEqual(['1° Básico A', '2° Básico B']);
  });
});
