// Staff activity (`GET /dashboard/users`) and the activity summary (`GET /dashboard/summary`) of
// shared/dashboard-contract.ts, each one SQL statement over the school's messages of the period
// (messages_institution_idx, then their recipients, deliveries and colleagues' mailbox entries by message id).
import { sql, type SQL } from 'drizzle-orm';
import type { ActivitySummary, DeviceMix, Period, StaffActivity } from '../../shared/dashboard-contract';
import { schoolYearMonths, schoolYearOf, schoolYearPeriod, monthPeriod } from '../../shared/school-year';
import { monthIn } from '../db/time';
import { rowsOf } from '../db/sql';
import type { Queryable } from '../db/client';
import { deviceMixSql } from './device-mix';
import { settleSmsPhones } from '../recipients/sms-phones';
import {
  enrolledDuring,
  parsePeriodQuery,
  parseYear,
  resolvePeriod,
  schoolOf,
  staffMessagesSql,
  type PeriodQuery,
  type School,
} from './period';
import { type FieldErrors, hasFieldErrors } from '../http/field-errors';
import { courseInYear } from '../courses/enrolments';

export const ACTIVITY_MESSAGES = {
  forbidden: 'No tienes permiso para ver los datos del colegio: solo los administradores, directores y jefes de UTP pueden hacerlo.',
  position: 'El cargo debe indicarse con su número de identificación.',
  positionNotFound: 'No encontramos ese cargo en tu colegio.',
} as const;

/** How many staff and courses the summary's "this month" lists show. */
const SUMMARY_TOP = 5;

export interface StaffActivityQuery {
  period: PeriodQuery;
  positionId: number | null;
}

export function parseStaffActivityQuery(
  query: Record<string, string | undefined>,
  now = new Date(),
): { ok: true; value: StaffActivityQuery } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const period = parsePeriodQuery(query, errors, now);
  let positionId: number | null = null;
  if (query.position_id !== undefined && query.position_id !== '') {
    positionId =
      /^[1-9][0-9]{0,9}$/.test(query.position_id) && Number(query.position_id) <= 2_147_483_647 ? Number(query.position_id) : null;
    if (positionId === null) errors.position_id = [ACTIVITY_MESSAGES.position];
  }
  if (period === null || hasFieldErrors(errors)) return { ok: false, errors };
  return { ok: true, value: { period, positionId } };
}

/** A rate rounded as the contract shows it (4 decimals), null without a denominator. */
const rate = (numerator: number, denominator: number): number | null =>
  denominator > 0 ? Math.round((numerator / denominator) * 10_000) / 10_000 : null;

/** Active ÷ on the register as a percentage with one decimal; 0 when nobody is on the register. */
const activityPercent = (active: number, onRegister: number): number =>
  onRegister > 0 ? Math.round((active / onRegister) * 1000) / 10 : 0;

/**
 * Per author of `period`, read live from the messages (a month: messages_sent_at_idx, then recipients,
 * deliveries and entries by message id): per_author (messages, active_days), reached (people), known and
 * read as app_reads and inbox_reads.
 */
function liveAuthors(institutionId: number, period: Period, timezone: string): SQL {
  return sql`msgs as materialized (${staffMessagesSql(institutionId, period, timezone)}),
    per_author as (
      select author, count(*)::int as messages,
        count(distinct (sent_at at time zone ${timezone})::date)::int as active_days
      from msgs group by author
    ),
    -- Each person once per author (hashed on integers, not sorted on text), then counted.
    reached as (
      select author, count(*)::int as people
      from (
        select distinct msgs.author, r.recipient_kind, r.recipient_ref_id
        from msgs join message_recipients r on r.message_id = msgs.id
        where r.status in ('received', 'read')
      ) people
      group by author
    ),
    -- Where reading is known, each person once: a guardian's (or student's) app delivery (its read receipt), a
    -- colleague's inbox entry (not also the app delivery the send path writes for them); an SMS is never "read".
    app_reads as (
      select msgs.author, count(*)::int as known, count(*) filter (where d.status = 'read')::int as read
      from msgs join deliveries d on d.message_id = msgs.id
      where d.channel = 'app-mobile' and d.address is not null
        -- An anti-join on the staff recipients (message_recipients_person_idx), not a join of every recipient.
        and not exists (select 1 from message_recipients r where r.id = d.recipient_id and r.recipient_kind = 'funcionario')
      group by msgs.author
    ),
    inbox_reads as (
      select msgs.author, count(*)::int as known, count(e.read_at)::int as read
      from msgs join mailbox_entries e on e.message_id = msgs.id
      where e.user_id <> msgs.author and coalesce(e.deleted_from, e.folder) = 'inbox'
      group by msgs.author
    )`;
}

/**
 * The same CTEs for a school year, from the roll-up (server/db/schema/activity.ts): the days' rows of the
 * school year by primary key range, and each author's people reached (activity_authors: one row per author).
 */
function rolledUpAuthors(institutionId: number, period: Period): SQL {
  return sql`days as materialized (
      select author_user_id as author, messages, app_known + inbox_known as known, app_read + inbox_read as read
      from activity_days
      where institution_id = ${institutionId} and day between ${period.from}::date and ${period.to}::date and messages > 0
    ),
    per_author as (select author, sum(messages)::int as messages, count(*)::int as active_days from days group by author),
    reached as (
      select author_user_id as author, reached as people
      from activity_authors
      where institution_id = ${institutionId} and school_year = ${Number(period.key)} and reached > 0
    ),
    app_reads as (select author, sum(known)::int as known, sum(read)::int as read from days group by author),
    inbox_reads as (select author, 0 as known, 0 as read from days where false)`;
}

/** The staff activity statement (exported for the bench's EXPLAIN). */
export function staffActivitySql(institutionId: number, period: Period, timezone: string, positionId: number | null): SQL {
  const onPosition = positionId === null ? sql`` : sql`and st.position_id = ${positionId}`;
  return sql`
    with ${period.kind === 'school-year' ? rolledUpAuthors(institutionId, period) : liveAuthors(institutionId, period, timezone)},
    register as (
      select st.user_id, st.position_id from staff st
      where st.institution_id = ${institutionId} and st.user_id is not null ${onPosition}
    ),
    people as (
      select user_id from register
      union
      select author from per_author ${positionId === null ? sql`` : sql`where author in (select user_id from register)`}
    )
    select u.id as user_id, u.name, p.id as position_id, p.name as position_name,
      coalesce(pa.messages, 0) as messages, coalesce(pa.active_days, 0) as active_days, coalesce(re.people, 0) as people,
      coalesce(ar.known, 0) + coalesce(ir.known, 0) as known, coalesce(ar.read, 0) + coalesce(ir.read, 0) as read,
      (select count(*)::int from register) as on_register
    from people
    join users u on u.id = people.user_id and u.institution_id = ${institutionId}
    left join staff st on st.user_id = u.id and st.institution_id = ${institutionId}
    left join positions p on p.id = st.position_id
    left join per_author pa on pa.author = u.id
    left join reached re on re.author = u.id
    left join app_reads ar on ar.author = u.id
    left join inbox_reads ir on ir.author = u.id
    order by messages desc, u.name, u.id`;
}

interface StaffRow {
  user_id: number;
  name: string;
  position_id: number | null;
  position_name: string | null;
  messages: number;
  active_days: number;
  people: number;
  known: number;
  read: number;
  on_register: number;
}

/** `GET /dashboard/users`: null when `positionId` is not one of the school's cargos (404). */
export async function readStaffActivity(
  db: Queryable,
  institutionId: number,
  query: StaffActivityQuery,
  now = new Date(),
): Promise<StaffActivity | null> {
  const school = await schoolOf(db, institutionId);
  const positions = rowsOf<{ id: number; name: string }>(
    await db.execute(sql`select id, name from positions where institution_id = ${institutionId} order by name, id`),
  ).map((p) => ({ id: Number(p.id), name: p.name }));
  if (query.positionId !== null && !positions.some((p) => p.id === query.positionId)) return null;
  const period = resolvePeriod(query.period, school, now);
  const raw = rowsOf<StaffRow>(await db.execute(staffActivitySql(institutionId, period, school.timezone, query.positionId)));
  const rows = raw.map((r) => ({
    user_id: Number(r.user_id),
    name: r.name,
    position: r.position_id === null ? null : { id: Number(r.position_id), name: r.position_name! },
    messages: Number(r.messages),
    people_reached: Number(r.people),
    read_rate: rate(Number(r.read), Number(r.known)),
    active_days: Number(r.active_days),
  }));
  // The register's size comes with every row; with nobody listed, ask for it alone.
  const onRegister = raw.length > 0 ? Number(raw[0]!.on_register) : 0;
  const active = rows.filter((r) => r.messages > 0).length;
  return {
    period,
    positions,
    staff_on_register: onRegister,
    active_staff: active,
    activity_percent: activityPercent(active, onRegister),
    rows,
  };
}

export function parseSummaryQuery(
  query: Record<string, string | undefined>,
  now = new Date(),
): { ok: true; value: { year: number | null } } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const year = query.year !== undefined && query.year !== '' ? parseYear(query.year, errors, now) : null;
  return hasFieldErrors(errors) ? { ok: false, errors } : { ok: true, value: { year } };
}

/** The summary statement (exported for the bench's EXPLAIN): months of the school year, this month's tops, the device mix. */
export function summarySql(
  institutionId: number,
  schoolYear: Period,
  thisMonth: Period,
  timezone: string,
  /** This month's school year, whose courses the top courses name (server/courses/enrolments.ts); null: today's. */
  monthYear: number | null = null,
): SQL {
  return sql`
    -- The school year's months from the roll-up's days (server/db/schema/activity.ts).
    with months as (
      select 'month' as what, to_char(day, 'YYYY-MM') as key, null::text as name, sum(messages)::int as messages, sum(deliveries)::int as deliveries
      from activity_days
      where institution_id = ${institutionId} and day between ${schoolYear.from}::date and ${schoolYear.to}::date
      group by to_char(day, 'YYYY-MM')
    ),
    now_msgs as materialized (${staffMessagesSql(institutionId, thisMonth, timezone)}),
    staff_top as (
      select 'staff' as what, u.id::text as key, u.name, count(*)::int as messages, 0 as deliveries
      from now_msgs join users u on u.id = now_msgs.author
      group by u.id, u.name
      order by messages desc, u.name, u.id
      limit ${SUMMARY_TOP}
    ),
    -- This month's addressees first, whatever the statistics say (a guardian's whole history is far larger).
    now_people as materialized (
      select now_msgs.id as message_id, r.recipient_kind as kind, r.recipient_ref_id as ref
      from now_msgs join message_recipients r on r.message_id = now_msgs.id
      where r.recipient_kind in ('estudiante', 'apoderado')
    ),
    -- A message counts once for each course it reached: its students' and its guardians' children's courses,
    -- of the students enrolled this month, in their courses of this month's school year.
    course_of as (
      select p.message_id, ${courseInYear(sql`s`, monthYear)} as course_id
      from now_people p join students s on p.kind = 'estudiante' and s.id = p.ref and s.institution_id = ${institutionId}
      where ${enrolledDuring(sql`s`, thisMonth, timezone)}
      union
      select p.message_id, ${courseInYear(sql`s`, monthYear)} as course_id
      from now_people p join student_guardians sg on p.kind = 'apoderado' and sg.guardian_id = p.ref
      join students s on s.id = sg.student_id and s.institution_id = ${institutionId}
      where ${enrolledDuring(sql`s`, thisMonth, timezone)}
    ),
    course_top as (
      select 'course' as what, c.id::text as key, c.name, count(*)::int as messages, 0 as deliveries
      from course_of join courses c on c.id = course_of.course_id
      group by c.id, c.name
      order by messages desc, c.name, c.id
      limit ${SUMMARY_TOP}
    ),
    devices as (
      select 'device' as what, status as key, null::text as name, guardians as messages, 0 as deliveries
      from (${deviceMixSql(institutionId)}) mix
    )
    select * from months
    union all select * from staff_top
    union all select * from course_top
    union all select * from devices`;
}

/** `GET /dashboard/summary` at `now`. */
export async function readActivitySummary(
  db: Queryable,
  institutionId: number,
  year: number | null,
  now = new Date(),
): Promise<ActivitySummary> {
  const school: School = await schoolOf(db, institutionId);
  // The device mix counts numbers the delivery engine can text (server/recipients/sms-phones.ts).
  await settleSmsPhones(db, institutionId);
  const month = monthIn(now, school.timezone);
  const schoolYear = schoolYearPeriod(year ?? schoolYearOf(month, school.country), school.country);
  const raw = rowsOf<{ what: string; key: string; name: string | null; messages: number; deliveries: number }>(
    await db.execute(summarySql(institutionId, schoolYear, monthPeriod(month), school.timezone, schoolYearOf(month, school.country))),
  );
  const of = (what: string) => raw.filter((r) => r.what === what);
  const byMonth = new Map(of('month').map((r) => [r.key, r]));
  const devices: DeviceMix = { blue: 0, green: 0, yellow: 0, red: 0 };
  for (const r of of('device')) devices[r.key as keyof DeviceMix] = Number(r.messages);
  const byCount = <T extends { messages: number; name: string }>(a: T, b: T) =>
    b.messages - a.messages || a.name.localeCompare(b.name, 'es');
  return {
    school_year: schoolYear,
    months: schoolYearMonths(Number(schoolYear.key), school.country).map((m) => ({
      month: m,
      messages: Number(byMonth.get(m)?.messages ?? 0),
      deliveries: Number(byMonth.get(m)?.deliveries ?? 0),
    })),
    top_staff: of('staff')
      .map((r) => ({ user_id: Number(r.key), name: r.name!, messages: Number(r.messages) }))
      .sort(byCount),
    top_courses: of('course')
      .map((r) => ({ course_id: Number(r.key), name: r.name!, messages: Number(r.messages) }))
      .sort(byCount),
    devices,
  };
}
