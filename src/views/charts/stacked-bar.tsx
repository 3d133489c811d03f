// A 100 % stacked bar (the guardians' device mix) drawn as SVG, in bar-chart.tsx's pattern:
// styled by classes only (the CSP allows no inline styles; widths are SVG attributes), inside the chart
// frame (chart-frame.tsx: title, summary on screen, data table behind "Ver tabla"). The legend is the
// caller's (the device legend is always visible beside it, never folded away). Generic: segments and
// texts come in as props.
import { ChartFrame } from './chart-frame';
import { formatNumber } from './scale';

interface StackSegment {
  key: string;
  label: string;
  value: number;
  /** The segment's fill (a `fill-*` class). */
  fillClassName: string;
}

interface StackedBarLabels {
  /** Column headers of the table. */
  category: string;
  value: string;
  share: string;
  showTable: string;
  hideTable: string;
}

export interface StackedBarProps {
  title: string;
  summary: string;
  segments: readonly StackSegment[];
  locale: string;
  labels: StackedBarLabels;
  className?: string;
}

export interface StackBox {
  key: string;
  x: number;
  width: number;
}

/** Each segment's box on a 0–100 track, in order; empty segments take no room; all zero: no boxes. */
export function stackBoxes(segments: readonly { key: string; value: number }[]): StackBox[] {
  const total = segments.reduce((sum, s) => sum + Math.max(0, s.value), 0);
  if (!(total > 0)) return [];
  const boxes: StackBox[] = [];
  let done = 0;
  for (const segment of segments) {
    if (!(segment.value > 0)) continue;
    const start = Math.round((done / total) * 1000) / 10;
    done += segment.value;
    const end = Math.round((done / total) * 1000) / 10;
    boxes.push({ key: segment.key, x: start, width: Math.round((end - start) * 10) / 10 });
  }
  return boxes;
}

/** "37 %": a share of the total, whole percent in the locale's format; 0 total: "—". */
export function formatShare(value: number, total: number, locale: string): string {
  if (!(total > 0)) return '—';
  return `${formatNumber(Math.round((value / total) * 100), locale)} %`;
}

export function StackedBar({ title, summary, segments, locale, labels, className }: StackedBarProps) {
  const boxes = stackBoxes(segments);
  const total = segments.reduce((sum, s) => sum + Math.max(0, s.value), 0);
  return (
    <ChartFrame
      slot="stacked-bar"
      title={title}
      summary={summary}
      viewBox="0 0 100 8"
      preserveAspectRatio="none"
      svgClassName="h-6 w-full"
      columns={[{ label: labels.category }, { label: labels.value, numeric: true }, { label: labels.share, numeric: true }]}
      rows={segments.map((s) => ({
        key: s.key,
        label: s.label,
        cells: [formatNumber(s.value, locale), formatShare(s.value, total, locale)],
      }))}
      showTable={labels.showTable}
      hideTable={labels.hideTable}
      className={className}
    >
      <rect width={100} height={8} rx={1.5} className="fill-muted" />
      {boxes.map((box) => {
        const segment = segments.find((s) => s.key === box.key) as StackSegment;
        return (
          <rect
            key={box.key}
            x={box.x}
            width={box.width}
            height={8}
            data-slot="stacked-bar-segment"
            data-key={box.key}
            className={segment.fillClassName}
          />
        );
      })}
    </ChartFrame>
  );
}
