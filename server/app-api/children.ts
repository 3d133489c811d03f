// The children of a guardian app session (every guardian row of its phone, in every school) and the
// schools it spans. A withdrawn or erased student is left out: the app lists whom the family has at school
// now; the messages about them stay in the combined inbox (docs/decisions/0209).
import { sql } from 'drizzle-orm';
import type { FamilyChild, FamilySchool } from '../../shared/family-contract';
import type { Locale } from '../../shared/contract';
import type { Queryable } from '../db/client';
import { rowsOf } from '../db/sql';
import { namesStudent, sessionRows, visible, type Reader } from './inbox';

/**
 * Each enrolled child once (two rows of the phone may answer for the same student), by school then first
 * name, with its school, course (this year's: `students.course_id`) and the messages about it still unread.
 */
export async function listChildren(db: Queryable, reader: Reader, now: Date): Promise<FamilyChild[]> {
  const result = await db.execute(sql`
    select st.id, concat_ws(' ', split_part(st.first_names, ' ', 1), st.last_name_father, nullif(st.last_name_mother, '')) as name,
      i.name as school_name, c.name as course_name, u.unread
    from (select distinct sg.student_id from ${sessionRows(reader)}
          join student_guardians sg on sg.guardian_id = me.guardian_id) mine
    join students st on st.id = mine.student_id
    join courses c on c.id = st.course_id
    join institutions i on i.id = st.institution_id
    left join lateral (select count(distinct m.id)::int as unread ${visible(reader)}
      and d.status <> 'read' and ${namesStudent(sql`st.id`)}) u on true
    where st.erased_at is null and (st.withdrawn_at is null or st.withdrawn_at > ${now.toISOString()}::timestamptz)
    order by i.name, st.first_names, st.last_name_father, st.id`);
  return rowsOf<{ id: number; name: string; school_name: string; course_name: string; unread: number | null }>(result).map((row) => ({
    id: Number(row.id),
    name: row.name,
    school_name: row.school_name,
    course_name: row.course_name,
    unread: Number(row.unread ?? 0),
  }));
}

/** Whether `studentId` is one of the session's enrolled children (the inbox's `student` filter). */
export async function isSessionChild(db: Queryable, reader: Reader, studentId: number, now: Date): Promise<boolean> {
  const result = await db.execute(sql`
    select 1 from ${sessionRows(reader)}
    join student_guardians sg on sg.guardian_id = me.guardian_id
    join students st on st.id = sg.student_id
    where st.id = ${studentId} and st.erased_at is null and (st.withdrawn_at is null or st.withdrawn_at > ${now.toISOString()}::timestamptz)
    limit 1`);
  return rowsOf(result).length > 0;
}

/** The schools of a signed-in phone: the row's own first, then the others by name. */
export async function sessionSchools(db: Queryable, guardian: { institutionId: number; phone: string }): Promise<FamilySchool[]> {
  const result = await db.execute(sql`
    select i.name, i.locale from institutions i
    where i.id = ${guardian.institutionId} or i.id in (select g.institution_id from guardians g where g.phone = ${guardian.phone})
    order by (i.id = ${guardian.institutionId}) desc, i.name`);
  return rowsOf<{ name: string; locale: Locale }>(result).map((row) => ({ name: row.name, locale: row.locale }));
}
