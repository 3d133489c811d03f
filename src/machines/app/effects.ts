// Effects: what machines ask of the world outside the actor system. They `emit` these; a parent that
// hosts a child re-emits the child's effects (`relayEffects`), and the app root performs or routes them
// (machines/app/app.ts), so the app edge (main.tsx) subscribes in one place. Machines never import views.
import { fromCallback, type AnyActorRef, type EventObject } from 'xstate';
import type { MessageKey } from '../../i18n';

export type ToastKind = 'default' | 'success' | 'error' | 'warning' | 'info';

export interface NavigateEvent {
  type: 'navigate';
  to: string;
  /** Redirects replace the history entry so Back does not bounce. */
  replace?: boolean;
  /** A browser Back a page held (see LeaveRequest), now let through: the edge goes back in history to `to`. */
  back?: boolean;
  /**
   * The app starts again at `to` (a new document): after the server set a session's cookies on its own (an
   * invitation accepted), the start-up check signs the person in, with nothing of this visit kept.
   */
  reload?: boolean;
}

/**
 * A navigation the user asked for (a link, the browser's Back or Forward) that an open page may hold while
 * it asks (compose with unsaved changes): the edge sends it to the root as `navigation.request`, the root
 * hands it to the page that holds it as `page.leave`, and whoever lets it through emits it as `navigate`.
 */
export interface LeaveRequest {
  to: string;
  replace?: boolean;
  back?: boolean;
}

/** The root asks an open page whether it lets the user leave (a page that does not hold it never gets it). */
export interface PageLeaveEvent extends LeaveRequest {
  type: 'page.leave';
}

/** The navigation held in `request` (or `fallback` when none), as the page lets it through. */
export function navigateOf(request: LeaveRequest | null, fallback: string): NavigateEvent {
  return {
    type: 'navigate',
    to: request?.to ?? fallback,
    ...(request?.replace ? { replace: true } : {}),
    ...(request?.back ? { back: true } : {}),
  };
}

/** The request a `page.leave` carries, to hold while the user is asked. */
export function leaveRequestOf(event: PageLeaveEvent): LeaveRequest {
  const { type: _, ...request } = event;
  return request;
}

/**
 * What a toast's button sends back to the app root when pressed: "Deshacer" after Eliminar — messages
 * (`undo.restore`, for the app's undo actor) or a post of the news wall (`news.restore`, for the open pages:
 * the wall's desk that trashed it restores it).
 */
export type ToastCommand = { type: 'undo.restore'; ids: number[] } | { type: 'news.restore'; id: number };

interface ToastAction {
  /** i18n key of the button. */
  label: MessageKey;
  event: ToastCommand;
}

export interface ToastEvent {
  type: 'toast';
  kind: ToastKind;
  /** i18n key. */
  key: MessageKey;
  params?: Record<string, string | number>;
  /** Raw text, only for the SPEC's English abort message; shown instead of `key` when present. */
  message?: string;
  /** A button in the toast; pressing it sends `event` to the app root (never a callback in a view). */
  action?: ToastAction;
}

/** Moves keyboard focus to the element with this id once the screen has rendered (e.g. the first invalid field). */
export interface FocusEvent {
  type: 'focus';
  target: string;
}

/** Opens the browser's print dialog (a printable page's "Imprimir"): views never call `window.print` themselves. */
interface PrintEvent {
  type: 'print';
}

/** Effects the app edge performs. */
export type UiEvent = NavigateEvent | ToastEvent | FocusEvent | PrintEvent;

/** Folder counters may have changed (SPEC §7 `update-info-message-counts`): the app reloads them. */
export interface CountsChangedEvent {
  type: 'counts.changed';
}

export type Effect = UiEvent | CountsChangedEvent;

const EFFECT_TYPES: ReadonlySet<string> = new Set<Effect['type']>(['navigate', 'toast', 'focus', 'print', 'counts.changed']);

export const isEffect = (event: EventObject): event is Effect => EFFECT_TYPES.has(event.type);

/** What a relay sends its parent for each effect the watched child emits. */
export interface RelayedEffect {
  type: 'effect.relay';
  effect: Effect;
}

export interface RelayInput {
  /** The actor that spawned or invoked the child (the relay's own parent). */
  parent: AnyActorRef;
  /** The child's id among the parent's children. */
  child: string;
}

/**
 * Watches one child of `parent` and hands every effect it emits back as `effect.relay`; the parent
 * re-emits it (or, at the root, performs it). Invoke or spawn it right after the child, in the same
 * step: it starts after the child is in the parent's snapshot. A child's emits during its own start,
 * before the relay runs, are not seen, so hosted machines emit nothing on entering their initial state.
 */
export const relayEffects = fromCallback<EventObject, RelayInput, RelayedEffect>(({ input, sendBack }) => {
  const child: AnyActorRef | undefined = input.parent.getSnapshot().children[input.child];
  if (!child) return undefined;
  const subscription = child.on('*', (event: EventObject) => {
    if (isEffect(event)) sendBack({ type: 'effect.relay', effect: event });
  });
  return () => subscription.unsubscribe();
});
