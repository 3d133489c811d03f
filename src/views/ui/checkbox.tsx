import type * as React from 'react';
import { Checkbox as CheckboxPrimitive } from 'radix-ui';
import { cn } from '../lib/utils';

/**
 * A 16 px box in a 24×24 px target (WCAG 2.2 target size, minimum): the button is the target, the box is
 * drawn inside it, so a thumb on a phone hits it and the list keeps its look.
 */
export function Checkbox({ className, ...props }: React.ComponentProps<typeof CheckboxPrimitive.Root>) {
  return (
    <CheckboxPrimitive.Root
      data-slot="checkbox"
      className={cn(
        'group/checkbox peer inline-flex size-6 shrink-0 items-center justify-center rounded-md outline-none',
        'disabled:cursor-not-allowed disabled:opacity-50',
        className,
      )}
      {...props}
    >
      <span
        data-slot="checkbox-box"
        className={cn(
          'flex size-4 items-center justify-center rounded-[4px] border border-input bg-card shadow-xs transition-shadow',
          'group-focus-visible/checkbox:border-ring group-focus-visible/checkbox:ring-[3px] group-focus-visible/checkbox:ring-ring/40',
          'group-aria-invalid/checkbox:border-destructive',
          'group-data-[state=checked]/checkbox:border-primary group-data-[state=checked]/checkbox:bg-primary group-data-[state=checked]/checkbox:text-primary-foreground',
          'group-data-[state=indeterminate]/checkbox:border-primary group-data-[state=indeterminate]/checkbox:bg-primary group-data-[state=indeterminate]/checkbox:text-primary-foreground',
        )}
      >
        <CheckboxPrimitive.Indicator data-slot="checkbox-indicator" className="flex items-center justify-center text-current">
          {props.checked === 'indeterminate' ? (
            <svg aria-hidden viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="3" strokeLinecap="round" className="size-3">
              <path d="M5 12h14" />
            </svg>
          ) : (
            <svg
              aria-hidden
              viewBox="0 0 24 24"
              fill="none"
              stroke="currentColor"
              strokeWidth="3"
              strokeLinecap="round"
              strokeLinejoin="round"
              className="size-3"
            >
              <path d="M20 6 9 17l-5-5" />
            </svg>
          )}
        </CheckboxPrimitive.Indicator>
      </span>
    </CheckboxPrimitive.Root>
  );
}
