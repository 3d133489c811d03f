import { useId, type ReactNode } from 'react';
import { cn } from '../lib/utils';
import { AlertPanel } from './alert-panel';
import { Button } from './button';

/** The two answers of a yes-or-no question, asked in place (ConfirmPanel) or in a dialog (ConfirmDialog). */
export interface QuestionAnswers {
  confirmLabel: ReactNode;
  cancelLabel: ReactNode;
  onConfirm: () => void;
  onCancel: () => void;
  destructive?: boolean;
  /** Which answer has the focus when the question appears. */
  focus?: 'confirm' | 'cancel';
}

/**
 * The one shape of a question asked in place (delete forever?, cancel the schedule?, send now?): a title,
 * an optional explanation, the answer that goes on (focused first, so Enter confirms what was just asked
 * for) and the one that does not. Escape answers no, through AlertPanel. A question whose going on loses
 * something the user did not ask to lose (discard the changes?) starts on the answer that does not:
 * `focus="cancel"`, and `cancelId` names it for a machine's focus move.
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
  focus = 'confirm',
  cancelId,
  className,
}: QuestionAnswers & {
  title: ReactNode;
  description?: ReactNode;
  /** An element elsewhere on the page that explains the question (compose's cost summary). */
  describedBy?: string;
  cancelId?: string;
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
        <Button
          type="button"
          size="sm"
          variant={destructive ? 'destructive' : 'default'}
          autoFocus={focus === 'confirm'}
          onClick={onConfirm}
        >
          {confirmLabel}
        </Button>
        <Button id={cancelId} type="button" size="sm" variant="outline" autoFocus={focus === 'cancel'} onClick={onCancel}>
          {cancelLabel}
        </Button>
      </div>
    </AlertPanel>
  );
}
