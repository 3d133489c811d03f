// The school calendar of the demo's two countries, for the seed's school year of activity (server/seed/activity.ts):
// which local days are school days, which are a short break (no school messages at all), which are the long
// summer vacation (the office still writes now and then: enrolment, the list of school supplies).
//
// Chile (Mineduc, Región Metropolitana, simplified): classes from March to about 19 December; the summer
// vacation until the end of February; a two-week winter break from the first Monday of July; the week of
// Fiestas Patrias (18 and 19 September) off.
// Mexico (SEP): the school year runs from the last Monday of August to 15 July; the winter break from
// 20 December to 6 January; the spring break is Semana Santa and the week after Easter.
// Real calendars move by a few days each year and by region; these rules are the demo's.
import type { SchoolCountry } from '../../shared/school-year';

export type DayKind = 'school' | 'weekend' | 'break' | 'vacation';

/** Easter Sunday of `year` (anonymous Gregorian algorithm, Meeus/Jones/Butcher), as UTC midnight. */
function easterSunday(year: number): Date {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return new Date(Date.UTC(year, month - 1, day));
}

const DAY = 86_400_000;
const utc = (year: number, month: number, day: number) => Date.UTC(year, month - 1, day);
/** The first Monday on or after `at` (UTC midnight). */
const mondayFrom = (at: number) => at + ((8 - new Date(at).getUTCDay()) % 7) * DAY;

/** What a local calendar day (`year`, `month` 1–12, `day`) is for a school of `country`. */
export function dayKind(country: SchoolCountry, year: number, month: number, day: number): DayKind {
  const at = utc(year, month, day);
  const weekday = new Date(at).getUTCDay();
  const md = month * 100 + day;
  if (country === 'CL') {
    if (md >= 1220 || md < 301) return weekday === 0 || weekday === 6 ? 'weekend' : 'vacation';
    if (weekday === 0 || weekday === 6) return 'weekend';
    const winter = mondayFrom(utc(year, 7, 1));
    if (at >= winter && at < winter + 14 * DAY) return 'break';
    const patrias = utc(year, 9, 18);
    const monday = patrias - ((new Date(patrias).getUTCDay() + 6) % 7) * DAY;
    if (at >= monday && at < monday + 5 * DAY) return 'break';
    return 'school';
  }
  const lastMondayOfAugust = mondayFrom(utc(year, 8, 25));
  const summer = md >= 716 && at < lastMondayOfAugust;
  if (summer) return weekday === 0 || weekday === 6 ? 'weekend' : 'vacation';
  if (weekday === 0 || weekday === 6) return 'weekend';
  if (md >= 1220 || md <= 106) return 'break';
  const easter = easterSunday(year).getTime();
  if (at >= easter - 6 * DAY && at <= easter + 5 * DAY) return 'break';
  return 'school';
}
