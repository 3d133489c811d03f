// A vertical bar chart drawn as SVG: one bar per period, the limit in force as a step across
// each bar's slot, the value axis in the locale's numbers. Styled by classes only (the CSP allows no inline
// styles): geometry is SVG attributes (x, y, width, height), which are not styles. Its title, summary,
// legend and data table are the chart frame's (chart-frame.tsx). Generic: texts come in as props (the
// dashboards pass their own).
import { cn } from '../lib/utils';
import { ChartFrame } from './chart-frame';
import { DEFAULT_FRAME, formatNumber, layoutBars, type BarDatum, type Frame } from './scale';

interface BarChartLabels {
  /** Column headers of the table. */
  period: string;
  value: string;
  limit: string;
  /** The toggle's two names. */
  showTable: string;
  hideTable: string;
}

export interface BarChartProps {
  /** The chart's name: its <title> and the table's caption. */
  title: string;
  /** One sentence saying what the chart shows ("Marzo es el mes con más SMS: 4.210 de 5.000"). */
  summary: string;
  data: readonly BarDatum[];
  locale: string;
  labels: BarChartLabels;
  frame?: Frame;
  className?: string;
}

/** The smaller viewBox the charts use. */
export const CHART_FRAME: Frame = { ...DEFAULT_FRAME, width: 400, height: 220, left: 44, bottom: 22 };

/**
 * The axis labels, in viewBox units: the drawing shrinks with its box, so in a box narrower than 28rem (a
 * 390 px phone draws it about 310 px wide) the labels are larger units, to stay at 11 px or more on screen.
 */
const LABEL_CLASS = 'fill-muted-foreground text-[10px] @max-md:text-[15px]';

export function BarChart({ title, summary, data, locale, labels, frame = CHART_FRAME, className }: BarChartProps) {
  const layout = layoutBars(data, frame);
  const hasLimit = data.some((d) => d.limit != null);
  const columns = [
    { label: labels.period },
    { label: labels.value, numeric: true },
    ...(hasLimit ? [{ label: labels.limit, numeric: true }] : []),
  ];
  const rows = data.map((d) => ({
    key: d.key,
    label: d.longLabel ?? d.label,
    cells: [formatNumber(d.value, locale), ...(hasLimit ? [d.limit == null ? '—' : formatNumber(d.limit, locale)] : [])],
  }));
  const legend = (
    <span className="flex flex-wrap items-center gap-x-4 gap-y-1 text-muted-foreground" aria-hidden="true">
      <span className="inline-flex items-center gap-1">
        <svg viewBox="0 0 10 10" className="size-3" aria-hidden="true">
          <rect width={10} height={10} rx={2} className="fill-primary" />
        </svg>
        {labels.value}
      </span>
      {hasLimit ? (
        <span className="inline-flex items-center gap-1">
          <svg viewBox="0 0 14 10" className="h-3 w-4" aria-hidden="true">
            <line x1={0} x2={14} y1={5} y2={5} className="stroke-foreground" strokeWidth={1.5} strokeDasharray="4 3" />
          </svg>
          {labels.limit}
        </span>
      ) : null}
    </span>
  );
  return (
    <ChartFrame
      slot="bar-chart"
      title={title}
      summary={summary}
      viewBox={`0 0 ${frame.width} ${frame.height}`}
      svgClassName="h-auto w-full max-w-2xl overflow-visible"
      legend={legend}
      columns={columns}
      rows={rows}
      showTable={labels.showTable}
      hideTable={labels.hideTable}
      // The labels' size follows the chart's own width (LABEL_CLASS).
      className={cn('@container', className)}
    >
      {/* biome-ignore lint/a11y/noAriaHiddenOnFocusable: an SVG group takes no focus; the drawing is hidden because the table beside it says the same. */}
      <g data-slot="bar-chart-axis" aria-hidden="true">
        {layout.ticks.map((tick) => (
          <g key={tick.value}>
            <line x1={frame.left} x2={frame.width - frame.right} y1={tick.y} y2={tick.y} className="stroke-border" strokeWidth={1} />
            <text x={frame.left - 4} y={tick.y} dy="0.32em" textAnchor="end" className={LABEL_CLASS}>
              {formatNumber(tick.value, locale)}
            </text>
          </g>
        ))}
      </g>
      {/* biome-ignore lint/a11y/noAriaHiddenOnFocusable: an SVG group takes no focus; the drawing is hidden because the table beside it says the same. */}
      <g data-slot="bar-chart-bars" aria-hidden="true">
        {layout.bars.map((bar, i) => {
          const datum = data[i] as BarDatum;
          const over = datum.limit != null && datum.value > datum.limit;
          return (
            <g key={bar.key} data-key={bar.key}>
              <rect
                x={bar.x}
                y={bar.y}
                width={bar.width}
                height={bar.height}
                rx={2}
                data-slot="bar"
                className={over ? 'fill-destructive' : 'fill-primary'}
              />
              <text x={bar.center} y={layout.baseline + 14} textAnchor="middle" className={LABEL_CLASS}>
                {datum.label}
              </text>
            </g>
          );
        })}
      </g>
      {layout.limitPath ? (
        // biome-ignore lint/a11y/noAriaHiddenOnFocusable: an SVG path takes no focus; the limit is in the table beside the chart.
        <path
          d={layout.limitPath}
          data-slot="bar-chart-limit"
          aria-hidden="true"
          className="fill-none stroke-foreground"
          strokeWidth={1.5}
          strokeDasharray="4 3"
        />
      ) : null}
    </ChartFrame>
  );
}
