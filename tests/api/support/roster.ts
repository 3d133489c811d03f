// What the roster tests share: a school's roster as the rows a file of it would give (what an export of
// Hermes re-imported must leave unchanged), and a digest of the roster tables to tell that nothing was written.
import { sql } from 'drizzle-orm';
import type { RosterRow } from '../../../shared/roster-contract';
import type { Db } from '../../../server/db/client';
import { rowsOf } from '../../../server/db/sql';

interface Line {
  sid: number;
  s_first: string;
  s_father: string;
  s_mother: string;
  s_dni: string | null;
  s_type: number | null;
  s_birth: string | null;
  s_email: string | null;
  course: string;
  level: string;
  position: number;
  gid: number | null;
  g_first: string | null;
  g_father: string | null;
  g_mother: string | null;
  g_dni: string | null;
  g_type: number | null;
  g_phone: string | null;
  g_email: string | null;
  role: number | null;
  relationship: string | null;
}

const doc = (value: string | null, type: number | null) =>
  value === null ? null : { type: type === 2 ? ('curp' as const) : ('rut' as const), value };

/** The enrolled students of `institutionId` and their guardians, a row per student and guardian, in id order. */
export async function rowsOfSchool(db: Db, institutionId: number): Promise<RosterRow[]> {
  const lines = rowsOf<Line>(
    await db.execute(sql`
      select s.id as sid, s.first_names as s_first, s.last_name_father as s_father, s.last_name_mother as s_mother, s.dni as s_dni,
        s.document_type as s_type, s.birth_date::text as s_birth, s.email as s_email, c.name as course, l.name as level, l.position,
        g.id as gid, g.first_names as g_first, g.last_name_father as g_father, g.last_name_mother as g_mother, g.dni as g_dni,
        g.document_type as g_type, g.phone as g_phone, g.email as g_email, sg.role, sg.relationship
      from students s join courses c on c.id = s.course_id join levels l on l.id = c.level_id
      left join student_guardians sg on sg.student_id = s.id left join guardians g on g.id = sg.guardian_id
      where s.institution_id = ${institutionId} and s.withdrawn_at is null
      order by s.id, sg.role`),
  );
  return lines.map((r, i) => ({
    line: i + 2,
    student: {
      document: doc(r.s_dni, r.s_type),
      first_names: r.s_first,
      last_name_father: r.s_father,
      last_name_mother: r.s_mother,
      course: { level: r.level, letter: r.course.slice(r.level.length).trim(), name: r.course, position: Number(r.position) },
      birth_date: r.s_birth,
      email: r.s_email,
    },
    guardian:
      r.gid === null
        ? null
        : {
            document: doc(r.g_dni, r.g_type),
            first_names: r.g_first!,
            last_name_father: r.g_father!,
            last_name_mother: r.g_mother!,
            role: Number(r.role) === 1 ? 'titular' : 'suplente',
            relationship: r.relationship!,
            phone: r.g_phone,
            email: r.g_email,
          },
  }));
}

/**
 * Every row of the tables an import writes, with its row version (`xmin`): equal digests mean not a row was
 * inserted, updated or deleted in between, not even to the same values.
 */
export async function rosterDigest(db: Db, institutionId: number): Promise<string> {
  const [row] = rowsOf<{ digest: string }>(
    await db.execute(sql`select md5(concat_ws('|',
      (select string_agg(xmin::text || ':' || id, ',' order by id) from students where institution_id = ${institutionId}),
      (select string_agg(xmin::text || ':' || id, ',' order by id) from guardians where institution_id = ${institutionId}),
      (select string_agg(xmin::text || ':' || id, ',' order by id) from courses where institution_id = ${institutionId}),
      (select string_agg(xmin::text || ':' || id, ',' order by id) from levels where institution_id = ${institutionId}),
      (select string_agg(sg.xmin::text || ':' || sg.student_id || ':' || sg.guardian_id, ',' order by sg.student_id, sg.guardian_id)
        from student_guardians sg join students s on s.id = sg.student_id where s.institution_id = ${institutionId}),
      (select string_agg(xmin::text || ':' || student_id || ':' || school_year, ',' order by student_id, school_year)
        from enrolments where institution_id = ${institutionId}),
      (select count(*) from contact_changes where institution_id = ${institutionId})
    )) as digest`),
  );
  return row!.digest;
}
