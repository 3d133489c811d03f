// @vitest-environment node
// Students without a RUN or CURP are told apart by name and course: two children with the same name in two
// courses are two students; the same name in the same course is one student, whose next line may bring its
// other guardian, and a line that brings nothing new is the same line twice: refused, so the preview shows it.
import { describe, expect, it } from 'vitest';
import { readRoster } from '../../../server/roster/read';
import { utf8 } from './read-helpers';

async function read(lines: string[], country: 'CL' | 'MX') {
  const result = await readRoster({ bytes: utf8(lines.join('\r\n')), fileName: 'nomina.csv', country });
  if (result.status !== 'read') throw new Error(`expected the file read, got ${JSON.stringify(result)}`);
  return result;
}

describe('students with the same name and no document', () => {
  it('keeps two children of one name in two courses, the second guardian of one, and refuses a line repeated', async () => {
    const result = await read(
      [
        'Nombres;Apellido paterno;Apellido materno;Curso;Nombre apoderado;Celular apoderado',
        'Ana;Soto;Pérez;1° Básico A;Carla Pérez Rojas;9 8765 4321',
        'Ana;Soto;Pérez;3° Básico B;Marta Díaz Luna;9 6123 4567',
        'Ana;Soto;Pérez;1ro básico a;Juan Soto Díaz;9 8765 1234',
        'ANA;SOTO;PÉREZ;1° Básico A;Carla Pérez Rojas;9 8765 4321',
        'Luis;Rojas;;2° Básico A;;',
        'Luis;Rojas;;2° Básico A;;',
      ],
      'CL',
    );
    expect(result.rows.map((r) => [r.line, r.student.course.name, r.guardian?.first_names ?? null, r.guardian?.role ?? null])).toEqual([
      [2, '1° Básico A', 'Carla', 'titular'],
      [3, '3° Básico B', 'Marta', 'titular'],
      [4, '1° Básico A', 'Juan', 'suplente'],
      [6, '2° Básico A', null, null],
    ]);
    expect(result.problems).toEqual([
      {
        line: 5,
        column: null,
        message:
          'El estudiante ya aparece en la línea 2 con el mismo nombre y curso, sin RUN: si es la misma línea repetida, bórrala; si son dos estudiantes distintos, escribe el RUN de cada uno.',
      },
      {
        line: 7,
        column: null,
        message:
          'El estudiante ya aparece en la línea 6 con el mismo nombre y curso, sin RUN: si es la misma línea repetida, bórrala; si son dos estudiantes distintos, escribe el RUN de cada uno.',
      },
    ]);
  });

  it('says it in Mexican words, and still takes a repeated line whose CURP proves it is one child', async () => {
    const result = await read(
      [
        'CURP;Nombre del alumno;Grado;Grupo;Nombre del tutor;Celular tutor',
        ';Andrés González Pérez;1° de Primaria;A;María López Hernández;55 1234 5678',
        ';Andrés González Pérez;2° de Primaria;A;Rosa Ruiz Mena;55 8765 4321',
        ';Andrés González Pérez;1° de Primaria;A;;',
        'GOPA150312HDFNRN08;Luis Rojas Díaz;3° de Primaria;B;;',
        'GOPA150312HDFNRN08;Luis Rojas Díaz;3° de Primaria;B;;',
      ],
      'MX',
    );
    expect(result.rows.map((r) => [r.line, r.student.course.name])).toEqual([
      [2, '1° de Primaria A'],
      [3, '2° de Primaria A'],
      [5, '3° de Primaria B'],
      [6, '3° de Primaria B'],
    ]);
    expect(result.problems).toEqual([
      {
        line: 4,
        column: null,
        message:
          'El alumno ya aparece en la línea 2 con el mismo nombre y grupo, sin CURP: si es la misma línea repetida, bórrala; si son dos alumnos distintos, escribe la CURP de cada uno.',
      },
    ]);
  });
});
