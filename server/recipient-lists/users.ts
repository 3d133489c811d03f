// A list's members with their people (`GET /recipient-lists/:id/users`), of a list the user can see (own, or
// shared by a colleague). Reads are scoped by `visibleLists` (server/recipients/expand.ts), so another user's
// unshared list simply does not exist; a pick of a list in compose goes through the same rule. The paged list
// with its summaries is ./queries.ts.
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { rowsOf } from '../db/sql';
import type { GuardianRoleId } from '../../shared/compose-contract';
import type { RecipientListMember, StaleReason } from '../../shared/recipient-lists-contract';
import { DEVICE_WINDOW, deviceStatus } from '../recipients/device-status';
import { settleSmsPhones, smsPhoneSql } from '../recipients/sms-phones';
import { appReachableSql } from '../recipients/app-reach';
import type { Queryable } from '../db/client';
import { recipientListMembers, recipientLists } from '../db/schema/compose';
import { institutions } from '../db/schema/institutions';
import { courses, guardians, positions, staff, students } from '../db/schema/school';
import { collator, personName } from '../recipients/directory';
import { visibleLists } from '../recipients/expand';

/** A member with their person, as `listUsers` reads them in one query. */
interface MemberRow {
  id: number;
  kind: 'apoderado' | 'estudiante' | 'funcionario';
  ref: number;
  role: number | null;
  added_in: number | null;
  first_names: string | null;
  last_name_father: string | null;
  last_name_mother: string | null;
  email: string | null;
  phone: string | null;
  dni: string | null;
  app: boolean;
  sms: boolean | null;
  misses: number | null;
  student_id: number | null;
  course_id: number | null;
  course_name: string | null;
  withdrawn_at: Date | string | null;
  position_id: number | null;
  position_name: string | null;
  /** Guardians: the student they are a member for, named in full. */
  student_name: string | null;
}

/** `membersSql`'s row tuple, in `MemberRow`'s order. */
type MemberTuple = [
  id: number,
  kind: MemberRow['kind'],
  ref: number,
  role: number | null,
  added_in: number | null,
  first_names: string | null,
  last_name_father: string | null,
  last_name_mother: string | null,
  email: string | null,
  phone: string | null,
  dni: string | null,
  app: boolean,
  sms: boolean | null,
  misses: number | null,
  student_id: number | null,
  course_id: number | null,
  course_name: string | null,
  withdrawn_at: string | null,
  position_id: number | null,
  position_name: string | null,
  student_name: string | null,
];

const MEMBER_COLUMNS = [
  'id',
  'kind',
  'ref',
  'role',
  'added_in',
  'first_names',
  'last_name_father',
  'last_name_mother',
  'email',
  'phone',
  'dni',
  'app',
  'sms',
  'misses',
  'student_id',
  'course_id',
  'course_name',
  'withdrawn_at',
  'position_id',
  'position_name',
  'student_name',
] as const satisfies readonly (keyof MemberRow)[];

const memberRow = (tuple: MemberTuple): MemberRow =>
  Object.fromEntries(MEMBER_COLUMNS.map((column, i) => [column, tuple[i]])) as unknown as MemberRow;

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
function staleReason(
  student: { courseId: number; withdrawnAt: Date | string | null } | undefined,
  addedIn: number | null,
): StaleReason | null {
  if (!student) return null;
  if (student.withdrawnAt !== null) return 'not_enrolled';
  return addedIn !== null && student.courseId !== addedIn ? 'course_changed' : null;
}

/**
 * A list's members with their people, in one statement (bench (l) prints its plan), read by `listUsers`
 * with nested loops off. Each person table is joined once, on its primary key against an expression of the
 * member row alone (`m.member_ref_id` for the member's own kind, the child's `m.student_id` for a
 * guardian), so every join can be a hash join: one pass over the members and one over each of the school's
 * tables. PGlite has no autovacuum and the seed leaves students, staff and list members unanalyzed, so the
 * planner took those tables for a few rows and joined by nested loops that compared every member with
 * every student and staff member (2,985 × 2,500 rows on the large seed, ~1 s).
 */
export const membersSql = (institutionId: number, listId: number): SQL =>
  sql`
    select coalesce(json_agg(json_build_array(
      m.id, m.member_kind, m.member_ref_id, m.role, m.course_id,
      coalesce(g.first_names, case when m.member_kind = 'estudiante' then s.first_names end, st.first_names),
      coalesce(g.last_name_father, case when m.member_kind = 'estudiante' then s.last_name_father end, st.last_name_father),
      coalesce(g.last_name_mother, case when m.member_kind = 'estudiante' then s.last_name_mother end, st.last_name_mother),
      coalesce(g.email, case when m.member_kind = 'estudiante' then s.email end, st.email),
      coalesce(g.phone, st.phone), coalesce(g.dni, case when m.member_kind = 'estudiante' then s.dni end),
      g.id is not null and ${appReachableSql('g')}, ${smsPhoneSql('g')}, g.device_misses,
      s.id, s.course_id, c.name, s.withdrawn_at,
      st.position_id, p.name,
      case when m.member_kind = 'apoderado' then s.first_names || ' ' || s.last_name_father || ' ' || s.last_name_mother end
    ) order by m.id), '[]')::text as rows
    from ${recipientListMembers} m
    left join ${guardians} g
      on g.id = case when m.member_kind = 'apoderado' then m.member_ref_id end and g.institution_id = ${institutionId}
    left join ${students} s
      on s.id = case when m.member_kind = 'estudiante' then m.member_ref_id else m.student_id end and s.institution_id = ${institutionId}
    left join ${courses} c on c.id = s.course_id
    left join ${staff} st
      on st.id = case when m.member_kind = 'funcionario' then m.member_ref_id end and st.institution_id = ${institutionId}
    left join ${positions} p on p.id = st.position_id
    where m.list_id = ${listId}`;

/**
 * Runs `read` (`membersSql`, or its EXPLAIN in the bench and tests) with nested loops off for its
 * transaction only: hash joins whatever the statistics say (see above).
 */
export function withMembersPlanner<T>(db: Queryable, read: (tx: Queryable) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_nestloop = off`);
    return read(tx);
  });
}

/** The members' rows; the answer is one JSON text, far faster to decode on PGlite than ~3,000 protocol rows. */
async function readMembers(db: Queryable, institutionId: number, listId: number): Promise<MemberRow[]> {
  const text = await withMembersPlanner(
    db,
    async (tx) => rowsOf<{ rows: string }>(await tx.execute(membersSql(institutionId, listId)))[0]!.rows,
  );
  return (JSON.parse(text) as MemberTuple[]).map(memberRow);
}

/** The members of a list the user can see, or null when they cannot (another user's unshared list, deleted). */
export async function listUsers(
  db: Queryable,
  userId: number,
  institutionId: number,
  listId: number,
): Promise<RecipientListMember[] | null> {
  // The members' device status counts numbers the engine can text (server/recipients/sms-phones.ts).
  await settleSmsPhones(db, institutionId);
  const [list] = await db
    .select({ id: recipientLists.id, name: recipientLists.name, country: institutions.country })
    .from(recipientLists)
    .innerJoin(institutions, eq(institutions.id, recipientLists.institutionId))
    .where(and(visibleLists(userId, institutionId), eq(recipientLists.id, listId)))
    .limit(1);
  if (!list) return null;

  // One pass over the members with their people (a list of every family of a big school is ~3,000 rows),
  // only people of the same school: a stale member row can never leak another school's data.
  const rows = await readMembers(db, institutionId, listId);
  const country = list.country;

  const out: RecipientListMember[] = [];
  for (const r of rows) {
    if (r.first_names === null) continue; // the person is gone (or of another school)
    const id = Number(r.id);
    const ref = Number(r.ref);
    const person = { firstNames: r.first_names, lastNameFather: r.last_name_father!, lastNameMother: r.last_name_mother! };
    const base = { id, user_id: ref, list_id: list.id, list_name: list.name, name: personName(person), email: r.email };
    const student =
      r.student_id === null
        ? undefined
        : { id: Number(r.student_id), courseId: Number(r.course_id), courseName: r.course_name!, withdrawnAt: r.withdrawn_at };
    const addedIn = r.added_in === null ? null : Number(r.added_in);
    if (r.kind === 'apoderado') {
      const role = r.role === 1 || r.role === 2 ? (r.role as GuardianRoleId) : null;
      out.push({
        ...base,
        user_type: 'apoderado',
        phone: r.phone,
        nombre_rol: role ? GUARDIAN_ROLE_NAMES[country][role] : GUARDIAN_FALLBACK[country],
        group_id: student?.courseId ?? null,
        group_type: student ? 'curso' : null,
        rol_adulto_id: role,
        student_id: student?.id ?? null,
        student_name: r.student_name,
        course: student?.courseName ?? null,
        dni: r.dni,
        device_status: deviceStatus({ app: r.app, sms: Boolean(r.sms) }, Number(r.misses) >= DEVICE_WINDOW),
        stale: staleReason(student, addedIn),
      });
    } else if (r.kind === 'estudiante') {
      out.push({
        ...base,
        user_type: 'estudiante',
        phone: null,
        nombre_rol: STUDENT_ROLE,
        group_id: student!.courseId,
        group_type: 'curso',
        rol_adulto_id: null,
        student_id: ref,
        student_name: null,
        course: student!.courseName,
        dni: r.dni,
        device_status: null,
        stale: staleReason(student, addedIn),
      });
    } else {
      const positionId = r.position_id === null ? null : Number(r.position_id);
      out.push({
        ...base,
        user_type: 'funcionario',
        phone: r.phone,
        nombre_rol: r.position_name ?? STAFF_FALLBACK,
        group_id: positionId,
        group_type: positionId === null ? null : 'cargo',
        rol_adulto_id: null,
        student_id: null,
        student_name: null,
        course: null,
        dni: null,
        device_status: null,
        stale: null,
      });
    }
  }
  return out.sort((a, b) => collator.compare(a.name, b.name) || a.id - b.id);
}
