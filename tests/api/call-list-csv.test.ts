// The call list's CSV (server/dashboard/connectivity/call-list-csv.ts callListCsv) opened in a spreadsheet:
// a name typed as "=HYPERLINK(…)" or "+56…" by a family must arrive as text, never as a formula (CSV
// injection).
import { describe, expect, it } from 'vitest';
import type { CallList } from '../../shared/dashboard-contract';
import { callListCsv } from '../../server/dashboard/connectivity/call-list-csv';
import { es, mx } from '../fixtures/texts';

const ZONE = 'America/Santiago';

const list = (over: Partial<CallList['rows'][number]>): CallList => ({
  course: { id: 1, name: '1° Básico A' },
  messages: 3,
  generated_at: '2026-11-24T12:00:00.000Z',
  rows: [
    {
      student: 'Ana Soto',
      course: '1° Básico A',
      guardian: 'Luis Soto',
      role: 'titular',
      reasons: ['sms_failed'],
      opted_out: [],
      phone: null,
      email: null,
      alternatives: [],
      ...over,
    },
  ],
});

describe('callListCsv', () => {
  it('writes a field starting with = + - @ (or a tab) after an apostrophe, quoted, so it stays text', () => {
    const csv = callListCsv(
      list({ student: '=HYPERLINK("http://x","y")', guardian: '+56 9 1234', email: '@evil', course: '-1+1', alternatives: ['=1+1'] }),
      'es-CL',
      ZONE,
    );
    const row = csv.split('\r\n')[1]!;
    expect(row).toContain(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(row).toContain(`"'+56 9 1234"`);
    expect(row).toContain(`"'@evil"`);
    expect(row).toContain(`"'-1+1"`);
    expect(row).toContain(`"'=1+1"`);
    expect(callListCsv(list({ student: '\tTab' }), 'es-CL', ZONE).split('\r\n')[1]).toContain(`"'\tTab"`);
  });

  it('leaves ordinary text as it is', () => {
    const row = callListCsv(list({}), 'es-CL', ZONE).split('\r\n')[1]!;
    expect(row.startsWith('"Ana Soto";"1° Básico A";"Luis Soto"')).toBe(true);
  });
});

// The file says what the screen says (src/i18n/dashboard): its headers, the guardian's role and the reasons
// in the words of the call list's table, in the locale the user reads.
describe("callListCsv in the screen's words", () => {
  const header = (csv: string) => csv.replace(/^\uFEFF/, '').split('\r\n')[0]!;
  const cellsOf = (line: string) => line.slice(1, -1).split('";"');
  const reasons = ['phone_missing', 'sms_failed', 'no_app'] as const;

  for (const [locale, texts] of [
    ['es-CL', es],
    ['es-MX', mx],
  ] as const) {
    it(`${locale}: headers, role and reasons as the table shows them`, () => {
      const csv = callListCsv(list({ role: 'suplente', reasons: [...reasons] }), locale, ZONE);
      const columns = ['student', 'course', 'guardian', 'role', 'reasons', 'phone', 'email', 'alternatives'] as const;
      expect(cellsOf(header(csv))).toEqual(columns.map((column) => texts.callList[column]));
      const row = cellsOf(csv.split('\r\n')[1]!);
      expect(row[3]).toBe(texts.course.role.suplente);
      expect(row[4]).toBe(reasons.map((reason) => texts.course.fix[reason]).join('; '));
    });
  }

  it("an opt-out names its day in the school's zone, in each country's date", () => {
    // 3 March 02:00 UTC is still 2 March in Santiago and in Mexico City.
    const row = list({ reasons: ['sms_opted_out', 'no_app'], opted_out: [{ channel: 'sms', at: '2026-03-03T02:00:00.000Z' }] });
    expect(cellsOf(callListCsv(row, 'es-CL', ZONE).split('\r\n')[1]!)[4]).toBe('Se dio de baja por SMS el 02-03-2026; No tiene la app');
    expect(cellsOf(callListCsv(row, 'es-MX', 'America/Mexico_City').split('\r\n')[1]!)[4]).toBe(
      'Se dio de baja por SMS el 02/03/2026; No tiene la app',
    );
    expect(es.course.fix.sms_opted_out).toBe('Se dio de baja por SMS el {{date}}');
  });

  it('a Mexican file reads "Alumno", "Grupo" and "Padre o tutor"', () => {
    expect(cellsOf(header(callListCsv(list({}), 'es-MX', ZONE))).slice(0, 3)).toEqual(['Alumno', 'Grupo', 'Padre o tutor']);
  });
});
