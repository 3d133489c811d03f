import type * as React from 'react';
import { cva, type VariantProps } from 'class-variance-authority';
import { cn } from '../lib/utils';

/** How a column is sorted, in aria-sort's words; null when the table is not sorted by it. */
export type SortDirection = 'ascending' | 'descending';

export const sortableHeaderVariants = cva('p-0 font-medium', {
  variants: {
    align: { start: 'text-left', end: 'text-right' },
  },
  defaultVariants: { align: 'start' },
});

const buttonClass =
  'inline-flex min-h-11 w-full items-center gap-1 px-3 outline-none hover:bg-muted focus-visible:ring-[3px] focus-visible:ring-ring/40 group-data-[align=end]/sortable:justify-end';

/**
 * A column header that sorts its table (shadcn pattern): a `th` carrying `aria-sort` when the table is
 * sorted by it, holding a real button (Tab reaches it, Enter and Space press it) whose press asks for the
 * sort; the arrow is decorative and the direction is said in words to screen readers (`directionLabel`).
 * Without `onSort` the header only says the order (a table whose order is fixed, like a ranking).
 */
export function SortableHeader({
  direction,
  onSort,
  directionLabel,
  align,
  className,
  children,
  ...props
}: Omit<React.ComponentProps<'th'>, 'onClick' | 'align'> &
  VariantProps<typeof sortableHeaderVariants> & {
    direction: SortDirection | null;
    onSort?: () => void;
    /** "orden ascendente" / "orden descendente", read after the label when sorted. */
    directionLabel?: string;
  }) {
  const sorted = direction !== null;
  const arrow = (
    <span aria-hidden="true" className={cn('text-xs', !sorted && 'opacity-30')}>
      {direction === 'ascending' ? '▲' : '▼'}
    </span>
  );
  const said = sorted && directionLabel ? <span className="sr-only">{directionLabel}</span> : null;
  return (
    <th
      scope="col"
      aria-sort={direction ?? undefined}
      data-slot="sortable-header"
      data-align={align ?? 'start'}
      className={cn('group/sortable', sortableHeaderVariants({ align }), className)}
      {...props}
    >
      {onSort ? (
        <button type="button" onClick={onSort} className={buttonClass} data-slot="sortable-header-button">
          {children}
          {arrow}
          {said}
        </button>
      ) : (
        <span className={cn(buttonClass, 'hover:bg-transparent')} data-slot="sortable-header-label">
          {children}
          {sorted ? arrow : null}
          {said}
        </span>
      )}
    </th>
  );
}
