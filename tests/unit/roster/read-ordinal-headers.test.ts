// @vitest-environment node
// Two guardians side by side told apart by an ordinal in their headers, before or after the guardian's word:
// «1er apoderado», «2do apoderado», «Primer tutor», «Segundo tutor», «Celular 2° apoderado», «Apoderado 2».
// The first is the line's first guardian (titular), the second its second (suplente); "segundo apellido"
// stays the mother's surname.
import { describe, expect, it } from 'vitest';
import { readRoster } from '../../../server/roster/read';
import { suggestMapping } from '../../../server/roster/read/header';
import { utf8, workbook } from './read-helpers';

describe('ordinal guardian headers', () => {
  it('reads a Chilean file with «1er apoderado» and «2do apoderado» columns, and «Celular apoderado 2»', async () => {
    const file = utf8(
      [
        'RUN;Nombres;Apellido paterno;Curso;1er apoderado;RUT 1er apoderado;Celular 1er apoderado;2do apoderado;RUT 2do apoderado;Celular apoderado 2',
        '12.345.678-5;Ana;Soto;1° Básico A;Carla Pérez Rojas;11.111.111-1;9 8765 4321;Juan Soto Díaz;22.222.222-2;9 6123 4567',
      ].join('\n'),
    );
    const result = await readRoster({ bytes: file, fileName: 'nomina.csv', country: 'CL' });
    if (result.status !== 'read') throw new Error(`expected the file read, got ${JSON.stringify(result)}`);
    expect(result.mapping).toEqual([
      'student_run',
      'student_first_names',
      'student_last_name_father',
      'course',
      'guardian_full_name',
      'guardian_run',
      'guardian_phone',
      'guardian2_full_name',
      'guardian2_run',
      'guardian2_phone',
    ]);
    expect(result.problems).toEqual([]);
    expect(result.rows.map((r) => [r.guardian?.first_names, r.guardian?.document?.value, r.guardian?.phone, r.guardian?.role])).toEqual([
      ['Carla', '11111111-1', '+56987654321', 'titular'],
      ['Juan', '22222222-2', '+56961234567', 'suplente'],
    ]);
  });

  it('reads a Mexican workbook with «Tutor 1» and «Segundo tutor» columns', async () => {
    const bytes = await workbook([
      [
        'CURP',
        'Nombre del alumno',
        'Grado',
        'Grupo',
        'Tutor 1',
        'Celular tutor 1',
        'Segundo tutor',
        'Celular segundo tutor',
        'Correo del segundo tutor',
      ],
      [
        'GOPA150312HDFNRN08',
        'Andrés González Pérez',
        '1° de Primaria',
        'A',
        'María López Hernández',
        '55 1234 5678',
        'José González Ruiz',
        '55 8765 4321',
        'jose@correo.mx',
      ],
    ]);
    const result = await readRoster({ bytes, fileName: 'inscripcion.xlsx', country: 'MX' });
    if (result.status !== 'read') throw new Error(`expected the file read, got ${JSON.stringify(result)}`);
    expect(result.mapping).toEqual([
      'student_curp',
      'student_full_name',
      'level',
      'letter',
      'guardian_full_name',
      'guardian_phone',
      'guardian2_full_name',
      'guardian2_phone',
      'guardian2_email',
    ]);
    expect(result.problems).toEqual([]);
    expect(result.rows.map((r) => [r.guardian?.first_names, r.guardian?.phone, r.guardian?.email, r.guardian?.role])).toEqual([
      ['María', '+525512345678', null, 'titular'],
      ['José', '+525587654321', 'jose@correo.mx', 'suplente'],
    ]);
  });

  it.each([
    [
      [
        'Nombre',
        'Curso',
        'Primer apoderado',
        'Teléfono primer apoderado',
        'Nombre del segundo apoderado',
        'Teléfono del segundo apoderado',
      ],
      ['student_full_name', 'course', 'guardian_full_name', 'guardian_phone', 'guardian2_full_name', 'guardian2_phone'],
    ],
    [
      ['Nombre', 'Curso', 'Primer tutor', 'Celular 1° tutor', 'Segunda tutora', 'Celular 2° tutora'],
      ['student_full_name', 'course', 'guardian_full_name', 'guardian_phone', 'guardian2_full_name', 'guardian2_phone'],
    ],
    [
      [
        'Nombre',
        'Curso',
        'Nombres 1er apoderado',
        'Apellido paterno 1er apoderado',
        'Segundo apellido 1er apoderado',
        'Nombres 2do apoderado',
        'Apellidos 2do apoderado',
      ],
      [
        'student_full_name',
        'course',
        'guardian_first_names',
        'guardian_last_name_father',
        'guardian_last_name_mother',
        'guardian2_first_names',
        'guardian2_last_name_father',
      ],
    ],
    [
      [
        'Nombres',
        'Primer apellido',
        'Segundo apellido',
        'Curso',
        'Apoderado N°1',
        'Fono apoderado N°1',
        'Apoderado N°2',
        'Fono apoderado N°2',
      ],
      [
        'student_first_names',
        'student_last_name_father',
        'student_last_name_mother',
        'course',
        'guardian_full_name',
        'guardian_phone',
        'guardian2_full_name',
        'guardian2_phone',
      ],
    ],
  ])('maps %j', (headers, mapping) => {
    expect(suggestMapping(headers)).toEqual({ mapping, recognised: headers.length, unknown: 0 });
  });
});
