// /dashboard/users' pure rules: what its address says (period, cargo, sorted column) and writes back, and
// the staff table's order. Sorting orders the server's rows; every figure is the server's.
import type { StaffActivityRow } from '../../../shared/dashboard-contract';
import { periodOf, periodParams, queryString, samePeriod, type PeriodQuery, type SchoolToday } from './period-rules';

export type StaffColumn = 'name' | 'messages' | 'people_reached' | 'read_rate' | 'active_days';
const STAFF_COLUMNS: readonly StaffColumn[] = ['name', 'messages', 'people_reached', 'read_rate', 'active_days'];
export type SortDirection = 'asc' | 'desc';

export interface StaffSort {
  column: StaffColumn;
  direction: SortDirection;
}

/** Most messages first: who writes, at a glance. */
export const DEFAULT_SORT: StaffSort = { column: 'messages', direction: 'desc' };

export interface StaffQuery {
  period: PeriodQuery;
  /** A cargo's id, or null for every cargo. */
  positionId: number | null;
}

export interface StaffAddress {
  query: StaffQuery;
  sort: StaffSort;
}

const STAFF_PATH = '/dashboard/users';

const isColumn = (value: string | null): value is StaffColumn => value !== null && (STAFF_COLUMNS as readonly string[]).includes(value);

/** What `?period=…&position_id=…&sort=…&dir=…` asks; anything malformed reads as the default. */
export function staffAddressOf(search: string, today: SchoolToday): StaffAddress {
  const params = new URLSearchParams(search);
  const position = params.get('position_id');
  const column = params.get('sort');
  const dir = params.get('dir');
  const sort: StaffSort = isColumn(column)
    ? { column, direction: dir === 'asc' || dir === 'desc' ? dir : firstDirection(column) }
    : DEFAULT_SORT;
  return {
    query: { period: periodOf(params, today), positionId: position !== null && /^\d{1,12}$/.test(position) ? Number(position) : null },
    sort,
  };
}

/** The address of a view: the defaults are left out, so the bare path is the default view. */
export function staffAddress({ query, sort }: StaffAddress): string {
  const params = periodParams(query.period);
  if (query.positionId !== null) params.push(['position_id', String(query.positionId)]);
  if (!sameSort(sort, DEFAULT_SORT)) params.push(['sort', sort.column], ['dir', sort.direction]);
  return `${STAFF_PATH}${queryString(params)}`;
}

export const sameQuery = (a: StaffQuery, b: StaffQuery): boolean => samePeriod(a.period, b.period) && a.positionId === b.positionId;
export const sameSort = (a: StaffSort, b: StaffSort): boolean => a.column === b.column && a.direction === b.direction;

/** Names start A→Z, figures start with the most. */
const firstDirection = (column: StaffColumn): SortDirection => (column === 'name' ? 'asc' : 'desc');

/** A header pressed: the same column turns around, another starts in its own first direction. */
export const nextSort = (sort: StaffSort, column: StaffColumn): StaffSort =>
  sort.column === column ? { column, direction: sort.direction === 'asc' ? 'desc' : 'asc' } : { column, direction: firstDirection(column) };

const collator = new Intl.Collator('es', { sensitivity: 'base' });

/** The rows in the sort's order; a rate nobody could read (null) goes last either way; ties by name. */
export function sortStaff(rows: readonly StaffActivityRow[], sort: StaffSort): StaffActivityRow[] {
  const sign = sort.direction === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    if (sort.column === 'name') return sign * collator.compare(a.name, b.name) || a.user_id - b.user_id;
    const x = a[sort.column];
    const y = b[sort.column];
    if (x === null || y === null) return x === y ? collator.compare(a.name, b.name) : x === null ? 1 : -1;
    return sign * (x - y) || collator.compare(a.name, b.name) || a.user_id - b.user_id;
  });
}

/** The school year the summary shows for a period: the one named, or the server's current one. */
export const summaryYearOf = (period: PeriodQuery): string | null => (period.kind === 'school-year' ? period.key : null);
