// The activity screens' pure rules: src/machines/dashboard/period-rules.ts (a period as the address and the API
// spell it, the range offered, the arrows) and src/machines/dashboard/staff-activity-rules.ts (the staff table's
// address and order).
import { describe, expect, it } from 'vitest';
import {
  currentMonth,
  isOffered,
  MONTHS_BACK,
  periodOf,
  queryString,
  schoolToday,
  shiftedPeriod,
  shiftShown,
  shownKey,
  YEARS_BACK,
} from '../../src/machines/dashboard/period-rules';
import { DEFAULT_SORT, nextSort, sortStaff, staffAddress, staffAddressOf } from '../../src/machines/dashboard/staff-activity-rules';
import { staffActivity } from '../fixtures/dashboard-activity';

const TODAY = { month: '2026-10', country: 'CL' } as const;
const read = (search: string) => periodOf(new URLSearchParams(search), TODAY);

describe('dashboard period', () => {
  it('reads what the address says; anything malformed, future or too old is the default', () => {
    expect(read('')).toEqual({ kind: 'month', key: null });
    expect(read('?period=month&month=2026-09')).toEqual({ kind: 'month', key: '2026-09' });
    expect(read('?month=2026-09')).toEqual({ kind: 'month', key: '2026-09' });
    expect(read('?period=school-year&year=2025')).toEqual({ kind: 'school-year', key: '2025' });
    expect(read('?period=school-year')).toEqual({ kind: 'school-year', key: null });
    for (const bad of ['?month=2026-13', '?month=2026-11', '?month=26-09', '?month=2024-10', '?month=2026-9'])
      expect(read(bad)).toEqual({ kind: 'month', key: null });
    for (const bad of ['?period=school-year&year=2027', '?period=school-year&year=2021', '?period=school-year&year=dos'])
      expect(read(bad)).toEqual({ kind: 'school-year', key: null });
  });

  it('offers the last MONTHS_BACK months and YEARS_BACK school years, never the future', () => {
    expect(MONTHS_BACK).toBe(23);
    expect(YEARS_BACK).toBe(4);
    expect(isOffered('month', '2024-11', TODAY)).toBe(true);
    expect(isOffered('month', '2024-10', TODAY)).toBe(false);
    expect(isOffered('school-year', '2022', TODAY)).toBe(true);
    expect(isOffered('school-year', '2021', TODAY)).toBe(false);
  });

  it('steps across a year end, and not past the range', () => {
    expect(shiftedPeriod('month', '2026-01', -1, TODAY)).toEqual({ kind: 'month', key: '2025-12' });
    expect(shiftedPeriod('month', '2025-12', 1, TODAY)).toEqual({ kind: 'month', key: '2026-01' });
    expect(shiftedPeriod('month', TODAY.month, 1, TODAY)).toBeNull();
    expect(shiftedPeriod('month', '2024-11', -1, TODAY)).toBeNull();
    expect(shiftedPeriod('school-year', '2026', -1, TODAY)).toEqual({ kind: 'school-year', key: '2025' });
    expect(shiftedPeriod('school-year', '2026', 1, TODAY)).toBeNull();
    expect(shiftedPeriod('month', null, -1, TODAY)).toBeNull();
    // The server's default is known once it answers, and only for the kind it answered.
    const answered = { kind: 'month' as const, key: '2026-10' };
    expect(shownKey({ kind: 'month', key: null }, null)).toBeNull();
    expect(shownKey({ kind: 'month', key: null }, answered)).toBe('2026-10');
    expect(shownKey({ kind: 'school-year', key: null }, answered)).toBeNull();
    expect(shownKey({ kind: 'month', key: '2026-08' }, answered)).toBe('2026-08');
    expect(shiftShown({ kind: 'month', key: null }, answered, -1, TODAY)).toEqual({ kind: 'month', key: '2026-09' });
    expect(queryString([])).toBe('');
  });

  it("offers only school years that have begun, by the school's country", () => {
    // Mexico's runs August–July: in March 2026 the newest is 2025–2026, and 2026 has not begun.
    const mexicoMarch = { month: '2026-03', country: 'MX' } as const;
    expect(isOffered('school-year', '2026', mexicoMarch)).toBe(false);
    expect(isOffered('school-year', '2025', mexicoMarch)).toBe(true);
    expect(isOffered('school-year', '2021', mexicoMarch)).toBe(true);
    expect(isOffered('school-year', '2020', mexicoMarch)).toBe(false);
    expect(shiftedPeriod('school-year', '2025', 1, mexicoMarch)).toBeNull();
    expect(periodOf(new URLSearchParams('?period=school-year&year=2026'), mexicoMarch)).toEqual({ kind: 'school-year', key: null });
    expect(isOffered('school-year', '2026', { month: '2026-08', country: 'MX' })).toBe(true);
    // A Chilean summer (January, February) shows the school year just ended; March opens the new one.
    expect(isOffered('school-year', '2026', { month: '2026-02', country: 'CL' })).toBe(false);
    expect(isOffered('school-year', '2025', { month: '2026-02', country: 'CL' })).toBe(true);
    expect(isOffered('school-year', '2026', { month: '2026-03', country: 'CL' })).toBe(true);
  });

  it("computes this month on the school's clock, not the browser's", () => {
    const zone = process.env.TZ;
    process.env.TZ = 'America/Mexico_City';
    try {
      // 23:30 on 31 October in Mexico City is already 1 November in Santiago (02:30).
      const instant = Date.parse('2026-11-01T05:30:00Z');
      expect(new Date(instant).getDate()).toBe(31); // the browser's own day, to be sure the zone took
      expect(currentMonth(instant, 'America/Santiago')).toBe('2026-11');
      expect(currentMonth(instant, 'America/Mexico_City')).toBe('2026-10');
      expect(schoolToday({ now: instant, timeZone: 'America/Santiago', country: 'CL' })).toEqual({ month: '2026-11', country: 'CL' });
      // And the other way: a browser in Santiago on 1 November at 00:30 sees a Mexican school's October.
      process.env.TZ = 'America/Santiago';
      const santiago = Date.parse('2026-11-01T03:30:00Z');
      expect(new Date(santiago).getMonth()).toBe(10);
      expect(currentMonth(santiago, 'America/Mexico_City')).toBe('2026-10');
    } finally {
      process.env.TZ = zone;
      if (zone === undefined) delete process.env.TZ;
    }
  });
});

describe('staff table', () => {
  it('writes and reads its address with the defaults left out', () => {
    expect(staffAddress({ query: { period: { kind: 'month', key: null }, positionId: null }, sort: DEFAULT_SORT })).toBe(
      '/dashboard/users',
    );
    const view = {
      query: { period: { kind: 'school-year' as const, key: '2025' }, positionId: 3 },
      sort: { column: 'read_rate' as const, direction: 'asc' as const },
    };
    const written = staffAddress(view);
    expect(written).toBe('/dashboard/users?period=school-year&year=2025&position_id=3&sort=read_rate&dir=asc');
    expect(staffAddressOf(written.slice(written.indexOf('?')), TODAY)).toEqual(view);
    // A column without a direction starts in its own; nonsense reads as the default.
    expect(staffAddressOf('?sort=name', TODAY).sort).toEqual({ column: 'name', direction: 'asc' });
    expect(staffAddressOf('?sort=salary&dir=up&position_id=3x', TODAY)).toEqual({
      query: { period: { kind: 'month', key: null }, positionId: null },
      sort: DEFAULT_SORT,
    });
  });

  it('sorts names A→Z first and figures most first, turns around on a second press, keeps unknown rates last', () => {
    expect(nextSort(DEFAULT_SORT, 'messages')).toEqual({ column: 'messages', direction: 'asc' });
    expect(nextSort(DEFAULT_SORT, 'name')).toEqual({ column: 'name', direction: 'asc' });
    const rows = staffActivity().rows;
    expect(sortStaff(rows, { column: 'name', direction: 'asc' }).map((r) => r.name)).toEqual([
      'Ana Pérez',
      'Bruno Díaz',
      'Carla Soto',
      'Óscar Ruiz',
    ]);
    expect(sortStaff(rows, { column: 'read_rate', direction: 'asc' }).map((r) => r.read_rate)).toEqual([0.625, 0.9, null, null]);
    expect(sortStaff(rows, { column: 'people_reached', direction: 'desc' }).map((r) => r.people_reached)).toEqual([1200, 380, 95, 0]);
    // The server's array is left as it came.
    expect(rows.map((r) => r.user_id)).toEqual([11, 12, 13, 14]);
  });
});
