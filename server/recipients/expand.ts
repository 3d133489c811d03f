// Recipient expansion: the picker's selection (RecipientPick[]) → the distinct people a message reaches,
// each with the addresses its channels need. Done in SQL (`reachCtes`), so a send to 5,000 guardians is
// one INSERT … SELECT from the expansion instead of shipping the people to JS and back. A person reached
// twice is one row: a guardian of two picked students is named once with both children in `sn`
// (student_names, alphabetical), and keeps the group of the first pick that reached them. A withdrawn
// student (`withdrawn_at`) is no longer reached through a course, level or elective.
//
// `checkPicks` proves every picked id is this school's, and every picked list one the author can see
// (another school's id, another user's list → 422), and finds picked courses with no students; the CTEs
// filter the same way, so a foreign id can never leak in.
import { anyId } from '../db/arrays';
import { and, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Audience, RecipientPick } from '../../shared/compose-contract';
import type { ChannelCode } from '../../shared/codes';
import { familyWords } from '../../shared/guardian-term';
import { readTogether, type Queryable } from '../db/client';
import { recipientListMembers, recipientLists } from '../db/schema/compose';
import { courses, electives, electiveStudents, guardians, levels, positions, staff, students } from '../db/schema/school';
import { rowsOf } from '../db/sql';
import { appReachableSql } from './app-reach';
import { optedOutSql } from './opt-outs';
import { isId } from '../http/params';

export const FOREIGN_RECIPIENTS = 'Algunos destinatarios elegidos no existen o no pertenecen a tu colegio.';

/**
 * The lists a user can see: their own and those a colleague shares with the school's staff, of their
 * school, out of the trash. Listing, reading members, checking picks and expanding them all ask this one
 * condition; changing a list asks the `owned` scope of server/recipient-lists/queries.ts. It lives here,
 * below the recipient-lists feature, because expanding a pick of a list needs it and that feature builds
 * on the expansion.
 */
export const visibleLists = (userId: number, institutionId: number): SQL =>
  and(
    eq(recipientLists.institutionId, institutionId),
    isNull(recipientLists.deletedAt),
    or(eq(recipientLists.ownerUserId, userId), eq(recipientLists.shared, true)),
  )!;

/** Who is sending: picks are checked and expanded for this user in this school. */
export interface PickScope {
  institutionId: number;
  userId: number;
}

export type PickCheck = { ok: true; emptyCourses: { id: number; nombre: string }[] } | { ok: false; message: string };

const idsOf = (picks: RecipientPick[], ...kinds: RecipientPick['kind'][]) => [
  ...new Set(picks.filter((p) => kinds.includes(p.kind)).map((p) => p.id)),
];

const AUDIENCES: readonly Audience[] = ['apoderados', 'titulares', 'suplentes', 'estudiantes'];
const GROUP_KINDS = new Set(['level', 'course', 'elective', 'student']);
const SINGLE_KINDS = new Set(['guardian', 'appointment', 'staff', 'recipient-list']);
const MAX_LABEL = 300;

/** One pick of a request body (compose, a recipient list), well formed; null when it is not. */
export function parsePick(raw: unknown): RecipientPick | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const p = raw as Record<string, unknown>;
  if (typeof p.kind !== 'string' || !isId(p.id)) return null;
  if (p.label !== undefined && (typeof p.label !== 'string' || p.label.length > MAX_LABEL)) return null;
  const label = p.label === undefined ? {} : { label: p.label as string };
  if (GROUP_KINDS.has(p.kind)) {
    if (!AUDIENCES.includes(p.audience as Audience)) return null;
    return { kind: p.kind as 'course', id: p.id, audience: p.audience as Audience, ...label };
  }
  if (SINGLE_KINDS.has(p.kind)) return { kind: p.kind as 'staff', id: p.id, ...label };
  return null;
}

/**
 * Every picked id belongs to the school and every picked list is one the user can see; and the picked
 * courses/electives (levels' courses too) with no students.
 */
export async function checkPicks(db: Queryable, { institutionId, userId }: PickScope, picks: RecipientPick[]): Promise<PickCheck> {
  const tables = [
    [levels, idsOf(picks, 'level')],
    [courses, idsOf(picks, 'course')],
    [electives, idsOf(picks, 'elective')],
    [students, idsOf(picks, 'student')],
    [guardians, idsOf(picks, 'guardian')],
    [positions, idsOf(picks, 'appointment')],
    [staff, idsOf(picks, 'staff')],
  ] as const;
  const found = await readTogether(db, [
    ...tables.map(
      ([table, ids]) =>
        () =>
          ids.length === 0
            ? Promise.resolve(0)
            : db
                .select({ n: sql<number>`count(*)::int` })
                .from(table)
                .where(and(eq(table.institutionId, institutionId), anyId(table.id, ids)))
                .then(([row]) => row!.n),
    ),
    async () => {
      const ids = idsOf(picks, 'recipient-list');
      if (ids.length === 0) return 0;
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(recipientLists)
        .where(and(visibleLists(userId, institutionId), anyId(recipientLists.id, ids)));
      return row!.n;
    },
  ]);
  const expected = [...tables.map(([, ids]) => ids.length), idsOf(picks, 'recipient-list').length];
  if (found.some((n, i) => n !== expected[i])) return { ok: false, message: FOREIGN_RECIPIENTS };

  const courseIds = idsOf(picks, 'course');
  const levelIds = idsOf(picks, 'level');
  const electiveIds = idsOf(picks, 'elective');
  const [emptyCourses, emptyElectives] = await readTogether(db, [
    () =>
      courseIds.length || levelIds.length
        ? db
            .select({ id: courses.id, nombre: courses.name })
            .from(courses)
            .where(
              and(
                eq(courses.institutionId, institutionId),
                sql`(${anyId(courses.id, courseIds)} or ${anyId(courses.levelId, levelIds)})`,
                sql`not exists (select 1 from ${students} where ${students.courseId} = ${courses.id})`,
              ),
            )
            .orderBy(courses.id)
        : Promise.resolve([]),
    () =>
      electiveIds.length
        ? db
            .select({ id: electives.id, nombre: electives.name })
            .from(electives)
            .where(
              and(
                eq(electives.institutionId, institutionId),
                anyId(electives.id, electiveIds),
                sql`not exists (select 1 from ${electiveStudents} where ${electiveStudents.electiveId} = ${electives.id})`,
              ),
            )
            .orderBy(electives.id)
        : Promise.resolve([]),
  ]);
  return { ok: true, emptyCourses: [...emptyCourses, ...emptyElectives] };
}

/**
 * Every locale's words before a student's name for each guardian audience ("Apoderados de"), as JSON for the
 * expansion: a pick of a student's guardians is named as such in the recipients summary.
 */
const FAMILY_WORDS_JSON = JSON.stringify(
  (['es-CL', 'es-MX'] as const).flatMap((locale) =>
    (['apoderados', 'titulares', 'suplentes'] as const).map((audience) => ({ locale, audience, words: familyWords(audience, locale) })),
  ),
);

/** "Ana Pérez": how a guardian's children are named in `student_names`. */
const shortName = (t: string) => sql.raw(`split_part(${t}.first_names, ' ', 1) || ' ' || ${t}.last_name_father`);

/** "Ana Pérez Soto": first given name and both surnames, as the seed names people. */
const fullName = (t: string) =>
  sql.raw(`concat_ws(' ', split_part(${t}.first_names, ' ', 1), ${t}.last_name_father, nullif(${t}.last_name_mother, ''))`);

/**
 * CTEs (to follow `with`) ending in `people`: one row per distinct person reached, with columns
 * kind (apoderado | estudiante | funcionario), ref, sort (first reach), gk/gl (group kind and label of the
 * first pick that reached them), sn (guardians' children), name, email, phone (E.164; null for students),
 * app (app-mobile address: guardian:<id> when the app is installed, user:<login id>; students have none),
 * login_user_id (staff with a Hermes login) and sids (the students a guardian is reached for; a student's own id).
 */
export function reachCtes({ institutionId, userId }: PickScope, picks: RecipientPick[]): SQL {
  const json = JSON.stringify(picks.map((p, ord) => ({ ord, kind: p.kind, id: p.id, audience: 'audience' in p ? p.audience : null })));
  const inst = institutionId;
  return sql`
    picks as (
      select * from json_to_recordset(${json}::json) as p(ord int, kind text, id int, audience text)
    ),
    pick_students as (
      select p.ord, c.id as sub, p.audience, 'curso'::text as gk, c.name as gl, s.id as student_id,
        ${shortName('s')} as child_name
      from picks p
      join courses c on c.institution_id = ${inst}
        and ((p.kind = 'course' and c.id = p.id) or (p.kind = 'level' and c.level_id = p.id))
      join students s on s.course_id = c.id and s.withdrawn_at is null
      union all
      select p.ord, 0, p.audience, 'electivo', e.name, s.id, ${shortName('s')}
      from picks p
      join electives e on p.kind = 'elective' and e.id = p.id and e.institution_id = ${inst}
      join elective_students es on es.elective_id = e.id
      join students s on s.id = es.student_id and s.withdrawn_at is null
      union all
      -- A picked student names the group with the course ("Ana Pérez Soto (3° Básico A)"), and a pick of their
      -- guardians says so ("Apoderados de Ana Pérez Soto (3° Básico A)"), as the picker's chip does.
      select p.ord, 0, p.audience, 'estudiante',
        case when fw.words is null then '' else fw.words || ' ' end || ${fullName('s')} || ' (' || sc.name || ')',
        s.id, ${shortName('s')}
      from picks p join students s on p.kind = 'student' and s.id = p.id and s.institution_id = ${inst}
      join courses sc on sc.id = s.course_id
      left join json_to_recordset(${FAMILY_WORDS_JSON}::json) as fw(locale text, audience text, words text)
        on fw.audience = p.audience and fw.locale = (select i.locale from institutions i where i.id = ${inst})
    ),
    reached as (
      select ord, sub, gk, gl, 'estudiante'::text as kind, student_id as ref, null::text as child_name,
        student_id as sid, null::smallint as rl
      from pick_students where audience = 'estudiantes'
      union all
      select ps.ord, ps.sub, ps.gk, ps.gl, 'apoderado', sg.guardian_id, ps.child_name, ps.student_id, sg.role
      from pick_students ps join student_guardians sg on sg.student_id = ps.student_id
      where ps.audience = 'apoderados' or (ps.audience = 'titulares' and sg.role = 1)
        or (ps.audience = 'suplentes' and sg.role = 2)
      union all
      select p.ord, 0, 'apoderado', ${fullName('g')}, 'apoderado', g.id, ${shortName('cs')}, cs.id, sg.role
      from picks p
      join guardians g on p.kind = 'guardian' and g.id = p.id and g.institution_id = ${inst}
      left join student_guardians sg on sg.guardian_id = g.id
      left join students cs on cs.id = sg.student_id
      union all
      select p.ord, 0, case p.kind when 'appointment' then 'cargo' else 'funcionario' end,
        case p.kind when 'appointment' then pos.name else ${fullName('st')} end, 'funcionario', st.id, null, null, null
      from picks p
      join staff st on st.institution_id = ${inst}
        and ((p.kind = 'staff' and st.id = p.id) or (p.kind = 'appointment' and st.position_id = p.id
          -- A cargo reaches its colleagues still at the school, as the picker lists them.
          and not exists (select 1 from users u where u.id = st.user_id and u.status = 'deactivated')))
      left join positions pos on pos.id = st.position_id
      union all
      select p.ord, 0, 'lista', ${recipientLists.name}, m.member_kind, m.member_ref_id,
        case when m.member_kind = 'apoderado' then ${shortName('cs')} end,
        case m.member_kind when 'apoderado' then m.student_id when 'estudiante' then m.member_ref_id end, m.role
      from picks p
      -- Unaliased, so the one visibility rule of lists (visibleLists, above) applies here as written.
      join ${recipientLists} on p.kind = 'recipient-list' and ${recipientLists.id} = p.id
        and ${visibleLists(userId, institutionId)}
      join ${recipientListMembers} m on m.list_id = ${recipientLists.id}
      left join students cs on cs.id = m.student_id
    ),
    reach as (
      select kind, ref,
        min(ord::bigint * 2147483648 + sub) as sort,
        (array_agg(gk order by ord, sub))[1] as gk,
        (array_agg(gl order by ord, sub))[1] as gl,
        string_agg(distinct child_name, ', ' order by child_name) as sn,
        -- The students a person is reached for (a guardian's picked children; a student themselves): the
        -- merge fields' values (server/recipients/merge-values.ts).
        array_agg(distinct sid) filter (where sid is not null) as sids,
        -- The student (the member's own, or the guardian's child) and the guardian's role of the first
        -- reach, which a saved list keeps with the member (server/recipient-lists/members.ts).
        (array_agg(sid order by ord, sub, sid) filter (where sid is not null))[1] as sid,
        (array_agg(rl order by ord, sub, sid) filter (where sid is not null))[1] as rl
      from reached
      group by kind, ref
    ),
    -- One join per kind of person (a single row of three outer joins would probe every table for everyone).
    people as (
      select reach.kind, reach.ref, reach.sort, reach.gk, reach.gl, reach.sn, ${fullName('g')} as name,
        g.email, g.phone, case when ${appReachableSql('g')} then 'guardian:' || g.id end as app,
        null::int as login_user_id, reach.sids
      from reach join guardians g on g.id = reach.ref and g.institution_id = ${inst} and g.erased_at is null
      where reach.kind = 'apoderado'
      union all
      -- No app for students yet (the app is the guardians'): their app-mobile delivery has no address.
      select reach.kind, reach.ref, reach.sort, reach.gk, reach.gl, null, ${fullName('s')}, s.email, null,
        null, null, reach.sids
      from reach join students s on s.id = reach.ref and s.institution_id = ${inst} and s.erased_at is null
      where reach.kind = 'estudiante'
      union all
      select reach.kind, reach.ref, reach.sort, reach.gk, reach.gl, null, ${fullName('st')}, st.email, st.phone,
        case when st.user_id is not null then 'user:' || st.user_id end, st.user_id, null::int[]
      from reach join staff st on st.id = reach.ref and st.institution_id = ${inst} and st.erased_at is null
      where reach.kind = 'funcionario'
    )`;
}

export interface ReachSummary {
  recipients: number;
  /** People with no address on any of the channels asked about (all of them when none is asked). */
  unreachable: number;
  /** People with an address for each kind of channel. */
  email: number;
  phone: number;
  app: number;
  /** People with a phone that has not opted out of that channel (server/opt-outs/): what SMS / WhatsApp reach. */
  sms: number;
  whatsapp: number;
  /** People the school blocked at their request (server/privacy-requests/): nothing reaches them. */
  blocked: number;
  /** Group labels in order of first reach (the recipients summary). */
  groupLabels: string[];
}

/**
 * SQL true for a `people` row with an address on one of `channels` (the one a delivery of that channel
 * would get: e-mail, the phone for SMS and WhatsApp, the app), as insertRecipients addresses them.
 */
function reachedOn(channels: readonly ChannelCode[]): SQL {
  const email = channels.includes('e-mail');
  const sms = channels.includes('sms');
  const whatsapp = channels.includes('whatsapp');
  const app = channels.includes('app-mobile');
  return sql`(not blocked and ((${email}::boolean and email is not null) or (${sms}::boolean and phone is not null and not sms_out)
    or (${whatsapp}::boolean and phone is not null and not whatsapp_out) or (${app}::boolean and app is not null)))`;
}

/**
 * The `people` CTE of reachCtes with whether each phone opted out of SMS and of WhatsApp (`sms_out`,
 * `whatsapp_out`), as `reached_people` (to follow reachCtes' CTEs): a phone opted out of a channel has no address on it.
 */
export const withOptOuts = (): SQL => sql`
    reached_people as (
      select people.*,
        ${optedOutSql(sql`'sms'`, sql`people.phone`)} as sms_out,
        ${optedOutSql(sql`'whatsapp'`, sql`people.phone`)} as whatsapp_out,
        exists (select 1 from person_blocks pb where pb.person_kind = people.kind and pb.person_id = people.ref) as blocked
      from people
    )`;

/** Counts and labels of the expansion, without writing anything (estimate, drafts), on the message's `channels`. */
export async function summarizeReach(
  db: Queryable,
  scope: PickScope,
  picks: RecipientPick[],
  channels: readonly ChannelCode[] = [],
): Promise<ReachSummary> {
  if (picks.length === 0)
    return { recipients: 0, unreachable: 0, email: 0, phone: 0, app: 0, sms: 0, whatsapp: 0, blocked: 0, groupLabels: [] };
  const result = await db.execute(sql`
    with ${reachCtes(scope, picks)}, ${withOptOuts()},
    totals as (
      select count(*)::int as recipients, count(*) filter (where not ${reachedOn(channels)})::int as unreachable,
        count(email) filter (where not blocked)::int as email, count(phone) filter (where not blocked)::int as phone,
        count(app) filter (where not blocked)::int as app,
        count(phone) filter (where not sms_out and not blocked)::int as sms,
        count(phone) filter (where not whatsapp_out and not blocked)::int as whatsapp,
        count(*) filter (where blocked)::int as blocked
      from reached_people
    ),
    labels as (select gl, min(sort) as first from people group by gl)
    select totals.*, coalesce((select json_agg(gl order by first) from labels), '[]'::json) as labels from totals`);
  const { labels, ...counts } = rowsOf<Omit<ReachSummary, 'groupLabels'> & { labels: string[] | string }>(result)[0]!;
  return { ...counts, groupLabels: typeof labels === 'string' ? (JSON.parse(labels) as string[]) : labels };
}
