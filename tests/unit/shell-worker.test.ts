// @vitest-environment node
// The app shell's service worker as the build writes it (build/shell.ts → dist/sw.js): which files a build
// keeps, that a new build gets a new worker, and what the worker answers: pages from the kept index.html,
// the shell's files from the cache, nothing else (never anything of /api). The built script runs against a fake worker scope.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { shell } from '../../build/shell';

const ROOT = path.resolve(__dirname, '../..');
const ORIGIN = 'https://hermes.example';

interface Emitted {
  fileName: string;
  source: string;
}

/** A bundle as Vite hands it to `generateBundle`: an entry, a lazy login screen, a lazy compose screen. */
function bundle(indexHtml = '<script src="/assets/index-AAAAAAAA.js"></script>', entry = 'assets/index-AAAAAAAA.js') {
  const chunk = (fileName: string, fields: { isEntry?: boolean; imports?: string[]; moduleIds?: string[]; css?: string[] }) => ({
    type: 'chunk' as const,
    fileName,
    isEntry: fields.isEntry ?? false,
    imports: fields.imports ?? [],
    moduleIds: fields.moduleIds ?? [],
    viteMetadata: { importedCss: new Set(fields.css ?? []), importedAssets: new Set<string>() },
  });
  return {
    [entry]: chunk(entry, { isEntry: true, imports: ['assets/jsx-runtime-BBBBBBBB.js'], css: ['assets/index-CCCCCCCC.css'] }),
    'assets/jsx-runtime-BBBBBBBB.js': chunk('assets/jsx-runtime-BBBBBBBB.js', {}),
    'assets/login-page-DDDDDDDD.js': chunk('assets/login-page-DDDDDDDD.js', {
      moduleIds: [path.join(ROOT, 'src/views/pages/session/login-page.tsx')],
      imports: ['assets/button-EEEEEEEE.js', 'assets/jsx-runtime-BBBBBBBB.js'],
    }),
    'assets/button-EEEEEEEE.js': chunk('assets/button-EEEEEEEE.js', {}),
    'assets/compose-page-FFFFFFFF.js': chunk('assets/compose-page-FFFFFFFF.js', {
      moduleIds: [path.join(ROOT, 'src/views/pages/compose/compose-page.tsx')],
      imports: ['assets/button-EEEEEEEE.js'],
    }),
    'index.html': { type: 'asset' as const, fileName: 'index.html', source: indexHtml },
  };
}

/** Runs the plugin's hooks over `files` and returns the sw.js it emits. */
async function build(files: ReturnType<typeof bundle>, firstScreen = ['src/views/pages/session/login-page.tsx']): Promise<string> {
  const plugin = shell({ worker: 'src/services/shell/service-worker.ts', firstScreen, publicFiles: ['/favicon.svg'] });
  const emitted: Emitted[] = [];
  const context = {
    emitFile: (file: Emitted) => emitted.push(file),
    error: (message: string) => {
      throw new Error(message);
    },
  };
  // Vite types the hooks as plugin-or-object unions bound to Rollup's context; this plugin's are plain
  // functions that use `emitFile` and `error` only.
  const hooks = plugin as unknown as {
    configResolved: (config: { root: string }) => void;
    generateBundle: (this: typeof context, options: unknown, output: unknown) => Promise<void>;
  };
  hooks.configResolved({ root: ROOT });
  await hooks.generateBundle.call(context, {}, files);
  expect(emitted.map((file) => file.fileName)).toEqual(['sw.js']);
  return emitted[0]!.source;
}

const manifestOf = (script: string): { version: string; files: string[] } =>
  JSON.parse(/installShellWorker\(self, (.*)\);\s*$/.exec(script)![1]!);

// ─── A fake service worker scope: listeners, Cache Storage and the network ───

type Listener = (event: FakeEvent) => void;

interface FakeEvent {
  request?: Request;
  waitUntil(promise: Promise<unknown>): void;
  respondWith?(response: Promise<Response>): void;
}

class FakeCache {
  readonly entries = new Map<string, Response>();
  async put(request: Request | string, response: Response) {
    this.entries.set(new URL(typeof request === 'string' ? request : request.url, ORIGIN).pathname, response);
  }
  async match(request: Request | string) {
    return this.entries.get(new URL(typeof request === 'string' ? request : request.url, ORIGIN).pathname)?.clone();
  }
}

function runWorker(script: string, headersFor: (pathname: string) => Record<string, string> = () => ({})) {
  const listeners = new Map<string, Listener>();
  const caches = new Map<string, FakeCache>();
  const fetched: string[] = [];
  const network = async (request: Request) => {
    const pathname = new URL(request.url).pathname;
    fetched.push(pathname);
    return new Response(`red:${pathname}`, { headers: headersFor(pathname) });
  };
  const scope = {
    location: new URL(`${ORIGIN}/sw.js`),
    addEventListener: (type: string, listener: Listener) => listeners.set(type, listener),
    skipWaiting: async () => undefined,
    clients: { claim: async () => undefined },
    caches: {
      open: async (name: string) => {
        if (!caches.has(name)) caches.set(name, new FakeCache());
        return caches.get(name)!;
      },
      keys: async () => [...caches.keys()],
      delete: async (name: string) => caches.delete(name),
      match: async (request: Request | string, options: { cacheName: string }) => caches.get(options.cacheName)?.match(request),
    },
  };
  class WorkerRequest extends Request {
    constructor(input: string, init?: RequestInit) {
      super(new URL(input, ORIGIN), init);
    }
  }
  new Function('self', 'fetch', 'Request', script)(scope, network, WorkerRequest);

  async function lifecycle(type: 'install' | 'activate') {
    const pending: Promise<unknown>[] = [];
    listeners.get(type)!({ waitUntil: (p) => pending.push(p) });
    await Promise.all(pending);
  }
  /** A GET of `pathname`: the worker's answer, or null when it leaves the request to the network. */
  async function request(pathname: string, mode: RequestMode = 'cors'): Promise<string | null> {
    let answer: Promise<Response> | null = null;
    const pending: Promise<unknown>[] = [];
    // Node's Request refuses mode 'navigate', which only browsers create: the worker reads it as a field.
    const request = new Request(`${ORIGIN}${pathname}`);
    Object.defineProperty(request, 'mode', { value: mode });
    listeners.get('fetch')!({ request, waitUntil: (p) => pending.push(p), respondWith: (r) => (answer = r) });
    const body = answer === null ? null : await (await (answer as Promise<Response>)).text();
    await Promise.all(pending);
    return body;
  }
  return { caches, fetched, lifecycle, request };
}

describe('the shell a build keeps', () => {
  it('is index.html, the icon, the entry with its imports and styles, and the first screen with its imports', async () => {
    const { files } = manifestOf(await build(bundle()));
    expect(files).toEqual([
      '/index.html',
      '/favicon.svg',
      '/assets/button-EEEEEEEE.js',
      '/assets/index-AAAAAAAA.js',
      '/assets/index-CCCCCCCC.css',
      '/assets/jsx-runtime-BBBBBBBB.js',
      '/assets/login-page-DDDDDDDD.js',
    ]);
  });

  it('is a classic script (no import, no export) that installs the worker with that list', async () => {
    const script = await build(bundle());
    expect(script).not.toMatch(/^\s*(?:import|export)\b/m);
    expect(() => new Function('self', script)).not.toThrow();
  });

  it('changes version with every build whose files or index.html change, and only then', async () => {
    const first = manifestOf(await build(bundle())).version;
    expect(manifestOf(await build(bundle())).version).toBe(first);
    expect(manifestOf(await build(bundle('<script src="/assets/index-ZZZZZZZZ.js"></script>'))).version).not.toBe(first);
    expect(manifestOf(await build(bundle(undefined, 'assets/index-ZZZZZZZZ.js'))).version).not.toBe(first);
  });

  it('fails the build when a first-screen module is in no chunk', async () => {
    await expect(build(bundle(), ['src/views/pages/session/no-existe.tsx'])).rejects.toThrow(/no-existe/);
  });
});

describe('the worker', () => {
  const immutable = (pathname: string): Record<string, string> =>
    /^\/assets\//.test(pathname) ? { 'Cache-Control': 'public, max-age=31536000, immutable' } : { 'Cache-Control': 'no-cache' };

  it('keeps the shell at install, and drops older builds’ caches (not others) when it takes over', async () => {
    const script = await build(bundle());
    const { version, files } = manifestOf(script);
    const worker = runWorker(script, immutable);
    const scope = worker.caches;
    scope.set('hermes-shell-0000000000000000', new FakeCache());
    scope.set('otra-cosa', new FakeCache());
    await worker.lifecycle('install');
    expect([...scope.get(`hermes-shell-${version}`)!.entries.keys()]).toEqual(files);
    await worker.lifecycle('activate');
    expect([...scope.keys()].sort()).toEqual([`hermes-shell-${version}`, 'otra-cosa']);
  });

  it('fails its install when the server answers one of its assets with the history fallback (a newer deploy)', async () => {
    const worker = runWorker(await build(bundle()), (pathname) =>
      pathname === '/assets/login-page-DDDDDDDD.js' ? { 'Cache-Control': 'no-cache' } : immutable(pathname),
    );
    await expect(worker.lifecycle('install')).rejects.toThrow(/login-page/);
  });

  it('answers every page of the app with the kept index.html, without the network', async () => {
    const worker = runWorker(await build(bundle()), immutable);
    await worker.lifecycle('install');
    worker.fetched.length = 0;
    for (const page of ['/', '/login', '/inbox/message/12', '/ruta/que/no/existe']) {
      expect(await worker.request(page, 'navigate'), page).toBe('red:/index.html');
    }
    expect(await worker.request('/assets/index-AAAAAAAA.js')).toBe('red:/assets/index-AAAAAAAA.js');
    expect(worker.fetched).toEqual([]);
  });

  it("never answers nor keeps /api, the simulator or the families' app, even as a page, nor files opened as pages", async () => {
    const worker = runWorker(await build(bundle()), immutable);
    await worker.lifecycle('install');
    for (const [path, mode] of [
      ['/api/recipients', 'cors'],
      ['/api/session', 'same-origin'],
      ['/api/attachments/7', 'navigate'],
      ['/api/dashboard/connectivity/call-list.csv', 'navigate'],
      ['/sim/provider/messages', 'navigate'],
      // The families' app is another build with its own index.html: the staff's shell must not stand in.
      ['/familia', 'navigate'],
      ['/familia/mensaje/3', 'navigate'],
      ['/favicon.svg', 'navigate'],
    ] as const) {
      expect(await worker.request(path, mode), path).toBeNull();
    }
    const kept = [...worker.caches.values()].flatMap((cache) => [...cache.entries.keys()]);
    expect(kept.filter((path) => path.startsWith('/api') || path.startsWith('/sim'))).toEqual([]);
  });

  it('leaves the other screens’ chunks to the browser, and keeps nothing it did not install', async () => {
    const script = await build(bundle());
    const { version, files } = manifestOf(script);
    const worker = runWorker(script, immutable);
    await worker.lifecycle('install');
    // The browser's HTTP cache keeps them (immutable); a test's `page.route` still sees them.
    expect(await worker.request('/assets/compose-page-FFFFFFFF.js')).toBeNull();
    expect(await worker.request('/assets/index-AAAAAAAA.js', 'no-cors')).toBe('red:/assets/index-AAAAAAAA.js');
    expect([...worker.caches.get(`hermes-shell-${version}`)!.entries.keys()]).toEqual(files);
  });
});
