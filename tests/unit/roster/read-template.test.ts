// @vitest-environment node
// The downloadable templates of Chile and Mexico, CSV and .xlsx: the documented columns, an example row, and
// the reader takes each back without a mapping step or a refused line.
import { describe, expect, it } from 'vitest';
import { readRoster } from '../../../server/roster/read';
import { rosterTemplate } from '../../../server/roster/read/template';

const CHILEAN_ROW = {
  line: 2,
  student: {
    document: { type: 'rut', value: '12345678-5' },
    first_names: 'Ana María',
    last_name_father: 'Soto',
    last_name_mother: 'Pérez',
    course: { level: '1° Básico', letter: 'A', name: '1° Básico A', position: 2 },
    birth_date: '2019-03-15',
    email: null,
  },
  guardian: {
    document: { type: 'rut', value: '11111111-1' },
    first_names: 'Carla Andrea',
    last_name_father: 'Pérez',
    last_name_mother: 'Rojas',
    role: 'titular',
    relationship: 'Madre',
    phone: '+56987654321',
    email: 'carla.perez@correo.cl',
  },
};

const MEXICAN_ROW = {
  line: 2,
  student: {
    document: { type: 'curp', value: 'GOPA150312HDFNRN08' },
    first_names: 'Andrés',
    last_name_father: 'González',
    last_name_mother: 'Pérez',
    course: { level: '1° de Primaria', letter: 'A', name: '1° de Primaria A', position: 3 },
    birth_date: '2015-03-12',
    email: null,
  },
  guardian: {
    document: { type: 'curp', value: 'LOHM850101MDFPRR05' },
    first_names: 'María',
    last_name_father: 'López',
    last_name_mother: 'Hernández',
    role: 'titular',
    relationship: 'Madre',
    phone: '+525512345678',
    email: 'maria.lopez@correo.mx',
  },
};

describe('templates', () => {
  it.each([
    ['CL', 'csv', CHILEAN_ROW],
    ['CL', 'xlsx', CHILEAN_ROW],
    ['MX', 'csv', MEXICAN_ROW],
    ['MX', 'xlsx', MEXICAN_ROW],
  ] as const)('the %s %s template is read back as its example row', async (country, type, row) => {
    const template = await rosterTemplate(country, type);
    expect(template.fileName).toBe(`plantilla-nomina-${country.toLowerCase()}.${type}`);
    const result = await readRoster({ bytes: template.bytes, fileName: template.fileName, country });
    expect(result).toMatchObject({ status: 'read', problems: [], rowsRead: 1, rows: [row] });
  });

  it('writes the CSV as Excel in Spanish opens it: UTF-8 with its mark, `;`, the documented headers', async () => {
    const { bytes, contentType } = await rosterTemplate('CL', 'csv');
    expect(contentType).toBe('text/csv; charset=utf-8');
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [header, example] = new TextDecoder().decode(bytes.subarray(3)).split('\r\n');
    expect(header).toBe(
      'RUN;Nombres;Apellido paterno;Apellido materno;Curso;Fecha de nacimiento;Correo del estudiante;RUN apoderado;Nombres apoderado;Apellido paterno apoderado;Apellido materno apoderado;Relación;Titular o suplente;Celular apoderado;Correo apoderado',
    );
    expect(example).toBe(
      '12.345.678-5;Ana María;Soto;Pérez;1° Básico A;15-03-2019;;11.111.111-1;Carla Andrea;Pérez;Rojas;Madre;Titular;+56 9 8765 4321;carla.perez@correo.cl',
    );
  });

  it('writes the Mexican columns with CURP, Grado and Grupo', async () => {
    const { bytes } = await rosterTemplate('MX', 'csv');
    const [header] = new TextDecoder().decode(bytes.subarray(3)).split('\r\n');
    expect(header!.split(';').slice(0, 8)).toEqual([
      'CURP',
      'Nombres',
      'Apellido paterno',
      'Apellido materno',
      'Grado',
      'Grupo',
      'Fecha de nacimiento',
      'Correo del alumno',
    ]);
  });
});
