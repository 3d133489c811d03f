import { describe, expect, it } from 'vitest';
import {
  fieldsIn,
  fillFields,
  firstNameOf,
  hasFields,
  joinList,
  longestValues,
  fitSmsValues,
  mergedSmsText,
  smsTooLongWithFields,
  valuesOf,
} from '../../shared/merge-fields';
import { smsText } from '../../shared/sms-text';

describe('merge fields: finding and filling', () => {
  it('finds each known field once, in order of first appearance, and nothing else', () => {
    expect(fieldsIn('{curso}: {estudiante} y {estudiante}, {apoderado}')).toEqual(['curso', 'estudiante', 'apoderado']);
    expect(fieldsIn('{Estudiante} {alumno} {estudiante ')).toEqual([]);
    expect(hasFields('sin campos', 'con {curso}')).toBe(true);
    expect(hasFields('sin campos')).toBe(false);
  });

  it('fills every occurrence and keeps a field with no value as written', () => {
    expect(fillFields('{estudiante} ({curso}): {estudiante}', { estudiante: 'Martina', curso: '3° Básico A' })).toBe(
      'Martina (3° Básico A): Martina',
    );
    expect(fillFields('Hola {apoderado}', {})).toBe('Hola {apoderado}');
  });

  it('removes an empty value with one space beside it, leaving no double space', () => {
    expect(fillFields('Estimado {apoderado}, le escribimos', { apoderado: '' })).toBe('Estimado, le escribimos');
    expect(fillFields('Hoy {estudiante} no asistió', { estudiante: '' })).toBe('Hoy no asistió');
    expect(fillFields('{estudiante} no asistió', { estudiante: '' })).toBe('no asistió');
  });
});

describe('merge fields: the Spanish list', () => {
  it('joins with commas and "y", or "e" before an /i/ sound', () => {
    expect(joinList([])).toBe('');
    expect(joinList(['Martina'])).toBe('Martina');
    expect(joinList(['Martina', 'Tomás'])).toBe('Martina y Tomás');
    expect(joinList(['Ana', 'Martina', 'Tomás'])).toBe('Ana, Martina y Tomás');
    expect(joinList(['Martina', 'Isabel'])).toBe('Martina e Isabel');
    expect(joinList(['Martina', 'Ígor'])).toBe('Martina e Ígor');
    expect(joinList(['Martina', 'Hilda'])).toBe('Martina e Hilda');
    expect(joinList(['Martina', 'Hiedra'])).toBe('Martina y Hiedra');
    expect(joinList(['Martina', 'Iván Andrés'])).toBe('Martina e Iván Andrés');
  });

  it('keeps "y" before a Roman numeral, read as an ordinal (courses of Media)', () => {
    expect(joinList(['I Medio B', 'I Medio A'])).toBe('I Medio B y I Medio A');
    expect(joinList(['3° Básico A', 'IV Medio C'])).toBe('3° Básico A y IV Medio C');
    expect(joinList(['3° Básico A', 'II°A'])).toBe('3° Básico A y II°A');
  });
});

describe('merge fields: each recipient’s values', () => {
  it('names a guardian’s students and their distinct courses, and the guardian', () => {
    const guardianOf = (...courses: string[]) =>
      valuesOf({
        kind: 'apoderado',
        name: 'Carolina Pérez Soto',
        students: courses.map((course, i) => ({ firstName: ['Martina', 'Tomás'][i]!, course })),
      });
    expect(guardianOf('3° Básico A', '5° Básico B')).toEqual({
      estudiante: 'Martina y Tomás',
      curso: '3° Básico A y 5° Básico B',
      apoderado: 'Carolina Pérez Soto',
    });
    expect(guardianOf('3° Básico A', '3° Básico A').curso).toBe('3° Básico A');
  });

  it('gives a student their own name and course and their titular guardian', () => {
    expect(
      valuesOf({ kind: 'estudiante', student: { firstName: 'Martina', course: '3° Básico A' }, guardian: 'Carolina Pérez Soto' }),
    ).toEqual({
      estudiante: 'Martina',
      curso: '3° Básico A',
      apoderado: 'Carolina Pérez Soto',
    });
    expect(valuesOf({ kind: 'estudiante', student: { firstName: 'Ana', course: '1° Medio' }, guardian: null }).apoderado).toBe('');
  });

  it('keeps the fields as written for staff', () => {
    expect(fillFields('Hola {apoderado} de {estudiante}', valuesOf({ kind: 'funcionario' }))).toBe('Hola {apoderado} de {estudiante}');
  });

  it('takes the first given name', () => {
    expect(firstNameOf('María José Pérez Soto')).toBe('María');
    expect(firstNameOf('  Tomás ')).toBe('Tomás');
  });
});

describe('merge fields: the SMS counted at the longest value', () => {
  const recipients = [
    { estudiante: 'Ana', curso: '1° Básico A', apoderado: 'Rosa Díaz Soto' },
    { estudiante: 'Martina y Tomás', curso: '3° Básico A y 5° Básico B', apoderado: 'Carolina Pérez Soto' },
    { estudiante: 'Bartolomé', curso: '2° Medio C', apoderado: 'Juan Ñancupil Huenchumil' },
  ];

  it('picks per field the value with the most SMS units', () => {
    expect(longestValues(recipients)).toEqual({
      estudiante: 'Martina y Tomás',
      curso: '3° Básico A y 5° Básico B',
      apoderado: 'Juan Ñancupil Huenchumil',
    });
    // Units, not characters: "€" takes two.
    expect(longestValues([{ curso: 'abc' }, { curso: '€€' }]).curso).toBe('€€');
  });

  it('counts a staff recipient’s kept field as written', () => {
    expect(longestValues([{ estudiante: 'Ana' }, {}]).estudiante).toBe('{estudiante}');
  });

  it('counts the content with every field at its longest value', () => {
    const longest = longestValues(recipients);
    const counted = mergedSmsText('Hola {apoderado}: {estudiante} ({curso}) tiene reunión.', 'CSA', longest);
    const expected = smsText('Hola Juan Ñancupil Huenchumil: Martina y Tomás (3° Básico A y 5° Básico B) tiene reunión.', 'CSA');
    expect(counted.units).toBe(expected.units);
    expect(counted.limit).toBe(154);
    expect(counted.fields).toEqual([
      { field: 'apoderado', value: 'Juan Ñancupil Huenchumil', units: 24 },
      { field: 'estudiante', value: 'Martina y Tomás', units: 15 },
      // "°" has no GSM-7 form: it is left out of the SMS, so it counts nothing.
      { field: 'curso', value: '3° Básico A y 5° Básico B', units: 23 },
    ]);
  });

  it('refuses what fits with the placeholder but not with the longest value, and the reverse passes', () => {
    const longest = { estudiante: 'Maximiliano y Bartolomé' };
    const content = `${'a'.repeat(140)} {estudiante}`;
    expect(smsText(content, null).ok).toBe(true);
    const counted = mergedSmsText(content, null, longest);
    expect(counted.ok).toBe(false);
    expect(counted.units).toBe(141 + 23);
    const short = `${'a'.repeat(150)} {estudiante}`;
    expect(smsText(short, null).ok).toBe(false);
    expect(mergedSmsText(short, null, { estudiante: 'Ana' }).ok).toBe(true);
  });

  it('does not refuse a value’s characters SMS lacks (they are left out), only the author’s', () => {
    const counted = mergedSmsText('Curso: {curso}', null, { curso: '3° Básico A' });
    expect(counted).toMatchObject({ ok: true, unsupported: [], units: 7 + 10 });
    expect(counted.text).toBe('Curso: 3 Basico A');
    expect(mergedSmsText('Hola 😀 {curso}', null, { curso: 'A' }).unsupported).toEqual(['😀']);
  });

  it('names the field and its value in the refusal', () => {
    expect(smsTooLongWithFields(154, 170, [{ field: 'estudiante', value: 'Martina y Tomás', units: 15 }])).toBe(
      'El SMS supera los 154 caracteres permitidos para el destinatario con el valor más largo de {estudiante} («Martina y Tomás», 15 caracteres): tendría 170. Acórtalo o quita el canal SMS.',
    );
  });
});

describe('merge fields: an SMS filled at delivery always fits its one segment', () => {
  it('keeps values that fit as they are', () => {
    const values = { estudiante: 'Martina y Tomás' };
    expect(fitSmsValues('Hola {estudiante}', 'CSA', values)).toEqual(values);
  });

  it('cuts the longest value, ending in "...", when the recipients changed since it was counted', () => {
    // 125 + 2 spaces + "I Medio B" leave 18 units of the 154 to {estudiante}.
    const content = `${'a'.repeat(125)} {estudiante} {curso}`;
    const fitted = fitSmsValues(content, 'CSA', { estudiante: 'Maximiliano y Bartolomé', curso: 'I Medio B' });
    expect(fitted).toEqual({ estudiante: 'Maximiliano y B...', curso: 'I Medio B' });
    expect(smsText(fillFields(content, fitted), 'CSA')).toMatchObject({ units: 154, ok: true });
  });

  it('never cuts the author’s text: a value cannot go below three characters', () => {
    const fitted = fitSmsValues(`${'a'.repeat(160)} {curso}`, null, { curso: 'I Medio B' });
    expect(fitted.curso!.length).toBeLessThanOrEqual(3);
  });
});
