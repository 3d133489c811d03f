// Time on the server, in one place. A school lives in its own time zone (institutions.timezone): its
// quota month, its "today", its week and the times it reads are all in that zone, never in UTC or the
// server's zone (a message sent on the 1st at 00:30 in Santiago counts for the new month even though it is
// still the previous month in UTC). Intl does the conversions, so no zone data ships with the server.
import { eq } from 'drizzle-orm';
import type { Queryable } from './client';
import { institutions } from './schema/institutions';

/**
 * Whether `date` is a real date a `timestamp with time zone` column can store. The drivers send an ISO
 * string (toISOString), which PostgreSQL takes for years 1 to 9999 in UTC; JavaScript dates reach further
 * (year 0, negative and six-digit years), which PostgreSQL refuses with an error, so input times are
 * checked against this first.
 */
export function isStorableDate(date: Date): boolean {
  const year = date.getUTCFullYear();
  return !Number.isNaN(date.getTime()) && year >= 1 && year <= 9999;
}

/** The school's time zone (an IANA name such as 'America/Santiago'). */
export async function institutionTimezone(db: Queryable, institutionId: number): Promise<string> {
  const [row] = await db.select({ timezone: institutions.timezone }).from(institutions).where(eq(institutions.id, institutionId));
  return row!.timezone;
}

/** 'YYYY-MM' of `at` in `timezone`. */
export function monthIn(at: Date, timezone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit' }).formatToParts(at);
  const year = parts.find((p) => p.type === 'year')!.value;
  const month = parts.find((p) => p.type === 'month')!.value;
  return `${year}-${month}`;
}

/** 'YYYY-MM-DD' of `at` in `timezone`. */
export function dayIn(at: Date, timezone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

/** 'YYYY-MM-DD HH:mm' of `at` in `timezone`: a spreadsheet reads it as a date and time, and it sorts as text. */
export function minuteIn(at: Date, timezone: string): string {
  const time = new Intl.DateTimeFormat('en-CA', { timeZone: timezone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
  return `${dayIn(at, timezone)} ${time}`;
}

/** The instant the month of `at` began in `timezone` (its 1st at 00:00 there), in epoch milliseconds. */
export function monthStart(at: Date, timezone: string): number {
  const [y, m] = monthIn(at, timezone).split('-').map(Number) as [number, number];
  // Local midnight of the 1st: start from UTC midnight and step back by the zone's offset there.
  const utc = Date.UTC(y, m - 1, 1);
  const local = new Date(new Date(utc).toLocaleString('en-US', { timeZone: timezone })).getTime();
  const utcAsLocal = new Date(new Date(utc).toLocaleString('en-US', { timeZone: 'UTC' })).getTime();
  return utc - (local - utcAsLocal);
}

/** "27 de noviembre de 2026 a las 10:30 (hora de verano de Chile)": an instant as the school reads it. */
export function inZone(at: Date, timezone: string): string {
  const date = new Intl.DateTimeFormat('es-CL', { timeZone: timezone, day: 'numeric', month: 'long', year: 'numeric' }).format(at);
  const time = new Intl.DateTimeFormat('es-CL', { timeZone: timezone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
  const zone = new Intl.DateTimeFormat('es-CL', { timeZone: timezone, timeZoneName: 'long' })
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName')?.value;
  return `${date} a las ${time}${zone ? ` (${zone})` : ''}`;
}
