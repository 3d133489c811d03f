// @vitest-environment node
// A large school's file: 10,000 lines (5,000 students with two guardians each), CSV and .xlsx, read whole.
// The figure printed is for the report only; speed targets live in the bench, not in tests.
import { describe, expect, it } from 'vitest';
import { readRoster } from '../../../server/roster/read';
import { rutCheckDigit } from '../../../shared/person-rules';
import { utf8, workbook } from './read-helpers';

const STUDENTS = 5_000;
const run = (body: number) => `${body}-${rutCheckDigit(body)}`;
const COURSES = ['1° Básico A', '2do básico B', '3A', 'IV Medio C', 'Kínder', 'Pre-kínder B'];
const HEADER = [
  'RUN',
  'Nombres',
  'Apellido paterno',
  'Apellido materno',
  'Curso',
  'RUN apoderado',
  'Nombre apoderado',
  'Relación',
  'Celular',
];

function lines(): string[][] {
  const rows: string[][] = [HEADER];
  for (let i = 0; i < STUDENTS; i++) {
    const student = [run(20_000_000 + i), `Nombre${i}`, 'Soto', 'Pérez', COURSES[i % COURSES.length]!];
    rows.push([...student, run(10_000_000 + 2 * i), `Madre${i} Pérez Rojas`, 'Madre', `9 ${String(61_000_000 + i)}`]);
    rows.push([...student, run(10_000_001 + 2 * i), `Padre${i} Soto Díaz`, 'Padre', '']);
  }
  // Two broken lines at known places: a wrong check digit (line 1,001) and a course no school has (line 9,000).
  rows[1_000]![0] = '20000499-0';
  rows[8_999]![4] = 'Sala cuna';
  return rows;
}

async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const start = performance.now();
  const result = await work();
  console.info(`${label}: ${Math.round(performance.now() - start)} ms`);
  return result;
}

function expectWhole(result: Awaited<ReturnType<typeof readRoster>>) {
  expect(result.status).toBe('read');
  if (result.status !== 'read') return;
  expect(result.rowsRead).toBe(10_000);
  expect(result.problems).toEqual([
    { line: 1_001, column: 'RUN', message: 'El RUT no es válido: revisa el dígito verificador.' },
    { line: 9_000, column: 'Curso', message: 'No reconocemos el curso «Sala cuna»: escríbelo como «1° Básico A».' },
  ]);
  expect(result.rows).toHaveLength(9_998);
  const last = result.rows.at(-1)!;
  expect(last.line).toBe(10_001);
  expect(last.student).toMatchObject({ document: { type: 'rut', value: run(20_004_999) }, first_names: 'Nombre4999' });
  expect(last.student.course.name).toBe('2° Básico B'); // student 4,999: 4,999 mod 6 = 1
  expect(last.guardian).toMatchObject({ first_names: 'Padre4999', role: 'suplente', phone: null });
  const first = result.rows[0]!;
  expect(first.guardian).toMatchObject({ first_names: 'Madre0', role: 'titular', phone: '+56961000000' });
  expect(new Set(result.rows.map((r) => r.student.course.name))).toEqual(
    new Set(['1° Básico A', '2° Básico B', '3° Básico A', 'IV Medio C', 'Kínder', 'Pre-kínder B']),
  );
}

describe('10,000 lines', () => {
  it('reads a CSV of 10,000 lines', async () => {
    const bytes = utf8(
      lines()
        .map((row) => row.join(';'))
        .join('\r\n'),
    );
    expectWhole(await timed('10,000-line CSV', () => readRoster({ bytes, fileName: 'nomina.csv', country: 'CL' })));
  });

  it('reads a workbook of 10,000 lines', async () => {
    const bytes = await workbook(lines());
    expectWhole(await timed('10,000-line .xlsx', () => readRoster({ bytes, fileName: 'nomina.xlsx', country: 'CL' })));
  }, 30_000);
});
