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

/**
 * A list's filter over a fixed set of values, with a first option for "all" (null): the chosen text is
 * mapped back to its value, so what reaches `onChange` is always one of `values` or null.
 */
export function FilterSelect<T extends string>({
  id,
  label,
  value,
  values,
  allLabel,
  labelOf,
  onChange,
}: {
  id: string;
  label: React.ReactNode;
  value: T | null;
  values: readonly T[];
  allLabel: string;
  labelOf: (value: T) => string;
  onChange: (value: T | null) => void;
}) {
  return (
    <SelectField
      id={id}
      label={label}
      value={value ?? ''}
      onChange={(event) => onChange(values.find((candidate) => candidate === event.currentTarget.value) ?? null)}
    >
      <option value="">{allLabel}</option>
      {values.map((candidate) => (
        <option key={candidate} value={candidate}>
          {labelOf(candidate)}
        </option>
      ))}
    </SelectField>
  );
}
