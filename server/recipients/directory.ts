// Everything the recipient picker shows for one school (`GET /recipients`, compose-contract `Recipients`).
// A handful of set-based queries, one per table, assembled in memory: one query per course would be
// hundreds of round trips on the large seed.
import { and, eq, isNull, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type {
  DeviceStatus,
  GuardianRoleId,
  RecipientAppointment,
  RecipientCourse,
  RecipientGroups,
  RecipientGuardian,
  RecipientLevel,
  Recipients,
  RecipientStaff,
  RecipientStudent,
} from '../../shared/compose-contract';
import type { Queryable } from '../db/client';
import { DEVICE_WINDOW, deviceStatus } from './device-status';
import { settleSmsPhones, smsPhoneText } from './sms-phones';
import { appReachableSql } from './app-reach';
import { courses, electives, electiveStudents, guardians, levels, positions, staff, studentGuardians, students } from '../db/schema/school';

/** Spanish order: accents sort with their base letter, ñ after n. */
export const collator = new Intl.Collator('es', { sensitivity: 'base', numeric: true });

/** A full name; someone without a second surname has no trailing space. */
export const personName = (p: { firstNames: string; lastNameFather: string; lastNameMother: string }) =>
  [p.firstNames, p.lastNameFather, p.lastNameMother].filter((part) => part !== '').join(' ');

export async function loadRecipients(db: Queryable, institutionId: number): Promise<Recipients> {
  // The device status counts numbers the delivery engine can text (server/recipients/sms-phones.ts).
  await settleSmsPhones(db, institutionId);
  const [groups, studentRows, enrolments, links, guardianRows, positionRows, staffRows] = await Promise.all([
    groupRows(db, institutionId),
    db
      .select({ rows: packed(students.id, students.courseId, students.firstNames, students.lastNameFather, students.lastNameMother) })
      .from(students)
      // Withdrawn students are no longer offered (server/recipients/expand.ts no longer reaches them by course).
      // Erased ones neither (server/privacy-requests/erasure.ts).
      .where(and(eq(students.institutionId, institutionId), isNull(students.withdrawnAt), isNull(students.erasedAt)))
      .then(unpack<[id: number, courseId: number, firstNames: string, lastNameFather: string, lastNameMother: string]>),
    db
      .select({ rows: packed(electiveStudents.electiveId, electiveStudents.studentId) })
      .from(electiveStudents)
      .innerJoin(electives, eq(electives.id, electiveStudents.electiveId))
      .where(eq(electives.institutionId, institutionId))
      .then(unpack<[electiveId: number, studentId: number]>),
    db
      .select({ rows: packed(studentGuardians.studentId, studentGuardians.guardianId, studentGuardians.role) })
      .from(studentGuardians)
      .innerJoin(students, eq(students.id, studentGuardians.studentId))
      .where(and(eq(students.institutionId, institutionId), isNull(students.withdrawnAt), isNull(students.erasedAt)))
      .then(unpack<[studentId: number, guardianId: number, role: number]>),
    db
      .select({
        rows: packed(
          guardians.id,
          guardians.firstNames,
          guardians.lastNameFather,
          guardians.lastNameMother,
          guardians.email,
          guardians.phone,
          appReachableSql('guardians'),
          // A number the engine texts, not opted out of SMS (the device status's rule).
          sql.raw(smsPhoneText('guardians')),
          // Kept by the delivery engine as deliveries end (server/reception/status.ts refreshDeviceMisses).
          sql`${guardians.deviceMisses} >= ${DEVICE_WINDOW}`,
        ),
      })
      .from(guardians)
      .where(and(eq(guardians.institutionId, institutionId), isNull(guardians.erasedAt)))
      .then(
        unpack<
          [
            id: number,
            firstNames: string,
            lastNameFather: string,
            lastNameMother: string,
            email: string | null,
            phone: string | null,
            app: boolean,
            sms: boolean,
            irregular: boolean,
          ]
        >,
      ),
    db.select({ id: positions.id, name: positions.name }).from(positions).where(eq(positions.institutionId, institutionId)),
    db
      .select({
        id: staff.id,
        positionId: staff.positionId,
        userId: staff.userId,
        firstNames: staff.firstNames,
        lastNameFather: staff.lastNameFather,
        lastNameMother: staff.lastNameMother,
        email: staff.email,
      })
      .from(staff)
      // A colleague whose account is deactivated has left the school: not offered until reactivated.
      .where(
        and(
          isNull(staff.erasedAt),
          eq(staff.institutionId, institutionId),
          sql`not exists (select 1 from users u where u.id = ${staff.userId} and u.status = 'deactivated')`,
        ),
      ),
  ]);

  // Students, named and in alphabetical order once; every group below keeps that order.
  const byCourse = new Map<number, RecipientStudent[]>();
  const named = studentRows.map(([id, courseId, firstNames, lastNameFather, lastNameMother]) => ({
    courseId,
    student: { id, name: personName({ firstNames, lastNameFather, lastNameMother }) },
  }));
  named.sort((a, b) => collator.compare(a.student.name, b.student.name) || a.student.id - b.student.id);
  const electivesOf = new Map<number, number[]>();
  for (const [electiveId, studentId] of enrolments) push(electivesOf, studentId, electiveId);
  const electiveMembers = new Map<number, RecipientStudent[]>();
  for (const { courseId, student } of named) {
    push(byCourse, courseId, student);
    for (const electiveId of electivesOf.get(student.id) ?? []) push(electiveMembers, electiveId, student);
  }

  const fichaById = new Map<number, { ficha: RecipientGuardian['ficha_apoderado']; status: DeviceStatus }>();
  for (const [id, firstNames, lastNameFather, lastNameMother, email, phone, app, sms, irregular] of guardianRows) {
    fichaById.set(id, {
      ficha: {
        email,
        // No separate guardian accounts: the app account is the guardian record once the app is installed.
        user_id: app ? id : null,
        name: personName({ firstNames, lastNameFather, lastNameMother }),
        fono_celular: phone,
        user_type: 'apoderado',
      },
      status: deviceStatus({ app, sms }, irregular),
    });
  }
  const guardiansOf = new Map<number, { guardianId: number; role: GuardianRoleId }[]>();
  for (const [studentId, guardianId, role] of links) push(guardiansOf, studentId, { guardianId, role: role as GuardianRoleId });
  for (const list of guardiansOf.values()) list.sort((a, b) => a.role - b.role);

  const apoderadosOf = (members: readonly RecipientStudent[]): RecipientGuardian[] =>
    members.flatMap((student) =>
      (guardiansOf.get(student.id) ?? []).flatMap(({ guardianId, role }) => {
        const g = fichaById.get(guardianId);
        return g
          ? [{ id: guardianId, student_id: student.id, rol_adulto_id: role, device_status: g.status, ficha_apoderado: g.ficha }]
          : [];
      }),
    );

  const { levelRows, courseRows, electiveRows } = groups;
  const regular: RecipientCourse[] = courseRows.map((c) => {
    const estudiantes = byCourse.get(c.id) ?? [];
    return { id: c.id, nombre: c.name, grupo_type: 'curso', level_id: c.levelId, estudiantes, apoderados: apoderadosOf(estudiantes) };
  });

  const electiveCourses: RecipientCourse[] = electiveRows.map((e) => {
    const estudiantes = electiveMembers.get(e.id) ?? [];
    return { id: e.id, nombre: e.name, grupo_type: 'electivo', level_id: null, estudiantes, apoderados: apoderadosOf(estudiantes) };
  });

  const levelsOut = levelsOf(levelRows, courseRows);

  // Staff without a cargo cannot be reached through an appointment pick; the seed gives everyone one.
  const staffByPosition = new Map<number, RecipientStaff[]>();
  for (const s of staffRows) {
    if (s.positionId === null) continue;
    push(staffByPosition, s.positionId, {
      user_id: s.id,
      name: personName(s),
      cargo_id: s.positionId,
      email: s.email,
      login_user_id: s.userId,
    });
  }
  const appointments: RecipientAppointment[] = positionRows
    .filter((p) => staffByPosition.has(p.id))
    .sort((a, b) => collator.compare(a.name, b.name) || a.id - b.id)
    .map((p) => ({
      id: p.id,
      nombre: p.name,
      users: staffByPosition.get(p.id)!.sort((a, b) => collator.compare(a.name, b.name) || a.user_id - b.user_id),
    }));

  return { courses: [...regular, ...electiveCourses], appointments, levels: levelsOut };
}

/** The school's levels, courses and electives, each in the order the directory shows them. */
async function groupRows(db: Queryable, institutionId: number) {
  const [levelRows, courseRows, electiveRows] = await Promise.all([
    db.select({ id: levels.id, name: levels.name, position: levels.position }).from(levels).where(eq(levels.institutionId, institutionId)),
    db
      .select({ id: courses.id, name: courses.name, levelId: courses.levelId })
      .from(courses)
      .where(eq(courses.institutionId, institutionId)),
    db.select({ id: electives.id, name: electives.name }).from(electives).where(eq(electives.institutionId, institutionId)),
  ]);
  levelRows.sort((a, b) => a.position - b.position);
  const levelOrder = new Map(levelRows.map((l) => [l.id, l.position]));
  courseRows.sort(
    (a, b) => (levelOrder.get(a.levelId) ?? 0) - (levelOrder.get(b.levelId) ?? 0) || collator.compare(a.name, b.name) || a.id - b.id,
  );
  electiveRows.sort((a, b) => collator.compare(a.name, b.name) || a.id - b.id);
  return { levelRows, courseRows, electiveRows };
}

type GroupRows = Awaited<ReturnType<typeof groupRows>>;

const levelsOf = (levelRows: GroupRows['levelRows'], courseRows: GroupRows['courseRows']): RecipientLevel[] =>
  levelRows.map((l) => ({ id: l.id, nombre: l.name, course_ids: courseRows.filter((c) => c.levelId === l.id).map((c) => c.id) }));

/** The directory's levels and groups without their people (`GET /recipients/courses`), in the same order. */
export async function loadRecipientGroups(db: Queryable, institutionId: number): Promise<RecipientGroups> {
  const { levelRows, courseRows, electiveRows } = await groupRows(db, institutionId);
  return {
    levels: levelsOf(levelRows, courseRows),
    courses: [
      ...courseRows.map((c) => ({ id: c.id, nombre: c.name, grupo_type: 'curso' as const, level_id: c.levelId })),
      ...electiveRows.map((e) => ({ id: e.id, nombre: e.name, grupo_type: 'electivo' as const, level_id: null })),
    ],
  };
}

/**
 * The big tables come back as one JSON array of row tuples: the embedded engine decodes a single text value
 * several times faster than thousands of protocol rows, and real Postgres does not mind.
 */
const packed = (...columns: (AnyColumn | SQL)[]) => sql<string | null>`json_agg(json_build_array(${sql.join(columns, sql`, `)}))::text`;

function unpack<T>(rows: { rows: string | null }[]): T[] {
  const text = rows[0]?.rows;
  return text ? (JSON.parse(text) as T[]) : [];
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
