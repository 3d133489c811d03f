// The app edge: where the effects the actors emit meet the browser. Wired once, at start-up (main.tsx;
// view tests call it too), never per component.
import { navigate } from 'wouter/use-browser-location';
import { t } from '../i18n';
import type { AppActor } from '../machines/app/app';
import { selectHoldsNavigation } from '../machines/app/pages';
import type { NavigateEvent } from '../machines/app/effects';
// The toaster's chunk comes with the first toast.
import { showToast } from './layout/toaster-loader';

/** Where this tab's entries are in its history: stamped on every entry the app makes (`history.state`). */
const positionOf = (state: unknown): number | null => {
  const position = (state as { hermesPosition?: unknown } | null)?.hermesPosition;
  return typeof position === 'number' ? position : null;
};

const here = () => `${location.pathname}${location.search}${location.hash}`;

/**
 * The history side of navigation. Links ask the app first (router.tsx sends `navigation.request`); the
 * browser's Back and Forward cannot be asked, so while a page holds navigation (compose with unsaved
 * changes) the edge puts the page's address back at once, before anything renders, and asks the app
 * with where the user was going. When the page lets it through, a Back is taken as a Back (`back`), so
 * history reads as if it had never been held; a Forward lands on its page, replacing the held entry.
 * A tab closing or reloading while navigation is held gets the browser's own confirmation.
 */
function connectHistory(app: AppActor): () => void {
  let position = positionOf(history.state) ?? 0;
  let shown = here();
  const follow = () => {
    position = positionOf(history.state) ?? position;
    shown = here();
  };
  const arrive = (at: number) => {
    position = at;
    shown = here();
  };
  const onPush = () => arrive(positionOf(history.state) ?? position + 1);
  const onPop = () => {
    const arrived = positionOf(history.state) ?? 0;
    if (!selectHoldsNavigation(app.getSnapshot())) {
      arrive(arrived);
      return;
    }
    const to = here();
    const back = arrived < position;
    // The held page's address again, before the router reads the one popped.
    history.pushState({ hermesPosition: arrived + 1 }, '', shown);
    app.send({ type: 'navigation.request', to, ...(back ? { back: true } : { replace: true }) });
  };
  const onBeforeUnload = (event: BeforeUnloadEvent) => {
    if (!selectHoldsNavigation(app.getSnapshot())) return;
    event.preventDefault();
    // Older browsers ask only when a return value is set (they show their own text, not this one).
    event.returnValue = '';
  };
  // Registered before the router's own listeners (the edge connects before the first render).
  addEventListener('popstate', onPop);
  addEventListener('pushState', onPush);
  addEventListener('replaceState', follow);
  addEventListener('beforeunload', onBeforeUnload);
  return () => {
    removeEventListener('popstate', onPop);
    removeEventListener('pushState', onPush);
    removeEventListener('replaceState', follow);
    removeEventListener('beforeunload', onBeforeUnload);
  };
}

/** Performs a `navigate` effect: a new document, back in history, or a new (or replaced) entry stamped with its position. */
function go(event: NavigateEvent) {
  if (event.reload) {
    location.assign(event.to);
    return;
  }
  if (event.back) {
    history.back();
    return;
  }
  const current = positionOf(history.state) ?? 0;
  navigate(event.to, { replace: event.replace ?? false, state: { hermesPosition: event.replace ? current : current + 1 } });
}

/**
 * Keyboard focus on the element, scrolled to the middle of the screen: the browser only scrolls a focused
 * element that is out of view, so a field half under the sticky top bar (a phone, a form scrolled a little)
 * would stay hidden. After React has rendered the state that shows it (a field, a button back from a dialog).
 */
function focusOn(id: string) {
  setTimeout(() => {
    const element = document.getElementById(id);
    if (!element) return;
    element.focus({ preventScroll: true });
    // Not in jsdom (view tests).
    element.scrollIntoView?.({ block: 'center', inline: 'nearest' });
  }, 0);
}

/** Performs the root's UI effects and follows the browser's history; returns the function that undoes both. */
export function connectEdge(app: AppActor): () => void {
  const subscriptions = [
    app.on('navigate', go),
    app.on('toast', (e) => {
      const action = e.action;
      showToast(
        e.kind,
        e.message ?? t(e.key, e.params),
        action ? { label: t(action.label), onPress: () => app.send(action.event) } : undefined,
      );
    }),
    app.on('focus', (e) => focusOn(e.target)),
    // After React has rendered what was asked to be printed.
    app.on('print', () => setTimeout(() => window.print(), 0)),
  ];
  const disconnectHistory = connectHistory(app);
  return () => {
    for (const subscription of subscriptions) subscription.unsubscribe();
    disconnectHistory();
  };
}
