import { useId, type ReactNode } from 'react';
import { cn } from '../lib/utils';
import { AlertPanel } from './alert-panel';
import { Button } from './button';

/**
 * The one shape of a question asked in place (delete forever?, cancel the schedule?, send now?): a title,
 * an optional explanation, the answer that goes on (focused first, so Enter confirms what was just asked
 * for) and the one that does not. Escape answers no, through AlertPanel.
 */
export function ConfirmPanel({
  title,
  description,
  describedBy,
  confirmLabel,
  cancelLabel,
  onConfirm,
  onCancel,
  destructive = false,
  className,
}: {
  title: ReactNode;
  description?: ReactNode;
  /** An element elsewhere on the page that explains the question (compose's cost summary). */
  describedBy?: string;
  confirmLabel: ReactNode;
  cancelLabel: ReactNode;
  onConfirm: () => void;
  onCancel: () => void;
  destructive?: boolean;
  className?: string;
}) {
  const id = useId();
  const descriptionId = describedBy ?? (description ? `${id}-description` : undefined);
  return (
    <AlertPanel
      data-slot="confirm-panel"
      aria-labelledby={`${id}-title`}
      {...(descriptionId ? { 'aria-describedby': descriptionId } : {})}
      className={cn('w-full flex-col gap-2 rounded-md border p-3', className)}
      onCancel={onCancel}
    >
      <h2 id={`${id}-title`} className="text-sm font-semibold">
        {title}
      </h2>
      {description && (
        <p id={`${id}-description`} className="text-sm text-muted-foreground">
          {description}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button type="button" size="sm" variant={destructive ? 'destructive' : 'default'} autoFocus onClick={onConfirm}>
          {confirmLabel}
        </Button>
        <Button type="button" size="sm" variant="outline" onClick={onCancel}>
          {cancelLabel}
        </Button>
      </div>
    </AlertPanel>
  );
}
