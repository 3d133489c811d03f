import type * as React from 'react';
import { cn } from '../lib/utils';

/**
 * A box that scrolls sideways inside itself (a table wider than a phone): a region named by `label` that
 * takes the focus, so the keyboard scrolls it too (axe's scrollable-region-focusable), and the page itself
 * never scrolls sideways.
 */
export function ScrollRegion({ label, className, ...props }: Omit<React.ComponentProps<'div'>, 'role' | 'tabIndex'> & { label: string }) {
  return (
    <div
      role="region"
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls sideways takes the focus so the keyboard can scroll it (axe's scrollable-region-focusable).
      tabIndex={0}
      data-slot="scroll-region"
      className={cn('min-w-0 overflow-x-auto outline-none focus-visible:ring-[3px] focus-visible:ring-ring/40', className)}
      {...props}
    />
  );
}
