// A horizontal bar list (top senders and courses): each row a
// name, its figure and a bar as long as its share of the first. A list is already text, so it needs no
// table fallback; the bars are decoration (aria-hidden). Styled by classes, geometry as SVG attributes.
import { useId } from 'react';
import { cn } from '../lib/utils';
import { Card, CardContent } from '../ui/card';
import { formatNumber, shareOf } from './scale';

interface BarListItem {
  key: string;
  label: string;
  value: number;
  /** A second line under the name ("12 mensajes"). */
  detail?: string;
}

export interface BarListProps {
  title: string;
  items: readonly BarListItem[];
  locale: string;
  /** Shown instead of the list when there are no items. */
  empty: string;
  /** The figure as read ("1.204 SMS"); the plain number when absent. */
  formatValue?: (value: number) => string;
  className?: string;
}

export function BarList({ title, items, locale, empty, formatValue, className }: BarListProps) {
  const id = useId();
  const max = Math.max(0, ...items.map((item) => item.value));
  const show = formatValue ?? ((value: number) => formatNumber(value, locale));
  return (
    <section aria-labelledby={`${id}-title`} data-slot="bar-list" className={cn('flex min-w-0 flex-col gap-2', className)}>
      <h3 id={`${id}-title`} className="text-base font-semibold">
        {title}
      </h3>
      {items.length === 0 ? (
        <p className="text-sm text-muted-foreground" data-slot="bar-list-empty">
          {empty}
        </p>
      ) : (
        <ol className="flex flex-col gap-2">
          {items.map((item) => (
            <li key={item.key} data-slot="bar-list-item" className="flex flex-col gap-1">
              <div className="flex items-baseline justify-between gap-2 text-sm">
                <span className="min-w-0 truncate font-medium">{item.label}</span>
                <span className="shrink-0 tabular-nums">{show(item.value)}</span>
              </div>
              {item.detail ? <span className="text-xs text-muted-foreground">{item.detail}</span> : null}
              <svg viewBox="0 0 100 4" preserveAspectRatio="none" aria-hidden="true" className="h-1.5 w-full">
                <rect width={100} height={4} rx={2} className="fill-muted" />
                <rect width={Math.round(shareOf(item.value, max) * 1000) / 10} height={4} rx={2} className="fill-primary" />
              </svg>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** A bar list in a card of its own, beside others (this month's top senders, top courses). */
export function BarListCard(props: BarListProps) {
  return (
    <Card className="min-w-0">
      <CardContent>
        <BarList {...props} />
      </CardContent>
    </Card>
  );
}
