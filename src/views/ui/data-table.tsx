import type * as React from 'react';
import { cn } from '../lib/utils';

/**
 * A data screen's table in a card: a focusable region named by the caption (a wide table scrolls sideways
 * inside it on a phone, by keyboard too), the table dimmed and `aria-busy` while newer data comes.
 */
export function TableCard({
  captionId,
  caption,
  busy,
  wide = false,
  children,
  ...props
}: Omit<React.ComponentProps<'table'>, 'className'> & { captionId: string; caption: React.ReactNode; busy: boolean; wide?: boolean }) {
  return (
    <div
      role="region"
      aria-labelledby={captionId}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls sideways takes the focus so the keyboard can scroll it (axe's scrollable-region-focusable).
      tabIndex={0}
      className="relative min-w-0 overflow-x-auto rounded-lg border bg-card outline-none focus-visible:ring-[3px] focus-visible:ring-ring/40"
    >
      <table aria-busy={busy} className={cn('w-full', wide && 'min-w-[36rem]', 'text-sm', busy && 'opacity-60')} {...props}>
        <caption id={captionId} className="p-3 text-left font-semibold">
          {caption}
        </caption>
        {children}
      </table>
    </div>
  );
}

/** The header row of a TableCard's table. */
export function TableHead({ children }: { children: React.ReactNode }) {
  return (
    <thead className="border-b bg-muted/50 text-left">
      <tr>{children}</tr>
    </thead>
  );
}

/** A column's header; numbers are right-aligned, under their column. */
export function ColumnHeader({
  align = 'start',
  ...props
}: Omit<React.ComponentProps<'th'>, 'className' | 'align'> & { align?: 'start' | 'end' }) {
  return <th scope="col" className={align === 'end' ? 'px-3 py-2 text-right font-medium' : 'px-3 py-2 font-medium'} {...props} />;
}

/** A row's own header: who or what the row is, and a line under it (a cargo, a size). */
export function RowName({ name, detail }: { name: React.ReactNode; detail?: React.ReactNode }) {
  return (
    <th scope="row" className="px-3 py-2 text-left font-normal">
      <span className="block font-medium">{name}</span>
      {detail ? <span className="block text-xs text-muted-foreground">{detail}</span> : null}
    </th>
  );
}

/** A figure, right-aligned with its digits in columns; `strong` for the one the row is about, `nowrap` for units. */
export function NumberCell({
  strong = false,
  nowrap = false,
  ...props
}: Omit<React.ComponentProps<'td'>, 'className'> & { strong?: boolean; nowrap?: boolean }) {
  return <td className={cn('px-3 py-2 text-right', strong && 'font-semibold', nowrap && 'whitespace-nowrap', 'tabular-nums')} {...props} />;
}

/** In place of a table with no rows: what it would have shown. */
export function TableEmpty(props: Omit<React.ComponentProps<'p'>, 'className'>) {
  return <p className="rounded-lg border bg-card p-6 text-sm" {...props} />;
}
