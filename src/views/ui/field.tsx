import type * as React from 'react';
import { cn } from '../lib/utils';
import { Label } from './label';

export function Field({ className, ...props }: React.ComponentProps<'div'>) {
  return <div role="group" data-slot="field" className={cn('flex w-full flex-col gap-2', className)} {...props} />;
}

export function FieldLabel({ className, ...props }: React.ComponentProps<typeof Label>) {
  return <Label data-slot="field-label" className={cn('group-data-[invalid=true]:text-destructive', className)} {...props} />;
}

export function FieldDescription({ className, ...props }: React.ComponentProps<'p'>) {
  return <p data-slot="field-description" className={cn('text-sm text-muted-foreground', className)} {...props} />;
}

/** Renders nothing without a message, so the alert is announced only when an error appears. */
export function FieldError({ className, children, ...props }: React.ComponentProps<'p'>) {
  if (!children) return null;
  return (
    <p role="alert" data-slot="field-error" className={cn('text-sm text-destructive', className)} {...props}>
      {children}
    </p>
  );
}
