// The data screens' period (shared/dashboard-contract.ts `Period`) as the address and the API
// both spell it: `?period=month&month=2026-10` or `?period=school-year&year=2026`, nothing for the
// server's default (this month, or the school year holding it). Pure rules: reading an address (anything
// malformed or out of range reads as the default), writing one, and the period before or after a shown one
// within the range offered (the last MONTHS_BACK months, the last YEARS_BACK school years, only periods that
// have begun). "Today" is the school's: its month in the school's time zone, whatever the browser's, and its
// country's school year (shared/school-year.ts), so a Mexican school is not offered a school year before
// August, nor a Chilean one before March.
import type { PeriodKind } from '../../../shared/dashboard-contract';
import { schoolYearOf, type SchoolCountry } from '../../../shared/school-year';
import { periodParams, type PeriodParam } from '../../services/dashboard/activity';
import { utcToZoned } from '../../../shared/zoned-time';

export { periodParams };

export const MONTHS_BACK = 23;
export const YEARS_BACK = 4;

/** What is asked: a kind and a key ('YYYY-MM' / 'YYYY'), or no key for the server's default. */
export type PeriodQuery = PeriodParam;

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
const YEAR = /^\d{4}$/;

/** Months since year 0, to compare and step months. */
const monthIndex = (key: string): number => {
  const [, y, m] = MONTH.exec(key) ?? [];
  return Number(y) * 12 + Number(m) - 1;
};
const monthKey = (index: number): string => `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;

/** The school's today: its month ('YYYY-MM', in its time zone) and its country (whose school year it keeps). */
export interface SchoolToday {
  month: string;
  country: SchoolCountry;
}

/** What a data screen opens with to know the school's today: the instant, the school's zone and country. */
export interface SchoolClock {
  /** Epoch milliseconds. */
  now: number;
  /** The institution's IANA time zone (the session's `institution.timezone`). */
  timeZone: string;
  country: SchoolCountry;
}

/** The newest school year offered: the one holding this month, or the one just ended (a Chilean summer). */
const newestSchoolYear = (today: SchoolToday): number => schoolYearOf(today.month, today.country);

/** Whether `key` is a period of `kind` offered on the school's `today`: begun, and within the range. */
export function isOffered(kind: PeriodKind, key: string, today: SchoolToday): boolean {
  if (kind === 'month') {
    if (!MONTH.test(key)) return false;
    const i = monthIndex(key);
    const now = monthIndex(today.month);
    return i <= now && i >= now - MONTHS_BACK;
  }
  if (!YEAR.test(key)) return false;
  const year = Number(key);
  const now = newestSchoolYear(today);
  return year <= now && year >= now - YEARS_BACK;
}

/** The period an address names; the default for anything else. */
export function periodOf(params: URLSearchParams, today: SchoolToday): PeriodQuery {
  const kind = params.get('period');
  if (kind === 'school-year') {
    const year = params.get('year');
    return { kind, key: year !== null && isOffered(kind, year, today) ? year : null };
  }
  const month = params.get('month');
  return { kind: 'month', key: month !== null && isOffered('month', month, today) ? month : null };
}

/** The query string of `params` ('' when empty, else '?…'). */
export function queryString(params: [string, string][]): string {
  const search = new URLSearchParams(params).toString();
  return search ? `?${search}` : '';
}

/** The period `step` before (-1) or after (+1) the one shown, or null when it is not offered. */
export function shiftedPeriod(kind: PeriodKind, shown: string | null, step: number, today: SchoolToday): PeriodQuery | null {
  if (shown === null) return null;
  const key =
    kind === 'month'
      ? MONTH.test(shown)
        ? monthKey(monthIndex(shown) + step)
        : null
      : YEAR.test(shown)
        ? String(Number(shown) + step)
        : null;
  return key !== null && isOffered(kind, key, today) ? { kind, key } : null;
}

/**
 * The key of the period shown: the one asked, or, when the server's default was asked, the one its answer
 * names (null before it answers).
 */
export function shownKey(asked: PeriodQuery, answered: { kind: PeriodKind; key: string } | null | undefined): string | null {
  if (asked.key !== null) return asked.key;
  return answered && answered.kind === asked.kind ? answered.key : null;
}

/** The period `step` before or after the one shown (see shownKey), or null when not offered. */
export const shiftShown = (
  asked: PeriodQuery,
  answered: { kind: PeriodKind; key: string } | null | undefined,
  step: number,
  today: SchoolToday,
): PeriodQuery | null => shiftedPeriod(asked.kind, shownKey(asked, answered), step, today);

/**
 * A data screen's period picker as its guards read it: the period asked, the one the answer names (none
 * before it answers) and the school's today. The activity and ranking screens pick a period by one rule.
 */
export interface PeriodPicker {
  asked: PeriodQuery;
  answered: { kind: PeriodKind; key: string } | null | undefined;
  today: SchoolToday;
}

/** The period an arrow leads to (`step` before or after the one shown), or the one asked when none is offered. */
export const periodAfterShift = ({ asked, answered, today }: PeriodPicker, step: number): PeriodQuery =>
  shiftShown(asked, answered, step, today) ?? asked;

/** The picker's guards, for a screen's `setup({ guards })`; each transition passes its picker as params. */
export const periodPickerGuards = {
  /** Month or school year: only a kind other than the one asked asks again. */
  isOtherKind: (_: unknown, { asked, kind }: PeriodPicker & { kind: PeriodKind }) => kind !== asked.kind,
  /** An arrow leads somewhere only when the period before or after the one shown is offered. */
  canShift: (_: unknown, { asked, answered, today, step }: PeriodPicker & { step: number }) =>
    shiftShown(asked, answered, step, today) !== null,
};

export const samePeriod = (a: PeriodQuery, b: PeriodQuery): boolean => a.kind === b.kind && a.key === b.key;

/** This month on the school's wall clock ('YYYY-MM'), whatever the browser's zone; an unknown zone reads as UTC. */
export function currentMonth(now: number, timeZone: string): string {
  return (utcToZoned(now, timeZone) ?? utcToZoned(now, 'UTC'))!.date.slice(0, 7);
}

/** The school's today at the clock's instant: the newest periods offered. */
export const schoolToday = (clock: SchoolClock): SchoolToday => ({
  month: currentMonth(clock.now, clock.timeZone),
  country: clock.country,
});
