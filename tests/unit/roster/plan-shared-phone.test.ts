// Two parents of one family often give the same phone; without documents they are still two people.
import { describe, expect, it } from 'vitest';
import type { RosterGuardian, RosterRow } from '../../../shared/roster-contract';
import { planImport } from '../../../server/roster/plan';
import type { RosterSnapshot } from '../../../server/roster/snapshot';

const PHONE = '+56911112222';
const course = { level: '1° Básico', letter: 'A', name: '1° Básico A', position: 3 };
const student = {
  document: { type: 'rut' as const, value: '22222222-2' },
  first_names: 'Tomás',
  last_name_father: 'Pérez',
  last_name_mother: 'Soto',
  course,
  birth_date: null,
  email: null,
};
const guardian = (first: string, father: string, role: 'titular' | 'suplente', relationship: string): RosterGuardian => ({
  document: null,
  first_names: first,
  last_name_father: father,
  last_name_mother: '',
  role,
  relationship,
  phone: PHONE,
  email: null,
});
const padre = guardian('Juan', 'Pérez', 'titular', 'Padre');
const madre = guardian('Ana', 'Soto', 'suplente', 'Madre');

function snapshot(over: Partial<RosterSnapshot> = {}): RosterSnapshot {
  return {
    levels: [{ id: 1, name: '1° Básico', position: 3 }],
    courses: [{ id: 10, name: '1° Básico A', level_id: 1 }],
    students: [],
    guardians: [],
    links: [],
    manual: new Set(),
    currentYear: 2026,
    ...over,
  };
}

describe('guardians without a document who share a phone', () => {
  it('are two people when their names differ, one when the same parent is on two lines', () => {
    const rows: RosterRow[] = [
      { line: 2, student, guardian: padre },
      { line: 2, student, guardian: madre },
      { line: 3, student: { ...student, document: { type: 'rut', value: '33333333-3' }, first_names: 'Sofía' }, guardian: madre },
    ];
    const plan = planImport(snapshot(), rows);
    expect(plan.guardians.map((g) => g.values.first_names).sort()).toEqual(['Ana', 'Juan']);
    expect(plan.counts.guardians.new).toBe(2);
    expect(plan.links).toHaveLength(3);
  });

  it('match the one Hermes has by name before taking the number alone, whatever the file order', () => {
    const hermes = snapshot({
      guardians: [
        {
          id: 7,
          first_names: 'Ana',
          last_name_father: 'Soto',
          last_name_mother: '',
          dni: null,
          document_type: null,
          phone: PHONE,
          email: null,
        },
      ],
    });
    const plan = planImport(hermes, [
      { line: 2, student, guardian: padre },
      { line: 2, student, guardian: madre },
    ]);
    const byName = new Map(plan.guardians.map((g) => [g.values.first_names, g]));
    expect(byName.get('Ana')!.id).toBe(7);
    expect(byName.get('Ana')!.changes).toEqual([]);
    expect(byName.get('Juan')!.id).toBeNull();
  });

  it('still match by the number alone when the name was corrected in the file', () => {
    const hermes = snapshot({
      guardians: [
        {
          id: 7,
          first_names: 'Anna',
          last_name_father: 'Soto',
          last_name_mother: '',
          dni: null,
          document_type: null,
          phone: PHONE,
          email: null,
        },
      ],
    });
    const plan = planImport(hermes, [{ line: 2, student, guardian: madre }]);
    expect(plan.guardians).toHaveLength(1);
    expect(plan.guardians[0]!.id).toBe(7);
    expect(plan.guardians[0]!.changes.map((c) => [c.field, c.from, c.to])).toEqual([['nombres', 'Anna', 'Ana']]);
  });
});
