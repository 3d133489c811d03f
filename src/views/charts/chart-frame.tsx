// What every chart here is around its drawing: a figure whose SVG is an image named by
// its <title> and described by the summary on screen, a caption (the summary, and a legend where the chart
// has one), and its data as a table that screen readers always read and sighted users open with "Ver
// tabla". The bar chart and the 100 % bar draw inside it; their texts come in as props. Hidden, the table
// sits in an sr-only box, not sr-only itself: a table ignores overflow, so its rows stretched a 390 px
// phone sideways (the phone e2e tests check).
import { useId, useState, type ReactNode } from 'react';
import { cn } from '../lib/utils';
import { TableToggle } from './table-toggle';

interface ChartColumn {
  label: string;
  /** A figure: right-aligned, tabular digits. */
  numeric?: boolean;
}

interface ChartRow {
  key: string;
  /** The row's name (its header cell). */
  label: string;
  /** One text per column after the first, already in the locale's format. */
  cells: readonly string[];
}

export interface ChartFrameProps {
  /** The data-slot prefix ("bar-chart": bar-chart-svg, bar-chart-summary, bar-chart-table…). */
  slot: string;
  title: string;
  summary: string;
  viewBox: string;
  preserveAspectRatio?: string;
  svgClassName: string;
  /** The drawing, inside the SVG after its <title>. */
  children: ReactNode;
  /** Beside the summary, under it (a key to the colours and lines). */
  legend?: ReactNode;
  /** The table's columns: the rows' names first, then the figures. */
  columns: readonly ChartColumn[];
  rows: readonly ChartRow[];
  showTable: string;
  hideTable: string;
  className?: string;
}

export function ChartFrame({
  slot,
  title,
  summary,
  viewBox,
  preserveAspectRatio,
  svgClassName,
  children,
  legend,
  columns,
  rows,
  showTable,
  hideTable,
  className,
}: ChartFrameProps) {
  const id = useId();
  const [tableShown, setTableShown] = useState(false);
  const titleId = `${id}-title`;
  const summaryId = `${id}-summary`;
  const tableId = `${id}-table`;
  const padEnd = (i: number) => (i < columns.length - 1 ? 'pr-2' : null);
  return (
    <figure data-slot={slot} className={cn('flex min-w-0 flex-col gap-2', className)}>
      <svg
        viewBox={viewBox}
        preserveAspectRatio={preserveAspectRatio}
        role="img"
        aria-labelledby={`${titleId} ${summaryId}`}
        className={svgClassName}
        data-slot={`${slot}-svg`}
      >
        <title id={titleId}>{title}</title>
        {children}
      </svg>
      <figcaption className="flex flex-col gap-1 text-sm">
        <span id={summaryId} data-slot={`${slot}-summary`}>
          {summary}
        </span>
        {legend}
      </figcaption>
      <TableToggle
        shown={tableShown}
        controls={tableId}
        onToggle={() => setTableShown((shown) => !shown)}
        showLabel={showTable}
        hideLabel={hideTable}
        slot={`${slot}-toggle`}
      />
      <div className={tableShown ? 'w-full max-w-md' : 'sr-only'} data-slot={`${slot}-table-box`}>
        <table id={tableId} data-slot={`${slot}-table`} className="w-full text-sm">
          <caption className="sr-only">{title}</caption>
          <thead>
            <tr className="border-b text-left">
              {columns.map((column, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the columns are a fixed list; a header cell is its column's position.
                <th key={i} scope="col" className={cn('py-1 font-medium', padEnd(i), column.numeric && 'text-right')}>
                  {column.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.key} className="border-b last:border-0">
                <th scope="row" className="py-1 pr-2 text-left font-normal">
                  {row.label}
                </th>
                {row.cells.map((cell, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a row's cells follow the columns by position.
                  <td key={i} className={cn('py-1', padEnd(i + 1), columns[i + 1]?.numeric && 'text-right tabular-nums')}>
                    {cell}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
