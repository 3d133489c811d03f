import type * as React from 'react';
import { cn } from '../lib/utils';

/** A screen: a section named by its one `h1` (PageTitle), centred, as wide as `width` lets it. */
export function Page({ width, className, ...props }: React.ComponentProps<'section'> & { width: string }) {
  return <section aria-labelledby="page-title" className={cn(`mx-auto flex ${width} flex-col gap-4`, className)} {...props} />;
}

/**
 * The screen's one heading: the route's title, which the browser tab says too. Focusable by script: a
 * visit puts the keyboard focus here (layout/page-transition.tsx).
 */
export function PageTitle({ className, ...props }: React.ComponentProps<'h1'>) {
  return <h1 id="page-title" tabIndex={-1} className={cn('text-2xl font-bold outline-none', className)} {...props} />;
}

/** Placeholder fields while a form's data loads, announced by `label`; `heights` draws its fields' outline. */
export function FormSkeleton({ label, heights }: { label: string; heights: readonly string[] }) {
  return (
    <div role="status" aria-label={label} className="flex flex-col gap-4 rounded-lg border bg-card p-6">
      {heights.map((height, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholder fields drawn from a fixed list of heights: their place is their identity.
        <div key={i} className={cn('animate-pulse rounded-md bg-muted', height)} />
      ))}
    </div>
  );
}
