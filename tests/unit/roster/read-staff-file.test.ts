// A staff list (name, e-mail, role) sent to the roster import: said at once where it goes, rather than a
// column step that cannot fit it.
import { describe, expect, it } from 'vitest';
import { readRoster, RosterFileError } from '../../../server/roster/read';
import { utf8, workbook } from './read-helpers';

const STAFF_FILE =
  'Este archivo parece una lista del personal (nombre, correo y rol), no de estudiantes: invítalos en Configuración › Personal › «Invitar personal», que acepta este mismo archivo.';

describe('a staff list sent to the roster import', () => {
  it('is refused with where staff are invited, from a CSV and from a workbook', async () => {
    const csv = utf8('Nombre;Correo;Rol\r\nRodrigo Tapia Lagos;rodrigo.tapia@losaromos.cl;Docente\r\n');
    const fromCsv = readRoster({ bytes: csv, fileName: 'personal.csv', country: 'CL' });
    await expect(fromCsv).rejects.toThrow(RosterFileError);
    await expect(fromCsv).rejects.toThrow(STAFF_FILE);
    const xlsx = await workbook([
      ['Nombre completo', 'Correo electrónico', 'Roles'],
      ['Rodrigo Tapia Lagos', 'rodrigo.tapia@losaromos.cl', 'UTP'],
    ]);
    await expect(readRoster({ bytes: xlsx, fileName: 'personal.xlsx', country: 'CL' })).rejects.toThrow(STAFF_FILE);
  });

  it('a roster whose guardians have a role column is still a roster', async () => {
    const text = utf8(
      'Nombres;Apellido paterno;Curso;Nombre apoderado;Rol apoderado\r\nAna;Soto;1° Básico A;Carla Pérez Rojas;Titular\r\n',
    );
    const result = await readRoster({ bytes: text, fileName: 'nomina.csv', country: 'CL' });
    expect(result.status).not.toBe('mapping');
    expect(result.status === 'read' && result.rows.map((r) => r.guardian?.role)).toEqual(['titular']);
  });
});
