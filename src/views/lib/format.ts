// Dates are shown in the institution's time zone (a Santiago school reads Santiago time anywhere).
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

/** Today → "14:05"; this year → "3 mar"; older → "03-03-2025". */
export function formatListDate(iso: string, locale: string, timeZone: string, now = new Date()): string {
  const date = new Date(iso);
  const day = formatter(locale, timeZone, { year: 'numeric', month: '2-digit', day: '2-digit' });
  if (day.format(date) === day.format(now)) return formatter(locale, timeZone, { hour: '2-digit', minute: '2-digit' }).format(date);
  const year = formatter(locale, timeZone, { year: 'numeric' });
  if (year.format(date) === year.format(now)) return formatter(locale, timeZone, { day: 'numeric', month: 'short' }).format(date);
  return day.format(date);
}

export function formatLongDate(iso: string, locale: string, timeZone: string): { date: string; time: string } {
  const d = new Date(iso);
  return {
    date: formatter(locale, timeZone, { dateStyle: 'full' }).format(d),
    time: formatter(locale, timeZone, { hour: '2-digit', minute: '2-digit' }).format(d),
  };
}

/** "hora de Chile", "hora estándar central": the zone as people say it, in the UI's language. */
export function formatZoneName(locale: string, timeZone: string, at = new Date()): string {
  const parts = formatter(locale, timeZone, { timeZoneName: 'longGeneric' }).formatToParts(at);
  return parts.find((part) => part.type === 'timeZoneName')?.value ?? timeZone;
}

export function formatBytes(size: number): string {
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(0)} KB`;
  return `${(size / (1024 * 1024)).toFixed(1)} MB`;
}
