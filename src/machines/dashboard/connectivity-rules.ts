// /dashboard/connectivity's table rules (dashboard/connectivity.ts): the orders offered, when a course is "cut off",
// the courses in the order asked, what the "Cobertura" header's press asks, and the levels shown — the one
// chosen or all — each with its courses in that order; and what one row's figures show beyond the server's
// numbers (school, level or course, on both connectivity screens): the guardians in the device mix and the
// share each channel reaches. Pure; every count is the server's.
import type { ChannelCode } from '../../../shared/codes';
import { DEVICE_STATUSES } from '../../../shared/compose-contract';
import type { Connectivity, ConnectivityRow } from '../../../shared/dashboard-contract';

/** Guardians in the device mix (blue, green, yellow and red together); 0: nothing to draw. */
export const deviceTotal = (row: Pick<ConnectivityRow, 'devices'>): number =>
  DEVICE_STATUSES.reduce((sum, status) => sum + row.devices[status], 0);

/** The share (0–1) of the row's guardians a channel reaches; null when the row has no guardians ("—"). */
export const reachShare = (row: Pick<ConnectivityRow, 'reach' | 'guardians'>, channel: ChannelCode): number | null =>
  row.guardians > 0 ? row.reach[channel] / row.guardians : null;

/** Contract order (levels in school order, courses by name), or by effective coverage. */
export type ConnectivitySort = 'school' | 'coverageAsc' | 'coverageDesc';
export const CONNECTIVITY_SORTS: readonly ConnectivitySort[] = ['school', 'coverageAsc', 'coverageDesc'];

/**
 * A course is "cut off" when under this share of its addressed guardians was reached
 * (docs/decisions/0075-connectivity-screens.md).
 */
export const CUT_OFF_SHARE = 0.5;
export const isCutOff = (row: ConnectivityRow): boolean => row.coverage.share !== null && row.coverage.share < CUT_OFF_SHARE;

/** Courses in the order asked: by coverage (no messages addressed last), ties by name. */
export function sortCourses(courses: readonly ConnectivityRow[], sort: ConnectivitySort): ConnectivityRow[] {
  if (sort === 'school') return [...courses];
  const sign = sort === 'coverageAsc' ? 1 : -1;
  return [...courses].sort((a, b) => {
    const x = a.coverage.share;
    const y = b.coverage.share;
    if (x === null || y === null) return x === y ? a.name.localeCompare(b.name, 'es') : x === null ? 1 : -1;
    return x === y ? a.name.localeCompare(b.name, 'es') : sign * (x - y);
  });
}

/**
 * The "Cobertura" header pressed: from the school's order, the least covered first (the courses cut off
 * at the top, what a head teacher looks for); then it turns around.
 */
export const nextCoverageSort = (sort: ConnectivitySort): ConnectivitySort => (sort === 'coverageAsc' ? 'coverageDesc' : 'coverageAsc');

/** A level as the table shows it: its row and its courses in the order asked. */
export interface ShownLevel {
  level: ConnectivityRow;
  courses: ConnectivityRow[];
}

/** The levels shown (the one chosen, or all when null or unknown), each with its courses sorted. */
export function shownLevels(data: Connectivity, level: number | null, sort: ConnectivitySort): ShownLevel[] {
  const levels = level === null ? data.levels : data.levels.filter((l) => l.id === level);
  return levels.map((l) => ({ level: l, courses: sortCourses(l.courses, sort) }));
}
