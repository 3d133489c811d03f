import type { ReactNode } from 'react';
import { Button } from './button';
import type { QuestionAnswers } from './confirm-panel';
import { keepFocusOnClose, QuestionDialog } from './dialog';

/**
 * A yes-or-no question in a dialog (replace the text?, delete the template?): the answer that goes on has the
 * focus first, so Enter confirms what was just asked for; the other one, Escape and a click outside keep things
 * as they are; one whose going on loses what the user did not ask to lose (discard the changes?) starts on the
 * other answer, `focus="cancel"`. As it closes the focus stays where the machine puts it.
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
  focus = 'confirm',
}: QuestionAnswers & {
  open: boolean;
  title: ReactNode;
  description: ReactNode;
}) {
  return (
    <QuestionDialog open={open} onDismiss={onCancel} title={title} description={description} onCloseAutoFocus={keepFocusOnClose}>
      <Button type="button" variant="outline" autoFocus={focus === 'cancel'} onClick={onCancel}>
        {cancelLabel}
      </Button>
      <Button type="button" variant={destructive ? 'destructive' : 'default'} autoFocus={focus === 'confirm'} onClick={onConfirm}>
        {confirmLabel}
      </Button>
    </QuestionDialog>
  );
}
