// The one-screen summary printed at the end of `npm run bench` and kept as `summary` in reports/bench.json.
// A section contributes rows through `SummaryRow` only (bench/summary-rows.ts: one function per section,
// reading the value and its target from the section's own report); the target's text, the ratio and the
// verdict are worked out here, the same way for every row. Nothing here measures or reads a file.

/** What a figure must do: stay at or under a limit, reach at least one, or just be reported. */
type Goal = { kind: 'atMost'; limit: number } | { kind: 'atLeast'; limit: number } | { kind: 'reported' };

export interface SummaryRow {
  /** The bench section's letter (`a`, `g`…). */
  section: string;
  figure: string;
  /** Printed after the value and the limit: `kB`, `ms`, `MB`, `×`, or empty. */
  unit: string;
  /** null: the section ran without measuring it (PostgreSQL skipped, a run that failed). */
  value: number | null;
  goal: Goal;
}

/** A section's rows from its report: the one interface every section implements. */
export type SummaryRows<R> = (report: R) => SummaryRow[];

export type Verdict = 'ok' | 'fail' | 'reported' | 'missing';

interface SummaryEntry extends SummaryRow {
  target: string;
  /** value ÷ limit, 2 decimals; null when reported only, missing, or the limit is 0. */
  ratio: number | null;
  verdict: Verdict;
}

export interface Summary {
  entries: SummaryEntry[];
  /** Rows with a target, and how many of them met it. */
  withTarget: number;
  met: number;
}

const round2 = (value: number): number => Math.round(value * 100) / 100;

/** A number as the table shows it: at most 2 decimals, none when whole. */
function formatNumber(value: number): string {
  const rounded = round2(value);
  return Number.isInteger(rounded) ? String(rounded) : rounded.toFixed(2).replace(/0$/, '');
}

const withUnit = (value: number, unit: string): string => (unit ? `${formatNumber(value)} ${unit}` : formatNumber(value));

export function verdictOf(row: SummaryRow): Verdict {
  if (row.value === null || !Number.isFinite(row.value)) return 'missing';
  switch (row.goal.kind) {
    case 'reported':
      return 'reported';
    case 'atMost':
      return row.value <= row.goal.limit ? 'ok' : 'fail';
    case 'atLeast':
      return row.value >= row.goal.limit ? 'ok' : 'fail';
  }
}

export function ratioOf(row: SummaryRow): number | null {
  if (row.value === null || !Number.isFinite(row.value) || row.goal.kind === 'reported' || row.goal.limit === 0) return null;
  return round2(row.value / row.goal.limit);
}

export function targetText(row: SummaryRow): string {
  switch (row.goal.kind) {
    case 'reported':
      return '—';
    case 'atMost':
      return `≤ ${withUnit(row.goal.limit, row.unit)}`;
    case 'atLeast':
      return `≥ ${withUnit(row.goal.limit, row.unit)}`;
  }
}

export function summarize(rows: readonly SummaryRow[]): Summary {
  const entries = rows.map((row) => ({ ...row, target: targetText(row), ratio: ratioOf(row), verdict: verdictOf(row) }));
  const judged = entries.filter((entry) => entry.goal.kind !== 'reported');
  return { entries, withTarget: judged.length, met: judged.filter((entry) => entry.verdict === 'ok').length };
}

const VERDICT_TEXT: Record<Verdict, string> = { ok: 'OK', fail: 'NO CUMPLE', reported: 'informado', missing: 'sin dato' };

/** Longest figure text before it is cut with "…", so the table fits a 120-column screen. */
const FIGURE_WIDTH = 56;

function cut(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
}

/** The table's lines: a header, one line per row, and the count of targets met. */
export function formatSummary(summary: Summary): string[] {
  const cells = summary.entries.map((entry) => [
    entry.section,
    cut(entry.figure, FIGURE_WIDTH),
    entry.target,
    entry.value === null ? '—' : withUnit(entry.value, entry.unit),
    // Always two decimals: 1.00 next to «NO CUMPLE» says the figure is just over its target.
    entry.ratio === null ? '' : entry.ratio.toFixed(2),
    VERDICT_TEXT[entry.verdict],
  ]);
  const header = ['', 'cifra', 'objetivo', 'valor', 'razón', 'resultado'];
  const widths = header.map((title, column) => Math.max(title.length, ...cells.map((row) => row[column]?.length ?? 0)));
  // Numbers right-aligned, text left-aligned.
  const right = new Set([2, 3, 4]);
  const line = (row: string[]): string =>
    row
      .map((cell, column) => (right.has(column) ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  const failed = summary.entries.filter((entry) => entry.verdict === 'fail').length;
  return [
    line(header),
    line(widths.map((width) => '─'.repeat(width))),
    ...cells.map(line),
    `${summary.met} de ${summary.withTarget} objetivos cumplidos${failed > 0 ? `; ${failed} no cumple${failed === 1 ? '' : 'n'}` : ''}.`,
  ];
}
