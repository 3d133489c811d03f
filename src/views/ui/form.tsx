import type * as React from 'react';

/**
 * A form a machine checks: the browser's own validation is off (the machine's errors are shown by each field),
 * and submitting (Enter, the submit button) only sends `onSend`: the page never reloads.
 */
export function MachineForm({ onSend, ...props }: Omit<React.ComponentProps<'form'>, 'onSubmit' | 'noValidate'> & { onSend: () => void }) {
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSend();
      }}
      {...props}
    />
  );
}
