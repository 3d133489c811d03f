// The merge fields' values (shared/merge-fields.ts) as the school's data gives them, for two readers:
// - send and the estimate (checkMergedSms, server/compose/validate.ts): the longest value of each field
//   among everyone the picks reach, so an SMS is counted (and the quota charged) as its longest recipient
//   gets it;
// - the delivery engine and the guardian app: each recipient's own values, for a batch of recipients in one
//   query.
//
// Which students a guardian is reached for: at send time the expansion knows (reachCtes' `sids`); a
// written recipient keeps them as `student_names` ("Martina Pérez, Tomás Pérez", the names the reception
// view shows), so delivery takes the guardian's students whose name is listed there. No new column: the
// names are what the message already records, and they are the guardian's own children.
import { sql, type SQL } from 'drizzle-orm';
import type { RecipientPick } from '../../shared/compose-contract';
import { longestValues, valuesOf, type MergeStudent, type MergeValues } from '../../shared/merge-fields';
import { intList } from '../db/arrays';
import type { Queryable } from '../db/client';
import { reachCtes, type PickScope } from './expand';
import { rowsOf } from '../db/sql';

const personName = (t: string) => sql.raw(`concat_ws(' ', ${t}.first_names, ${t}.last_name_father, nullif(${t}.last_name_mother, ''))`);

/**
 * After CTEs ending in `subjects(key, kind, ref, sids)`: each subject's students (first given name and
 * course, by first name) and guardian's name (a guardian's own; a student's titular guardian's).
 */
const valuesSelect = sql`,
  subject_students as (
    select subjects.key,
      json_agg(json_build_object('n', split_part(s.first_names, ' ', 1), 'c', c.name) order by s.first_names, s.id) as students
    from subjects cross join lateral unnest(subjects.sids) as u(sid)
    join students s on s.id = u.sid join courses c on c.id = s.course_id
    group by subjects.key
  )
  select subjects.key, subjects.kind, ss.students,
    case subjects.kind when 'apoderado' then ${personName('g')} when 'estudiante' then ${personName('tg')} end as guardian
  from subjects
  left join subject_students ss on ss.key = subjects.key
  left join guardians g on subjects.kind = 'apoderado' and g.id = subjects.ref
  left join student_guardians sg on subjects.kind = 'estudiante' and sg.student_id = subjects.ref and sg.role = 1
  left join guardians tg on tg.id = sg.guardian_id`;

interface ValuesRow {
  key: number | string;
  kind: string;
  students: { n: string; c: string }[] | string | null;
  guardian: string | null;
}

function toValues(row: ValuesRow): MergeValues {
  const raw = typeof row.students === 'string' ? (JSON.parse(row.students) as { n: string; c: string }[]) : (row.students ?? []);
  const students: MergeStudent[] = raw.map((s) => ({ firstName: s.n, course: s.c }));
  if (row.kind === 'apoderado') return valuesOf({ kind: 'apoderado', name: row.guardian ?? '', students });
  if (row.kind === 'estudiante') {
    return valuesOf({ kind: 'estudiante', student: students[0] ?? { firstName: '', course: '' }, guardian: row.guardian });
  }
  return valuesOf({ kind: 'funcionario' });
}

async function valuesOfSubjects(db: Queryable, ctes: SQL): Promise<ValuesRow[]> {
  return rowsOf<ValuesRow>(await db.execute(sql`with ${ctes} ${valuesSelect}`));
}

/** Per field, the longest value among everyone `picks` reach (staff count their fields as written). */
export async function longestAmongPicks(db: Queryable, scope: PickScope, picks: RecipientPick[]): Promise<MergeValues> {
  const rows = await valuesOfSubjects(
    db,
    sql`${reachCtes(scope, picks)}, subjects as (select row_number() over () as key, kind, ref, sids from people)`,
  );
  return longestValues(rows.map(toValues));
}

/** Each of these message recipients' values, in one query (the delivery engine's batch). */
export async function valuesByRecipient(db: Queryable, recipientIds: readonly number[]): Promise<Map<number, MergeValues>> {
  const byId = new Map<number, MergeValues>();
  if (recipientIds.length === 0) return byId;
  const rows = await valuesOfSubjects(
    db,
    sql`subjects as (
      select r.id as key, r.recipient_kind as kind, r.recipient_ref_id as ref,
        case r.recipient_kind
          when 'estudiante' then array[r.recipient_ref_id]
          when 'apoderado' then array(
            select s.id from student_guardians sg join students s on s.id = sg.student_id
            where sg.guardian_id = r.recipient_ref_id
              and split_part(s.first_names, ' ', 1) || ' ' || s.last_name_father = any(string_to_array(r.student_names, ', ')))
        end as sids
      from message_recipients r where r.id = any(${intList([...recipientIds])}::int[])
    )`,
  );
  for (const row of rows) byId.set(Number(row.key), toValues(row));
  return byId;
}
