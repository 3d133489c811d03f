import type * as React from 'react';
import { cn } from '../lib/utils';

/**
 * A native radio (its group's arrows, Space and labels as the browser gives them) drawn as a 16 px ring in a
 * 24×24 px target (WCAG 2.2 target size, minimum): the input is the target, its `::before` the ring.
 */
export function Radio({ className, ...props }: Omit<React.ComponentProps<'input'>, 'type'>) {
  return (
    <input
      type="radio"
      data-slot="radio"
      className={cn(
        'grid size-6 shrink-0 cursor-pointer appearance-none place-content-center rounded-full outline-none',
        'disabled:cursor-not-allowed disabled:opacity-50',
        "before:size-4 before:rounded-full before:border before:border-input before:bg-card before:transition-shadow before:content-['']",
        'checked:before:border-primary checked:before:bg-primary checked:before:shadow-[inset_0_0_0_3px_var(--color-card)]',
        'focus-visible:before:border-ring focus-visible:before:ring-[3px] focus-visible:before:ring-ring/40',
        'aria-invalid:before:border-destructive',
        className,
      )}
      {...props}
    />
  );
}
