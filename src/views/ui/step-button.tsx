import type * as React from 'react';
import { Button } from './button';

/**
 * A step to the period before or after (‹ or ›), named by `label` (the glyph is not read); `disabled` where
 * there is none that way.
 */
export function StepButton({
  direction,
  label,
  ...props
}: Omit<React.ComponentProps<typeof Button>, 'children' | 'aria-label' | 'size' | 'variant' | 'type'> & {
  direction: 'previous' | 'next';
  label: string;
}) {
  return (
    <Button type="button" size="icon" variant="outline" aria-label={label} {...props}>
      <span aria-hidden="true">{direction === 'previous' ? '‹' : '›'}</span>
    </Button>
  );
}
