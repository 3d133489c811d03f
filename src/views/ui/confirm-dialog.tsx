import type { ReactNode } from 'react';
import { Button } from './button';
import { keepFocusOnClose, QuestionDialog } from './dialog';

/**
 * A yes-or-no question in a dialog (replace the text?, delete the template?): the answer that goes on has the
 * focus first, so Enter confirms what was just asked for; the other one, Escape and a click outside keep things
 * as they are. As it closes the focus stays where the machine puts it.
 */
export function ConfirmDialog({
  open,
  title,
  description,
  confirmLabel,
  cancelLabel,
  onConfirm,
  onCancel,
  destructive = false,
}: {
  open: boolean;
  title: ReactNode;
  description: ReactNode;
  confirmLabel: ReactNode;
  cancelLabel: ReactNode;
  onConfirm: () => void;
  onCancel: () => void;
  destructive?: boolean;
}) {
  return (
    <QuestionDialog open={open} onDismiss={onCancel} title={title} description={description} onCloseAutoFocus={keepFocusOnClose}>
      <Button type="button" variant="outline" onClick={onCancel}>
        {cancelLabel}
      </Button>
      <Button type="button" variant={destructive ? 'destructive' : 'default'} autoFocus onClick={onConfirm}>
        {confirmLabel}
      </Button>
    </QuestionDialog>
  );
}
