// Compose's SMS counter with merge fields (src/machines/compose/merge-rules.ts): each field at its longest
// value among the people the picks reach, from the picker's GET /recipients data, as the server counts it.
import { describe, expect, it } from 'vitest';
import type { RecipientPick, Recipients } from '../../shared/compose-contract';
import { smsText } from '../../shared/sms-text';
import { countedSms, longestAmongPicks } from '../../src/machines/compose/merge-rules';
import { recipientCourse, recipientGuardian, recipientStaff, thirdGrade } from '../fixtures/recipients';

/**
 * Third grade (tests/fixtures/recipients.ts) plus 5° Básico B with Maximiliano, Sofía's brother (José
 * Muñoz Pérez is titular of both), and an elective both siblings take.
 */
function withSiblings(): Recipients {
  const base = thirdGrade();
  return {
    ...base,
    levels: [...base.levels, { id: 2, nombre: '5° Básico', course_ids: [12] }],
    courses: [
      ...base.courses,
      recipientCourse(
        12,
        '5° Básico B',
        2,
        [{ id: 102, name: 'Maximiliano Muñoz Rojas' }],
        [recipientGuardian(500, 102, 'José Muñoz Pérez', 1, 'blue')],
      ),
      recipientCourse(
        30,
        'Taller de teatro',
        null,
        [
          { id: 100, name: 'Sofía Muñoz Rojas' },
          { id: 102, name: 'Maximiliano Muñoz Rojas' },
        ],
        [recipientGuardian(500, 100, 'José Muñoz Pérez', 1, 'blue'), recipientGuardian(500, 102, 'José Muñoz Pérez', 1, 'blue')],
      ),
    ],
    appointments: [{ id: 7, nombre: 'Docente', users: [recipientStaff(900, 'Marta Muñoz', 7)] }],
  };
}

const course = (id: number, audience: 'apoderados' | 'estudiantes' | 'titulares' | 'suplentes' = 'apoderados'): RecipientPick => ({
  kind: 'course',
  id,
  audience,
});
const family = (id: number): RecipientPick => ({ kind: 'student', id, audience: 'apoderados' });

describe('longest merge values among the picked recipients', () => {
  const recipients = withSiblings();

  it('a course’s guardians: each named with their own student, the longest of each field', () => {
    expect(longestAmongPicks(recipients, [course(10)])).toEqual({
      values: { estudiante: 'Sofía', curso: '3° Básico A', apoderado: 'José Muñoz Pérez' },
      exact: true,
    });
    // Only the suplentes: Ana Rojas Soto, Sofía's.
    expect(longestAmongPicks(recipients, [course(10, 'suplentes')]).values.apoderado).toBe('Ana Rojas Soto');
  });

  it('a guardian of two picked students is named with both, and both courses', () => {
    expect(longestAmongPicks(recipients, [family(100), family(102)]).values).toEqual({
      estudiante: 'Maximiliano y Sofía',
      curso: '5° Básico B y 3° Básico A',
      apoderado: 'José Muñoz Pérez',
    });
    // Picked for one child only, they are named with that one.
    expect(longestAmongPicks(recipients, [family(102)]).values.estudiante).toBe('Maximiliano');
    // Picked themselves: all their children.
    expect(longestAmongPicks(recipients, [{ kind: 'guardian', id: 500 }]).values.estudiante).toBe('Maximiliano y Sofía');
  });

  it('students: their own name and course, and their titular guardian', () => {
    expect(longestAmongPicks(recipients, [course(10, 'estudiantes')]).values).toEqual({
      estudiante: 'Sofía',
      curso: '3° Básico A',
      apoderado: 'José Muñoz Pérez',
    });
    // An elective's students are named with their regular course.
    expect(longestAmongPicks(recipients, [{ kind: 'elective', id: 30, audience: 'estudiantes' }]).values.curso).toBe('3° Básico A');
    // A level reaches its courses' students.
    expect(longestAmongPicks(recipients, [{ kind: 'level', id: 2, audience: 'estudiantes' }]).values.estudiante).toBe('Maximiliano');
  });

  it('staff keep the fields as written, which counts when it is the longest', () => {
    expect(longestAmongPicks(recipients, [{ kind: 'staff', id: 900 }]).values.estudiante).toBe('{estudiante}');
    expect(longestAmongPicks(recipients, [family(102), { kind: 'appointment', id: 7 }]).values.estudiante).toBe('{estudiante}');
  });

  it('a saved list makes the count approximate (its members are the estimate’s to count)', () => {
    expect(longestAmongPicks(recipients, [course(10), { kind: 'recipient-list', id: 4 }]).exact).toBe(false);
    expect(longestAmongPicks(null, [course(10)])).toEqual({ values: {}, exact: false });
  });
});

describe('the counter counts the longest recipient’s SMS', () => {
  const recipients = withSiblings();
  // "Maximiliano y Sofía": 19 units (í → i).
  const picks = [family(100), family(102)];

  it('fits exactly at the limit with the longest value, and one more is too long', () => {
    const fits = `${'a'.repeat(154 - 19)}{estudiante}`;
    expect(countedSms(fits, 'CSA', recipients, picks)).toMatchObject({ units: 154, limit: 154, ok: true });
    const over = countedSms(`a${fits}`, 'CSA', recipients, picks);
    expect(over).toMatchObject({ units: 155, ok: false });
    expect(over.fields).toEqual([{ field: 'estudiante', value: 'Maximiliano y Sofía', units: 19 }]);
  });

  it('is the plain counter for a text without fields', () => {
    const plain = 'Reunión mañana a las 18:00';
    expect(countedSms(plain, 'CSA', recipients, picks)).toEqual({ ...smsText(plain, 'CSA'), fields: [] });
  });

  it('counts a field as written until the recipients are known', () => {
    expect(countedSms('Hola {estudiante}', null, null, picks)).toMatchObject({
      units: 5 + 14,
      fields: [{ field: 'estudiante', value: '{estudiante}', units: 14 }],
    });
  });
});

describe('the merge index', () => {
  /** The data with its courses counted each time they are read (the index reads them once per build). */
  function counted(recipients: Recipients): { recipients: Recipients; builds: () => number } {
    let reads = 0;
    const courses = recipients.courses;
    return {
      recipients: Object.defineProperty({ ...recipients }, 'courses', {
        get: () => {
          reads++;
          return courses;
        },
        enumerable: true,
      }),
      builds: () => reads,
    };
  }

  it('is built once per recipients answer, even with two pickers’ answers read in turn', () => {
    const a = counted(thirdGrade());
    const b = counted(withSiblings());
    const picks = [course(10)];
    const first = longestAmongPicks(a.recipients, picks);
    const second = longestAmongPicks(b.recipients, [course(12)]);
    for (let turn = 0; turn < 3; turn++) {
      expect(longestAmongPicks(a.recipients, picks)).toEqual(first);
      expect(longestAmongPicks(b.recipients, [course(12)])).toEqual(second);
    }
    expect([a.builds(), b.builds()]).toEqual([1, 1]);
    expect(first.values.apoderado).toBe('José Muñoz Pérez');
    expect(second.values.estudiante).toBe('Maximiliano');
  });
});
