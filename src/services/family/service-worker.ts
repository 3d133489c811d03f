// The families' app's service worker (build/shell.ts builds it with worker-rules.ts into dist/familia/sw.js,
// scope /familia/, with this build's list of files):
// - the app shell: index.html and every chunk and stylesheet of this small build, kept at install, so the
//   app opens with no network; a new build installs in the background, takes over and drops the old cache;
// - the guardian's copies: the inbox pages and messages the app fetched, answered from the network and kept
//   in a cache named from the session's token, answered from there when the network fails (rereading
//   offline) or hangs past a few seconds (a weak signal; the late answer still becomes the copy); the app deletes them when the guardian signs out (services/family/offline.ts);
// - push: each push shows one notification (worker-rules.ts says what it shows), and touching it brings the
//   app forward on the message's page; a subscription the push service ends is made again with the same
//   key, and the app registers it with the server at its next start (the worker holds no session token).
// Everything else (the API's other calls, fonts, the staff's paths) goes to the network as if no worker
// existed.
import {
  answerInTime,
  copiesCacheName,
  isFamilyPage,
  isKeptAnswer,
  MAX_COPIES,
  notificationOf,
  parsePushText,
  renewalOptions,
  SHELL_CACHE_PREFIX,
  tokenOf,
  urlOfNotification,
  windowToReuse,
} from './worker-rules';

/** What the build writes into the worker. */
export interface FamilyShell {
  /** Changes with every build whose files change. */
  version: string;
  /** Paths kept at install: '/familia/index.html', then the build's chunks and stylesheets. */
  files: string[];
}

/** Every cached file is the build's own under its own URL, so Vary (Accept-Encoding) never matters. */
const SHELL_MATCH = { ignoreVary: true, ignoreSearch: true } as const;

export function installFamilyWorker(scope: ServiceWorkerGlobalScope, shell: FamilyShell): void {
  const shellCache = SHELL_CACHE_PREFIX + shell.version;
  const indexFile = shell.files[0] ?? '/familia/index.html';

  scope.addEventListener('install', (event) => {
    event.waitUntil(
      (async () => {
        const cache = await scope.caches.open(shellCache);
        await Promise.all(
          shell.files.map(async (file) => {
            // `reload`: never the HTTP cache's copy of index.html, which could be the previous build's.
            const response = await fetch(new Request(file, { cache: 'reload' }));
            if (!response.ok) throw new Error(`${file}: ${response.status}`);
            await cache.put(file, response);
          }),
        );
        await scope.skipWaiting();
      })(),
    );
  });

  scope.addEventListener('activate', (event) => {
    event.waitUntil(
      (async () => {
        for (const name of await scope.caches.keys()) {
          if (name.startsWith(SHELL_CACHE_PREFIX) && name !== shellCache) await scope.caches.delete(name);
        }
        await scope.clients.claim();
      })(),
    );
  });

  async function fromShell(key: string, request: Request): Promise<Response> {
    const kept = await scope.caches.match(key, { ...SHELL_MATCH, cacheName: shellCache });
    return kept ?? fetch(request);
  }

  /** The network's answer, kept for this session; the kept one when the network fails. */
  /** The network's answer (kept as the copy, or the copies dropped) and, when the network is slow or down, the copy. */
  async function networkThenCopy(request: Request, url: string, later: (work: Promise<unknown>) => void): Promise<Response> {
    const token = tokenOf(request.headers.get('Authorization'));
    if (token === null) return fetch(request);
    const cacheName = await copiesCacheName(token);
    const network = fetch(request).then(async (response) => {
      if (response.ok) {
        const cache = await scope.caches.open(cacheName);
        await cache.put(url, response.clone());
        const keys = await cache.keys();
        for (const old of keys.slice(0, Math.max(0, keys.length - MAX_COPIES))) await cache.delete(old);
      } else if (response.status === 401) {
        // The session ended: none of its copies may be answered again.
        await scope.caches.delete(cacheName);
      } else if (response.status === 404) {
        // No longer this guardian's message.
        await (await scope.caches.open(cacheName)).delete(url);
      }
      return response;
    });
    // Answered from the copy, the worker stays until the late answer is kept.
    later(network.catch(() => undefined));
    return answerInTime(network, scope.caches.match(url, { cacheName }));
  }

  scope.addEventListener('fetch', (event) => {
    const { request } = event;
    const url = new URL(request.url);
    if (url.origin !== scope.location.origin) return;
    if (request.mode === 'navigate') {
      if (request.method === 'GET' && isFamilyPage(url.pathname)) event.respondWith(fromShell(indexFile, request));
      return;
    }
    if (isKeptAnswer(request.method, url.pathname)) {
      event.respondWith(networkThenCopy(request, url.href, (work) => event.waitUntil(work)));
      return;
    }
    if (request.method === 'GET' && shell.files.includes(url.pathname)) event.respondWith(fromShell(url.pathname, request));
  });

  scope.addEventListener('push', (event) => {
    const shown = notificationOf(parsePushText(event.data ? event.data.text() : null));
    event.waitUntil(scope.registration.showNotification(shown.title, shown.options));
  });

  // The push service ended the subscription (expired, keys rotated). The worker has no session token to tell
  // the server, and an endpoint is no proof of who owns it: it only subscribes again (unless the browser
  // already did), and the app's start, which registers this browser's current subscription whenever
  // notifications are allowed, tells the server. The old endpoint is dropped at its first 404/410.
  scope.addEventListener('pushsubscriptionchange', (event) => {
    if (event.newSubscription) return;
    const options = renewalOptions(event.oldSubscription);
    if (!options) return;
    event.waitUntil(
      (async () => {
        if (await scope.registration.pushManager.getSubscription()) return;
        await scope.registration.pushManager.subscribe(options);
      })(),
    );
  });

  scope.addEventListener('notificationclick', (event) => {
    event.notification.close();
    const target = new URL(urlOfNotification(event.notification.data), scope.location.origin).href;
    event.waitUntil(
      (async () => {
        const windows = await scope.clients.matchAll({ type: 'window', includeUncontrolled: true });
        const open = windowToReuse(windows, scope.registration.scope);
        if (!open) {
          await scope.clients.openWindow(target);
          return;
        }
        const focused = await open.focus();
        if (focused.url === target) return;
        // Only a window this worker controls can be sent elsewhere; another one gets a new window.
        await focused.navigate(target).catch(() => scope.clients.openWindow(target));
      })(),
    );
  });
}
