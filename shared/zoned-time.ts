// Wall clock ↔ instant in a named IANA zone (the institution's), with Intl only: schedules are typed on the
// institution's clock whatever the browser's zone is.

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall clock of `timeZone` at instant `ms`, read back as if it were UTC (so wall − instant = offset). */
function wallAsUtc(ms: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(ms)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return Date.UTC(parts.year ?? 0, (parts.month ?? 1) - 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0);
}

const DAY_MS = 86_400_000;

/**
 * The UTC instant (ISO 8601) when the wall clock of `timeZone` shows `date` (YYYY-MM-DD) `time` (HH:mm).
 * Around DST changes it behaves like Temporal's "compatible": a repeated hour takes its first occurrence,
 * a skipped one moves forward by the gap (Santiago's 00:30 on a spring-forward night is 01:30).
 * Null for a malformed date or time, or an unknown zone.
 */
export function zonedToUtc(date: string, time: string, timeZone: string): string | null {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const t = /^(\d{2}):(\d{2})$/.exec(time);
  if (!d || !t) return null;
  const [year, month, day, hour, minute] = [d[1], d[2], d[3], t[1], t[2]].map(Number) as [number, number, number, number, number];
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  const check = new Date(wall);
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59) return null;
  try {
    // The zone's offset a day before and a day after: DST changes are never closer together than that.
    const before = wallAsUtc(wall - DAY_MS, timeZone) - (wall - DAY_MS);
    const after = wallAsUtc(wall + DAY_MS, timeZone) - (wall + DAY_MS);
    const fits = [wall - before, wall - after].filter((instant) => wallAsUtc(instant, timeZone) === wall);
    const instant = fits.length > 0 ? Math.min(...fits) : wall - before;
    return new Date(instant).toISOString();
  } catch {
    return null;
  }
}

/** The wall-clock date (YYYY-MM-DD) and time (HH:mm) of `timeZone` at an instant (epoch ms or ISO). */
export function utcToZoned(instant: number | string, timeZone: string): { date: string; time: string } | null {
  const ms = typeof instant === 'number' ? instant : Date.parse(instant);
  if (Number.isNaN(ms)) return null;
  try {
    const iso = new Date(wallAsUtc(ms, timeZone)).toISOString();
    return { date: iso.slice(0, 10), time: iso.slice(11, 16) };
  } catch {
    return null;
  }
}
