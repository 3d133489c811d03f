import { useState, type ReactNode, type UIEvent } from 'react';
import { cn } from '../lib/utils';

/**
 * Fixed-height windowing: only the rows in view (plus `overscan`) are in the DOM, so a folder of
 * 10,000 messages scrolls like one of 20. Rows are absolutely positioned inside a sized spacer.
 * `onNearEnd` fires when the last rendered row is within `overscan` of the end (next page).
 */
export function VirtualList<T>({
  items,
  rowHeight,
  height,
  overscan = 8,
  getKey,
  renderRow,
  onNearEnd,
  className,
  ...props
}: {
  items: readonly T[];
  rowHeight: number;
  height: number;
  overscan?: number;
  getKey: (item: T) => string | number;
  renderRow: (item: T, index: number) => ReactNode;
  onNearEnd?: () => void;
  className?: string;
} & Omit<React.ComponentProps<'div'>, 'children' | 'onScroll'>) {
  const [scrollTop, setScrollTop] = useState(0);
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(items.length, Math.ceil((scrollTop + height) / rowHeight) + overscan);

  function onScroll(e: UIEvent<HTMLDivElement>) {
    const top = e.currentTarget.scrollTop;
    setScrollTop(top);
    if (onNearEnd && Math.ceil((top + height) / rowHeight) + overscan >= items.length) onNearEnd();
  }

  return (
    <div data-slot="virtual-list" className={cn('relative overflow-y-auto', className)} style={{ height }} onScroll={onScroll} {...props}>
      <div style={{ height: items.length * rowHeight }} className="relative">
        {items.slice(first, last).map((item, i) => (
          <div key={getKey(item)} className="absolute inset-x-0" style={{ top: (first + i) * rowHeight, height: rowHeight }}>
            {renderRow(item, first + i)}
          </div>
        ))}
      </div>
    </div>
  );
}
