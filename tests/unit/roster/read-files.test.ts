// @vitest-environment node
// Roster files as schools save them: Windows-1252 with `;` and title rows, UTF-8 with its mark and `,`,
// quoted cells with separators and line breaks, blank lines, workbooks written by write-excel-file, and
// cells that look like formulas, which stay text.
import { describe, expect, it } from 'vitest';
import { readRoster } from '../../../server/roster/read';
import { utf8, utf8Bom, windows1252, workbook } from './read-helpers';

async function read(bytes: Uint8Array, fileName = 'nomina.csv', country: 'CL' | 'MX' = 'CL') {
  const result = await readRoster({ bytes, fileName, country });
  if (result.status !== 'read') throw new Error(`expected the file read, got ${JSON.stringify(result)}`);
  return result;
}

describe('CSV', () => {
  it('reads Windows-1252 with `;`, two title rows and blank lines, counting every line as a spreadsheet does', async () => {
    const text = [
      'Nómina de alumnos 2027;;;;',
      'Colegio San José de Ñuñoa;;;;',
      '',
      'RUN;Nombres;Apellido paterno;Apellido materno;Curso',
      '12.345.678-5;José Ñandú;Muñoz;Peña;1° Básico A',
      '',
      '9.876.543-3;Sofía;Araya;;2do básico b',
      '',
    ].join('\r\n');
    const result = await read(windows1252(text));
    expect(result.headers).toEqual(['RUN', 'Nombres', 'Apellido paterno', 'Apellido materno', 'Curso']);
    expect(result.rowsRead).toBe(2);
    expect(result.problems).toEqual([]);
    expect(result.rows.map((r) => [r.line, r.student.first_names, r.student.last_name_father, r.student.last_name_mother])).toEqual([
      [5, 'José Ñandú', 'Muñoz', 'Peña'],
      [7, 'Sofía', 'Araya', ''],
    ]);
    expect(result.rows.map((r) => r.student.course.name)).toEqual(['1° Básico A', '2° Básico B']);
    expect(result.rows[1]!.student.document).toEqual({ type: 'rut', value: '9876543-3' });
  });

  it('reads UTF-8 with its mark and `,`, quoted cells holding commas and line breaks (one spreadsheet line each)', async () => {
    const text = [
      '"RUN","Nombre completo","Curso","Apoderado","Celular apoderado"',
      '"12.345.678-5","Soto Pérez, Ana\nMaría","1°A","Carla Pérez Rojas","+56 9 8765 4321"',
      '"9.876.543-3","Pedro Pablo Araya Díaz","IV Medio B","Rojas, Luis","9 6123 4567"',
    ].join('\n');
    const result = await read(utf8Bom(text));
    expect(result.headers[0]).toBe('RUN');
    expect(result.problems).toEqual([]);
    const [ana, pedro] = result.rows;
    expect(ana!.line).toBe(2);
    expect(ana!.student).toMatchObject({ first_names: 'Ana María', last_name_father: 'Soto', last_name_mother: 'Pérez' });
    expect(ana!.student.course).toEqual({ level: '1° Básico', letter: 'A', name: '1° Básico A', position: 2 });
    expect(ana!.guardian).toMatchObject({
      first_names: 'Carla',
      last_name_father: 'Pérez',
      last_name_mother: 'Rojas',
      phone: '+56987654321',
    });
    expect(pedro!.line).toBe(3);
    expect(pedro!.student).toMatchObject({ first_names: 'Pedro Pablo', last_name_father: 'Araya', last_name_mother: 'Díaz' });
    expect(pedro!.student.course).toEqual({ level: 'IV Medio', letter: 'B', name: 'IV Medio B', position: 13 });
    expect(pedro!.guardian).toMatchObject({ first_names: 'Luis', last_name_father: 'Rojas', last_name_mother: '', phone: '+56961234567' });
  });

  it('tells `;` from `,` when the title row has commas and the cells have none', async () => {
    const text = 'Listado, año 2027, 1° y 2° básico\nNombres;Apellido paterno;Curso\nAna;Soto;1A\nLuis;Rojas;2B\n';
    const result = await read(utf8(text));
    expect(result.rows.map((r) => [r.line, r.student.first_names, r.student.course.name])).toEqual([
      [3, 'Ana', '1° Básico A'],
      [4, 'Luis', '2° Básico B'],
    ]);
  });

  it('keeps formula-looking cells as the text they are, never evaluated', async () => {
    const text = [
      'Nombres;Apellido paterno;Apellido materno;Curso;Nombre apoderado;Relación',
      '=1+1;@SUMA(A1);-2+3;1° Básico A;Carla Pérez;=HIPERVINCULO("http://x.cl")',
      '+Ana;Soto;;1° Básico A;Luis Rojas;+Padre',
    ].join('\n');
    const result = await read(utf8(text));
    expect(result.problems).toEqual([]);
    expect(result.rows[0]!.student).toMatchObject({ first_names: '=1+1', last_name_father: '@SUMA(A1)', last_name_mother: '-2+3' });
    expect(result.rows[0]!.guardian!.relationship).toBe('=HIPERVINCULO("http://x.cl")');
    expect(result.rows[1]!.student.first_names).toBe('+Ana');
    expect(result.rows[1]!.guardian!.relationship).toBe('+Padre');
  });

  it('strips control characters and collapses spaces in every cell', async () => {
    const text = 'Nombres;Apellido paterno;Curso\n  Ana\u0007   María ;\u200bSoto\t;1° Básico A\n';
    const result = await read(utf8(text));
    expect(result.rows[0]!.student).toMatchObject({ first_names: 'Ana María', last_name_father: 'Soto' });
  });
});

describe('.xlsx', () => {
  it('reads the first sheet: title row, blank rows, RUN and DV as numbers, phones as numbers, dates as dates', async () => {
    const bytes = await workbook([
      ['Nómina 2027', null, null, null, null, null, null, null, null],
      [null, null, null, null, null, null, null, null, null],
      ['RUN', 'DV', 'Nombres', 'Apellido paterno', 'Curso', 'Fecha de nacimiento', 'RUT apoderado', 'DV', 'Nombre apoderado', 'Celular'],
      [12345678, '5', 'Ana', 'Soto', 'Kínder', new Date(Date.UTC(2021, 2, 15)), 11111111, 1, 'Carla Pérez', 987654321],
      [null, null, null, null, null, null, null, null, null, null],
      [9876543, 'k', '=1+1', 'Araya', 'pre-kinder b', null, null, null, null, null],
    ]);
    const result = await read(bytes, 'Nómina 2027.xlsx');
    expect(result.mapping).toEqual([
      'student_run',
      'student_dv',
      'student_first_names',
      'student_last_name_father',
      'course',
      'student_birth_date',
      'guardian_run',
      'guardian_dv',
      'guardian_full_name',
      'guardian_phone',
    ]);
    expect(result.problems).toEqual([{ line: 6, column: 'RUN', message: 'El RUT no es válido: revisa el dígito verificador.' }]);
    expect(result.rows).toHaveLength(1);
    const [ana] = result.rows;
    expect(ana!.line).toBe(4);
    expect(ana!.student.document).toEqual({ type: 'rut', value: '12345678-5' });
    expect(ana!.student.birth_date).toBe('2021-03-15');
    expect(ana!.student.course).toEqual({ level: 'Kínder', letter: '', name: 'Kínder', position: 1 });
    expect(ana!.guardian).toMatchObject({ document: { type: 'rut', value: '11111111-1' }, phone: '+56987654321', role: 'titular' });
  });

  it('keeps a text cell "=1+1" as text', async () => {
    const bytes = await workbook([
      ['Nombres', 'Apellido paterno', 'Curso'],
      ['=1+1', '+Soto', 'Pre-kínder B'],
    ]);
    const result = await read(bytes, 'nomina.xlsx');
    expect(result.rows[0]!.student).toMatchObject({ first_names: '=1+1', last_name_father: '+Soto' });
    expect(result.rows[0]!.student.course).toEqual({ level: 'Pre-kínder', letter: 'B', name: 'Pre-kínder B', position: 0 });
  });
});

describe('.xlsx with several sheets', () => {
  it('reads the first sheet that has a roster header, not an instructions sheet before it', async () => {
    const writeXlsxFile = (await import('write-excel-file/node')).default;
    const buffer = await writeXlsxFile([
      { sheet: 'Instrucciones', data: [['Complete la hoja Nómina.'], ['No cambie los títulos.']] },
      {
        sheet: 'Nómina',
        data: [
          ['Nombres', 'Apellido paterno', 'Curso'],
          ['Ana', 'Soto', '1° Básico A'],
        ],
      },
    ]).toBuffer();
    const result = await read(new Uint8Array(buffer), 'nomina.xlsx');
    expect(result.rows.map((r) => [r.line, r.student.first_names, r.student.course.name])).toEqual([[2, 'Ana', '1° Básico A']]);
  });
});

describe('a quote left open', () => {
  it('refuses the file naming the line that opens it, rather than reading the rest as one cell', async () => {
    const text = ['Nombres;Apellido paterno;Curso', 'Ana;Soto;1° Básico A', '"Luis;Rojas;1° Básico A', 'Sofía;Araya;1° Básico B'].join(
      '\n',
    );
    await expect(readRoster({ bytes: utf8(text), fileName: 'a.csv', country: 'CL' })).rejects.toThrow(
      'La línea 3 abre comillas (") que no se cierran: ciérralas o quítalas y vuelve a subir el archivo.',
    );
  });
});

describe('names and words in capitals', () => {
  it('writes names and relationships typed all in capitals as names are written, and leaves mixed case alone', async () => {
    const text = [
      'Nombres;Apellido paterno;Apellido materno;Curso;Nombre apoderado;Parentesco',
      "ANA MARÍA;DE LA FUENTE;O'HIGGINS-PÉREZ;1° Básico A;LUIS DEL RÍO ÑANCO;MADRE",
      'Ana;McDonald;de la Cruz;1° Básico A;Luis Rojas;abuela',
    ].join('\n');
    const result = await read(utf8(text));
    expect(result.rows.map((r) => [r.student.first_names, r.student.last_name_father, r.student.last_name_mother])).toEqual([
      ['Ana María', 'De la Fuente', "O'Higgins-Pérez"],
      ['Ana', 'McDonald', 'de la Cruz'],
    ]);
    expect(
      result.rows.map((r) => [
        r.guardian?.first_names,
        r.guardian?.last_name_father,
        r.guardian?.last_name_mother,
        r.guardian?.relationship,
      ]),
    ).toEqual([
      ['Luis', 'Del Río', 'Ñanco', 'Madre'],
      ['Luis', 'Rojas', '', 'Abuela'],
    ]);
  });
});

describe('UTF-16', () => {
  it('reads "Texto Unicode" as Excel saves it: UTF-16 with its mark, tab-separated', async () => {
    const text = 'Nombres\tApellido paterno\tCurso\r\nÑuñoa\tSoto\t1° Básico A\r\n';
    const bytes = new Uint8Array(2 + text.length * 2);
    bytes.set([0xff, 0xfe]);
    for (let i = 0; i < text.length; i++) {
      bytes[2 + 2 * i] = text.charCodeAt(i) & 0xff;
      bytes[3 + 2 * i] = text.charCodeAt(i) >> 8;
    }
    const result = await read(bytes, 'nomina.txt');
    expect(result.rows.map((r) => [r.line, r.student.first_names, r.student.course.name])).toEqual([[2, 'Ñuñoa', '1° Básico A']]);
  });
});

describe('a header repeated', () => {
  it('skips the header written again further down (files pasted course by course)', async () => {
    const text = [
      'Nombres;Apellido paterno;Curso',
      'Ana;Soto;1° Básico A',
      '',
      'NOMBRES;Apellido Paterno;curso',
      'Luis;Rojas;1° Básico B',
    ].join('\n');
    const result = await read(utf8(text));
    expect(result.problems).toEqual([]);
    expect(result.rowsRead).toBe(2);
    expect(result.rows.map((r) => [r.line, r.student.first_names])).toEqual([
      [2, 'Ana'],
      [5, 'Luis'],
    ]);
  });
});
