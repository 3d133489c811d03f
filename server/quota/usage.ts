// `GET /quota/usage` (shared/quota-contract.ts): SMS segments used per month of a year, or per year of the
// last five, each with the limit in force then; and who and which courses used the most this month. All of
// it is SQL aggregates scoped to the school: sms_usage and sms_monthly_limits by their primary keys
// (institution_id, month), this month's deliveries through messages_institution_idx.
import { and, eq, gte, lte } from 'drizzle-orm';
import { sql, type SQL } from 'drizzle-orm';
import type { QuotaUsage, UsageBar, UsageCalendar, UsageView } from '../../shared/quota-contract';
import type { Queryable } from '../db/client';
import { institutionQuotas, smsMonthlyLimits, smsUsage } from '../db/schema/compose';
import { institutions } from '../db/schema/institutions';
import { monthIn } from '../db/time';
import { rowsOf } from '../db/sql';
import { schoolYearMonths, schoolYearOf, ym, type SchoolCountry } from '../../shared/school-year';
import { type FieldErrors, hasFieldErrors } from '../http/field-errors';

/** Years the chart may ask for. */
const USAGE_YEAR_MIN = 2000;
const ANNUAL_YEARS = 5;

const USAGE_MESSAGES = {
  view: 'La vista debe ser "monthly" (mensual) o "annual" (anual).',
  calendar: 'El calendario debe ser "civil" (enero a diciembre) o "school" (año escolar).',
  year: (max: number) => `El año debe ser un número entero entre ${USAGE_YEAR_MIN} y ${max}.`,
} as const;

export interface UsageQuery {
  view: UsageView;
  calendar: UsageCalendar;
  /** null: the year holding this month. */
  year: number | null;
}

/** The query string as a usage query, or the per-parameter errors. `now` bounds the year (one ahead at most). */
export function parseUsageQuery(
  query: Record<string, string | undefined>,
  now = new Date(),
): { ok: true; value: UsageQuery } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const view = query.view ?? 'monthly';
  const calendar = query.calendar ?? 'civil';
  if (view !== 'monthly' && view !== 'annual') errors.view = [USAGE_MESSAGES.view];
  if (calendar !== 'civil' && calendar !== 'school') errors.calendar = [USAGE_MESSAGES.calendar];
  const max = now.getUTCFullYear() + 1;
  let year: number | null = null;
  if (query.year !== undefined && query.year !== '') {
    year = /^[0-9]{4}$/.test(query.year) ? Number(query.year) : NaN;
    if (!(year >= USAGE_YEAR_MIN && year <= max)) errors.year = [USAGE_MESSAGES.year(max)];
  }
  if (hasFieldErrors(errors)) return { ok: false, errors };
  return { ok: true, value: { view: view as UsageView, calendar: calendar as UsageCalendar, year } };
}

/** The months ('YYYY-MM') of `year` in `calendar` for a school of `country`. */
function monthsOf(year: number, calendar: UsageCalendar, country: SchoolCountry): string[] {
  return calendar === 'civil' ? Array.from({ length: 12 }, (_, i) => ym(year, 1 + i)) : schoolYearMonths(year, country);
}

/** The year holding `month`: the civil year, or the school year it belongs to (shared/school-year.ts). */
function yearHolding(month: string, calendar: UsageCalendar, country: SchoolCountry): number {
  return calendar === 'civil' ? Number(month.slice(0, 4)) : schoolYearOf(month, country);
}

/** `GET /quota/usage` at `now` (tests pass a fixed clock). */
export async function readQuotaUsage(db: Queryable, institutionId: number, query: UsageQuery, now = new Date()): Promise<QuotaUsage> {
  const [school] = await db
    .select({ timezone: institutions.timezone, country: institutions.country, limit: institutionQuotas.smsMonthlyLimit })
    .from(institutions)
    .leftJoin(institutionQuotas, eq(institutionQuotas.institutionId, institutions.id))
    .where(eq(institutions.id, institutionId));
  const { timezone, country } = school!;
  const currentLimit = school!.limit ?? 0;
  const thisMonth = monthIn(now, timezone);
  const year = query.year ?? yearHolding(thisMonth, query.calendar, country);
  const years = query.view === 'monthly' ? [year] : Array.from({ length: ANNUAL_YEARS }, (_, i) => year - ANNUAL_YEARS + 1 + i);
  const monthsByYear = years.map((y) => monthsOf(y, query.calendar, country));
  const all = monthsByYear.flat();
  const [first, last] = [all[0]!, all[all.length - 1]!];

  const [used, limits, top] = await Promise.all([
    db
      .select({ month: smsUsage.month, segments: smsUsage.segments })
      .from(smsUsage)
      .where(and(eq(smsUsage.institutionId, institutionId), gte(smsUsage.month, first), lte(smsUsage.month, last))),
    // Every change up to the last month shown: the limit of month M is the latest change at or before M.
    db
      .select({ month: smsMonthlyLimits.month, limit: smsMonthlyLimits.smsLimit })
      .from(smsMonthlyLimits)
      .where(and(eq(smsMonthlyLimits.institutionId, institutionId), lte(smsMonthlyLimits.month, last)))
      .orderBy(smsMonthlyLimits.month),
    topThisMonth(db, institutionId, thisMonth, timezone),
  ]);
  const usedOf = new Map(used.map((r) => [r.month, r.segments]));
  const limitOf = (month: string) => {
    let found: number | null = null;
    for (const change of limits) if (change.month <= month) found = change.limit;
    return found ?? currentLimit;
  };
  const bar = (period: string, months: string[]): UsageBar => ({
    period,
    used: months.reduce((sum, m) => sum + (usedOf.get(m) ?? 0), 0),
    limit: months.reduce((sum, m) => sum + limitOf(m), 0),
  });
  const bars = query.view === 'monthly' ? all.map((m) => bar(m, [m])) : years.map((y, i) => bar(String(y), monthsByYear[i]!));
  return { view: query.view, calendar: query.calendar, year, bars, ...top };
}

const TOP = 5;

/**
 * This month's SMS by author and by course: the segments of each SMS delivery of the school's messages
 * counted in this month (sent this month, or scheduled for it: the month the quota charged). A delivery to a
 * student counts for their course; one to a guardian for the course of each of their children at the school
 * (a family with children in two courses counts in both; twice in one course, once).
 */
async function topThisMonth(
  db: Queryable,
  institutionId: number,
  month: string,
  timezone: string,
): Promise<Pick<QuotaUsage, 'top_senders' | 'top_courses'>> {
  const result = await db.execute(topSql(institutionId, month, timezone));
  const rows = rowsOf<{ what: string; id: number; name: string; segments: number; messages: number }>(result).map((r) => ({
    ...r,
    id: Number(r.id),
    segments: Number(r.segments),
    messages: Number(r.messages),
  }));
  const bySegments = (a: { segments: number; name: string; id: number }, b: typeof a) =>
    b.segments - a.segments || a.name.localeCompare(b.name, 'es') || a.id - b.id;
  return {
    top_senders: rows
      .filter((r) => r.what === 'sender')
      .sort(bySegments)
      .map((r) => ({ user_id: r.id, name: r.name, segments: r.segments, messages: r.messages })),
    top_courses: rows
      .filter((r) => r.what === 'course')
      .sort(bySegments)
      .map((r) => ({ course_id: r.id, name: r.name, segments: r.segments })),
  };
}

/** The top senders and courses of `month` as one statement (exported for the bench's EXPLAIN). */
function topSql(institutionId: number, month: string, timezone: string): SQL {
  const [year, mon] = month.split('-').map(Number) as [number, number];
  const from = `${month}-01 00:00`;
  const to = `${ym(year, mon + 1)}-01 00:00`;
  // Materialized in this order whatever the statistics say (PGlite has no autovacuum to gather them): the
  // school's messages of the month, then their SMS deliveries by deliveries_message_idx, then one row per
  // person reached with their segments, so each guardian's children are looked up once.
  return sql`
    with msgs as materialized (
      select id, author_user_id from messages
      where institution_id = ${institutionId} and kind in ('sent', 'scheduled')
        and coalesce(scheduled_at, sent_at) >= (${from}::timestamp at time zone ${timezone})
        and coalesce(scheduled_at, sent_at) < (${to}::timestamp at time zone ${timezone})
    ),
    sms as materialized (
      select d.message_id, d.recipient_id, d.segments, msgs.author_user_id as author
      from msgs join deliveries d on d.message_id = msgs.id
      where d.channel = 'sms' and d.segments > 0
    ),
    by_author as (
      select author, sum(segments)::int as segments, count(distinct message_id)::int as messages
      from sms where author is not null group by author
    ),
    senders as (
      select u.id as user_id, u.name, by_author.segments, by_author.messages
      from by_author join users u on u.id = by_author.author and u.institution_id = ${institutionId}
      order by by_author.segments desc, u.name, u.id
      limit ${TOP}
    ),
    people as materialized (
      select r.recipient_kind as kind, r.recipient_ref_id as ref, sum(sms.segments) as segments
      from sms join message_recipients r on r.id = sms.recipient_id
      where r.recipient_kind in ('apoderado', 'estudiante')
      group by r.recipient_kind, r.recipient_ref_id
    ),
    reached as (
      select people.segments, s.course_id
      from people join students s on people.kind = 'estudiante' and s.id = people.ref and s.institution_id = ${institutionId}
      union all
      -- Once per course of the guardian's children (two children in one course: once).
      select min(people.segments), s.course_id
      from people
      join student_guardians sg on people.kind = 'apoderado' and sg.guardian_id = people.ref
      join students s on s.id = sg.student_id and s.institution_id = ${institutionId}
      group by people.ref, s.course_id
    ),
    course_totals as (
      select c.id as course_id, c.name, sum(reached.segments)::int as segments
      from reached join courses c on c.id = reached.course_id
      group by c.id, c.name
      order by segments desc, c.name, c.id
      limit ${TOP}
    )
    select 'sender' as what, user_id as id, name, segments, messages from senders
    union all
    select 'course', course_id, name, segments, 0 from course_totals`;
}
