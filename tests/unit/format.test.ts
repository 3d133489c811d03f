// One date style for every screen (src/views/lib/format.ts): four-digit years, the clock each country reads
// (24 h in Chile, 12 h with "p.m." in Mexico), in the institution's time zone.
import { describe, expect, it } from 'vitest';
import { formatBytes, formatDateTime, formatDay, formatListDate, formatLongDate, formatTime } from '../../src/views/lib/format';

const SANTIAGO = 'America/Santiago';
const MEXICO = 'America/Mexico_City';
/** 17:05 in Santiago (UTC-3 in March); 14:05 in Mexico City. */
const AFTERNOON = '2026-03-02T20:05:00Z';
const NOW = new Date('2026-03-02T22:00:00Z');

describe('dates', () => {
  it('times: 24 hours in es-CL, 12 with p.m. in es-MX', () => {
    expect(formatTime(AFTERNOON, 'es-CL', SANTIAGO)).toBe('17:05');
    expect(formatTime('2026-03-02T12:05:00Z', 'es-CL', SANTIAGO)).toBe('09:05');
    expect(formatTime(AFTERNOON, 'es-MX', MEXICO)).toBe('2:05 p.m.');
  });

  it('days and moments always carry a four-digit year', () => {
    expect(formatDay(AFTERNOON, 'es-CL', SANTIAGO)).toBe('02-03-2026');
    expect(formatDay(AFTERNOON, 'es-MX', MEXICO)).toBe('02/03/2026');
    expect(formatDateTime(AFTERNOON, 'es-CL', SANTIAGO)).toBe('02-03-2026, 17:05');
    expect(formatDateTime(AFTERNOON, 'es-MX', MEXICO)).toBe('02/03/2026, 2:05 p.m.');
  });

  it('folder rows: the time today, day and month this year, the whole date before', () => {
    expect(formatListDate(AFTERNOON, 'es-CL', SANTIAGO, NOW)).toBe('17:05');
    expect(formatListDate('2026-01-15T15:00:00Z', 'es-CL', SANTIAGO, NOW)).toBe('15 ene');
    expect(formatListDate('2025-11-20T15:00:00Z', 'es-CL', SANTIAGO, NOW)).toBe('20-11-2025');
    expect(formatListDate('2025-11-20T15:00:00Z', 'es-MX', MEXICO, NOW)).toBe('20/11/2025');
  });

  it("a message's own date, spelled out, with the same clock", () => {
    expect(formatLongDate(AFTERNOON, 'es-CL', SANTIAGO)).toEqual({ date: 'lunes, 2 de marzo de 2026', time: '17:05' });
    expect(formatLongDate(AFTERNOON, 'es-MX', MEXICO)).toEqual({ date: 'lunes, 2 de marzo de 2026', time: '2:05 p.m.' });
  });
});

describe('sizes', () => {
  it("a file's size in the locale's decimals: 1,5 MB in Chile, 1.5 MB in Mexico", () => {
    expect(formatBytes(1.5 * 1024 * 1024, 'es-CL')).toBe('1,5 MB');
    expect(formatBytes(1.5 * 1024 * 1024, 'es-MX')).toBe('1.5 MB');
    expect(formatBytes(200 * 1024, 'es-CL')).toBe('200 KB');
    expect(formatBytes(512, 'es-MX')).toBe('512 B');
  });
});
