import type * as React from 'react';
import { errorProps, FieldDescription, FormField } from './field';
import { Input } from './input';
import { NativeSelect } from './native-select';

interface FieldFrame {
  label: React.ReactNode;
  id: string;
  /** Said under the label, and read with the control. */
  hint?: string;
  /** The error's text (null when none) and the id it is shown under. */
  error: { text: string | null; id: string };
  onValueChange: (value: string) => void;
}

const hintIdOf = (id: string, hint: string | undefined): string | null => (hint ? `${id}-hint` : null);

/** A labelled one-line text field and its error: the input is invalid, and described by the error, while there is one. */
export function InputField({
  label,
  id,
  hint,
  error,
  onValueChange,
  ...props
}: Omit<React.ComponentProps<typeof Input>, 'id' | 'onChange'> & FieldFrame) {
  const hintId = hintIdOf(id, hint);
  return (
    <FormField label={label} htmlFor={id} error={error.text} errorId={error.id}>
      {hintId && <FieldDescription id={hintId}>{hint}</FieldDescription>}
      <Input id={id} {...props} {...errorProps(error.text, error.id, hintId)} onChange={(e) => onValueChange(e.currentTarget.value)} />
    </FormField>
  );
}

/** A labelled native select of `options` and its error, as InputField. */
export function OptionsField({
  label,
  id,
  hint,
  error,
  value,
  options,
  onValueChange,
}: FieldFrame & { value: string; options: readonly { value: string; label: string }[] }) {
  const hintId = hintIdOf(id, hint);
  return (
    <FormField label={label} htmlFor={id} error={error.text} errorId={error.id}>
      {hintId && <FieldDescription id={hintId}>{hint}</FieldDescription>}
      <NativeSelect
        id={id}
        value={value}
        {...errorProps(error.text, error.id, hintId)}
        onChange={(e) => onValueChange(e.currentTarget.value)}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </NativeSelect>
    </FormField>
  );
}
