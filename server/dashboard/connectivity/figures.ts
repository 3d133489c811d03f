// Connectivity of families (shared/dashboard-contract.ts), per school, level and course: how many guardians
// each channel reaches, their SPEC §3 device status mix and the "cobertura efectiva" of the group's last
// messages. The course page is ./course.ts, the "Lista de llamados" ./call-list.ts and its CSV
// ./call-list-csv.ts. Every figure is an SQL aggregate over the school's rows; JavaScript only assembles the
// aggregated rows.
//
// "The group's last messages" (docs/decisions/0077-connectivity-definitions.md): the COVERAGE_MESSAGES most
// recently sent messages (messages.kind 'sent', by sent_at) sent to the course as a group: a recipient row of
// one of its current guardians under the course pick (or a level pick, which expands per course): group_kind
// 'curso', group_label the course's name, as the reception screen groups them. A message to one guardian or
// to a list is not the course's. Addressed = the course's current guardians among those messages' recipients;
// reached = those with a delivery of one of them received or read on any channel within COVERAGE_HOURS of the
// message's sent_at. A level and the school count each guardian once over their courses' windows.
import { sql, type SQL } from 'drizzle-orm';
import {
  CALL_LIST_MESSAGES_MAX,
  COVERAGE_HOURS,
  COVERAGE_MESSAGES,
  type Connectivity,
  type ConnectivityRow,
} from '../../../shared/dashboard-contract';
import type { Queryable } from '../../db/client';
import { rowsOf } from '../../db/sql';
import { deviceStatusSql, hasPhoneSql } from '../../recipients/device-status';
import { appReachableSql } from '../../recipients/app-reach';
import { collator } from '../../recipients/directory';
import { settleSmsPhones, whatsappPhoneSql } from '../../recipients/sms-phones';

export const CONNECTIVITY_MESSAGES = {
  forbidden: 'No tienes permiso para ver la conectividad de las familias.',
  messages: `La cantidad de mensajes debe ser un número entero entre 1 y ${CALL_LIST_MESSAGES_MAX}.`,
  format: 'El formato debe ser "json" o "csv".',
} as const;

/**
 * How many of the school's newest messages per course the coverage windows are looked for in first (the
 * rest is found course by course through its guardians, slower but rare): a course usually gets a message
 * every few days, so the newest 4 × courses hold nearly every course's last three.
 */
const RECENT_PER_COURSE = 4;

export interface AggregateRow {
  level_id: number | null;
  course_id: number | null;
  /** 0 course row, 1 level row, 3 school row (GROUPING(level_id, course_id)). */
  g: number;
  students: number;
  guardians: number;
  app: number;
  email: number;
  sms: number;
  whatsapp: number;
  blue: number;
  green: number;
  yellow: number;
  red: number;
  addressed: number;
  reached: number;
}

const COUNTS = ['guardians', 'app', 'email', 'sms', 'whatsapp', 'blue', 'green', 'yellow', 'red', 'addressed', 'reached'] as const;
/** The counted columns over one row per guardian (so no COUNT(DISTINCT)). */
const countsOf = sql.raw(
  COUNTS.map((k) => {
    const filter =
      k === 'guardians' ? '' : ['blue', 'green', 'yellow', 'red'].includes(k) ? ` filter (where status = '${k}')` : ` filter (where ${k})`;
    return `count(*)${filter}::int as ${k}`;
  }).join(', '),
);
const countsFrom = (alias: string) => sql.raw(COUNTS.map((k) => `coalesce(${alias}.${k}, 0) as ${k}`).join(', '));

/**
 * One statement: guardians per course (a guardian once per course however many children they have there),
 * the coverage window of each course (its messages among the school's newest RECENT_PER_COURSE × courses,
 * then, for a course with fewer than three there, a walk down its guardians' older ones), and the course,
 * level and school rows.
 * `courseId` narrows it to one course (the course page's summary).
 *
 * Where the time went (bench k, docs/decisions/0079-connectivity-reads-roll-ups.md): the newest messages'
 * guardian recipient rows are read once ("rr") and serve both the windows and the coverage; "reached within
 * 24 h" is the recipient's `reached_at` roll-up (kept by the delivery engine, server/reception/status.ts),
 * not a delivery lookup per recipient; and a level's or the school's guardians are counted once by grouping
 * them first, not by ten COUNT(DISTINCT …) over grouping sets.
 */
export function connectivitySql(institutionId: number, courseId: number | null, { recentPerCourse = RECENT_PER_COURSE } = {}) {
  const courseFilter = courseId === null ? sql`` : sql`and c.id = ${courseId}`;
  // One course's page: only its guardians' recipient rows matter, not a school-wide message's all.
  const onlyCourseGuardians = courseId === null ? sql`` : sql`and r.recipient_ref_id in (select guardian_id from cg)`;
  const reachedBy = (r: string) => sql.raw(`coalesce(${r}.reached_at <= ${r}.sent_at + make_interval(hours => ${COVERAGE_HOURS}), false)`);
  return sql`
    with cs as materialized (
      select c.id as course_id, c.level_id, s.id as student_id
      from courses c join students s on s.course_id = c.id and s.withdrawn_at is null and s.erased_at is null
      where c.institution_id = ${institutionId} ${courseFilter}
    ),
    cg as materialized (
      select distinct cs.course_id, cs.level_id, sg.guardian_id
      from cs join student_guardians sg on sg.student_id = cs.student_id
      -- An erased guardian counts as one who left the school (docs/decisions/0271).
      join guardians eg on eg.id = sg.guardian_id and eg.erased_at is null
    ),
    -- The school's newest messages and their guardian recipient rows, read once (message_recipients_message_idx).
    recent as materialized (
      select m.id, m.sent_at from messages m
      where m.institution_id = ${institutionId} and m.kind = 'sent' and m.sent_at is not null
      order by m.sent_at desc, m.id desc
      limit (select greatest(${recentPerCourse} * count(*), ${COVERAGE_MESSAGES}) from courses where institution_id = ${institutionId})
    ),
    -- "offset 0" keeps it a walk of message_recipients_message_idx per message: flattened, the planner may
    -- prefer a hash join over every recipient row of the database (bench k saw it: 274k rows read).
    rr as materialized (
      select m.id as message_id, m.sent_at, r.recipient_ref_id as guardian_id, r.group_kind, r.group_label, r.reached_at
      from recent m
      cross join lateral (
        select r.recipient_ref_id, r.group_kind, r.group_label, r.reached_at from message_recipients r
        where r.message_id = m.id and r.recipient_kind = 'apoderado'
        offset 0
      ) r
      where true ${onlyCourseGuardians}
    ),
    -- A course's messages among them: sent to the course and to one of its current guardians (as in "late")…
    early as (
      select course_id, message_id, sent_at from (
        select x.*, row_number() over (partition by x.course_id order by x.sent_at desc, x.message_id desc) as n
        from (
          select cg.course_id, rr.message_id, rr.sent_at
          from rr
          join courses c on c.institution_id = ${institutionId} and c.name = rr.group_label ${courseFilter}
          join cg on cg.course_id = c.id and cg.guardian_id = rr.guardian_id
          where rr.group_kind = 'curso'
          group by cg.course_id, rr.message_id, rr.sent_at
        ) x
      ) ranked
      where n <= ${COVERAGE_MESSAGES}
    ),
    -- …and for a course with fewer than that there, the rest from older messages, found through its guardians.
    short as (
      select c.id as course_id, count(early.message_id)::int as found
      from courses c left join early on early.course_id = c.id
      where c.institution_id = ${institutionId} ${courseFilter}
      group by c.id
      having count(early.message_id) < ${COVERAGE_MESSAGES}
    ),
    late as (
      select short.course_id, m.id as message_id, m.sent_at, short.found, m.n
      from short
      join courses c on c.id = short.course_id
      cross join lateral (
        select m.id, m.sent_at, row_number() over (order by m.sent_at desc, m.id desc) as n from messages m
        where m.institution_id = ${institutionId} and m.kind = 'sent' and m.sent_at is not null
          and (m.sent_at, m.id) < (select sent_at, id from recent order by sent_at, id limit 1)
          and exists (
            select 1 from message_recipients r join cg on cg.guardian_id = r.recipient_ref_id and cg.course_id = c.id
            where r.message_id = m.id and r.recipient_kind = 'apoderado' and r.group_kind = 'curso' and r.group_label = c.name)
        order by m.sent_at desc, m.id desc
        limit ${COVERAGE_MESSAGES}
      ) m
      where m.n <= ${COVERAGE_MESSAGES} - short.found
    ),
    win as materialized (
      select course_id, message_id, sent_at from early
      union all select course_id, message_id, sent_at from late
    ),
    -- Each window message's guardian recipients with whether they were reached in time: from "rr" for the
    -- newest messages, read per message for a late window's older ones ("offset 0" keeps the planner from
    -- turning that into a hash join over every recipient row of the school).
    wr as materialized (
      select rr.message_id, rr.guardian_id, ${reachedBy('rr')} as reached
      from rr where rr.message_id in (select message_id from early)
      union all
      select wm.message_id, r.recipient_ref_id, ${reachedBy('r')}
      from (select distinct message_id, sent_at from late) wm
      cross join lateral (
        select r.recipient_ref_id, r.reached_at, wm.sent_at from message_recipients r
        where r.message_id = wm.message_id and r.recipient_kind = 'apoderado'
        offset 0
      ) r
      where r.recipient_ref_id in (select guardian_id from cg)
    ),
    -- Recipient × course first, then kept when the message is in that course's window ("offset 0": joined
    -- the other way round, every window row met every recipient of a school-wide message).
    cov as (
      select x.course_id, x.guardian_id, bool_or(x.reached) as reached
      from (
        select cg.course_id, cg.guardian_id, wr.message_id, wr.reached
        from wr join cg on cg.guardian_id = wr.guardian_id
        offset 0
      ) x
      where (x.course_id, x.message_id) in (select course_id, message_id from win)
      group by x.course_id, x.guardian_id
    ),
    -- The phone channels the school can send by now (schoolPhoneChannelsSql).
    can as materialized (${schoolPhoneChannelsSql(institutionId)}),
    -- One row per course guardian with what is counted; then per level and per school each guardian once.
    -- Green ("good without the app, by phone") only where the school can text or WhatsApp; else red.
    gd as materialized (
      select cg.level_id, cg.course_id, cg.guardian_id,
        ${schoolDeviceStatusSql('g', 'can')} as status,
        ${appReachableSql('g')} as app, coalesce(g.email, '') <> '' as email,
        ${hasPhoneSql('g')} and can.sms as sms, ${whatsappPhoneSql('g')} and can.whatsapp as whatsapp,
        cov.guardian_id is not null as addressed, coalesce(cov.reached, false) as reached
      from cg join guardians g on g.id = cg.guardian_id cross join can
      left join cov on cov.course_id = cg.course_id and cov.guardian_id = cg.guardian_id
    ),
    lg as (
      select level_id, guardian_id, min(status) as status, bool_or(app) as app, bool_or(email) as email, bool_or(sms) as sms,
        bool_or(whatsapp) as whatsapp, bool_or(addressed) as addressed, bool_or(reached) as reached
      from gd group by level_id, guardian_id
    ),
    sg as (
      select guardian_id, min(status) as status, bool_or(app) as app, bool_or(email) as email, bool_or(sms) as sms,
        bool_or(whatsapp) as whatsapp, bool_or(addressed) as addressed, bool_or(reached) as reached
      from lg group by guardian_id
    ),
    per_course as (select course_id, ${countsOf} from gd group by course_id),
    per_level as (select level_id, ${countsOf} from lg group by level_id),
    students as (select course_id, count(*)::int as n from cs group by course_id),
    course as (select c.id as course_id, c.level_id from courses c where c.institution_id = ${institutionId} ${courseFilter})
    select c.level_id, c.course_id, 0 as g, coalesce(st.n, 0) as students, ${countsFrom('k')}
    from course c left join students st on st.course_id = c.course_id left join per_course k on k.course_id = c.course_id
    union all
    select l.level_id, null, 1, l.students, ${countsFrom('k')}
    from (select c.level_id, coalesce(sum(st.n), 0)::int as students from course c left join students st on st.course_id = c.course_id group by c.level_id) l
    left join per_level k on k.level_id = l.level_id
    union all
    select null, null, 3, (select count(*) from cs)::int, ${countsOf}
    from sg`;
}

/**
 * One row (`sms`, `whatsapp`): whether the school can send by that phone channel now. SMS: contracted and a
 * monthly limit above 0 (a school whose limit is 0 has no SMS at all); WhatsApp: contracted. A channel the
 * school cannot use reaches nobody, whatever numbers its guardians have (shared/dashboard-contract.ts).
 */
export function schoolPhoneChannelsSql(institutionId: number | SQL) {
  return sql`select
      exists (select 1 from institution_channels where institution_id = ${institutionId} and channel = 'sms' and enabled)
        and coalesce((select sms_monthly_limit from institution_quotas where institution_id = ${institutionId}), 0) > 0 as sms,
      exists (select 1 from institution_channels where institution_id = ${institutionId} and channel = 'whatsapp' and enabled) as whatsapp`;
}

/**
 * The device status as the school's connectivity shows it: SPEC §3's (deviceStatusSql), except that green
 * ("good without the app, by phone") is red where the school can neither text nor WhatsApp (`can`, a row of
 * schoolPhoneChannelsSql): nothing reaches that guardian's device.
 */
export function schoolDeviceStatusSql(g: string, can: string) {
  // The status computed once per row (a subquery of one value), then read twice.
  return sql`(select case when ds.status = 'green' and not (${sql.raw(can)}.sms or ${sql.raw(can)}.whatsapp) then 'red' else ds.status end
    from (select ${deviceStatusSql(g)} as status) ds)`;
}

export function toRow(id: number, name: string, a: AggregateRow | undefined): ConnectivityRow {
  const n = (v: number | undefined) => Number(v ?? 0);
  const addressed = n(a?.addressed);
  const reached = n(a?.reached);
  return {
    id,
    name,
    students: n(a?.students),
    guardians: n(a?.guardians),
    reach: { 'app-mobile': n(a?.app), 'e-mail': n(a?.email), sms: n(a?.sms), whatsapp: n(a?.whatsapp) },
    devices: { blue: n(a?.blue), green: n(a?.green), yellow: n(a?.yellow), red: n(a?.red) },
    coverage: { reached, addressed, share: addressed === 0 ? null : reached / addressed },
  };
}

export async function readConnectivity(
  db: Queryable,
  institutionId: number,
  options: { recentPerCourse?: number } = {},
): Promise<Connectivity> {
  await settleSmsPhones(db, institutionId);
  const [aggregates, names] = await Promise.all([
    db.execute(connectivitySql(institutionId, null, options)).then(rowsOf<AggregateRow>),
    db
      .execute(sql`
        select 'school' as kind, i.id, i.name, 0 as position, null::int as level_id from institutions i where i.id = ${institutionId}
        union all select 'level', l.id, l.name, l.position, null from levels l where l.institution_id = ${institutionId}
        union all select 'course', c.id, c.name, 0, c.level_id from courses c where c.institution_id = ${institutionId}`)
      .then(rowsOf<{ kind: 'school' | 'level' | 'course'; id: number; name: string; position: number; level_id: number | null }>),
  ]);
  const byCourse = new Map<number, AggregateRow>();
  const byLevel = new Map<number, AggregateRow>();
  let school: AggregateRow | undefined;
  for (const a of aggregates) {
    if (Number(a.g) === 0) byCourse.set(Number(a.course_id), a);
    else if (Number(a.g) === 1) byLevel.set(Number(a.level_id), a);
    else school = a;
  }
  const schoolName = names.find((r) => r.kind === 'school');
  const levels = names
    .filter((r) => r.kind === 'level')
    .sort((a, b) => Number(a.position) - Number(b.position))
    .map((l) => ({
      ...toRow(Number(l.id), l.name, byLevel.get(Number(l.id))),
      courses: names
        .filter((c) => c.kind === 'course' && Number(c.level_id) === Number(l.id))
        .sort((a, b) => collator.compare(a.name, b.name) || Number(a.id) - Number(b.id))
        .map((c) => toRow(Number(c.id), c.name, byCourse.get(Number(c.id)))),
    }));
  return { school: toRow(institutionId, schoolName?.name ?? '', school), levels };
}
