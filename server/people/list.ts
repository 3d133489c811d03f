// The people list (`GET /people`): the school's students and guardians, one page, with a search that finds a
// person the way an administrator has them at hand (decision 0192): the name without accents or case, the
// document with or without its dots and dash, the phone's digits, the e-mail. Students first, then by name.
import { sql, type SQL } from 'drizzle-orm';
import { fold } from '../../shared/fold';
import type { PeopleKind, PeopleStatus, PersonSummary } from '../../shared/people-contract';
import type { DocumentTypeId } from '../../shared/recipient-lists-contract';
import type { Queryable } from '../db/client';
import { escapeLike, foldSql, rowsOf } from '../db/sql';
import { fullName, type PeopleScope } from './person';

export interface PeopleListQuery {
  q: string;
  kind: PeopleKind | null;
  status: PeopleStatus;
  courseId: number | null;
  page: number;
  perPage: number;
}

interface Row {
  kind: PeopleKind;
  id: number;
  first_names: string;
  last_name_father: string;
  last_name_mother: string;
  dni: string | null;
  document_type: number | null;
  course: string | null;
  withdrawn_at: Date | string | null;
  phone: string | null;
  email: string | null;
  total: number;
}

/** Whether course `courseId` is the scope's school's (another school's is refused, never searched). */
export async function isSchoolCourse(db: Queryable, scope: PeopleScope, courseId: number): Promise<boolean> {
  const rows = rowsOf(await db.execute(sql`select 1 from courses where id = ${courseId} and institution_id = ${scope.institutionId}`));
  return rows.length > 0;
}

const personName = (t: string) => sql.raw(`concat_ws(' ', ${t}.first_names, ${t}.last_name_father, nullif(${t}.last_name_mother, ''))`);

/**
 * `q` as conditions on person `t`: the folded name contains it; or the document, without its dots, dash and
 * spaces, contains it the same way; or, when `q` is a number as typed (digits and the punctuation around
 * them), the phone's digits contain its digits; or the e-mail contains it.
 */
function searchOf(q: string, t: string, hasPhone: boolean): SQL | null {
  const trimmed = q.trim();
  if (trimmed === '') return null;
  const folded = fold(trimmed).replace(/\s+/g, ' ');
  const alternatives = [sql`${foldSql(personName(t))} like ${`%${escapeLike(folded)}%`}`];
  const compact = trimmed.toUpperCase().replace(/[^0-9A-Z]/g, '');
  if (compact !== '') {
    alternatives.push(sql`regexp_replace(upper(${sql.raw(t)}.dni), '[^0-9A-Z]', '', 'g') like ${`%${compact}%`}`);
  }
  const digits = trimmed.replace(/\D/g, '');
  if (hasPhone && digits.length >= 3 && /^\+?[\d\s().\-/]+$/.test(trimmed)) {
    alternatives.push(sql`regexp_replace(${sql.raw(t)}.phone, '[^0-9]', '', 'g') like ${`%${digits}%`}`);
  }
  alternatives.push(sql`lower(${sql.raw(t)}.email) like ${`%${escapeLike(trimmed.toLowerCase())}%`}`);
  return sql`(${sql.join(alternatives, sql` or `)})`;
}

/** A student's standing as the filter asks it. */
const standing = (status: PeopleStatus, s: string): SQL =>
  status === 'enrolled'
    ? sql.raw(`${s}.withdrawn_at is null`)
    : status === 'withdrawn'
      ? sql.raw(`${s}.withdrawn_at is not null`)
      : sql`true`;

/** One page of the school's students and guardians and how many match in all. */
export async function pageOfPeople(
  db: Queryable,
  scope: PeopleScope,
  query: PeopleListQuery,
): Promise<{ items: PersonSummary[]; total: number }> {
  const inst = scope.institutionId;
  const parts: SQL[] = [];
  if (query.kind !== 'apoderado') {
    // Erased people are gone from the school's lists (server/privacy-requests/erasure.ts).
    const conditions = [sql`s.institution_id = ${inst}`, sql`s.erased_at is null`, standing(query.status, 's')];
    if (query.courseId !== null) conditions.push(sql`s.course_id = ${query.courseId}`);
    const search = searchOf(query.q, 's', false);
    if (search) conditions.push(search);
    parts.push(sql`
      select 'estudiante'::text as kind, 0 as rank, s.id, s.first_names, s.last_name_father, s.last_name_mother, s.dni,
        s.document_type, s.withdrawn_at, null::text as phone, s.email
      from students s where ${sql.join(conditions, sql` and `)}`);
  }
  if (query.kind !== 'estudiante') {
    const conditions = [sql`g.institution_id = ${inst}`, sql`g.erased_at is null`];
    // The guardians of that course's students (of the standing asked); a guardian has no standing of their own.
    if (query.courseId !== null) {
      conditions.push(sql`exists (select 1 from student_guardians sg join students s on s.id = sg.student_id
        where sg.guardian_id = g.id and s.course_id = ${query.courseId} and ${standing(query.status, 's')})`);
    }
    const search = searchOf(query.q, 'g', true);
    if (search) conditions.push(search);
    parts.push(sql`
      select 'apoderado'::text as kind, 1 as rank, g.id, g.first_names, g.last_name_father, g.last_name_mother, g.dni,
        g.document_type, null::timestamptz as withdrawn_at, g.phone, g.email
      from guardians g where ${sql.join(conditions, sql` and `)}`);
  }
  // The page first, then the courses of its people only: a guardian's children's courses are a subquery each.
  const result = await db.execute(sql`
    with matched as (${sql.join(parts, sql` union all `)}),
    page as (
      select m.*, count(*) over ()::int as total from matched m
      order by m.rank, ${foldSql(personName('m'))}, m.id
      limit ${query.perPage} offset ${(query.page - 1) * query.perPage}
    )
    select p.*,
      case when p.kind = 'estudiante' then (select c.name from students s join courses c on c.id = s.course_id where s.id = p.id)
      else (
        select string_agg(x.name, ', ' order by x.position, x.name) from (
          select distinct c.name, l.position from student_guardians sg
          join students s on s.id = sg.student_id and s.withdrawn_at is null
          join courses c on c.id = s.course_id join levels l on l.id = c.level_id
          where sg.guardian_id = p.id) x
      ) end as course
    from page p
    order by p.rank, ${foldSql(personName('p'))}, p.id`);
  const rows = rowsOf<Row>(result);
  let total = rows[0]?.total;
  if (total === undefined) {
    // Past the last page the window has no row to carry the total: count apart (rare: a stale link).
    const counted = rowsOf<{ n: number }>(
      await db.execute(sql`with matched as (${sql.join(parts, sql` union all `)}) select count(*)::int as n from matched`),
    );
    total = counted[0]?.n ?? 0;
  }
  return {
    items: rows.map((r) => ({
      kind: r.kind,
      id: Number(r.id),
      name: fullName(r),
      dni: r.dni,
      tipo_documento_id: r.document_type === null ? null : (Number(r.document_type) as DocumentTypeId),
      course: r.course,
      withdrawn_at: r.withdrawn_at === null ? null : new Date(r.withdrawn_at).toISOString(),
      fono_celular: r.phone,
      email: r.email,
    })),
    total: Number(total),
  };
}
