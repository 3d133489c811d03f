// A lazy screen of the families' app whose chunk may be gone: after a deploy, the page still open runs the
// previous build, while the server (and the new service worker, which deletes the old build's files) has
// only the new one. Its `import()` then fails; the page reloads once to open the new build. A second
// failure within a minute (offline with nothing kept, a broken build) is thrown, not looped.
import { type ComponentType, lazy } from 'react';

const KEY = 'hermes.familia.recargada';
const AGAIN_AFTER_MS = 60_000;

/** `load`'s module, or a reload of the page (once a minute at most) when it cannot be fetched. */
export async function loadOrReload<T>(load: () => Promise<T>, reload: () => void = () => window.location.reload()): Promise<T> {
  try {
    return await load();
  } catch (error) {
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

/** `React.lazy` over `loadOrReload`, for a named export. */
export function lazyScreen<P extends object>(load: () => Promise<ComponentType<P>>) {
  return lazy(() => loadOrReload(load).then((component) => ({ default: component })));
}
