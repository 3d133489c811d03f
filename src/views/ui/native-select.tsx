import type * as React from 'react';
import { cn } from '../lib/utils';
import { Label } from './label';

/** A styled native `<select>`: keyboard and screen-reader behaviour for free, no injected styles (strict CSP). */
export function NativeSelect({ className, ...props }: React.ComponentProps<'select'>) {
  return (
    <select
      data-slot="native-select"
      className={cn(
        'h-9 rounded-md border border-input bg-card px-2 pr-7 text-sm shadow-xs outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/30 aria-invalid:border-destructive',
        className,
      )}
      {...props}
    />
  );
}

/** A select with its label above it (a table's or a list's filter). */
export function SelectField({ id, label, ...props }: React.ComponentProps<typeof NativeSelect> & { id: string; label: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-1">
      <Label htmlFor={id}>{label}</Label>
      <NativeSelect id={id} {...props} />
    </div>
  );
}
