// The service worker that keeps the app shell (build/shell.ts builds it into dist/sw.js, with this build's
// list of files): index.html, the entry's scripts and styles and the login screen come from the cache, so
// a returning user's login form appears without waiting for the network, and with none at all. Every
// other request is left to the browser as if no worker existed: the other screens' chunks are in its HTTP
// cache for a year (hashed, immutable), and the API's answers carry personal data and are never kept.
//
// A new build changes this file's list, so the browser, which checks the worker at each visit, installs
// the new one in the background; it takes over at once and drops the old build's cache, so the next visit
// opens the new build.

/** What the build writes into the worker. */
export interface Shell {
  /** Changes with every build whose files change. */
  version: string;
  /** Paths kept at install: '/index.html', the entry's scripts and styles, the login screen's chunks. */
  files: string[];
}

const CACHE_PREFIX = 'hermes-shell-';

/** A name Vite gave a content hash, as server/http/static.ts recognises it. */
const HASHED_ASSET = /^\/assets\/[^/]+-[A-Za-z0-9_-]{8}\.[A-Za-z0-9]+$/;

/** Paths the server answers without this app: the API, the provider simulator, the families' app. */
const SERVER_PATHS = /^\/(?:api|sim|familia)(?:\/|$)/;

/** A page of the app (any path the SPA routes), not a file such as /favicon.svg opened in a tab. */
const isAppPage = (pathname: string): boolean => !SERVER_PATHS.test(pathname) && !/\.[A-Za-z0-9]+$/.test(pathname);

/** The server's word that a file is a hashed asset of this build, not the history fallback's index.html. */
const isImmutable = (response: Response): boolean => /\bimmutable\b/.test(response.headers.get('Cache-Control') ?? '');

/** Every cached copy is the build's own file under its own URL, so Vary (Accept-Encoding) never matters. */
const MATCH = { ignoreVary: true, ignoreSearch: true } as const;

export function installShellWorker(scope: ServiceWorkerGlobalScope, shell: Shell): void {
  const cacheName = CACHE_PREFIX + shell.version;

  scope.addEventListener('install', (event) => {
    event.waitUntil(
      (async () => {
        const cache = await scope.caches.open(cacheName);
        await Promise.all(
          shell.files.map(async (file) => {
            // `reload`: never the HTTP cache's copy of index.html, which could be the previous build's.
            const response = await fetch(new Request(file, { cache: 'reload' }));
            // A deploy between this worker's download and now leaves its assets missing, and the server
            // answers them with index.html: the install fails and the next visit tries the new build.
            if (!response.ok || (HASHED_ASSET.test(file) && !isImmutable(response))) throw new Error(`${file}: ${response.status}`);
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
          if (name.startsWith(CACHE_PREFIX) && name !== cacheName) await scope.caches.delete(name);
        }
        await scope.clients.claim();
      })(),
    );
  });

  /**
   * What the cache keeps under `key` (index.html for every page of the app, else the file itself), else the
   * network's answer, not kept: the cache is this build's list.
   */
  async function cachedOr(key: Request | string, request: Request): Promise<Response> {
    const cached = await scope.caches.match(key, { ...MATCH, cacheName });
    return cached ?? fetch(request);
  }

  scope.addEventListener('fetch', (event) => {
    const { request } = event;
    if (request.method !== 'GET') return;
    const url = new URL(request.url);
    if (url.origin !== scope.location.origin) return;
    if (request.mode === 'navigate') {
      if (isAppPage(url.pathname)) event.respondWith(cachedOr('/index.html', request));
      return;
    }
    if (shell.files.includes(url.pathname)) event.respondWith(cachedOr(request, request));
  });
}
