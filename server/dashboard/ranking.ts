// Rankings of shared/dashboard-contract.ts: `GET /ranking/courses` (a rate per guardian addressed, so a
// course's size does not decide) and `GET /ranking/users` (messages sent or people reached), by value or by
// improvement against the previous period (previous month, previous school year). One statement each: both
// periods' messages at once (messages_institution_idx), positions by `rank()` (ties share a position).
import { sql, type SQL } from 'drizzle-orm';
import type { CourseMetric, Period, RankBy, Ranking, RankingRow, UserMetric } from '../../shared/dashboard-contract';
import { previousPeriod, schoolYearOf, type SchoolCountry } from '../../shared/school-year';
import { courseInYear } from '../courses/enrolments';
import { rowsOf } from '../db/sql';
import { collator } from '../recipients/directory';
import type { Queryable } from '../db/client';
import { enrolledDuring, parsePeriodQuery, resolvePeriod, schoolOf, staffMessagesSql, type PeriodQuery } from './period';
import { type FieldErrors, hasFieldErrors } from '../http/field-errors';

export const RANKING_MESSAGES = {
  courseMetric: 'La métrica debe ser "read" (leídos por apoderado) o "reached" (alcanzados por apoderado).',
  userMetric: 'La métrica debe ser "messages" (mensajes enviados) o "reached" (personas alcanzadas).',
  by: 'El orden debe ser "value" (por valor) o "improvement" (por mejora respecto del período anterior).',
} as const;

export interface RankingQuery<M extends string> {
  period: PeriodQuery;
  metric: M;
  by: RankBy;
}

function parseRanking<M extends string>(
  query: Record<string, string | undefined>,
  metrics: readonly M[],
  metricMessage: string,
  now: Date,
): { ok: true; value: RankingQuery<M> } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const period = parsePeriodQuery(query, errors, now);
  const metric = query.metric === undefined || query.metric === '' ? metrics[0]! : (query.metric as M);
  const by = query.by === undefined || query.by === '' ? 'value' : query.by;
  if (!metrics.includes(metric)) errors.metric = [metricMessage];
  if (by !== 'value' && by !== 'improvement') errors.by = [RANKING_MESSAGES.by];
  if (period === null || hasFieldErrors(errors)) return { ok: false, errors };
  return { ok: true, value: { period, metric, by: by as RankBy } };
}

export const parseCourseRankingQuery = (query: Record<string, string | undefined>, now = new Date()) =>
  parseRanking<CourseMetric>(query, ['read', 'reached'], RANKING_MESSAGES.courseMetric, now);
export const parseUserRankingQuery = (query: Record<string, string | undefined>, now = new Date()) =>
  parseRanking<UserMetric>(query, ['messages', 'reached'], RANKING_MESSAGES.userMetric, now);

/** Both periods' staff messages, `cur` 1 for the period asked and 0 for the previous one. */
function bothPeriods(institutionId: number, period: Period, previous: Period, timezone: string): SQL {
  return sql`${staffMessagesSql(institutionId, period, timezone, sql`, 1 as cur`)}
    union all ${staffMessagesSql(institutionId, previous, timezone, sql`, 0 as cur`)}`;
}

/**
 * Positions over `scored` (id, name, detail, value, previous): by value, or by change with the rows that
 * have no previous value last. The previous position is the row's place among ALL of the previous period's
 * rows (`before`: id, value), so a row absent now does not move the others' previous places. Rates rounded
 * to 4 decimals before ranking, so equal shown values share a position.
 */
function ranked(scored: SQL, before: SQL, by: RankBy): SQL {
  const order = by === 'value' ? sql`value desc` : sql`change desc nulls last`;
  return sql`
    scored as (${scored}),
    changed as (select *, value - previous as change from scored),
    before as (select id as pid, rank() over (order by value desc)::int as prev_position from (${before}) prev)
    select changed.*, rank() over (order by ${order})::int as position, before.prev_position as previous_position
    from changed left join before on before.pid = changed.id
    order by position, name, id`;
}

/** The course ranking statement (exported for the bench's EXPLAIN). */
export function courseRankingSql(
  institutionId: number,
  period: Period,
  previous: Period,
  timezone: string,
  metric: CourseMetric,
  by: RankBy,
  country?: SchoolCountry,
): SQL {
  // Courses as they were in each period's school year (server/courses/enrolments.ts); without the country, today's.
  const yearOf = (p: Period) => (country === undefined ? null : p.kind === 'school-year' ? Number(p.key) : schoolYearOf(p.key, country));
  const good = metric === 'read' ? sql`r.status = 'read'` : sql`r.status in ('received', 'read')`;
  return sql`
    -- Each guardian addressed once per period, and whether any of those messages was read / reached them: a
    -- month live, school years from the roll-up's guardian rows (server/db/schema/activity.ts).
    with ${
      period.kind === 'school-year'
        ? sql`addressed as materialized (
      select (school_year = ${Number(period.key)})::int as cur, guardian_id as guardian, ${metric === 'read' ? sql`read > 0` : sql`reached > 0`} as good
      from activity_guardians
      where institution_id = ${institutionId} and school_year in (${Number(period.key)}, ${Number(previous.key)}) and addressed > 0
    ),`
        : sql`msgs as materialized (${bothPeriods(institutionId, period, previous, timezone)}),
    addressed as materialized (
      select msgs.cur, r.recipient_ref_id as guardian, bool_or(${good}) as good
      from msgs join message_recipients r on r.message_id = msgs.id
      where r.recipient_kind = 'apoderado'
      group by msgs.cur, r.recipient_ref_id
    ),`
    }
    -- A guardian counts in each course of their children at the school enrolled during that period (twice in
    -- one course: once).
    per_course as (
      select case when a.cur = 1 then ${courseInYear(sql`s`, yearOf(period))} else ${courseInYear(sql`s`, yearOf(previous))} end as course_id,
        a.cur, count(distinct a.guardian)::int as addressed,
        count(distinct a.guardian) filter (where a.good)::int as good
      from addressed a
      join student_guardians sg on sg.guardian_id = a.guardian
      join students s on s.id = sg.student_id and s.institution_id = ${institutionId}
      where case when a.cur = 1 then ${enrolledDuring(sql`s`, period, timezone)} else ${enrolledDuring(sql`s`, previous, timezone)} end
      group by 1, a.cur
    ),
    ${ranked(
      sql`select c.id, c.name, cur.addressed as detail,
          round(cur.good::numeric / cur.addressed, 4) as value,
          round(prev.good::numeric / nullif(prev.addressed, 0), 4) as previous
        from per_course cur join courses c on c.id = cur.course_id
        left join per_course prev on prev.course_id = cur.course_id and prev.cur = 0
        where cur.cur = 1`,
      sql`select course_id as id, round(good::numeric / addressed, 4) as value from per_course where cur = 0`,
      by,
    )}`;
}

/** Per author of two school years from the roll-up: messages from the days' rows, people reached from the authors' rows. */
function rolledUpPerAuthor(institutionId: number, period: Period, previous: Period, metric: UserMetric): SQL {
  return metric === 'messages'
    ? sql`select (day >= ${period.from}::date)::int as cur, author_user_id as author, sum(messages)::int as value
        from activity_days
        where institution_id = ${institutionId} and messages > 0
          and (day between ${period.from}::date and ${period.to}::date or day between ${previous.from}::date and ${previous.to}::date)
        group by 1, 2`
    : sql`select (school_year = ${Number(period.key)})::int as cur, author_user_id as author, reached as value
        from activity_authors
        where institution_id = ${institutionId} and school_year in (${Number(period.key)}, ${Number(previous.key)}) and reached > 0`;
}

/** The staff ranking statement (exported for the bench's EXPLAIN). */
export function userRankingSql(
  institutionId: number,
  period: Period,
  previous: Period,
  timezone: string,
  metric: UserMetric,
  by: RankBy,
): SQL {
  const perAuthor =
    period.kind === 'school-year'
      ? rolledUpPerAuthor(institutionId, period, previous, metric)
      : metric === 'messages'
        ? sql`select cur, author, count(*)::int as value from msgs group by cur, author`
        : sql`select cur, author, count(*)::int as value
          from (
            select distinct msgs.cur, msgs.author, r.recipient_kind, r.recipient_ref_id
            from msgs join message_recipients r on r.message_id = msgs.id
            where r.status in ('received', 'read')
          ) people
          group by cur, author`;
  return sql`
    with ${period.kind === 'school-year' ? sql`` : sql`msgs as materialized (${bothPeriods(institutionId, period, previous, timezone)}),`}
    per_author as (${perAuthor}),
    ${ranked(
      sql`select u.id, u.name, p.name as detail, cur.value, prev.value as previous
        from per_author cur join users u on u.id = cur.author and u.institution_id = ${institutionId}
        left join staff st on st.user_id = u.id and st.institution_id = ${institutionId}
        left join positions p on p.id = st.position_id
        left join per_author prev on prev.author = cur.author and prev.cur = 0
        where cur.cur = 1`,
      sql`select author as id, value from per_author where cur = 0`,
      by,
    )}`;
}

interface RankedRow {
  id: number;
  name: string;
  detail: string | number | null;
  value: string | number;
  previous: string | number | null;
  change: string | number | null;
  position: number;
  previous_position: number | null;
}

const num = (v: string | number | null): number | null => (v === null ? null : Number(v));

/** Courses' detail is an int (guardians addressed), which both drivers answer as a number; staff's a cargo name or null. */
function rowsFrom(raw: RankedRow[]): RankingRow[] {
  return (
    raw
      .map((r) => ({
        position: Number(r.position),
        id: Number(r.id),
        name: r.name,
        detail: r.detail,
        value: Number(r.value),
        previous: num(r.previous),
        // Rounded again: a numeric difference of two 4-decimal rates is exact, but keep the float tidy.
        change: r.change === null ? null : Math.round(Number(r.change) * 10_000) / 10_000,
        previous_position: num(r.previous_position),
      }))
      // Ties in Spanish order (the database's collation may put "Álvarez" after "Zúñiga").
      .sort((a, b) => a.position - b.position || collator.compare(a.name, b.name) || a.id - b.id)
  );
}

type RankingSql<M> = (
  institutionId: number,
  period: Period,
  previous: Period,
  timezone: string,
  metric: M,
  by: RankBy,
  country: SchoolCountry,
) => SQL;

async function readRanking<M extends CourseMetric | UserMetric>(
  db: Queryable,
  institutionId: number,
  query: RankingQuery<M>,
  statement: RankingSql<M>,
  now: Date,
): Promise<Ranking> {
  const school = await schoolOf(db, institutionId);
  const period = resolvePeriod(query.period, school, now);
  const previous = previousPeriod(period, school.country);
  const raw = rowsOf<RankedRow>(
    await db.execute(statement(institutionId, period, previous, school.timezone, query.metric, query.by, school.country)),
  );
  return { period, previous_period: previous, metric: query.metric, by: query.by, rows: rowsFrom(raw) };
}

export const readCourseRanking = (db: Queryable, institutionId: number, query: RankingQuery<CourseMetric>, now = new Date()) =>
  readRanking(db, institutionId, query, courseRankingSql, now);

export const readUserRanking = (db: Queryable, institutionId: number, query: RankingQuery<UserMetric>, now = new Date()) =>
  readRanking(db, institutionId, query, userRankingSql, now);
