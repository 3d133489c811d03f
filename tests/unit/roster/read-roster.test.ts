// @vitest-environment node
// The roster reader (server/roster/read): a school's enrolment file, CSV or .xlsx, as the schools have it,
// read into normalised students and guardians, with the lines refused and why, in Spanish.
import { describe, expect, it } from 'vitest';
import { readRoster } from '../../../server/roster/read';
import { utf8 } from './read-helpers';

const CL_HEADER = 'RUN;Nombres;Apellido paterno;Apellido materno;Curso;Nombre apoderado;RUT apoderado;Relación;Celular;Correo';

describe('a plain CSV with known headers', () => {
  it('reads students and guardians, normalised', async () => {
    const csv = `${CL_HEADER}\n12.345.678-5;Ana María;Soto;Pérez;1° Básico A;Carla Pérez Rojas;11.111.111-1;Madre;9 8765 4321;Carla@Correo.cl\n`;
    const result = await readRoster({ bytes: utf8(csv), fileName: 'nomina.csv', country: 'CL' });
    expect(result.status).toBe('read');
    if (result.status !== 'read') return;
    expect(result.rowsRead).toBe(1);
    expect(result.problems).toEqual([]);
    expect(result.rows).toEqual([
      {
        line: 2,
        student: {
          document: { type: 'rut', value: '12345678-5' },
          first_names: 'Ana María',
          last_name_father: 'Soto',
          last_name_mother: 'Pérez',
          course: { level: '1° Básico', letter: 'A', name: '1° Básico A', position: 2 },
          birth_date: null,
          email: null,
        },
        guardian: {
          document: { type: 'rut', value: '11111111-1' },
          first_names: 'Carla',
          last_name_father: 'Pérez',
          last_name_mother: 'Rojas',
          role: 'titular',
          relationship: 'Madre',
          phone: '+56987654321',
          email: 'carla@correo.cl',
        },
      },
    ]);
  });
});
