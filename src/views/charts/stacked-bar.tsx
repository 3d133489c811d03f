// A 100 % stacked bar (issue 16: the guardians' device mix) drawn as SVG, in bar-chart.tsx's pattern:
// styled by classes only (the CSP allows no inline styles; widths are SVG attributes), an image named by
// its <title> and described by the summary on screen, and the data as a table that screen readers always
// read and sighted users open with "Ver tabla". The legend is the caller's (the device legend is always
// visible beside it, never folded away). Generic: segments and texts come in as props.
import { useId, useState } from 'react';
import { cn } from '../lib/utils';
import { TableToggle } from './table-toggle';
import { formatNumber } from './scale';

export interface StackSegment {
  key: string;
  label: string;
  value: number;
  /** The segment's fill (a `fill-*` class). */
  fillClassName: string;
}

export interface StackedBarLabels {
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
  const id = useId();
  const [tableShown, setTableShown] = useState(false);
  const boxes = stackBoxes(segments);
  const total = segments.reduce((sum, s) => sum + Math.max(0, s.value), 0);
  const titleId = `${id}-title`;
  const summaryId = `${id}-summary`;
  const tableId = `${id}-table`;
  return (
    <figure data-slot="stacked-bar" className={cn('flex min-w-0 flex-col gap-2', className)}>
      <svg viewBox="0 0 100 8" preserveAspectRatio="none" role="img" aria-labelledby={`${titleId} ${summaryId}`} className="h-6 w-full" data-slot="stacked-bar-svg">
        <title id={titleId}>{title}</title>
        <rect width={100} height={8} rx={1.5} className="fill-muted" />
        {boxes.map((box) => {
          const segment = segments.find((s) => s.key === box.key) as StackSegment;
          return <rect key={box.key} x={box.x} width={box.width} height={8} data-slot="stacked-bar-segment" data-key={box.key} className={segment.fillClassName} />;
        })}
      </svg>
      <figcaption className="text-sm">
        <span id={summaryId} data-slot="stacked-bar-summary">
          {summary}
        </span>
      </figcaption>
      <TableToggle shown={tableShown} controls={tableId} onToggle={() => setTableShown((shown) => !shown)} showLabel={labels.showTable} hideLabel={labels.hideTable} slot="stacked-bar-toggle" />
      {/* Hidden, the table sits in an sr-only box: a table ignores overflow, so sr-only on the table itself
          let its rows stretch a 390 px phone sideways. */}
      <div className={tableShown ? 'w-full max-w-md' : 'sr-only'} data-slot="stacked-bar-table-box">
        <table id={tableId} data-slot="stacked-bar-table" className="w-full text-sm">
          <caption className="sr-only">{title}</caption>
          <thead>
            <tr className="border-b text-left">
              <th scope="col" className="py-1 pr-2 font-medium">
                {labels.category}
              </th>
              <th scope="col" className="py-1 pr-2 text-right font-medium">
                {labels.value}
              </th>
              <th scope="col" className="py-1 text-right font-medium">
                {labels.share}
              </th>
            </tr>
          </thead>
          <tbody>
            {segments.map((s) => (
              <tr key={s.key} className="border-b last:border-0">
                <th scope="row" className="py-1 pr-2 text-left font-normal">
                  {s.label}
                </th>
                <td className="py-1 pr-2 text-right tabular-nums">{formatNumber(s.value, locale)}</td>
                <td className="py-1 text-right tabular-nums">{formatShare(s.value, total, locale)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
