// A lazy screen of the families' app whose chunk may be gone: after a deploy, the page still open runs the
// previous build, while the server (and the new service worker, which deletes the old build's files) has
// only the new one. Its `import()` then fails; the page reloads once to open the new build. Offline it
// does not reload (without an active worker the browser would show its own offline page instead of the
// app): the failure is thrown, and so is a second failure within a minute (a broken build), not looped.
// A thrown failure reaches the screen's ScreenBoundary, whose «Reintentar» loads the chunk again.
import { type ComponentType, createElement, lazy, type LazyExoticComponent } from 'react';

const KEY = 'hermes.familia.recargada';
const AGAIN_AFTER_MS = 60_000;

/**
 * `load`'s module, or a reload of the page (online, once a minute at most) when it cannot be fetched.
 */
export async function loadOrReload<T>(
  load: () => Promise<T>,
  reload: () => void = () => window.location.reload(),
  isOnline: () => boolean = () => navigator.onLine,
): Promise<T> {
  try {
    return await load();
  } catch (error) {
    // Offline a reload cannot bring the new build; the once-a-minute reload is kept for when it can.
    if (!isOnline()) throw error;
    let last = Number.NaN;
    try {
      last = Number(sessionStorage.getItem(KEY));
      sessionStorage.setItem(KEY, String(Date.now()));
    } catch {
      // No storage: reloading could loop.
      throw error;
    }
    if (Number.isFinite(last) && Date.now() - last < AGAIN_AFTER_MS) throw error;
    reload();
    // The page is going away: nothing to render meanwhile.
    return new Promise<T>(() => undefined);
  }
}

/**
 * `React.lazy` over `loadOrReload`, for a named export. React keeps a lazy component's failure for good, so
 * a failed load makes a fresh one: rendered again (the boundary's «Reintentar»), the chunk is asked for again.
 */
export function lazyScreen<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const fresh = (): LazyExoticComponent<ComponentType<P>> =>
    lazy(() =>
      loadOrReload(load).then(
        (component) => ({ default: component }),
        (error: unknown) => {
          current = fresh();
          throw error;
        },
      ),
    );
  let current = fresh();
  // biome-ignore lint/correctness/noComponentHookFactories: made once per screen at module level, as React.lazy is.
  return function LazyScreen(props: P) {
    return createElement(current as ComponentType<P>, props);
  };
}
