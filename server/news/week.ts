// The printable weekly wall (GET /news/week?date=): the Monday–Sunday week holding a date, in the school's
// time zone, and the instants where it starts and ends there.
import { eq, sql } from 'drizzle-orm';
import type { Queryable } from '../db/client';
import { institutions } from '../db/schema/institutions';
import { rowsOf } from '../db/sql';
import { dayIn } from '../db/time';

export const WEEK_MESSAGES = { date: 'La fecha debe tener el formato AAAA-MM-DD.' } as const;

const DAY = 86_400_000;

/** A real calendar date YYYY-MM-DD, or null. */
export function parseDay(raw: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(raw)) return null;
  const ms = Date.parse(`${raw}T00:00:00Z`);
  return Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== raw ? null : raw;
}

/** Monday and Sunday (YYYY-MM-DD) of the ISO week holding `day`. */
function weekOf(day: string): { from: string; to: string } {
  const ms = Date.parse(`${day}T00:00:00Z`);
  const back = (new Date(ms).getUTCDay() + 6) % 7;
  const monday = ms - back * DAY;
  return { from: new Date(monday).toISOString().slice(0, 10), to: new Date(monday + 6 * DAY).toISOString().slice(0, 10) };
}

export interface SchoolWeek {
  from: string;
  to: string;
  school: string;
  /** Monday 00:00 and the next Monday 00:00 in the school's zone. */
  start: Date;
  end: Date;
}

/** The week holding `day` (default: today in the school's zone) for the school. */
export async function schoolWeek(db: Queryable, institutionId: number, day: string | null, now: Date): Promise<SchoolWeek> {
  const [school] = await db
    .select({ name: institutions.name, timezone: institutions.timezone })
    .from(institutions)
    .where(eq(institutions.id, institutionId));
  const today = dayIn(now, school!.timezone);
  const { from, to } = weekOf(day ?? today);
  const next = new Date(Date.parse(`${to}T00:00:00Z`) + DAY).toISOString().slice(0, 10);
  const [row] = rowsOf<{ start: string | Date; end: string | Date }>(
    await db.execute(sql`select (${from}::timestamp at time zone ${school!.timezone}) as start,
      (${next}::timestamp at time zone ${school!.timezone}) as "end"`),
  );
  return { from, to, school: school!.name, start: new Date(row!.start), end: new Date(row!.end) };
}
