// The data screens' period (issue 16, shared/dashboard-contract.ts `Period`) as the address and the API
// both spell it: `?period=month&month=2026-10` or `?period=school-year&year=2026`, nothing for the
// server's default (this month, or the school year holding it). Pure rules: reading an address (anything
// malformed or out of range reads as the default), writing one, and the period before or after a shown one
// within the range offered (the last MONTHS_BACK months, the last YEARS_BACK school years, never the future).
import type { PeriodKind } from '../../shared/dashboard-contract';
import { periodParams, type PeriodParam } from '../services/dashboard-activity';

export { periodParams };

export const MONTHS_BACK = 23;
export const YEARS_BACK = 4;

/** What is asked: a kind and a key ('YYYY-MM' / 'YYYY'), or no key for the server's default. */
export type PeriodQuery = PeriodParam;

export const DEFAULT_PERIOD: PeriodQuery = { kind: 'month', key: null };

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
const YEAR = /^\d{4}$/;

/** Months since year 0, to compare and step months. */
const monthIndex = (key: string): number => {
  const [, y, m] = MONTH.exec(key) ?? [];
  return Number(y) * 12 + Number(m) - 1;
};
const monthKey = (index: number): string => `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;

/** Whether `key` is a period of `kind` offered when this month (browser clock, 'YYYY-MM') is `today`. */
export function isOffered(kind: PeriodKind, key: string, today: string): boolean {
  if (kind === 'month') {
    if (!MONTH.test(key)) return false;
    const i = monthIndex(key);
    const now = monthIndex(today);
    return i <= now && i >= now - MONTHS_BACK;
  }
  if (!YEAR.test(key)) return false;
  const year = Number(key);
  const now = Number(today.slice(0, 4));
  return year <= now && year >= now - YEARS_BACK;
}

/** The period an address names; the default for anything else. */
export function periodOf(params: URLSearchParams, today: string): PeriodQuery {
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
export function shiftedPeriod(kind: PeriodKind, shown: string | null, step: number, today: string): PeriodQuery | null {
  if (shown === null) return null;
  const key = kind === 'month' ? (MONTH.test(shown) ? monthKey(monthIndex(shown) + step) : null) : YEAR.test(shown) ? String(Number(shown) + step) : null;
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
export const shiftShown = (asked: PeriodQuery, answered: { kind: PeriodKind; key: string } | null | undefined, step: number, today: string): PeriodQuery | null =>
  shiftedPeriod(asked.kind, shownKey(asked, answered), step, today);

export const samePeriod = (a: PeriodQuery, b: PeriodQuery): boolean => a.kind === b.kind && a.key === b.key;

/** This month by the browser's clock ('YYYY-MM'): the newest period offered. */
export function currentMonth(now: Date = new Date()): string {
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}`;
}
