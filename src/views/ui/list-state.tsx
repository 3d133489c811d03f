import type * as React from 'react';
import { cn } from '../lib/utils';
import { Button } from './button';

/** Placeholder rows while a list's first page loads, announced by `label`. */
export function ListSkeleton({ label, rows = 6, className, rowClassName }: { label: string; rows?: number; className?: string; rowClassName?: string }) {
  return (
    <div role="status" aria-label={label} data-slot="list-skeleton" className={cn('flex flex-col gap-2', className)}>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className={cn('h-16 animate-pulse rounded-md bg-muted', rowClassName)} />
      ))}
    </div>
  );
}

/** A list that could not load (SPEC §8: silent, in place): what happened and Reintentar. */
export function ListFailure({
  message,
  retryLabel,
  onRetry,
  className,
  ...props
}: React.ComponentProps<'div'> & { message: React.ReactNode; retryLabel: React.ReactNode; onRetry: () => void }) {
  return (
    <div role="alert" data-slot="list-failure" className={cn('flex flex-col items-start gap-3 rounded-lg border bg-card p-6', className)} {...props}>
      <p>{message}</p>
      <Button type="button" variant="outline" onClick={onRetry}>
        {retryLabel}
      </Button>
    </div>
  );
}
