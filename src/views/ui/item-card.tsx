import type * as React from 'react';
import { cn } from '../lib/utils';
import { Button } from './button';
import { ConfirmPanel } from './confirm-panel';

/** One item of a list shown as a card: its head (name, detail, actions), then what opens under it. */
export function ItemCard({ className, ...props }: React.ComponentProps<'li'>) {
  return <li className={cn('flex flex-col gap-3 rounded-lg border bg-card p-4', className)} {...props} />;
}

/** The item's name (its own element: an id names the card), a line of detail, and its buttons beside them. */
export function ItemHead({
  name,
  detail,
  actions,
  gap = 'gap-1',
}: {
  name: React.ReactNode;
  detail: React.ReactNode;
  actions: React.ReactNode;
  gap?: 'gap-1' | 'gap-2' | 'gap-3';
}) {
  return (
    <div className={`flex flex-col ${gap} sm:flex-row sm:items-center sm:justify-between`}>
      <div className="flex min-w-0 flex-col">
        {name}
        <span className="text-sm text-muted-foreground">{detail}</span>
      </div>
      <div className="flex flex-wrap gap-2">{actions}</div>
    </div>
  );
}

/** The question under an item before it goes for good («¿Eliminar para siempre…?»). */
export function ItemConfirm(props: Omit<React.ComponentProps<typeof ConfirmPanel>, 'destructive' | 'className'>) {
  return <ConfirmPanel destructive className="border-destructive/40 bg-destructive/5" {...props} />;
}

/** A small button that acts on one item of a list: it says its action, and is named with the item ("Eliminar: 3° A"). */
export function ItemButton({
  label,
  item,
  children,
  ...props
}: Omit<React.ComponentProps<typeof Button>, 'aria-label' | 'size'> & { label: string; item: string }) {
  return (
    <Button size="sm" aria-label={`${label}: ${item}`} {...props}>
      {children ?? label}
    </Button>
  );
}
