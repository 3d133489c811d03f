// What the roster screen refuses before sending a file: a type other than CSV or .xlsx (told by the name,
// whatever its case), an empty file, one over 10 MB; and the chooser offers exactly those two types.
import { describe, expect, it } from 'vitest';
import { fileRefusal, ROSTER_ACCEPT } from '../../src/machines/roster/roster-rules';

const MB = 1024 * 1024;

describe('fileRefusal', () => {
  it('lets a CSV or a workbook go, whatever the case of its extension, up to 10 MB', () => {
    expect(fileRefusal({ name: 'nomina.csv', size: 1 })).toBeNull();
    expect(fileRefusal({ name: 'Nómina 2027.XLSX', size: 10 * MB })).toBeNull();
  });

  it('refuses another type first, even when empty or too big', () => {
    expect(fileRefusal({ name: 'nomina.xls', size: 100 })).toBe('type');
    expect(fileRefusal({ name: 'nomina.csv.pdf', size: 0 })).toBe('type');
    expect(fileRefusal({ name: 'nomina', size: 20 * MB })).toBe('type');
    expect(fileRefusal({ name: 'csv', size: 100 })).toBe('type');
  });

  it('refuses an empty file and one over 10 MB', () => {
    expect(fileRefusal({ name: 'nomina.csv', size: 0 })).toBe('empty');
    expect(fileRefusal({ name: 'nomina.xlsx', size: 10 * MB + 1 })).toBe('size');
  });
});

describe('ROSTER_ACCEPT', () => {
  it('offers the two types by extension and by media type', () => {
    expect(ROSTER_ACCEPT.split(',').sort()).toEqual(
      ['.csv', '.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'text/csv'].sort(),
    );
  });
});
