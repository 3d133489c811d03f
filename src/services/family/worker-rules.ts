// The rules of the families' service worker (service-worker.ts), apart from its event wiring so they can be
// tested as plain functions: which requests it answers, where it keeps a guardian's copies of messages,
// and what a push shows. build/shell.ts puts this module and the worker into one classic script, so this
// one imports nothing but types.
import type { PushPayload } from '../../../shared/push-contract';

/** Where the families' app is served (server/http/static.ts) and the worker's scope. */
export const FAMILY_SCOPE_PATH = '/familia/';

/** The app shell of one build: a new build, a new cache, the older ones deleted. */
export const SHELL_CACHE_PREFIX = 'hermes-familia-app-';

/**
 * The messages a guardian opened (and the inbox pages they saw), one cache per session: its name is made
 * from the token's hash, so a copy is only ever answered to a request that carries the same token. The
 * app deletes every one of them when the guardian signs out or the session ends.
 */
export const COPIES_CACHE_PREFIX = 'hermes-familia-copias-';

/** How many answers one session's copies keep; the oldest go first. */
export const MAX_COPIES = 60;

/**
 * How long a kept answer waits for the network, when there is a copy, before the copy is answered. On a weak
 * signal a request rarely fails: it hangs for tens of seconds. The copy is the message as last seen; the
 * network's answer, when it comes, becomes the copy for the next opening.
 */
export const NETWORK_WAIT_MS = 4000;

const LATE = Symbol('late');

/**
 * The answer to a kept request: the network's when it comes within `waitMs`, or whenever it comes when there
 * is no copy; the copy when the network fails, or when it is late and there is one. A late network is not
 * cancelled: whoever started it keeps its answer as the new copy.
 */
export async function answerInTime<R>(
  network: Promise<R>,
  copy: Promise<R | undefined>,
  waitMs: number = NETWORK_WAIT_MS,
  wait: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<R> {
  const settled = network.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  const kept = copy.catch(() => undefined);
  // Without a copy there is nothing better to answer: the network, however slow.
  const timer = kept.then((found) =>
    found === undefined ? new Promise<never>(() => undefined) : wait(waitMs).then((): typeof LATE => LATE),
  );
  const first = await Promise.race([settled, timer]);
  if (first === LATE) return (await kept) as R;
  if (first.ok) return first.value;
  const found = await kept;
  if (found !== undefined) return found;
  throw first.error;
}

/** A page of the app (a navigation the app routes), not a file such as /familia/sw.js. */
export const isFamilyPage = (pathname: string): boolean =>
  (pathname === '/familia' || pathname.startsWith(FAMILY_SCOPE_PATH)) && !/\.[A-Za-z0-9]+$/.test(pathname);

/**
 * The guardian API's answers worth keeping for rereading offline: the inbox's pages and one message. Not the
 * wall, not the sign-in, never a POST.
 */
export const isKeptAnswer = (method: string, pathname: string): boolean =>
  method === 'GET' && /^\/api\/app\/messages(?:\/[1-9]\d{0,15})?$/.test(pathname);

/** The bearer token of an `Authorization` header, or null. */
export function tokenOf(authorization: string | null): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  return match?.[1] ?? null;
}

/** The copies' cache of the session whose token is `token`: a hash of it, never the token itself. */
export async function copiesCacheName(token: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token)));
  const hex = [...digest.slice(0, 16)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return COPIES_CACHE_PREFIX + hex;
}

/** What `registration.showNotification` is called with. */
export interface ShownNotification {
  title: string;
  options: {
    body: string;
    tag: string;
    lang: string;
    icon: string;
    requireInteraction: boolean;
    data: { url: string };
  };
}

const ICON = '/familia/icono-192.png';

function isPayload(value: unknown): value is PushPayload {
  if (typeof value !== 'object' || value === null) return false;
  const p = value as Record<string, unknown>;
  return (
    typeof p.message_id === 'number' &&
    Number.isSafeInteger(p.message_id) &&
    typeof p.title === 'string' &&
    p.title.trim() !== '' &&
    typeof p.school === 'string' &&
    (p.child === null || typeof p.child === 'string') &&
    typeof p.url === 'string' &&
    typeof p.emergency === 'boolean'
  );
}

/** Only a page of this app opens from a notification: a payload's url elsewhere opens the inbox. */
const appUrl = (url: string): string => (url.startsWith(FAMILY_SCOPE_PATH) && !url.startsWith('//') ? url : FAMILY_SCOPE_PATH);

/**
 * The notification of a push (`data`: its JSON, parsed, or null): the message's title; the school and the
 * children it is about (never the text: a locked phone shows it to whoever holds it); tagged with the
 * message's id, so a retried push replaces its own notification; an emergency stays until it is touched.
 * A push that says nothing readable still shows something (Chrome requires a notification for every push).
 */
export function notificationOf(data: unknown): ShownNotification {
  if (!isPayload(data)) {
    return {
      title: 'Hermes Familias',
      options: {
        body: 'Tienes un mensaje nuevo.',
        tag: 'hermes-familia',
        lang: 'es',
        icon: ICON,
        requireInteraction: false,
        data: { url: FAMILY_SCOPE_PATH },
      },
    };
  }
  const child = data.child?.trim();
  return {
    title: data.title,
    options: {
      body: child ? `${data.school} · ${child}` : data.school,
      tag: String(data.message_id),
      lang: 'es',
      icon: ICON,
      requireInteraction: data.emergency,
      data: { url: appUrl(data.url) },
    },
  };
}

/** A push's text as JSON, or null when it is not JSON. */
export function parsePushText(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** The URL a clicked notification opens, from its `data` (only this app's pages). */
export function urlOfNotification(data: unknown): string {
  const url = typeof data === 'object' && data !== null ? (data as { url?: unknown }).url : undefined;
  return typeof url === 'string' ? appUrl(url) : FAMILY_SCOPE_PATH;
}

/** The open window of the app a notification's click should bring forward: a focused one first. */
export function windowToReuse<W extends { url: string; focused: boolean }>(windows: readonly W[], scopeUrl: string): W | null {
  const ours = windows.filter((w) => w.url.startsWith(scopeUrl));
  return ours.find((w) => w.focused) ?? ours[0] ?? null;
}

/**
 * The options a subscription the push service ended is made again with: the old one's VAPID key, so the
 * server's sends still verify; null when the browser did not say which key it had (the app subscribes with
 * the server's key at its next start).
 */
export function renewalOptions(
  old: { options: { applicationServerKey: ArrayBuffer | null } } | null | undefined,
): { userVisibleOnly: true; applicationServerKey: ArrayBuffer } | null {
  const key = old?.options.applicationServerKey;
  return key && key.byteLength > 0 ? { userVisibleOnly: true, applicationServerKey: key } : null;
}
