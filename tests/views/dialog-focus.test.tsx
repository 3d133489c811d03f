// ui/dialog: a dialog a machine opens has no Radix Trigger; closing it gives the focus back to what had it
// when it opened (the link whose navigation compose held), not to the body. A caller that places the focus
// itself (onCloseAutoFocus prevented, ConfirmDialog) keeps that.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

// Radix moves the focus on close in a timer (its FocusScope unmounts, then focuses): wait past it, never
// assume a microtask is enough (under load it was not).
const pastCloseTimer = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 20)));
import { keepFocusOnClose, QuestionDialog } from '../../src/views/ui/dialog';

afterEach(cleanup);

function Screen({ open, keep = false, onDismiss = () => {} }: { open: boolean; keep?: boolean; onDismiss?: () => void }) {
  return (
    <>
      <a href="/inbox">Recibidos</a>
      <QuestionDialog
        open={open}
        onDismiss={onDismiss}
        title="¿Guardar los cambios antes de salir?"
        description="Tienes cambios sin guardar."
        {...(keep ? { onCloseAutoFocus: keepFocusOnClose } : {})}
      >
        <button type="button">Seguir editando</button>
      </QuestionDialog>
    </>
  );
}

describe('QuestionDialog', () => {
  it('closing gives the focus back to the link that had it as the question opened', async () => {
    const { rerender } = render(<Screen open={false} />);
    const link = screen.getByRole('link', { name: 'Recibidos' });
    link.focus();
    rerender(<Screen open />);
    await act(async () => {});
    expect(screen.getByRole('alertdialog').contains(document.activeElement)).toBe(true);
    fireEvent.keyDown(document.activeElement as Element, { key: 'Escape' });
    rerender(<Screen open={false} />);
    await pastCloseTimer();
    expect(document.activeElement).toBe(link);
  });

  it('a caller that places the focus itself keeps it off the opener', async () => {
    const { rerender } = render(<Screen open={false} keep />);
    screen.getByRole('link', { name: 'Recibidos' }).focus();
    rerender(<Screen open keep />);
    await act(async () => {});
    rerender(<Screen open={false} keep />);
    await pastCloseTimer();
    expect(document.activeElement).not.toBe(screen.getByRole('link', { name: 'Recibidos' }));
  });
});
