// The app's «Avisos»: per child (and so per school: a child is one school's), whether a message about them
// makes the guardian's phone ring. Off is a row of `push_mutes`; the message still reaches the app's inbox,
// only its push is skipped (server/push/send.ts), and never for an emergency (decision 0218). Keyed by the
// guardian rows the session covers, so one sign-in over several schools' records lists all their children.
import { sql, type SQL } from 'drizzle-orm';
import type { FamilyChildNotices } from '../../shared/family-devices-contract';
import { intList } from '../db/arrays';
import type { Db, Queryable } from '../db/client';
import { rowsOf } from '../db/sql';

/** Each enrolled child of these guardian rows, with school, course and whether their pushes are on. */
export async function childNotices(db: Queryable, guardianIds: readonly number[]): Promise<FamilyChildNotices[]> {
  const rows = rowsOf<{ student_id: number; name: string; school: string; course: string; push: boolean }>(
    await db.execute(sql`
      select s.id as student_id,
        concat_ws(' ', s.first_names, s.last_name_father, nullif(s.last_name_mother, '')) as name,
        i.name as school, c.name as course,
        -- A child of two of the session's rows (a parent registered twice) is one switch: on while no row muted it.
        bool_and(not exists (select 1 from push_mutes pm where pm.guardian_id = sg.guardian_id and pm.student_id = s.id)) as push
      from student_guardians sg join students s on s.id = sg.student_id and s.withdrawn_at is null and s.erased_at is null
        join courses c on c.id = s.course_id join institutions i on i.id = s.institution_id
      where sg.guardian_id = any(${intList([...guardianIds])}::int[])
      group by s.id, i.name, c.name
      order by i.name, s.first_names, s.last_name_father, s.id`),
  );
  return rows.map((r) => ({
    student_id: Number(r.student_id),
    name: r.name,
    school: r.school,
    course: r.course,
    push: r.push === true,
  }));
}

/**
 * Turns pushes on or off for these children of these guardian rows. False when a child is none of theirs
 * (nothing is changed then: the request is refused whole).
 */
export async function setChildNotices(
  db: Db,
  guardianIds: readonly number[],
  changes: readonly { studentId: number; push: boolean }[],
): Promise<boolean> {
  const ids = intList([...guardianIds]);
  return db.transaction(async (tx) => {
    const links = rowsOf<{ guardian_id: number; student_id: number; institution_id: number }>(
      await tx.execute(sql`
        select sg.guardian_id, sg.student_id, s.institution_id from student_guardians sg
        join students s on s.id = sg.student_id and s.withdrawn_at is null and s.erased_at is null
        where sg.guardian_id = any(${ids}::int[]) and sg.student_id = any(${intList(changes.map((c) => c.studentId))}::int[])`),
    );
    const linked = new Set(links.map((l) => Number(l.student_id)));
    if (changes.some((c) => !linked.has(c.studentId))) return false;
    for (const change of changes) {
      for (const link of links.filter((l) => Number(l.student_id) === change.studentId)) {
        await tx.execute(
          change.push
            ? sql`delete from push_mutes where guardian_id = ${link.guardian_id} and student_id = ${link.student_id}`
            : sql`insert into push_mutes (institution_id, guardian_id, student_id) values (${link.institution_id}, ${link.guardian_id}, ${link.student_id})
                on conflict do nothing`,
        );
      }
    }
    return true;
  });
}

/**
 * SQL over a message recipient aliased `r` (a guardian's): the message concerns at least one of the
 * guardian's children and every one it concerns has pushes off. The children it concerns are the
 * guardian's whose name `student_names` lists, as delivery reads them for the merge fields
 * (server/recipients/merge-values.ts); a message naming none concerns all of them. One that names nobody
 * the guardian has now (a child renamed or no longer theirs) is not muted: a mute of another child must
 * not silence it. Cheap when the guardian muted nothing, the usual case: the first probe fails.
 */
export const pushMutedSql = (r: string): SQL => {
  const concerned = `from student_guardians sg join students s on s.id = sg.student_id
      where sg.guardian_id = ${r}.recipient_ref_id
        and (${r}.student_names is null
          or split_part(s.first_names, ' ', 1) || ' ' || s.last_name_father = any(string_to_array(${r}.student_names, ', ')))`;
  return sql.raw(`(exists (select 1 from push_mutes pm where pm.guardian_id = ${r}.recipient_ref_id)
    and exists (select 1 ${concerned})
    and not exists (select 1 ${concerned}
        and not exists (select 1 from push_mutes pm where pm.guardian_id = sg.guardian_id and pm.student_id = sg.student_id)))`);
};
