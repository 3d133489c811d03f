// shared/school-year.ts: the school year by country (Chile March–December, Mexico August–July, a Chilean
// summer showing the year just ended), periods and the previous one.
import { describe, expect, it } from 'vitest';
import {
  addMonths,
  dayAfter,
  monthPeriod,
  previousPeriod,
  schoolYearMonths,
  schoolYearOf,
  schoolYearPeriod,
  ym,
} from '../../shared/school-year';

describe('school year', () => {
  it('has Chile’s ten months and Mexico’s twelve across the new year', () => {
    expect(schoolYearMonths(2026, 'CL')).toEqual([
      '2026-03',
      '2026-04',
      '2026-05',
      '2026-06',
      '2026-07',
      '2026-08',
      '2026-09',
      '2026-10',
      '2026-11',
      '2026-12',
    ]);
    const mx = schoolYearMonths(2025, 'MX');
    expect([mx.length, mx[0], mx[4], mx[5], mx[11]]).toEqual([12, '2025-08', '2025-12', '2026-01', '2026-07']);
  });

  it('holds a month: a Chilean summer shows the year just ended, Mexico’s July the year started last August', () => {
    expect(schoolYearOf('2026-02', 'CL')).toBe(2025);
    expect(schoolYearOf('2026-03', 'CL')).toBe(2026);
    expect(schoolYearOf('2026-07', 'MX')).toBe(2025);
    expect(schoolYearOf('2026-08', 'MX')).toBe(2026);
  });

  it('moves months across years both ways', () => {
    expect(ym(2026, 13)).toBe('2027-01');
    expect(ym(2026, 0)).toBe('2025-12');
    expect(addMonths('2026-01', -1)).toBe('2025-12');
    expect(addMonths('2026-11', 14)).toBe('2028-01');
  });

  it('gives periods with their first and last day and the previous one', () => {
    expect(monthPeriod('2028-02')).toEqual({ kind: 'month', key: '2028-02', from: '2028-02-01', to: '2028-02-29' });
    expect(previousPeriod(monthPeriod('2026-03'), 'CL')).toEqual({ kind: 'month', key: '2026-02', from: '2026-02-01', to: '2026-02-28' });
    expect(schoolYearPeriod(2025, 'MX')).toEqual({ kind: 'school-year', key: '2025', from: '2025-08-01', to: '2026-07-31' });
    expect(previousPeriod(schoolYearPeriod(2026, 'CL'), 'CL')).toEqual({
      kind: 'school-year',
      key: '2025',
      from: '2025-03-01',
      to: '2025-12-31',
    });
    expect(dayAfter('2026-12-31')).toBe('2027-01-01');
  });
});
