// How the roster reader names a course (Chile and Mexico, with each level's place in the school's order)
// and splits a whole name into first names and surnames.
import { describe, expect, it } from 'vitest';
import { fileStage, parseCourse } from '../../../server/roster/read/course';
import { splitFullName, splitSurnames } from '../../../server/roster/read/names';

describe('Chilean courses', () => {
  it.each([
    ['1° Básico A', '1° Básico', 'A', 2],
    ['1ro básico a', '1° Básico', 'A', 2],
    ['1A', '1° Básico', 'A', 2],
    ['1°A', '1° Básico', 'A', 2],
    ['1 B A', '1° Básico', 'A', 2],
    ['primero básico A', '1° Básico', 'A', 2],
    ['8vo Basico C', '8° Básico', 'C', 9],
    ['Octavo básico', '8° Básico', '', 9],
    ['IV Medio B', 'IV Medio', 'B', 13],
    ['I medio a', 'I Medio', 'A', 10],
    ['3° Medio', 'III Medio', '', 12],
    ['2do medio C', 'II Medio', 'C', 11],
    ['Pre-kínder', 'Pre-kínder', '', 0],
    ['Prekinder A', 'Pre-kínder', 'A', 0],
    ['NT1 B', 'Pre-kínder', 'B', 0],
    ['Kínder', 'Kínder', '', 1],
    ['kinder b', 'Kínder', 'B', 1],
    ['NT2', 'Kínder', '', 1],
  ])('"%s" is %s %s (place %i)', (text, level, letter, position) => {
    const name = letter === '' ? level : `${level} ${letter}`;
    expect(parseCourse(text, 'CL')).toEqual({ level, letter, name, position });
  });

  it.each(['9° Básico', 'V Medio', 'Sala cuna', '', 'Taller de música', '1° de Primaria A', 'A'])('"%s" is no Chilean course', (text) => {
    expect(parseCourse(text, 'CL')).toBeNull();
  });

  it('reads a bare number as Básico even when the file names Medio elsewhere', () => {
    expect(fileStage(['1°A', 'IV Medio B'], 'CL')).toBeNull();
    expect(parseCourse('1°A', 'CL', fileStage(['1°A', 'IV Medio B'], 'CL'))?.name).toBe('1° Básico A');
  });
});

describe('Mexican courses', () => {
  it.each([
    ['1° de Primaria A', '1° de Primaria', 'A', 3],
    ['1A primaria', '1° de Primaria', 'A', 3],
    ['6to de primaria', '6° de Primaria', '', 8],
    ['3ro secundaria B', '3° de Secundaria', 'B', 11],
    ['Primero de Secundaria', '1° de Secundaria', '', 9],
    ['2° de Preescolar A', '2° de Preescolar', 'A', 1],
    ['Kínder 3', '3° de Preescolar', '', 2],
    ['1A', '1° de Primaria', 'A', 3],
  ])('"%s" is %s %s (place %i)', (text, level, letter, position) => {
    const name = letter === '' ? level : `${level} ${letter}`;
    expect(parseCourse(text, 'MX')).toEqual({ level, letter, name, position });
  });

  it.each(['7° de Primaria', '4° de Secundaria', 'IV Medio', '1° Básico A'])('"%s" is no Mexican course', (text) => {
    expect(parseCourse(text, 'MX')).toBeNull();
  });

  it('reads a bare number in the one stage the file names', () => {
    const stage = fileStage(['1A', '3ro secundaria B', '2 C'], 'MX');
    expect(stage).toBe('secundaria');
    expect(parseCourse('1A', 'MX', stage)?.name).toBe('1° de Secundaria A');
    expect(fileStage(['1A primaria', '3ro secundaria B'], 'MX')).toBeNull();
  });
});

describe('names', () => {
  it.each([
    ['Ana María Soto Pérez', 'Ana María', 'Soto', 'Pérez'],
    ['Juan Pérez González', 'Juan', 'Pérez', 'González'],
    ['Luis Rojas', 'Luis', 'Rojas', ''],
    ['María José De la Fuente Pérez', 'María José', 'De la Fuente', 'Pérez'],
    ['María de los Ángeles San Martín Díaz', 'María de los Ángeles', 'San Martín', 'Díaz'],
    ['Soto Pérez, Ana María', 'Ana María', 'Soto', 'Pérez'],
    ['De la Fuente, Pedro', 'Pedro', 'De la Fuente', ''],
  ])('"%s" is %s / %s / %s', (text, first, father, mother) => {
    expect(splitFullName(text)).toEqual({ first_names: first, last_name_father: father, last_name_mother: mother });
  });

  it('cannot split one word, nor a comma with nothing on a side', () => {
    expect(splitFullName('Ana')).toBeNull();
    expect(splitFullName('Soto,')).toBeNull();
  });

  it('splits one surname cell into the two surnames', () => {
    expect(splitSurnames('González Pérez')).toEqual({ father: 'González', mother: 'Pérez' });
    expect(splitSurnames('Del Río')).toEqual({ father: 'Del Río', mother: '' });
  });
});
