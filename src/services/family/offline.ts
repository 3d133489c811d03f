// The families' app and its service worker (service-worker.ts, built into /familia/sw.js): registered once
// the first screen is shown, in builds only (`npm run dev:family` has none), and the guardian's offline
// copies deleted when the session ends, so the next person on this phone never reads them.
import { COPIES_CACHE_PREFIX, FAMILY_SCOPE_PATH } from './worker-rules';

const FAMILY_WORKER_URL = '/familia/sw.js';

/** Registers the worker after the page's `load`; a browser without workers keeps using the network. */
export function registerFamilyWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const register = () => navigator.serviceWorker.register(FAMILY_WORKER_URL, { scope: FAMILY_SCOPE_PATH }).catch(() => undefined);
  if (document.readyState === 'complete') void register();
  else window.addEventListener('load', () => void register(), { once: true });
}

/** Deletes every session's copies of messages and inbox pages kept on this device. */
export async function forgetOfflineCopies(): Promise<void> {
  if (typeof caches === 'undefined') return;
  try {
    for (const name of await caches.keys()) if (name.startsWith(COPIES_CACHE_PREFIX)) await caches.delete(name);
  } catch {
    // Storage refused (private mode): nothing was kept either.
  }
}
