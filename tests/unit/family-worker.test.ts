// @vitest-environment node
// The families' service worker: its rules as plain functions (worker-rules.ts), then the script the build
// writes (build/shell.ts with the families' options → dist/familia/sw.js) run against a fake worker scope:
// the whole small build kept at install, pages of /familia answered from it, a guardian's messages kept per
// session and answered only offline and only to the same token, and a push shown without the message text.
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { shell } from '../../build/shell';
import type { PushPayload } from '../../shared/push-contract';
import {
  answerInTime,
  COPIES_CACHE_PREFIX,
  NETWORK_WAIT_MS,
  copiesCacheName,
  isFamilyPage,
  isKeptAnswer,
  notificationOf,
  parsePushText,
  renewalOptions,
  tokenOf,
  urlOfNotification,
  windowToReuse,
} from '../../src/services/family/worker-rules';

const ROOT = path.resolve(__dirname, '../..');
const ORIGIN = 'https://hermes.example';

const PAYLOAD: PushPayload = {
  message_id: 41,
  title: 'Reunión de apoderados',
  school: 'Colegio San Andrés',
  child: 'Tomás',
  url: '/familia/mensajes/41',
  emergency: false,
};

describe('the rules', () => {
  it('answer the app’s pages under /familia, not its files nor the staff’s pages', () => {
    expect(['/familia', '/familia/', '/familia/mensajes/41'].every(isFamilyPage)).toBe(true);
    expect(['/familia/sw.js', '/familia/manifest.webmanifest', '/', '/login', '/familiar'].some(isFamilyPage)).toBe(false);
  });

  it('keep only the inbox’s pages and one message, read with GET', () => {
    expect(isKeptAnswer('GET', '/api/app/messages')).toBe(true);
    expect(isKeptAnswer('GET', '/api/app/messages/41')).toBe(true);
    expect(isKeptAnswer('POST', '/api/app/messages/41/read')).toBe(false);
    expect(isKeptAnswer('GET', '/api/app/messages/41/read')).toBe(false);
    expect(isKeptAnswer('GET', '/api/app/wall')).toBe(false);
    expect(isKeptAnswer('GET', '/api/app/messages/0')).toBe(false);
    expect(isKeptAnswer('GET', '/api/messages/41')).toBe(false);
  });

  it('read the bearer token of a header', () => {
    expect(tokenOf('Bearer abc.def')).toBe('abc.def');
    expect(tokenOf('bearer abc')).toBe('abc');
    expect(tokenOf('Basic abc')).toBeNull();
    expect(tokenOf(null)).toBeNull();
  });

  it('name one cache per session from a hash of its token, never the token itself', async () => {
    const first = await copiesCacheName('tok-ana');
    expect(first).toMatch(new RegExp(`^${COPIES_CACHE_PREFIX}[0-9a-f]{32}$`));
    expect(first).not.toContain('tok-ana');
    expect(await copiesCacheName('tok-ana')).toBe(first);
    expect(await copiesCacheName('tok-pedro')).not.toBe(first);
  });

  it('show a push as the message’s title, the school and the child, tagged with the message’s id', () => {
    expect(notificationOf(PAYLOAD)).toEqual({
      title: 'Reunión de apoderados',
      options: {
        body: 'Colegio San Andrés · Tomás',
        tag: '41',
        lang: 'es',
        icon: '/familia/icono-192.png',
        requireInteraction: false,
        data: { url: '/familia/mensajes/41' },
      },
    });
    expect(notificationOf({ ...PAYLOAD, child: null }).options.body).toBe('Colegio San Andrés');
    expect(notificationOf({ ...PAYLOAD, emergency: true }).options.requireInteraction).toBe(true);
  });

  it('never show a text a payload carries, nor open a page outside the app', () => {
    const shown = notificationOf({ ...PAYLOAD, content: 'Texto privado del mensaje' });
    expect(JSON.stringify(shown)).not.toContain('Texto privado');
    expect(notificationOf({ ...PAYLOAD, url: 'https://otro.example/x' }).options.data.url).toBe('/familia/');
    expect(notificationOf({ ...PAYLOAD, url: '/login' }).options.data.url).toBe('/familia/');
  });

  it('still show something for a push it cannot read', () => {
    for (const data of [null, parsePushText('no es json'), { title: 'x' }, { ...PAYLOAD, message_id: '41' }]) {
      const shown = notificationOf(data);
      expect(shown.title).toBe('Hermes Familias');
      expect(shown.options.data.url).toBe('/familia/');
    }
  });

  it('open the notification’s page, or the inbox', () => {
    expect(urlOfNotification({ url: '/familia/mensajes/9' })).toBe('/familia/mensajes/9');
    expect(urlOfNotification({ url: '//otro.example/' })).toBe('/familia/');
    expect(urlOfNotification(null)).toBe('/familia/');
  });

  it('make an ended subscription again with its own key, or leave it to the app when the key is unknown', () => {
    const key = new Uint8Array([4, 1, 2, 3]).buffer;
    expect(renewalOptions({ options: { applicationServerKey: key } })).toEqual({ userVisibleOnly: true, applicationServerKey: key });
    expect(renewalOptions({ options: { applicationServerKey: null } })).toBeNull();
    expect(renewalOptions({ options: { applicationServerKey: new ArrayBuffer(0) } })).toBeNull();
    expect(renewalOptions(null)).toBeNull();
  });

  it('bring forward an open window of the app, the focused one first', () => {
    const scope = `${ORIGIN}/familia/`;
    const staff = { url: `${ORIGIN}/inbox`, focused: true };
    const a = { url: `${ORIGIN}/familia/`, focused: false };
    const b = { url: `${ORIGIN}/familia/mensajes/3`, focused: true };
    expect(windowToReuse([staff, a, b], scope)).toBe(b);
    expect(windowToReuse([staff, a], scope)).toBe(a);
    expect(windowToReuse([staff], scope)).toBeNull();
  });
});

// ─── The built script ───

/** The families' build as Vite hands it over: an entry with its style, the lazy message and push chunks. */
function bundle() {
  const chunk = (fileName: string, fields: { isEntry?: boolean; imports?: string[]; css?: string[] }) => ({
    type: 'chunk' as const,
    fileName,
    isEntry: fields.isEntry ?? false,
    imports: fields.imports ?? [],
    moduleIds: [],
    viteMetadata: { importedCss: new Set(fields.css ?? []), importedAssets: new Set<string>() },
  });
  return {
    'familia/assets/index-AAAAAAAA.js': chunk('familia/assets/index-AAAAAAAA.js', {
      isEntry: true,
      css: ['familia/assets/index-CCCCCCCC.css'],
    }),
    'familia/assets/message-page-DDDDDDDD.js': chunk('familia/assets/message-page-DDDDDDDD.js', {
      imports: ['familia/assets/index-AAAAAAAA.js'],
    }),
    'familia/assets/push-card-EEEEEEEE.js': chunk('familia/assets/push-card-EEEEEEEE.js', {}),
    'familia/index.html': { type: 'asset' as const, fileName: 'familia/index.html', source: '<html></html>' },
  };
}

async function build(): Promise<{ fileName: string; source: string }> {
  const plugin = shell({
    worker: ['src/services/family/worker-rules.ts', 'src/services/family/service-worker.ts'],
    firstScreen: [],
    publicFiles: ['/familia/icono-192.png'],
    base: '/familia',
    allChunks: true,
    install: 'installFamilyWorker',
  });
  const emitted: { fileName: string; source: string }[] = [];
  const context = {
    emitFile: (file: { fileName: string; source: string }) => emitted.push(file),
    error: (message: string) => {
      throw new Error(message);
    },
  };
  const hooks = plugin as unknown as {
    configResolved: (config: { root: string }) => void;
    generateBundle: (this: typeof context, options: unknown, output: unknown) => Promise<void>;
  };
  hooks.configResolved({ root: ROOT });
  await hooks.generateBundle.call(context, {}, bundle());
  expect(emitted).toHaveLength(1);
  return emitted[0]!;
}

type Listener = (event: Record<string, unknown>) => void;

class FakeCache {
  readonly entries = new Map<string, Response>();
  async put(request: Request | string, response: Response) {
    this.entries.set(new URL(typeof request === 'string' ? request : request.url, ORIGIN).href, response);
  }
  async match(request: Request | string) {
    return this.entries.get(new URL(typeof request === 'string' ? request : request.url, ORIGIN).href)?.clone();
  }
  async keys() {
    return [...this.entries.keys()].map((url) => new Request(url));
  }
  async delete(request: Request | string) {
    return this.entries.delete(new URL(typeof request === 'string' ? request : request.url, ORIGIN).href);
  }
}

interface FakeWindow {
  url: string;
  focused: boolean;
  focus(): Promise<FakeWindow>;
  navigate(url: string): Promise<FakeWindow>;
}

function runWorker(script: string) {
  const listeners = new Map<string, Listener>();
  const caches = new Map<string, FakeCache>();
  /** `hang`: requests wait until `release()`; `tag` marks the network's answers from then on. */
  const net = { online: true, status: 200, hang: false, tag: '' };
  const hung: Array<() => void> = [];
  const notifications: { title: string; options: unknown }[] = [];
  const opened: string[] = [];
  const navigated: string[] = [];
  const windows: FakeWindow[] = [];
  const push = { current: null as { endpoint: string } | null, made: [] as unknown[] };
  const network = async (request: Request) => {
    if (!net.online) throw new TypeError('Failed to fetch');
    if (net.hang) await new Promise<void>((resolve) => hung.push(resolve));
    const url = new URL(request.url);
    return new Response(`red${net.tag}:${url.pathname}${url.search}:${request.headers.get('Authorization') ?? ''}`, { status: net.status });
  };
  const scope = {
    location: new URL(`${ORIGIN}/familia/sw.js`),
    registration: {
      scope: `${ORIGIN}/familia/`,
      showNotification: async (title: string, options: unknown) => void notifications.push({ title, options }),
      pushManager: {
        getSubscription: async () => push.current,
        subscribe: async (options: unknown) => {
          push.made.push(options);
          push.current = { endpoint: `https://push.example/${push.made.length}` };
          return push.current;
        },
      },
    },
    addEventListener: (type: string, listener: Listener) => listeners.set(type, listener),
    skipWaiting: async () => undefined,
    clients: {
      claim: async () => undefined,
      matchAll: async () => windows,
      openWindow: async (url: string) => void opened.push(url),
    },
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

  async function dispatch(type: string, fields: Record<string, unknown>): Promise<void> {
    const pending: Promise<unknown>[] = [];
    listeners.get(type)!({ ...fields, waitUntil: (p: Promise<unknown>) => pending.push(p) });
    await Promise.all(pending);
  }
  /** A request: the worker's answer's text, null when it leaves it to the network; rejects as the page's fetch would. */
  async function request(url: string, init: { mode?: RequestMode; token?: string; method?: string } = {}): Promise<string | null> {
    let answer: Promise<Response> | null = null;
    const req = new Request(`${ORIGIN}${url}`, {
      method: init.method ?? 'GET',
      headers: init.token ? { Authorization: `Bearer ${init.token}` } : {},
    });
    Object.defineProperty(req, 'mode', { value: init.mode ?? 'cors' });
    await dispatch('fetch', { request: req, respondWith: (r: Promise<Response>) => (answer = r) });
    return answer === null ? null : (await (answer as Promise<Response>)).text();
  }
  const openWindow = (url: string, focused = false): FakeWindow => {
    const w: FakeWindow = {
      url,
      focused,
      focus: async () => w,
      navigate: async (to: string) => {
        navigated.push(to);
        return w;
      },
    };
    windows.push(w);
    return w;
  };
  const release = () => {
    for (const resolve of hung.splice(0)) resolve();
  };
  /** Until the worker has asked the network `count` requests that hang (the token's hash takes a turn of the loop). */
  async function hanging(count: number) {
    while (hung.length < count) await new Promise((resolve) => setImmediate(resolve));
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  }
  return { caches, net, notifications, opened, navigated, openWindow, dispatch, request, release, hanging, push };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('a kept answer on a weak signal', () => {
  /** A network answer that comes when told to. */
  function slowNetwork() {
    let answer: (value: string) => void = () => undefined;
    let fail: (error: Error) => void = () => undefined;
    const promise = new Promise<string>((resolve, reject) => {
      answer = resolve;
      fail = reject;
    });
    return { promise, answer, fail };
  }
  /** A timer fired by hand, recording what it was asked to wait. */
  function handTimer() {
    const asked: number[] = [];
    let fire: () => void = () => undefined;
    const wait = (ms: number) => {
      asked.push(ms);
      return new Promise<void>((resolve) => (fire = resolve));
    };
    return { asked, wait, fire: () => fire() };
  }

  it('answers the network when it comes in time', async () => {
    const timer = handTimer();
    await expect(answerInTime(Promise.resolve('red'), Promise.resolve('copia'), NETWORK_WAIT_MS, timer.wait)).resolves.toBe('red');
  });

  it('answers the copy when the network hangs past the wait, about 4 s', async () => {
    const net = slowNetwork();
    const timer = handTimer();
    const answer = answerInTime(net.promise, Promise.resolve('copia'), NETWORK_WAIT_MS, timer.wait);
    await vi.waitFor(() => expect(timer.asked).toEqual([NETWORK_WAIT_MS]));
    expect(NETWORK_WAIT_MS).toBe(4000);
    timer.fire();
    await expect(answer).resolves.toBe('copia');
    // The late answer is not lost: the network's promise still settles for whoever keeps the copy.
    net.answer('red');
    await expect(net.promise).resolves.toBe('red');
  });

  it('waits for the network as long as it takes when there is no copy', async () => {
    const net = slowNetwork();
    const timer = handTimer();
    const answer = answerInTime(net.promise, Promise.resolve(undefined), NETWORK_WAIT_MS, timer.wait);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(timer.asked).toEqual([]);
    net.answer('red');
    await expect(answer).resolves.toBe('red');
  });

  it('answers the copy at once when the network fails, and the failure when there is none', async () => {
    const timer = handTimer();
    await expect(answerInTime(Promise.reject(new TypeError('Failed to fetch')), Promise.resolve('copia'), 4000, timer.wait)).resolves.toBe(
      'copia',
    );
    await expect(
      answerInTime(Promise.reject(new TypeError('Failed to fetch')), Promise.resolve(undefined), 4000, timer.wait),
    ).rejects.toThrow(TypeError);
  });
});

describe('the built worker', () => {
  it('is a classic script at /familia/sw.js that keeps index.html, the icon and every chunk and style', async () => {
    const { fileName, source } = await build();
    expect(fileName).toBe('familia/sw.js');
    expect(source).not.toMatch(/^\s*(?:import|export)\b/m);
    const files = JSON.parse(/installFamilyWorker\(self, (.*)\);\s*$/.exec(source)![1]!).files;
    expect(files).toEqual([
      '/familia/index.html',
      '/familia/icono-192.png',
      '/familia/assets/index-AAAAAAAA.js',
      '/familia/assets/index-CCCCCCCC.css',
      '/familia/assets/message-page-DDDDDDDD.js',
      '/familia/assets/push-card-EEEEEEEE.js',
    ]);
  });

  it('answers the app’s pages with the kept index.html, offline too, and leaves the staff’s alone', async () => {
    const worker = runWorker((await build()).source);
    await worker.dispatch('install', {});
    worker.net.online = false;
    expect(await worker.request('/familia/mensajes/41', { mode: 'navigate' })).toBe('red:/familia/index.html:');
    expect(await worker.request('/familia/assets/message-page-DDDDDDDD.js')).toBe('red:/familia/assets/message-page-DDDDDDDD.js:');
    expect(await worker.request('/login', { mode: 'navigate' })).toBeNull();
    expect(await worker.request('/assets/index-XXXXXXXX.js')).toBeNull();
  });

  it('rereads an opened message offline, only with the same session’s token', async () => {
    const worker = runWorker((await build()).source);
    expect(await worker.request('/api/app/messages/41', { token: 'ana' })).toBe('red:/api/app/messages/41:Bearer ana');
    expect(await worker.request('/api/app/messages?page=1', { token: 'ana' })).toBe('red:/api/app/messages?page=1:Bearer ana');
    worker.net.online = false;
    expect(await worker.request('/api/app/messages/41', { token: 'ana' })).toBe('red:/api/app/messages/41:Bearer ana');
    expect(await worker.request('/api/app/messages?page=1', { token: 'ana' })).toBe('red:/api/app/messages?page=1:Bearer ana');
    // Another guardian on the same phone: nothing of Ana's.
    await expect(worker.request('/api/app/messages/41', { token: 'pedro' })).rejects.toThrow(TypeError);
    // Never opened: no copy.
    await expect(worker.request('/api/app/messages/42', { token: 'ana' })).rejects.toThrow(TypeError);
    // Not a kept answer: left to the network.
    expect(await worker.request('/api/app/messages/41/read', { token: 'ana', method: 'POST' })).toBeNull();
    const names = [...worker.caches.keys()].filter((name) => name.startsWith(COPIES_CACHE_PREFIX));
    expect(names).toEqual([await copiesCacheName('ana')]);
  });

  it('answers the kept copy when the network hangs past 4 s, and keeps the late answer for next time', async () => {
    const worker = runWorker((await build()).source);
    await worker.request('/api/app/messages/41', { token: 'ana' });
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    worker.net.hang = true;
    worker.net.tag = '-tarde';
    let answered: string | null = null;
    const answer = worker.request('/api/app/messages/41', { token: 'ana' }).then((text) => (answered = text));
    await worker.hanging(1);
    await vi.advanceTimersByTimeAsync(3900);
    expect(answered).toBeNull();
    await vi.advanceTimersByTimeAsync(200);
    await answer;
    expect(answered).toBe('red:/api/app/messages/41:Bearer ana');
    vi.useRealTimers();
    worker.release();
    await vi.waitFor(async () => {
      const copy = await worker.caches.get(await copiesCacheName('ana'))!.match('/api/app/messages/41');
      expect(await copy!.text()).toBe('red-tarde:/api/app/messages/41:Bearer ana');
    });
  });

  it('waits for a slow network when nothing is kept', async () => {
    const worker = runWorker((await build()).source);
    worker.net.hang = true;
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    let answered: string | null = null;
    const answer = worker.request('/api/app/messages/42', { token: 'ana' }).then((text) => (answered = text));
    await worker.hanging(1);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(answered).toBeNull();
    worker.release();
    await answer;
    expect(answered).toBe('red:/api/app/messages/42:Bearer ana');
  });

  it('drops a session’s copies when the server refuses its token', async () => {
    const worker = runWorker((await build()).source);
    await worker.request('/api/app/messages/41', { token: 'ana' });
    worker.net.status = 401;
    await worker.request('/api/app/messages?page=1', { token: 'ana' });
    expect(worker.caches.has(await copiesCacheName('ana'))).toBe(false);
  });

  it('shows a push as a notification without the message’s text', async () => {
    const worker = runWorker((await build()).source);
    const text = JSON.stringify({ ...PAYLOAD, emergency: true });
    await worker.dispatch('push', { data: { text: () => text } });
    expect(worker.notifications).toEqual([{ title: PAYLOAD.title, options: notificationOf({ ...PAYLOAD, emergency: true }).options }]);
    await worker.dispatch('push', { data: null });
    expect(worker.notifications[1]?.title).toBe('Hermes Familias');
  });

  it('subscribes again with the old key when the push service ends the subscription, and only then', async () => {
    const worker = runWorker((await build()).source);
    const key = new Uint8Array([4, 9, 9]).buffer;
    const old = { endpoint: 'https://push.example/old', options: { applicationServerKey: key } };
    await worker.dispatch('pushsubscriptionchange', { oldSubscription: old, newSubscription: null });
    expect(worker.push.made).toEqual([{ userVisibleOnly: true, applicationServerKey: key }]);
    // Already made again (by the browser, or the app at its start): nothing more.
    await worker.dispatch('pushsubscriptionchange', { oldSubscription: old, newSubscription: null });
    worker.push.current = null;
    await worker.dispatch('pushsubscriptionchange', { oldSubscription: old, newSubscription: { endpoint: 'https://push.example/new' } });
    // No key to make it with: the app subscribes with the server's key at its next start.
    await worker.dispatch('pushsubscriptionchange', { oldSubscription: null, newSubscription: null });
    expect(worker.push.made).toHaveLength(1);
  });

  it('brings an open window to the message on a click, or opens one', async () => {
    const worker = runWorker((await build()).source);
    const click = () =>
      worker.dispatch('notificationclick', { notification: { data: { url: '/familia/mensajes/41' }, close: () => undefined } });
    await click();
    expect(worker.opened).toEqual([`${ORIGIN}/familia/mensajes/41`]);
    worker.openWindow(`${ORIGIN}/familia/`);
    await click();
    expect(worker.navigated).toEqual([`${ORIGIN}/familia/mensajes/41`]);
    expect(worker.opened).toHaveLength(1);
  });
});
