// The call list's CSV (server/dashboard/connectivity/call-list-csv.ts callListCsv) opened in a spreadsheet:
// a name typed as "=HYPERLINK(…)" or "+56…" by a family must arrive as text, never as a formula (CSV
// injection).
import { describe, expect, it } from 'vitest';
import type { CallList } from '../../shared/dashboard-contract';
import { callListCsv } from '../../server/dashboard/connectivity/call-list-csv';

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
    );
    const row = csv.split('\r\n')[1]!;
    expect(row).toContain(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(row).toContain(`"'+56 9 1234"`);
    expect(row).toContain(`"'@evil"`);
    expect(row).toContain(`"'-1+1"`);
    expect(row).toContain(`"'=1+1"`);
    expect(callListCsv(list({ student: '\tTab' })).split('\r\n')[1]).toContain(`"'\tTab"`);
  });

  it('leaves ordinary text as it is', () => {
    const row = callListCsv(list({})).split('\r\n')[1]!;
    expect(row.startsWith('"Ana Soto";"1° Básico A";"Luis Soto"')).toBe(true);
  });
});
