// The school year by country, for the server and the SPA alike (pure, no clock): Chile's runs March–December
// of one year (10 months), Mexico's August–July (12 months, labelled by the year it starts). A Chilean
// summer month (January, February) belongs to no school year: it shows the one just ended. Periods of the
// data screens (shared/dashboard-contract.ts `Period`) are a month or a school year, with their previous one.
import type { Period } from './dashboard-contract';

export type SchoolCountry = 'CL' | 'MX';

const SCHOOL_YEAR: Record<SchoolCountry, { firstMonth: number; months: number }> = {
  CL: { firstMonth: 3, months: 10 },
  MX: { firstMonth: 8, months: 12 },
};

/** 'YYYY-MM' of `month` (1-based, may run past 12 or below 1) of `year`. */
export function ym(year: number, month: number): string {
  const index = year * 12 + (month - 1);
  const y = Math.floor(index / 12);
  const m = index - y * 12 + 1;
  return `${y}-${String(m).padStart(2, '0')}`;
}

/** `month` ('YYYY-MM') moved by `delta` months. */
export function addMonths(month: string, delta: number): string {
  const [year, mon] = month.split('-').map(Number) as [number, number];
  return ym(year, mon + delta);
}

/** The months ('YYYY-MM') of the school year starting in `year`. */
export function schoolYearMonths(year: number, country: SchoolCountry): string[] {
  const { firstMonth, months } = SCHOOL_YEAR[country];
  return Array.from({ length: months }, (_, i) => ym(year, firstMonth + i));
}

/** The start year of the school year holding `month` ('YYYY-MM'), or of the one just ended in a Chilean summer. */
export function schoolYearOf(month: string, country: SchoolCountry): number {
  const [year, mon] = month.split('-').map(Number) as [number, number];
  return mon >= SCHOOL_YEAR[country].firstMonth ? year : year - 1;
}

/** Days in `month` ('YYYY-MM'). */
function daysIn(month: string): number {
  const [year, mon] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, mon, 0)).getUTCDate();
}

/** A month as a period: its first and last day. */
export function monthPeriod(month: string): Period {
  return { kind: 'month', key: month, from: `${month}-01`, to: `${month}-${String(daysIn(month)).padStart(2, '0')}` };
}

/** The school year starting in `year` as a period: from its first month's first day to its last month's last. */
export function schoolYearPeriod(year: number, country: SchoolCountry): Period {
  const months = schoolYearMonths(year, country);
  const last = months[months.length - 1]!;
  return { kind: 'school-year', key: String(year), from: `${months[0]}-01`, to: monthPeriod(last).to };
}

/** The period before: the previous month, or the previous school year. */
export function previousPeriod(period: Period, country: SchoolCountry): Period {
  return period.kind === 'month' ? monthPeriod(addMonths(period.key, -1)) : schoolYearPeriod(Number(period.key) - 1, country);
}

/** The day after `date` ('YYYY-MM-DD'): a period's exclusive end. */
export function dayAfter(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}
