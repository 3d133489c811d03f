// Dates are shown in the institution's time zone (a Santiago school reads Santiago time anywhere), in one
// style everywhere: four-digit years, and the clock each country reads (24 h in Chile, "5:05 p.m." in Mexico).
const cache = new Map<string, Intl.DateTimeFormat>();

function formatter(locale: string, timeZone: string, options: Intl.DateTimeFormatOptions) {
  const key = `${locale}|${timeZone}|${JSON.stringify(options)}`;
  let f = cache.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, { timeZone, ...options });
    cache.set(key, f);
  }
  return f;
}

/** Chile writes 17:05; Mexico 5:05 p.m. (ICU would give Chile a 12-hour clock). */
const TIME: Record<string, Intl.DateTimeFormatOptions> = {
  'es-CL': { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  'es-MX': { hour: 'numeric', minute: '2-digit', hourCycle: 'h12' },
};
const timeOptions = (locale: string) => TIME[locale] ?? TIME['es-CL']!;
const DAY: Intl.DateTimeFormatOptions = { year: 'numeric', month: '2-digit', day: '2-digit' };

/** "17:05" (es-CL), "5:05 p.m." (es-MX). */
export function formatTime(iso: string, locale: string, timeZone: string): string {
  return formatter(locale, timeZone, timeOptions(locale)).format(new Date(iso));
}

/** "05-03-2026" (es-CL), "05/03/2026" (es-MX): always a four-digit year. */
export function formatDay(iso: string, locale: string, timeZone: string): string {
  return formatter(locale, timeZone, DAY).format(new Date(iso));
}

/** "05-03-2026, 17:05": a moment in a row of facts (a delivery's times). */
export function formatDateTime(iso: string, locale: string, timeZone: string): string {
  return `${formatDay(iso, locale, timeZone)}, ${formatTime(iso, locale, timeZone)}`;
}

/** Folder rows. Today → "14:05"; this year → "3 mar"; older → "03-03-2025". */
export function formatListDate(iso: string, locale: string, timeZone: string, now = new Date()): string {
  const date = new Date(iso);
  const day = formatter(locale, timeZone, DAY);
  if (day.format(date) === day.format(now)) return formatTime(iso, locale, timeZone);
  const year = formatter(locale, timeZone, { year: 'numeric' });
  if (year.format(date) === year.format(now)) return formatter(locale, timeZone, { day: 'numeric', month: 'short' }).format(date);
  return day.format(date);
}

/** A message's own date: "jueves, 5 de marzo de 2026" and "17:05". */
export function formatLongDate(iso: string, locale: string, timeZone: string): { date: string; time: string } {
  return {
    date: formatter(locale, timeZone, { dateStyle: 'full' }).format(new Date(iso)),
    time: formatTime(iso, locale, timeZone),
  };
}

/** "hora de Chile", "hora estándar central": the zone as people say it, in the UI's language. */
export function formatZoneName(locale: string, timeZone: string, at = new Date()): string {
  const parts = formatter(locale, timeZone, { timeZoneName: 'longGeneric' }).formatToParts(at);
  return parts.find((part) => part.type === 'timeZoneName')?.value ?? timeZone;
}

/** A file's size in the locale's numbers: "512 B", "200 KB", "1,5 MB" (es-CL) / "1.5 MB" (es-MX). */
export function formatBytes(size: number, locale: string): string {
  const number = (value: number, digits: number) =>
    new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
  if (size < 1024) return `${number(size, 0)} B`;
  if (size < 1024 * 1024) return `${number(size / 1024, 0)} KB`;
  return `${number(size / (1024 * 1024), 1)} MB`;
}

/** A whole number as the locale writes it ("5.000" in Chile, "5,000" in Mexico). */
export function formatCount(value: number, locale: string): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(value);
}
