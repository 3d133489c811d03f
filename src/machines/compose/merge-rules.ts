// Compose's SMS counter with merge fields (shared/merge-fields.ts), pure: the longest value of each field
// among the people the picks reach, from the picker's `GET /recipients` data (courses with their students
// and guardians), so the counter counts what the longest recipient's SMS will be, as send and the
// estimate do on the server. Saved lists' members are not in that data: with a list picked the counter is
// marked approximate and the estimate (which knows them) has the last word, refusing with the field named.
import type { GuardianRoleId, RecipientPick, Recipients } from '../../../shared/compose-contract';
import {
  firstNameOf,
  hasFields,
  longestValues,
  mergedSmsText,
  valuesOf,
  type MergedSmsText,
  type MergeStudent,
  type MergeValues,
} from '../../../shared/merge-fields';

interface MergeIndex {
  students: Map<number, MergeStudent>;
  /** `course:<id>` / `elective:<id>` → student ids. */
  groups: Map<string, number[]>;
  levels: Map<number, number[]>;
  /** student id → guardians (id, role). */
  guardiansOf: Map<number, { id: number; roleId: GuardianRoleId }[]>;
  /** guardian id → their students. */
  childrenOf: Map<number, Set<number>>;
  guardianNames: Map<number, string>;
}

/** Built once per `GET /recipients` answer (a picker's own), kept while that answer lives. */
const indexes = new WeakMap<Recipients, MergeIndex>();

function indexOf(recipients: Recipients): MergeIndex {
  const known = indexes.get(recipients);
  if (known) return known;
  const index: MergeIndex = {
    students: new Map(),
    groups: new Map(),
    levels: new Map(),
    guardiansOf: new Map(),
    childrenOf: new Map(),
    guardianNames: new Map(),
  };
  for (const course of recipients.courses) {
    index.groups.set(
      `${course.grupo_type === 'electivo' ? 'elective' : 'course'}:${course.id}`,
      course.estudiantes.map((s) => s.id),
    );
    for (const student of course.estudiantes) {
      // A student's course is their regular course (an elective is not what {curso} names).
      if (course.grupo_type === 'curso') index.students.set(student.id, { firstName: firstNameOf(student.name), course: course.nombre });
      else if (!index.students.has(student.id)) index.students.set(student.id, { firstName: firstNameOf(student.name), course: '' });
    }
    for (const guardian of course.apoderados) {
      index.guardianNames.set(guardian.id, guardian.ficha_apoderado.name);
      const of = index.guardiansOf.get(guardian.student_id) ?? [];
      if (!of.some((g) => g.id === guardian.id)) of.push({ id: guardian.id, roleId: guardian.rol_adulto_id });
      index.guardiansOf.set(guardian.student_id, of);
      const children = index.childrenOf.get(guardian.id) ?? new Set<number>();
      children.add(guardian.student_id);
      index.childrenOf.set(guardian.id, children);
    }
  }
  for (const level of recipients.levels) index.levels.set(level.id, level.course_ids);
  indexes.set(recipients, index);
  return index;
}

const reaches = (audience: string, roleId: GuardianRoleId) =>
  audience === 'apoderados' || (audience === 'titulares' ? roleId === 1 : audience === 'suplentes' && roleId === 2);

export interface LongestValues {
  values: MergeValues;
  /** False when a saved list is picked: its members are not known here. */
  exact: boolean;
}

/**
 * Per field, the longest value among the people `picks` reach, as the server expands them: a guardian is
 * named with every picked student they answer for, a student with their own name, staff keep the fields.
 */
export function longestAmongPicks(recipients: Recipients | null, picks: readonly RecipientPick[]): LongestValues {
  if (!recipients) return { values: {}, exact: false };
  const index = indexOf(recipients);
  const students = new Set<number>();
  const guardians = new Map<number, Set<number>>();
  let staff = false;
  let exact = true;
  const reachStudents = (ids: readonly number[], audience: string) => {
    for (const id of ids) {
      if (audience === 'estudiantes') students.add(id);
      else
        for (const g of index.guardiansOf.get(id) ?? [])
          if (reaches(audience, g.roleId)) guardians.set(g.id, (guardians.get(g.id) ?? new Set<number>()).add(id));
    }
  };
  for (const pick of picks) {
    switch (pick.kind) {
      case 'level':
        for (const courseId of index.levels.get(pick.id) ?? []) reachStudents(index.groups.get(`course:${courseId}`) ?? [], pick.audience);
        break;
      case 'course':
      case 'elective':
        reachStudents(index.groups.get(`${pick.kind}:${pick.id}`) ?? [], pick.audience);
        break;
      case 'student':
        reachStudents([pick.id], pick.audience);
        break;
      case 'guardian': {
        const all = guardians.get(pick.id) ?? new Set<number>();
        for (const id of index.childrenOf.get(pick.id) ?? []) all.add(id);
        guardians.set(pick.id, all);
        break;
      }
      case 'staff':
      case 'appointment':
        staff = true;
        break;
      case 'recipient-list':
        exact = false;
        break;
    }
  }
  const byName = (a: MergeStudent, b: MergeStudent) => a.firstName.localeCompare(b.firstName, 'es');
  const all: MergeValues[] = [];
  for (const id of students) {
    const student = index.students.get(id);
    if (!student) continue;
    const titular = (index.guardiansOf.get(id) ?? []).find((g) => g.roleId === 1);
    all.push(valuesOf({ kind: 'estudiante', student, guardian: titular ? (index.guardianNames.get(titular.id) ?? null) : null }));
  }
  for (const [id, children] of guardians) {
    const named = [...children].flatMap((sid) => index.students.get(sid) ?? []).sort(byName);
    all.push(valuesOf({ kind: 'apoderado', name: index.guardianNames.get(id) ?? '', students: named }));
  }
  if (staff) all.push(valuesOf({ kind: 'funcionario' }));
  return { values: longestValues(all), exact };
}

/** The SMS counter: the content with each field at its longest value among the picked recipients. */
export function countedSms(
  content: string,
  signature: string | null,
  recipients: Recipients | null,
  picks: readonly RecipientPick[],
): MergedSmsText {
  const longest = hasFields(content) ? longestAmongPicks(recipients, picks).values : {};
  return mergedSmsText(content, signature, longest);
}
