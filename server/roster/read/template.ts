// The downloadable templates: the documented columns (docs/roster-import.md) with one example row, for
// Chile (RUN, Curso) and Mexico (CURP, Grado and Grupo), as CSV (UTF-8 with its mark and `;`, which Excel
// in Spanish opens in columns) or .xlsx. The reader reads them back as they are.
import writeXlsxFile from 'write-excel-file/node';
import type { RosterFileType } from '../../../shared/roster-contract';
import type { Country } from './course';

type Example = string | Date;

const TEMPLATES: Readonly<Record<Country, { headers: string[]; example: Example[] }>> = {
  CL: {
    headers: [
      'RUN',
      'Nombres',
      'Apellido paterno',
      'Apellido materno',
      'Curso',
      'Fecha de nacimiento',
      'Correo del estudiante',
      'RUN apoderado',
      'Nombres apoderado',
      'Apellido paterno apoderado',
      'Apellido materno apoderado',
      'Relación',
      'Titular o suplente',
      'Celular apoderado',
      'Correo apoderado',
    ],
    example: [
      '12.345.678-5',
      'Ana María',
      'Soto',
      'Pérez',
      '1° Básico A',
      new Date(Date.UTC(2019, 2, 15)),
      '',
      '11.111.111-1',
      'Carla Andrea',
      'Pérez',
      'Rojas',
      'Madre',
      'Titular',
      '+56 9 8765 4321',
      'carla.perez@correo.cl',
    ],
  },
  MX: {
    headers: [
      'CURP',
      'Nombres',
      'Apellido paterno',
      'Apellido materno',
      'Grado',
      'Grupo',
      'Fecha de nacimiento',
      'Correo del alumno',
      'CURP tutor',
      'Nombres tutor',
      'Apellido paterno tutor',
      'Apellido materno tutor',
      'Parentesco',
      'Titular o suplente',
      'Celular tutor',
      'Correo tutor',
    ],
    example: [
      'GOPA150312HDFNRN08',
      'Andrés',
      'González',
      'Pérez',
      '1° de Primaria',
      'A',
      new Date(Date.UTC(2015, 2, 12)),
      '',
      'LOHM850101MDFPRR05',
      'María',
      'López',
      'Hernández',
      'Madre',
      'Titular',
      '55 1234 5678',
      'maria.lopez@correo.mx',
    ],
  },
};

/** dd-mm-yyyy, as a school types a date. */
const dayFirst = (date: Date) => date.toISOString().slice(0, 10).split('-').reverse().join('-');

function csvCell(value: string): string {
  return /[";\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

interface RosterTemplate {
  fileName: string;
  contentType: string;
  bytes: Uint8Array;
}

export async function rosterTemplate(country: Country, type: RosterFileType): Promise<RosterTemplate> {
  const { headers, example } = TEMPLATES[country];
  const fileName = `plantilla-nomina-${country.toLowerCase()}.${type}`;
  if (type === 'csv') {
    const lines = [headers, example.map((v) => (v instanceof Date ? dayFirst(v) : v))].map((row) => row.map(csvCell).join(';'));
    const text = new TextEncoder().encode(`${lines.join('\r\n')}\r\n`);
    const bytes = new Uint8Array(text.length + 3);
    bytes.set([0xef, 0xbb, 0xbf]);
    bytes.set(text, 3);
    return { fileName, contentType: 'text/csv; charset=utf-8', bytes };
  }
  const buffer = await writeXlsxFile(
    [
      headers.map((value) => ({ value, fontWeight: 'bold' as const })),
      example.map((value) => (value instanceof Date ? { value, format: 'dd-mm-yyyy' } : { value, type: String })),
    ],
    { columns: headers.map((h) => ({ width: Math.max(12, h.length + 2) })), stickyRowsCount: 1 },
  ).toBuffer();
  return {
    fileName,
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    bytes: new Uint8Array(buffer),
  };
}
