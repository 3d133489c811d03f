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

/** The ids an element is described by, in order, without the absent ones; none: no attribute. */
export const describedBy = (...ids: Array<string | false | null | undefined>): string | undefined => {
  const list = ids.filter(Boolean).join(' ');
  return list === '' ? undefined : list;
};

/** A control's side of its field's error: invalid while there is one, and described by it after `also`. */
export const errorProps = (error: React.ReactNode, errorId: string, ...also: Array<string | false | null | undefined>) => ({
  'aria-invalid': error ? true : undefined,
  'aria-describedby': describedBy(...also, error ? errorId : null),
});

/** A labelled field: its control and what goes with it (children), then its error, read out as it appears. */
export function FormField({
  label,
  htmlFor,
  error,
  errorId,
  children,
  ...props
}: React.ComponentProps<typeof Field> & { label: React.ReactNode; htmlFor: string; error: React.ReactNode; errorId: string }) {
  return (
    <Field data-invalid={error ? true : undefined} {...props}>
      <FieldLabel htmlFor={htmlFor}>{label}</FieldLabel>
      {children}
      <FieldError id={errorId}>{error}</FieldError>
    </Field>
  );
}
