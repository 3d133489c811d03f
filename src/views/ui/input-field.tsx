import type * as React from 'react';
import { errorProps, FormField } from './field';
import { Input } from './input';

/** A labelled one-line text field and its error: the input is invalid, and described by the error, while there is one. */
export function InputField({
  label,
  id,
  error,
  onValueChange,
  ...props
}: Omit<React.ComponentProps<typeof Input>, 'id' | 'onChange'> & {
  label: React.ReactNode;
  id: string;
  /** The error's text (null when none) and the id it is shown under. */
  error: { text: string | null; id: string };
  onValueChange: (value: string) => void;
}) {
  return (
    <FormField label={label} htmlFor={id} error={error.text} errorId={error.id}>
      <Input id={id} {...props} {...errorProps(error.text, error.id)} onChange={(e) => onValueChange(e.currentTarget.value)} />
    </FormField>
  );
}
