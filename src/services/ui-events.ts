// Effects that need the UI: the contract between machines (which emit these) and the app edge (which
// performs them, subscribed with `appActor.on(...)`). Types only; machines never import views.

export type ToastKind = 'default' | 'success' | 'error' | 'warning' | 'info';

export interface NavigateEvent {
  type: 'navigate';
  to: string;
  /** Redirects replace the history entry so Back does not bounce. */
  replace?: boolean;
}

export interface ToastEvent {
  type: 'toast';
  kind: ToastKind;
  /** i18n key (es-CL.json). */
  key: string;
  params?: Record<string, string | number>;
  /** Raw text, only for the SPEC's English abort message; shown instead of `key` when present. */
  message?: string;
}

export type UiEvent = NavigateEvent | ToastEvent;
