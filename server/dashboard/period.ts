// The period of the data screens from the query string (shared/dashboard-contract.ts `Period`): a month
// (`period=month&month=YYYY-MM`, default this month in the school's zone) or a school year
// (`period=school-year&year=YYYY`, default the one holding this month). Bad values are 422s in Spanish.
import { sql, type SQL } from 'drizzle-orm';
import { eq } from 'drizzle-orm';
import type { Period, PeriodKind } from '../../shared/dashboard-contract';
import { dayAfter, monthPeriod, schoolYearOf, schoolYearPeriod, type SchoolCountry } from '../../shared/school-year';
import { monthIn } from '../db/time';
import type { Queryable } from '../db/client';
import { institutions } from '../db/schema/institutions';
import type { FieldErrors } from '../http/field-errors';

const PERIOD_YEAR_MIN = 2000;

export const PERIOD_MESSAGES = {
  period: 'El período debe ser "month" (mes) o "school-year" (año escolar).',
  month: (max: number) => `El mes debe tener la forma AAAA-MM (por ejemplo 2026-05), con un año entre ${PERIOD_YEAR_MIN} y ${max}.`,
  year: (max: number) => `El año escolar debe ser un número entero entre ${PERIOD_YEAR_MIN} y ${max}.`,
  monthWithYear: 'El mes solo se indica con el período mensual; para un año escolar indica el año.',
  yearWithMonth: 'El año solo se indica con el período de año escolar; para un mes indica el mes.',
} as const;

/** What the query asked: the kind, and the month or year when given (null: the current one). */
export interface PeriodQuery {
  kind: PeriodKind;
  month: string | null;
  year: number | null;
}

const given = (value: string | undefined): value is string => value !== undefined && value !== '';

/** The period part of a query, or its errors added to `errors`. `now` bounds the year (one ahead at most). */
export function parsePeriodQuery(query: Record<string, string | undefined>, errors: FieldErrors, now = new Date()): PeriodQuery | null {
  const max = now.getUTCFullYear() + 1;
  const kind = query.period ?? 'month';
  if (kind !== 'month' && kind !== 'school-year') {
    errors.period = [PERIOD_MESSAGES.period];
    return null;
  }
  let month: string | null = null;
  let year: number | null = null;
  if (given(query.month)) {
    if (kind !== 'month') errors.month = [PERIOD_MESSAGES.monthWithYear];
    else {
      const match = /^([0-9]{4})-(0[1-9]|1[0-2])$/.exec(query.month);
      const y = match ? Number(match[1]) : NaN;
      if (!(y >= PERIOD_YEAR_MIN && y <= max)) errors.month = [PERIOD_MESSAGES.month(max)];
      else month = query.month;
    }
  }
  if (given(query.year)) {
    if (kind !== 'school-year') errors.year = [PERIOD_MESSAGES.yearWithMonth];
    else year = parseYear(query.year, errors, now);
  }
  return errors.month || errors.year ? null : { kind, month, year };
}

/** A school year's start year, or an error under `year`. */
export function parseYear(raw: string, errors: FieldErrors, now = new Date()): number | null {
  const max = now.getUTCFullYear() + 1;
  const year = /^[0-9]{4}$/.test(raw) ? Number(raw) : NaN;
  if (year >= PERIOD_YEAR_MIN && year <= max) return year;
  errors.year = [PERIOD_MESSAGES.year(max)];
  return null;
}

export interface School {
  timezone: string;
  country: SchoolCountry;
}

export async function schoolOf(db: Queryable, institutionId: number): Promise<School> {
  const [row] = await db
    .select({ timezone: institutions.timezone, country: institutions.country })
    .from(institutions)
    .where(eq(institutions.id, institutionId));
  return row!;
}

/** The period asked for, defaults resolved at `now` in the school's zone. */
export function resolvePeriod(query: PeriodQuery, school: School, now = new Date()): Period {
  const thisMonth = monthIn(now, school.timezone);
  if (query.kind === 'month') return monthPeriod(query.month ?? thisMonth);
  return schoolYearPeriod(query.year ?? schoolYearOf(thisMonth, school.country), school.country);
}

/** `column` within `period`'s days in the school's zone: from its first day's midnight to the day after its last. */
function withinPeriod(column: SQL, period: Period, timezone: string): SQL {
  return sql`${column} >= ${periodStart(period, timezone)}
    and ${column} < (${`${dayAfter(period.to)} 00:00`}::timestamp at time zone ${timezone})`;
}

/** The instant `period` starts in the school's zone (its first day's midnight). */
function periodStart(period: Period, timezone: string): SQL {
  return sql`(${`${period.from} 00:00`}::timestamp at time zone ${timezone})`;
}

/**
 * Student `s` was enrolled during `period`: not withdrawn before it started (students have no enrolment date,
 * so one who joined during the period counts for all of it).
 */
export function enrolledDuring(s: SQL, period: Period, timezone: string): SQL {
  return sql`(${s}.withdrawn_at is null or ${s}.withdrawn_at >= ${periodStart(period, timezone)})`;
}

/**
 * The "Enviarme una copia" copy of message `m`, recognised by what it is (server/compose/send.ts insertCopy): a
 * message with `copy_to_sender` whose recipients are its author's own staff row and nobody else. Not by the
 * author's inbox entry, which a purge deletes while the message row stays.
 */
export function isAuthorCopy(m: SQL): SQL {
  return sql`(${m}.copy_to_sender and ${m}.sender_kind = 'funcionario'
    and exists (select 1 from message_recipients r where r.message_id = ${m}.id and r.recipient_kind = 'funcionario' and r.recipient_ref_id = ${m}.sender_ref_id)
    and not exists (select 1 from message_recipients r where r.message_id = ${m}.id
      and (r.recipient_kind <> 'funcionario' or r.recipient_ref_id <> ${m}.sender_ref_id)))`;
}

/**
 * The school's messages that count as staff activity, as a CTE body: sent (not drafts, not still scheduled),
 * written by a staff user, within `period`, and not the author's own copy (isAuthorCopy).
 */
export function staffMessagesSql(institutionId: number, period: Period, timezone: string, extra: SQL = sql``): SQL {
  return sql`
    select m.id, m.author_user_id as author, m.sent_at ${extra}
    from messages m
    where m.institution_id = ${institutionId} and m.kind = 'sent' and m.author_user_id is not null
      and ${withinPeriod(sql`m.sent_at`, period, timezone)}
      and not ${isAuthorCopy(sql`m`)}`;
}
