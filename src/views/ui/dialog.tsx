import { useRef } from 'react';
import type * as React from 'react';
import { Dialog as DialogPrimitive } from 'radix-ui';
import { cn } from '../lib/utils';

export function Dialog(props: React.ComponentProps<typeof DialogPrimitive.Root>) {
  return <DialogPrimitive.Root data-slot="dialog" {...props} />;
}

export function DialogTrigger(props: React.ComponentProps<typeof DialogPrimitive.Trigger>) {
  return <DialogPrimitive.Trigger data-slot="dialog-trigger" {...props} />;
}

/** @public Part of the dialog, as shadcn ships it; no screen uses it yet. */
export function DialogClose(props: React.ComponentProps<typeof DialogPrimitive.Close>) {
  return <DialogPrimitive.Close data-slot="dialog-close" {...props} />;
}

/**
 * The content with its backdrop. The backdrop is a plain element, not Radix's `Overlay`: the Overlay
 * locks scrolling by injecting a `<style>` tag, which the strict CSP (`style-src 'self'`) refuses.
 * Focus trapping, Escape, outside-click and hiding the rest from screen readers stay with `Content`.
 * Closing gives the focus back to what had it when the dialog opened (a link whose navigation compose
 * held, a button): Radix knows only its `Trigger`, and a dialog a machine opens has none, so the focus
 * fell on the body. A caller that places the focus itself prevents this (`onCloseAutoFocus`).
 */
export function DialogContent({
  className,
  children,
  onOpenAutoFocus,
  onCloseAutoFocus,
  ...props
}: React.ComponentProps<typeof DialogPrimitive.Content>) {
  const opener = useRef<HTMLElement | null>(null);
  return (
    <DialogPrimitive.Portal data-slot="dialog-portal">
      <div data-slot="dialog-overlay" aria-hidden className="fixed inset-0 z-40 bg-black/50" />
      <DialogPrimitive.Content
        data-slot="dialog-content"
        className={cn(
          'fixed top-1/2 left-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 flex-col gap-4 overflow-hidden rounded-lg border bg-card p-6 shadow-lg outline-none',
          className,
        )}
        onOpenAutoFocus={(event) => {
          opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
          onOpenAutoFocus?.(event);
        }}
        onCloseAutoFocus={(event) => {
          onCloseAutoFocus?.(event);
          const back = opener.current;
          opener.current = null;
          if (event.defaultPrevented || !back?.isConnected || back === document.body) return;
          event.preventDefault();
          back.focus({ preventScroll: true });
        }}
        {...props}
      >
        {children}
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

export function DialogHeader({ className, ...props }: React.ComponentProps<'div'>) {
  return <div data-slot="dialog-header" className={cn('flex flex-col gap-1.5', className)} {...props} />;
}

export function DialogFooter({ className, ...props }: React.ComponentProps<'div'>) {
  return <div data-slot="dialog-footer" className={cn('flex flex-col-reverse gap-2 sm:flex-row sm:justify-end', className)} {...props} />;
}

export function DialogTitle({ className, ...props }: React.ComponentProps<typeof DialogPrimitive.Title>) {
  return <DialogPrimitive.Title data-slot="dialog-title" className={cn('text-lg leading-none font-semibold', className)} {...props} />;
}

export function DialogDescription({ className, ...props }: React.ComponentProps<typeof DialogPrimitive.Description>) {
  return (
    <DialogPrimitive.Description data-slot="dialog-description" className={cn('text-sm text-muted-foreground', className)} {...props} />
  );
}

/**
 * A question asked in a dialog (`alertdialog`): its title, what it means, and the answers as the footer's
 * buttons (children). Escape and a click outside are `onDismiss`, the answer that keeps things as they are.
 */
export function QuestionDialog({
  open,
  onDismiss,
  title,
  description,
  children,
  ...props
}: Omit<React.ComponentProps<typeof DialogPrimitive.Content>, 'title' | 'role'> & {
  open: boolean;
  onDismiss: () => void;
  title: React.ReactNode;
  description: React.ReactNode;
}) {
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onDismiss()}>
      <DialogContent role="alertdialog" {...props}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <DialogFooter>{children}</DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** Where the focus goes as a dialog opens: that answer, not the dialog's first button. */
export const focusOnOpen =
  (target: React.RefObject<HTMLElement | null>) =>
  (event: Event): void => {
    event.preventDefault();
    target.current?.focus();
  };

/** As a dialog closes the focus stays where the machine puts it (it emits `focus`), not on Radix's guess. */
export const keepFocusOnClose = (event: Event): void => event.preventDefault();
