// The bench's closing summary (bench/summary.ts): each row judged against its own target (at most, at
// least, reported only, not measured), its ratio to the target, and the one-screen table it prints.
import { describe, expect, it } from 'vitest';
import { formatSummary, ratioOf, summarize, targetText, verdictOf, type SummaryRow } from '../../bench/summary';

const row = (value: number | null, goal: SummaryRow['goal'], unit = 'kB'): SummaryRow => ({
  section: 'a',
  figure: 'JS',
  unit,
  value,
  goal,
});

describe('verdict', () => {
  it('a ceiling is met at the limit and missed just above it', () => {
    expect(verdictOf(row(94.99, { kind: 'atMost', limit: 95 }))).toBe('ok');
    expect(verdictOf(row(95, { kind: 'atMost', limit: 95 }))).toBe('ok');
    expect(verdictOf(row(95.01, { kind: 'atMost', limit: 95 }))).toBe('fail');
  });

  it('a floor is met at the limit and missed just under it', () => {
    expect(verdictOf(row(0.67, { kind: 'atLeast', limit: 0.67 }))).toBe('ok');
    expect(verdictOf(row(0.66, { kind: 'atLeast', limit: 0.67 }))).toBe('fail');
    expect(verdictOf(row(3, { kind: 'atLeast', limit: 0.67 }))).toBe('ok');
  });

  it('a figure without a target is reported; one not measured is missing, target or not', () => {
    expect(verdictOf(row(20, { kind: 'reported' }))).toBe('reported');
    expect(verdictOf(row(null, { kind: 'reported' }))).toBe('missing');
    expect(verdictOf(row(null, { kind: 'atMost', limit: 95 }))).toBe('missing');
    expect(verdictOf(row(Number.NaN, { kind: 'atMost', limit: 95 }))).toBe('missing');
  });

  it('no long task at all: zero meets a zero ceiling, one misses it', () => {
    expect(verdictOf(row(0, { kind: 'atMost', limit: 0 }, ''))).toBe('ok');
    expect(verdictOf(row(1, { kind: 'atMost', limit: 0 }, ''))).toBe('fail');
  });
});

describe('ratio and target', () => {
  it('the ratio is value ÷ limit with two decimals', () => {
    expect(ratioOf(row(106.8, { kind: 'atMost', limit: 95 }))).toBe(1.12);
    expect(ratioOf(row(1200, { kind: 'atMost', limit: 1500 }, 'ms'))).toBe(0.8);
    expect(ratioOf(row(0.2, { kind: 'atLeast', limit: 0.5 }, ''))).toBe(0.4);
  });

  it('no ratio without a target, without a value, or against a zero limit', () => {
    expect(ratioOf(row(20, { kind: 'reported' }))).toBeNull();
    expect(ratioOf(row(null, { kind: 'atMost', limit: 95 }))).toBeNull();
    expect(ratioOf(row(0, { kind: 'atMost', limit: 0 }, ''))).toBeNull();
  });

  it('the target reads as the comparison with its unit', () => {
    expect(targetText(row(1, { kind: 'atMost', limit: 95 }))).toBe('≤ 95 kB');
    expect(targetText(row(1, { kind: 'atLeast', limit: 0.6667 }, ''))).toBe('≥ 0.67');
    expect(targetText(row(1, { kind: 'atMost', limit: 1.1 }, '×'))).toBe('≤ 1.1 ×');
    expect(targetText(row(1, { kind: 'reported' }))).toBe('—');
  });
});

describe('summary', () => {
  const rows: SummaryRow[] = [
    { section: 'a', figure: 'JavaScript inicial', unit: 'kB', value: 106.8, goal: { kind: 'atMost', limit: 95 } },
    { section: 't', figure: 'login', unit: 'ms', value: 1200, goal: { kind: 'atMost', limit: 1500 } },
    { section: 'g', figure: 'repetidos', unit: '', value: null, goal: { kind: 'reported' } },
  ];

  it('counts the rows with a target and those that met it', () => {
    const summary = summarize(rows);
    expect(summary.withTarget).toBe(2);
    expect(summary.met).toBe(1);
    expect(summary.entries.map((entry) => entry.verdict)).toEqual(['fail', 'ok', 'missing']);
    expect(summary.entries[0]).toMatchObject({ target: '≤ 95 kB', ratio: 1.12 });
  });

  it('prints one aligned line per row and the count of targets met', () => {
    expect(formatSummary(summarize(rows))).toEqual([
      '   cifra                objetivo     valor  razón  resultado',
      `─  ${'─'.repeat(18)}  ${'─'.repeat(9)}  ${'─'.repeat(8)}  ${'─'.repeat(5)}  ${'─'.repeat(9)}`,
      'a  JavaScript inicial    ≤ 95 kB  106.8 kB   1.12  NO CUMPLE',
      't  login               ≤ 1500 ms   1200 ms   0.80  OK',
      'g  repetidos                   —         —         sin dato',
      '1 de 2 objetivos cumplidos; 1 no cumple.',
    ]);
  });

  it('a figure just over its target shows a ratio of 1.00, and fails', () => {
    const lines = formatSummary(summarize([{ ...rows[1], value: 1502 } as SummaryRow]));
    expect(lines[2]).toBe('t  login  ≤ 1500 ms  1502 ms   1.00  NO CUMPLE');
  });

  it('every target met says so without a failure count', () => {
    expect(formatSummary(summarize([rows[1] as SummaryRow])).at(-1)).toBe('1 de 1 objetivos cumplidos.');
  });

  it('a long figure is cut so a line stays within 120 columns', () => {
    const long = 'una cifra con un nombre larguísimo que no cabría en la pantalla junto a su objetivo y su valor';
    const lines = formatSummary(summarize([{ ...rows[0], figure: long } as SummaryRow]));
    expect(lines[2]).toContain(`${long.slice(0, 55)}…`);
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(120);
  });
});
