// src/machines/dashboard/connectivity-rules.ts: what a connectivity row's figures show beyond the server's
// numbers — the guardians in the device mix and the share each channel reaches.
import { describe, expect, it } from 'vitest';
import { deviceTotal, reachShare } from '../../src/machines/dashboard/connectivity-rules';
import { COURSE_1B, connectivityRow } from '../fixtures/dashboard';

describe('connectivity row rules', () => {
  it('counts every guardian of the device mix, whatever their colour', () => {
    expect(deviceTotal(COURSE_1B)).toBe(4 + 10 + 12 + 14);
    expect(deviceTotal(connectivityRow(1, 'Vacío', { devices: { blue: 0, green: 0, yellow: 0, red: 0 } }))).toBe(0);
  });

  it('gives each channel its share of the guardians, none for a row without guardians', () => {
    const row = connectivityRow(1, '2° Básico A');
    expect([reachShare(row, 'app-mobile'), reachShare(row, 'e-mail'), reachShare(row, 'sms'), reachShare(row, 'whatsapp')]).toEqual([
      0.5, 0.75, 0.9, 0.9,
    ]);
    expect(
      reachShare(
        connectivityRow(2, 'Sin apoderados', { guardians: 0, reach: { 'app-mobile': 0, 'e-mail': 0, sms: 0, whatsapp: 0 } }),
        'sms',
      ),
    ).toBeNull();
  });
});
