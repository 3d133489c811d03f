import { useToaster, toast as hotToast, type Toast } from 'react-hot-toast/headless';
import type { ToastKind } from '../../machines/effects';

// Headless react-hot-toast (no `cn` here: this is in the first download and tailwind-merge is not): we render our own markup so no inline <style> is injected (strict CSP).

const TOAST_MS = 3000;

export function showToast(kind: ToastKind, message: string) {
  const opts = { duration: TOAST_MS, className: kind };
  if (kind === 'success') return hotToast.success(message, opts);
  if (kind === 'error') return hotToast.error(message, opts);
  return hotToast(message, opts);
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
    <div
      data-slot="toaster"
      className="pointer-events-none fixed top-4 right-4 z-50 flex w-[min(24rem,calc(100vw-2rem))] flex-col gap-2"
      onMouseEnter={handlers.startPause}
      onMouseLeave={handlers.endPause}
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
              <span className="flex-1">{typeof t.message === 'function' ? t.message(t) : t.message}</span>
            </div>
          );
        })}
    </div>
  );
}
