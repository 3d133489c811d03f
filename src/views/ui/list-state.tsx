import type * as React from 'react';
import { cn } from '../lib/utils';
import { Button } from './button';

/** Placeholder rows while a list's first page loads, announced by `label`. */
export function ListSkeleton({
  label,
  rows = 6,
  className,
  rowClassName,
}: {
  label: string;
  rows?: number;
  className?: string;
  rowClassName?: string;
}) {
  return (
    <div role="status" aria-label={label} data-slot="list-skeleton" className={cn('flex flex-col gap-2', className)}>
      {Array.from({ length: rows }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows, all alike: nothing but their place to key them by.
        <div key={i} className={cn('h-16 animate-pulse rounded-md bg-muted', rowClassName)} />
      ))}
    </div>
  );
}

/** What could not be loaded, said in place (SPEC §8: silent), and what to do about it (children). */
export function LoadFailure({ message, className, children, ...props }: React.ComponentProps<'div'> & { message: React.ReactNode }) {
  return (
    <div role="alert" className={cn('flex flex-col items-start gap-3 rounded-lg border bg-card p-6', className)} {...props}>
      <p>{message}</p>
      {children}
    </div>
  );
}

/** A list that could not load: what happened and Reintentar. */
export function ListFailure({
  message,
  retryLabel,
  onRetry,
  ...props
}: React.ComponentProps<'div'> & { message: React.ReactNode; retryLabel: React.ReactNode; onRetry: () => void }) {
  return (
    <LoadFailure data-slot="list-failure" message={message} {...props}>
      <Button type="button" variant="outline" onClick={onRetry}>
        {retryLabel}
      </Button>
    </LoadFailure>
  );
}
