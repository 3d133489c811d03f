// Names of the charts' periods in the UI's language: 'YYYY-MM' as an axis label ("mar", "sept") and in
// full ("marzo de 2026"), 'YYYY-MM-DD' as a day of a month ("23 de octubre"). Periods are calendar
// months, not moments: they are read in UTC so no time zone moves them to the month before.
import type { BarDatum } from './scale';

const cache = new Map<string, Intl.DateTimeFormat>();

function format(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let f = cache.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, { timeZone: 'UTC', ...options });
    cache.set(key, f);
  }
  return f;
}

const monthDate = (period: string): Date => {
  const [year, month] = period.split('-').map(Number);
  return new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, 1));
};

/** 'YYYY-MM' → "mar", "sept" (no abbreviation dot: the axis is narrow). */
const shortMonth = (period: string, locale: string): string =>
  format(locale, { month: 'short' }).format(monthDate(period)).replace(/\.$/, '');

/** 'YYYY-MM' → "marzo de 2026". */
export const longMonth = (period: string, locale: string): string =>
  format(locale, { month: 'long', year: 'numeric' }).format(monthDate(period));

/** A month's bar: "mar" on the axis, "marzo de 2026" in the table and the summary. */
export const monthBar = (period: string, value: number, locale: string): BarDatum => ({
  key: period,
  label: shortMonth(period, locale),
  longLabel: longMonth(period, locale),
  value,
});

/** 'YYYY-MM-DD' → "23 de octubre". */
export function dayOfMonth(day: string, locale: string): string {
  const [year, month, date] = day.split('-').map(Number);
  return format(locale, { day: 'numeric', month: 'long' }).format(new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, date ?? 1)));
}

/** "marzo de 2026" → "Marzo de 2026", to open a sentence. */
export const capitalize = (text: string): string => text.charAt(0).toLocaleUpperCase() + text.slice(1);
