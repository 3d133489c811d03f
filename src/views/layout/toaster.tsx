import { useToaster, toast as hotToast, type Toast } from 'react-hot-toast/headless';
import type { ToastKind } from '../../machines/app/effects';

// Headless react-hot-toast (no `cn` here: tailwind-merge is a chunk of its own; the toaster is lazy, edge.ts): we render our own markup so no inline <style> is injected (strict CSP).

const TOAST_MS = 3000;
/** Long enough to read it and reach its button ("Deshacer"); hovering or focusing the toasts pauses them. */
const ACTION_TOAST_MS = 8000;

/** A toast's button: its text, and what pressing it does (the edge sends the machine's event). */
export interface ToastButton {
  label: string;
  onPress: () => void;
}

let actionToasts = 0;

export function showToast(kind: ToastKind, message: string, action?: ToastButton) {
  const id = action ? `toast-action-${++actionToasts}` : undefined;
  const opts = { duration: action ? ACTION_TOAST_MS : TOAST_MS, className: kind, ...(id ? { id } : {}) };
  const content = action && id ? <WithAction id={id} text={message} action={action} /> : message;
  if (kind === 'success') return hotToast.success(content, opts);
  if (kind === 'error') return hotToast.error(content, opts);
  return hotToast(content, opts);
}

/** The text and its button; pressing it closes the toast. */
function WithAction({ id, text, action }: { id: string; text: string; action: ToastButton }) {
  return (
    <span className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
      <span data-slot="toast-text">{text}</span>
      <button
        type="button"
        data-slot="toast-action"
        className="-my-1 rounded-md px-2 py-1 font-semibold text-primary outline-none hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/40"
        onClick={() => {
          hotToast.dismiss(id);
          action.onPress();
        }}
      >
        {action.label}
      </button>
    </span>
  );
}

const kindStyle: Record<ToastKind, string> = {
  default: 'border-border',
  success: 'border-success/50 [&_[data-slot=toast-mark]]:bg-success',
  error: 'border-destructive/50 [&_[data-slot=toast-mark]]:bg-destructive',
  warning: 'border-warning/60 [&_[data-slot=toast-mark]]:bg-warning',
  info: 'border-info/50 [&_[data-slot=toast-mark]]:bg-info',
};

function kindOf(t: Toast): ToastKind {
  const k = t.className as ToastKind | undefined;
  return k && k in kindStyle ? k : 'default';
}

export function Toaster() {
  const { toasts, handlers } = useToaster();
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the box only pauses the toasts while the pointer or the focus is on them; the toasts' own buttons are the controls.
    <div
      data-slot="toaster"
      // Never over the header's controls: below the 56 px header, at top right (SPEC §2); on phones across the
      // top too, since a form's buttons ("Guardar borrador", "Enviar") sit at the bottom of the screen there.
      className="pointer-events-none fixed inset-x-4 top-16 z-50 flex flex-col gap-2 sm:inset-x-auto sm:right-4 sm:w-[min(24rem,calc(100vw-2rem))]"
      onMouseEnter={handlers.startPause}
      onMouseLeave={handlers.endPause}
      onFocus={handlers.startPause}
      onBlur={handlers.endPause}
    >
      {toasts
        .filter((t) => t.visible)
        .map((t) => {
          const kind = kindOf(t);
          return (
            <div
              key={t.id}
              {...t.ariaProps}
              data-slot="toast"
              data-kind={kind}
              className={`pointer-events-auto flex animate-toast-in items-start gap-3 rounded-lg border bg-card px-4 py-3 text-sm shadow-lg ${kindStyle[kind]}`}
            >
              <span data-slot="toast-mark" aria-hidden className="mt-1.5 size-2 shrink-0 rounded-full bg-muted-foreground" />
              {typeof t.message === 'string' ? (
                <span data-slot="toast-text" className="flex-1">
                  {t.message}
                </span>
              ) : (
                <span className="flex-1">{typeof t.message === 'function' ? t.message(t) : t.message}</span>
              )}
            </div>
          );
        })}
    </div>
  );
}
