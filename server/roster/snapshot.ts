// The school's roster as an import compares against it: levels, courses, every student (withdrawn too, so a
// returning one is found), guardians and who is whose, and the fields an administrator corrected by hand
// that no import has written since. A few set-based reads, assembled in memory by plan.ts.
import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/client';
import { rowsOf } from '../db/sql';

interface LevelRow {
  id: number;
  name: string;
  position: number;
}
interface CourseRow {
  id: number;
  name: string;
  level_id: number;
}
export interface StudentRow {
  id: number;
  course_id: number;
  first_names: string;
  last_name_father: string;
  last_name_mother: string;
  dni: string | null;
  document_type: number | null;
  birth_date: string | null;
  email: string | null;
  withdrawn: boolean;
}
export interface GuardianRow {
  id: number;
  first_names: string;
  last_name_father: string;
  last_name_mother: string;
  dni: string | null;
  document_type: number | null;
  phone: string | null;
  email: string | null;
}
interface LinkRow {
  student_id: number;
  guardian_id: number;
  role: number;
  relationship: string;
}

export interface RosterSnapshot {
  levels: LevelRow[];
  courses: CourseRow[];
  students: StudentRow[];
  guardians: GuardianRow[];
  links: LinkRow[];
  /** `estudiante:12:fono_celular`: fields an administrator changed by hand after the last import that wrote them. */
  manual: Set<string>;
  /** The school year the roster is in now: the latest applied import's, or the calendar's. */
  currentYear: number;
}

/**
 * A digest of everything an import reads and writes, taken in the same snapshot: apply compares it with the
 * preview's to refuse a plan made on a roster that changed since.
 */
function stampSql(institutionId: number) {
  return sql`select md5(concat_ws('|',
      (select string_agg(concat_ws(',', id, level_id, name), ';' order by id) from courses where institution_id = ${institutionId}),
      (select string_agg(concat_ws(',', id, course_id, first_names, last_name_father, last_name_mother, dni, document_type,
        birth_date, email, withdrawn_at), ';' order by id) from students where institution_id = ${institutionId}),
      (select string_agg(concat_ws(',', id, first_names, last_name_father, last_name_mother, dni, document_type, phone, email), ';' order by id)
        from guardians where institution_id = ${institutionId}),
      (select string_agg(concat_ws(',', sg.student_id, sg.guardian_id, sg.role, sg.relationship), ';' order by sg.student_id, sg.guardian_id)
        from student_guardians sg join students s on s.id = sg.student_id where s.institution_id = ${institutionId}),
      (select string_agg(concat_ws(',', student_id, school_year, course_id), ';' order by student_id, school_year)
        from enrolments where institution_id = ${institutionId})
    )) as stamp`;
}

export async function rosterStamp(db: Queryable, institutionId: number): Promise<string> {
  const [row] = rowsOf<{ stamp: string }>(await db.execute(stampSql(institutionId)));
  return row!.stamp;
}

/** The latest applied import's school year, or null when the school has none. */
export async function appliedYear(db: Queryable, institutionId: number): Promise<number | null> {
  const [row] = rowsOf<{ year: number | null }>(
    await db.execute(
      sql`select max(school_year) as year from roster_imports where institution_id = ${institutionId} and state = 'applied'`,
    ),
  );
  return row?.year == null ? null : Number(row.year);
}

export async function loadSnapshot(db: Queryable, institutionId: number, calendarYear: number): Promise<RosterSnapshot> {
  const levels = rowsOf<LevelRow>(await db.execute(sql`select id, name, position from levels where institution_id = ${institutionId}`));
  const courses = rowsOf<CourseRow>(await db.execute(sql`select id, name, level_id from courses where institution_id = ${institutionId}`));
  const students = rowsOf<StudentRow>(
    await db.execute(sql`
      select id, course_id, first_names, last_name_father, last_name_mother, dni, document_type, birth_date::text as birth_date, email,
        withdrawn_at is not null as withdrawn
      from students where institution_id = ${institutionId} order by id`),
  );
  const guardians = rowsOf<GuardianRow>(
    await db.execute(sql`
      select id, first_names, last_name_father, last_name_mother, dni, document_type, phone, email
      from guardians where institution_id = ${institutionId} order by id`),
  );
  const links = rowsOf<LinkRow>(
    await db.execute(sql`
      select sg.student_id, sg.guardian_id, sg.role, sg.relationship
      from student_guardians sg join students s on s.id = sg.student_id
      where s.institution_id = ${institutionId}`),
  );
  // By hand: written by someone, not by an import, after the last import that wrote that field of that person
  // (any time when none did). A correction kept over a file stays the administrator's until a file wins it.
  const manual = rowsOf<{ key: string }>(
    await db.execute(sql`
      select distinct c.person_kind || ':' || c.person_id || ':' || c.field as key
      from contact_changes c
      where c.institution_id = ${institutionId} and c.roster_import_id is null and c.person_kind in ('estudiante', 'apoderado')
        and c.changed_at > coalesce(
          (select max(i.changed_at) from contact_changes i
            where i.institution_id = c.institution_id and i.person_kind = c.person_kind and i.person_id = c.person_id
              and i.field = c.field and i.roster_import_id is not null), '-infinity')`),
  );
  const year = await appliedYear(db, institutionId);
  return {
    levels: levels.map((l) => ({ ...l, id: Number(l.id), position: Number(l.position) })),
    courses: courses.map((c) => ({ ...c, id: Number(c.id), level_id: Number(c.level_id) })),
    students: students.map((s) => ({
      ...s,
      id: Number(s.id),
      course_id: Number(s.course_id),
      document_type: s.document_type === null ? null : Number(s.document_type),
    })),
    guardians: guardians.map((g) => ({ ...g, id: Number(g.id), document_type: g.document_type === null ? null : Number(g.document_type) })),
    links: links.map((l) => ({ ...l, student_id: Number(l.student_id), guardian_id: Number(l.guardian_id), role: Number(l.role) })),
    manual: new Set(manual.map((m) => m.key)),
    currentYear: year ?? calendarYear,
  };
}
