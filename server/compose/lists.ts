// Saved recipient lists a user can see (own, or shared by a colleague) and a list's members
// (`GET /recipient-lists/:id/users`). Reads are scoped by `visibleLists`, so another user's unshared list
// simply does not exist; a pick of a list in compose (server/compose/expand.ts) goes through the same rule.
// The paged list with its summaries is server/lists/queries.ts.
import { and, asc, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import { intList } from '../db/arrays';
import type { GuardianRoleId } from '../../shared/compose-contract';
import type { RecipientListMember, StaleReason } from '../../shared/recipient-lists-contract';
import { DEVICE_WINDOW } from '../delivery/status';
import type { Queryable } from '../db/client';
import { recipientListMembers, recipientLists } from '../db/schema/compose';
import { institutions } from '../db/schema/institutions';
import { courses, guardians, positions, staff, students } from '../db/schema/school';
import { collator, deviceStatus, personName } from './recipients';

/**
 * The lists a user can see: their own and those a colleague shares with the school's staff, of their
 * school, out of the trash. Listing, reading members, checking picks and expanding them all ask this one
 * condition; changing a list asks `ownedLists` (server/lists/queries.ts).
 */
export const visibleLists = (userId: number, institutionId: number): SQL =>
  and(
    eq(recipientLists.institutionId, institutionId),
    isNull(recipientLists.deletedAt),
    or(eq(recipientLists.ownerUserId, userId), eq(recipientLists.shared, true)),
  )!;

/** `column = any('{1,2,3}'::int[])`: one bind parameter however many members a list has. */
const oneOf = (column: unknown, ids: number[]) => sql`${column} = any(${intList(ids)}::int[])`;

/** Guardian role names as each country says them (Chile "apoderado", Mexico "tutor"). */
const GUARDIAN_ROLE_NAMES: Record<'CL' | 'MX', Record<GuardianRoleId, string>> = {
  CL: { 1: 'Apoderado titular', 2: 'Apoderado suplente' },
  MX: { 1: 'Tutor titular', 2: 'Tutor suplente' },
};
const GUARDIAN_FALLBACK = { CL: 'Apoderado', MX: 'Tutor' } as const;
const STUDENT_ROLE = 'Estudiante';
const STAFF_FALLBACK = 'Funcionario';

/**
 * Why a member's student makes the member stale: withdrawn, or in another course than when added (`addedIn`
 * null: not known, so not stale).
 */
export function staleReason(student: { courseId: number; withdrawnAt: Date | null } | undefined, addedIn: number | null): StaleReason | null {
  if (!student) return null;
  if (student.withdrawnAt !== null) return 'not_enrolled';
  return addedIn !== null && student.courseId !== addedIn ? 'course_changed' : null;
}

/** The members of a list the user can see, or null when they cannot (another user's unshared list, deleted). */
export async function listUsers(
  db: Queryable,
  userId: number,
  institutionId: number,
  listId: number,
): Promise<RecipientListMember[] | null> {
  const [list] = await db
    .select({ id: recipientLists.id, name: recipientLists.name, country: institutions.country })
    .from(recipientLists)
    .innerJoin(institutions, eq(institutions.id, recipientLists.institutionId))
    .where(and(visibleLists(userId, institutionId), eq(recipientLists.id, listId)))
    .limit(1);
  if (!list) return null;

  const members = await db
    .select()
    .from(recipientListMembers)
    .where(eq(recipientListMembers.listId, listId))
    .orderBy(asc(recipientListMembers.id));
  const refs = (kind: 'apoderado' | 'estudiante' | 'funcionario') =>
    members.filter((m) => m.memberKind === kind).map((m) => m.memberRefId);
  const studentIds = [
    ...new Set([...refs('estudiante'), ...members.flatMap((m) => (m.studentId === null ? [] : [m.studentId]))]),
  ];
  const guardianIds = refs('apoderado');
  const staffIds = refs('funcionario');

  // Only people of the same school: a stale member row can never leak another school's data.
  const [studentRows, guardianRows, staffRows] = await Promise.all([
    studentIds.length === 0
      ? []
      : db
          .select({
            id: students.id,
            firstNames: students.firstNames,
            lastNameFather: students.lastNameFather,
            lastNameMother: students.lastNameMother,
            email: students.email,
            courseId: courses.id,
            courseName: courses.name,
            withdrawnAt: students.withdrawnAt,
          })
          .from(students)
          .innerJoin(courses, eq(courses.id, students.courseId))
          .where(and(oneOf(students.id, studentIds), eq(students.institutionId, institutionId))),
    guardianIds.length === 0
      ? []
      : db
          .select({
            id: guardians.id,
            firstNames: guardians.firstNames,
            lastNameFather: guardians.lastNameFather,
            lastNameMother: guardians.lastNameMother,
            email: guardians.email,
            phone: guardians.phone,
            appInstalledAt: guardians.appInstalledAt,
            deviceMisses: guardians.deviceMisses,
          })
          .from(guardians)
          .where(and(oneOf(guardians.id, guardianIds), eq(guardians.institutionId, institutionId))),
    staffIds.length === 0
      ? []
      : db
          .select({
            id: staff.id,
            firstNames: staff.firstNames,
            lastNameFather: staff.lastNameFather,
            lastNameMother: staff.lastNameMother,
            email: staff.email,
            phone: staff.phone,
            positionId: staff.positionId,
            positionName: positions.name,
          })
          .from(staff)
          .leftJoin(positions, eq(positions.id, staff.positionId))
          .where(and(oneOf(staff.id, staffIds), eq(staff.institutionId, institutionId))),
  ]);
  const studentById = new Map(studentRows.map((s) => [s.id, s]));
  const guardianById = new Map(guardianRows.map((g) => [g.id, g]));
  const staffById = new Map(staffRows.map((s) => [s.id, s]));
  const country = list.country;

  const out: RecipientListMember[] = [];
  for (const m of members) {
    const base = { id: m.id, user_id: m.memberRefId, list_id: list.id, list_name: list.name };
    if (m.memberKind === 'apoderado') {
      const g = guardianById.get(m.memberRefId);
      if (!g) continue;
      const student = m.studentId === null ? undefined : studentById.get(m.studentId);
      const role = m.role === 1 || m.role === 2 ? (m.role as GuardianRoleId) : null;
      out.push({
        ...base,
        user_type: 'apoderado',
        name: personName(g),
        email: g.email,
        phone: g.phone,
        nombre_rol: role ? GUARDIAN_ROLE_NAMES[country][role] : GUARDIAN_FALLBACK[country],
        group_id: student?.courseId ?? null,
        group_type: student ? 'curso' : null,
        rol_adulto_id: role,
        student_id: student?.id ?? null,
        course: student?.courseName ?? null,
        device_status: deviceStatus({ app: g.appInstalledAt !== null, phone: g.phone }, g.deviceMisses >= DEVICE_WINDOW),
        stale: staleReason(student, m.courseId),
      });
    } else if (m.memberKind === 'estudiante') {
      const s = studentById.get(m.memberRefId);
      if (!s) continue;
      out.push({
        ...base,
        user_type: 'estudiante',
        name: personName(s),
        email: s.email,
        phone: null,
        nombre_rol: STUDENT_ROLE,
        group_id: s.courseId,
        group_type: 'curso',
        rol_adulto_id: null,
        student_id: s.id,
        course: s.courseName,
        device_status: null,
        stale: staleReason(s, m.courseId),
      });
    } else {
      const s = staffById.get(m.memberRefId);
      if (!s) continue;
      out.push({
        ...base,
        user_type: 'funcionario',
        name: personName(s),
        email: s.email,
        phone: s.phone,
        nombre_rol: s.positionName ?? STAFF_FALLBACK,
        group_id: s.positionId,
        group_type: s.positionId === null ? null : 'cargo',
        rol_adulto_id: null,
        student_id: null,
        course: null,
        device_status: null,
        stale: null,
      });
    }
  }
  return out.sort((a, b) => collator.compare(a.name, b.name) || a.id - b.id);
}
