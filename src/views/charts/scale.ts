// Pure geometry and formatting of the charts (no React): a "nice" top of the value axis, its ticks, each
// bar's box and limit mark in SVG user units, and numbers in the locale's format ("4.210" in es-CL, "4,210"
// in es-MX). Kept apart so the dashboards' charts reuse them and the unit tests check them without a DOM.

/** One bar: a period (or a person, a course) with its value and, optionally, the limit in force for it. */
export interface BarDatum {
  /** Stable key (a period 'YYYY-MM', an id). */
  key: string;
  /** What the axis and the table call it ("mar", "2025"). */
  label: string;
  /** The full name for the table and the summary ("marzo de 2026"); `label` when absent. */
  longLabel?: string;
  value: number;
  /** The limit for this bar (drawn as a mark across it); null or absent: none. */
  limit?: number | null;
}

const formats = new Map<string, Intl.NumberFormat>();

/** "4.210" (es-CL), "4,210" (es-MX). */
export function formatNumber(value: number, locale: string): string {
  let format = formats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
    formats.set(locale, format);
  }
  return format.format(value);
}

/** A round top for the axis at or above `max` (1, 2, 2.5 or 5 times a power of ten); 0 → 1. */
export function niceMax(max: number): number {
  if (!(max > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 2.5, 5, 10]) {
    const top = step * power;
    if (top >= max) return top;
  }
  return 10 * power;
}

/** `count` + 1 evenly spaced ticks from 0 to `top` inclusive, integers when `top` allows. */
export function ticks(top: number, count = 4): number[] {
  return Array.from({ length: count + 1 }, (_, i) => Math.round(((top * i) / count) * 100) / 100);
}

export interface Frame {
  width: number;
  height: number;
  /** Room for the value axis' labels (left) and the periods' labels (bottom). */
  left: number;
  bottom: number;
  top: number;
  right: number;
}

export const DEFAULT_FRAME: Frame = { width: 640, height: 260, left: 56, bottom: 28, top: 12, right: 8 };

interface BarBox {
  key: string;
  x: number;
  y: number;
  width: number;
  height: number;
  /** Middle of the bar's slot (its label's x). */
  center: number;
  /** The limit mark's y, or null when the bar has no limit. */
  limitY: number | null;
  /** The slot's edges, for the limit's step across the whole slot. */
  slotStart: number;
  slotEnd: number;
}

export interface BarLayout {
  top: number;
  ticks: { value: number; y: number }[];
  bars: BarBox[];
  /** The limit as one step path across the slots (consecutive bars with a limit joined), '' when none. */
  limitPath: string;
  baseline: number;
}

const round = (n: number) => Math.round(n * 10) / 10;

/** Every bar's box in `frame`: the axis' top is a nice number above the highest value and limit. */
export function layoutBars(data: readonly BarDatum[], frame: Frame = DEFAULT_FRAME): BarLayout {
  const highest = Math.max(0, ...data.map((d) => Math.max(d.value, d.limit ?? 0)));
  const top = niceMax(highest);
  const plotHeight = frame.height - frame.top - frame.bottom;
  const plotWidth = frame.width - frame.left - frame.right;
  const baseline = frame.top + plotHeight;
  const yOf = (value: number) => round(baseline - (value / top) * plotHeight);
  const slot = data.length > 0 ? plotWidth / data.length : plotWidth;
  const barWidth = round(slot * 0.6);
  const bars = data.map((d, i) => {
    const slotStart = round(frame.left + i * slot);
    const center = round(frame.left + i * slot + slot / 2);
    const y = yOf(d.value);
    return {
      key: d.key,
      x: round(center - barWidth / 2),
      y,
      width: barWidth,
      height: round(baseline - y),
      center,
      limitY: d.limit == null ? null : yOf(d.limit),
      slotStart,
      slotEnd: round(frame.left + (i + 1) * slot),
    };
  });
  let limitPath = '';
  let previous: BarBox | null = null;
  for (const bar of bars) {
    if (bar.limitY === null) {
      previous = null;
      continue;
    }
    limitPath +=
      previous && previous.limitY !== null ? ` L${bar.slotStart} ${bar.limitY}` : `${limitPath ? ' ' : ''}M${bar.slotStart} ${bar.limitY}`;
    limitPath += ` L${bar.slotEnd} ${bar.limitY}`;
    previous = bar;
  }
  return { top, ticks: ticks(top).map((value) => ({ value, y: yOf(value) })), bars, limitPath, baseline };
}

/** The datum with the highest value (the first of equals), or null for no data or only zeros. */
export function peak<T extends { value: number }>(data: readonly T[]): T | null {
  let best: T | null = null;
  for (const d of data) if (d.value > 0 && (best === null || d.value > best.value)) best = d;
  return best;
}

/** A bar's share of the longest, in 0..1 (horizontal bar lists). */
export function shareOf(value: number, max: number): number {
  return max > 0 ? Math.min(1, Math.max(0, value / max)) : 0;
}
