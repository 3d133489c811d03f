import type * as React from 'react';
import { cn } from '../lib/utils';

/**
 * A question the page asks in place (delete forever?, send now?) before going on: an `alertdialog` that
 * Escape answers with `onCancel`, like the dialogs do. Focus goes in with the confirm button's `autoFocus`;
 * the machine that asked puts it back where the question came from.
 */
export function AlertPanel({ className, onCancel, onKeyDown, ...props }: React.ComponentProps<'div'> & { onCancel: () => void }) {
  return (
    <div
      data-slot="alert-panel"
      role="alertdialog"
      className={cn('flex', className)}
      onKeyDown={(event) => {
        onKeyDown?.(event);
        if (!event.defaultPrevented && event.key === 'Escape') onCancel();
      }}
      {...props}
    />
  );
}
