// The families' app on a device (under StrictMode and without it): the card that asks to turn on
// notifications, over a scripted fetch and a fake browser (Notification, the worker's push manager). The
// browser's question only after «Activar avisos»; the subscription made with the server's key and sent to
// it; «Ahora no» remembered; blocked and impossible said with how to turn them on later; sign-out undoes the
// subscription before revoking the token; and the offline notice. «Avisos» turns them on again after
// «Ahora no», says when this phone receives them, and says how to unblock them.
import { StrictMode, type ReactNode } from 'react';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { memoryLocation } from 'wouter/memory-location';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import familyCL from '../../src/i18n/family/es-CL.json' with { type: 'json' };
import type { FamilySession } from '../../shared/family-contract';
import { familySessionMachine } from '../../src/machines/family/session';
import { FamilyApp } from '../../src/views/family/app';
import { EMPTY_FAMILY_INBOX, FAMILY_SESSION_KEY, familySession, jsonResponse } from '../fixtures/family';

const tx = familyCL.family;

const SESSION: FamilySession = familySession([{ name: 'Colegio San Andrés', locale: 'es-CL' }]);
/** The server's VAPID public key: an uncompressed P-256 point's 65 bytes, base64url. */
const KEY_BYTES = Uint8Array.from({ length: 65 }, (_, i) => (i === 0 ? 4 : i));
const PUBLIC_KEY = Buffer.from(KEY_BYTES).toString('base64url');
const ENDPOINT = 'https://push.example/sub/1';
const SUBSCRIPTION_JSON = { endpoint: ENDPOINT, expirationTime: null, keys: { p256dh: 'p'.repeat(87), auth: 'a'.repeat(22) } };

interface Recorded {
  method: string;
  path: string;
  authorization: string | null;
  body: unknown;
}
let requests: Recorded[] = [];

function answer(method: string, path: string): Response {
  switch (`${method} ${path}`) {
    case 'GET /api/app/messages?page=1':
      return jsonResponse(200, EMPTY_FAMILY_INBOX);
    case 'GET /api/app/push/key':
      return jsonResponse(200, { data: { public_key: PUBLIC_KEY } });
    case 'POST /api/app/push/subscriptions':
      return jsonResponse(201, { data: { id: 3, endpoint: ENDPOINT } });
    case 'GET /api/app/notifications':
      return jsonResponse(200, { data: { children: [] } });
    case 'DELETE /api/app/push/subscriptions':
    case 'DELETE /api/app/session':
      return new Response(null, { status: 204 });
    default:
      return jsonResponse(404, { message: 'No encontrado.', code: 'not_found' });
  }
}

/** Only its presence is read: push is supported. */
class FakePushManager {}

/** The browser as the test sets it up: push supported, the permission as given, no subscription yet. */
function device(
  permission: NotificationPermission,
  options: { supported?: boolean; answer?: NotificationPermission; subscribed?: boolean } = {},
) {
  const unsubscribe = vi.fn(async () => true);
  let subscription: {
    endpoint: string;
    options: { applicationServerKey: ArrayBuffer };
    unsubscribe: typeof unsubscribe;
    toJSON(): unknown;
  } | null = null;
  const subscribe = vi.fn(async (opts: { applicationServerKey: Uint8Array; userVisibleOnly: boolean }) => {
    subscription = {
      endpoint: ENDPOINT,
      options: { applicationServerKey: opts.applicationServerKey.slice().buffer },
      unsubscribe,
      toJSON: () => SUBSCRIPTION_JSON,
    };
    return subscription;
  });
  if (options.subscribed) {
    subscription = {
      endpoint: ENDPOINT,
      options: { applicationServerKey: KEY_BYTES.slice().buffer },
      unsubscribe,
      toJSON: () => SUBSCRIPTION_JSON,
    };
  }
  const registration = { pushManager: { getSubscription: vi.fn(async () => subscription), subscribe } };
  const notification = {
    permission,
    requestPermission: vi.fn(async () => {
      notification.permission = options.answer ?? 'granted';
      return notification.permission;
    }),
  };
  if (options.supported !== false) {
    vi.stubGlobal('Notification', notification);
    vi.stubGlobal('PushManager', FakePushManager);
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: { ready: Promise.resolve(registration), getRegistration: async () => registration },
    });
  }
  return { notification, subscribe, unsubscribe, registration };
}

beforeEach(() => {
  requests = [];
  localStorage.clear();
  localStorage.setItem(FAMILY_SESSION_KEY, JSON.stringify(SESSION));
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const method = init?.method ?? 'GET';
      requests.push({
        method,
        path: url.pathname + url.search,
        authorization: new Headers(init?.headers).get('authorization'),
        body: init?.body ? JSON.parse(String(init.body)) : undefined,
      });
      return answer(method, url.pathname + url.search);
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'serviceWorker');
  localStorage.clear();
});

const modes: Array<[string, (node: ReactNode) => ReactNode]> = [
  ['StrictMode', (node) => <StrictMode>{node}</StrictMode>],
  ['plain', (node) => node],
];

function open(wrap: (node: ReactNode) => ReactNode, path = '/') {
  const location = memoryLocation({ path, record: true });
  const session = createActor(familySessionMachine, { input: { preferredLocale: 'es-CL' } }).start();
  return render(wrap(<FamilyApp session={session} hook={location.hook} />));
}

const calls = (method: string, path: string) => requests.filter((r) => r.method === method && r.path === path);
const card = () => screen.queryByRole('heading', { name: tx.push.title });

describe.each(modes)('notifications on the device (%s)', (_, wrap) => {
  it('explains them first, asks the browser only on «Activar avisos», subscribes with the server’s key and registers it', async () => {
    const browser = device('default');
    open(wrap);
    expect(await screen.findByRole('heading', { name: tx.push.title })).toBeTruthy();
    expect(screen.getByText(/nunca el texto del mensaje/)).toBeTruthy();
    expect(screen.getByText(/Colegio San Andrés te envíe un mensaje/)).toBeTruthy();
    expect(browser.notification.requestPermission).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: tx.push.enable }));
    expect(await screen.findByText(tx.push.enabled)).toBeTruthy();
    expect(browser.notification.requestPermission).toHaveBeenCalledTimes(1);
    expect(browser.subscribe).toHaveBeenCalledTimes(1);
    const options = browser.subscribe.mock.calls[0]![0];
    expect(options.userVisibleOnly).toBe(true);
    expect([...options.applicationServerKey]).toEqual([...KEY_BYTES]);
    const posted = calls('POST', '/api/app/push/subscriptions');
    expect(posted).toHaveLength(1);
    expect(posted[0]?.body).toEqual(SUBSCRIPTION_JSON);
    expect(posted[0]?.authorization).toBe('Bearer tok-123');

    fireEvent.click(screen.getByRole('button', { name: tx.push.close }));
    await waitFor(() => expect(screen.queryByText(tx.push.enabled)).toBeNull());
  });

  it('remembers «Ahora no»: no card on the next visit', async () => {
    const browser = device('default');
    const first = open(wrap);
    fireEvent.click(await screen.findByRole('button', { name: tx.push.later }));
    await waitFor(() => expect(card()).toBeNull());
    first.unmount();
    open(wrap);
    expect(await screen.findByRole('heading', { name: tx.inbox.title })).toBeTruthy();
    await act(async () => undefined);
    expect(card()).toBeNull();
    expect(browser.notification.requestPermission).not.toHaveBeenCalled();
  });

  it('says how to turn them on when the guardian blocks them at the browser’s question', async () => {
    device('default', { answer: 'denied' });
    open(wrap);
    fireEvent.click(await screen.findByRole('button', { name: tx.push.enable }));
    expect(await screen.findByRole('heading', { name: tx.push.deniedTitle })).toBeTruthy();
    expect(screen.getByText(tx.push.denied)).toBeTruthy();
    expect(calls('POST', '/api/app/push/subscriptions')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: tx.push.understood }));
    await waitFor(() => expect(screen.queryByRole('heading', { name: tx.push.deniedTitle })).toBeNull());
  });

  it('says so where the browser cannot show them', async () => {
    device('default', { supported: false });
    open(wrap);
    expect(await screen.findByRole('heading', { name: tx.push.unsupportedTitle })).toBeTruthy();
    expect(screen.getByText(tx.push.unsupported)).toBeTruthy();
  });

  it('renews an allowed subscription without a card, and undoes it at sign-out before the token is revoked', async () => {
    const browser = device('granted');
    open(wrap);
    await waitFor(() => expect(calls('POST', '/api/app/push/subscriptions')).toHaveLength(1));
    expect(card()).toBeNull();
    expect(browser.notification.requestPermission).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: tx.app.signOut }));
    expect(await screen.findByRole('heading', { name: tx.signIn.title })).toBeTruthy();
    expect(browser.unsubscribe).toHaveBeenCalled();
    const removed = requests.findIndex((r) => r.method === 'DELETE' && r.path === '/api/app/push/subscriptions');
    const revoked = requests.findIndex((r) => r.method === 'DELETE' && r.path === '/api/app/session');
    expect(removed).toBeGreaterThanOrEqual(0);
    expect(requests[removed]?.body).toEqual({ endpoint: ENDPOINT });
    expect(requests[removed]?.authorization).toBe('Bearer tok-123');
    expect(revoked).toBeGreaterThan(removed);
  });

  it('«Avisos» after «Ahora no»: turns them on in this phone (the browser’s question, the subscription, the server)', async () => {
    const browser = device('default');
    localStorage.setItem('hermes.familia.avisos.ahora-no', String(Date.now()));
    open(wrap, '/avisos');
    expect(await screen.findByRole('heading', { name: tx.pushHere.title })).toBeTruthy();
    expect(screen.getByText(tx.pushHere.off)).toBeTruthy();
    expect(browser.notification.requestPermission).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: tx.pushHere.enable }));
    expect(await screen.findByText(tx.push.enabled)).toBeTruthy();
    expect(browser.notification.requestPermission).toHaveBeenCalledTimes(1);
    expect(browser.subscribe).toHaveBeenCalledTimes(1);
    const posted = calls('POST', '/api/app/push/subscriptions');
    expect(posted).toHaveLength(1);
    expect(posted[0]).toMatchObject({ body: SUBSCRIPTION_JSON, authorization: 'Bearer tok-123' });
  });

  it('«Avisos» on a phone that receives them says so, and offers nothing', async () => {
    device('granted', { subscribed: true });
    open(wrap, '/avisos');
    expect(await screen.findByText(tx.pushHere.receiving)).toBeTruthy();
    expect(screen.queryByRole('button', { name: tx.pushHere.enable })).toBeNull();
  });

  it('«Avisos» where the browser blocks them says how to allow them, with no button that cannot work', async () => {
    const browser = device('denied');
    open(wrap, '/avisos');
    expect(await screen.findByRole('heading', { name: tx.pushHere.title })).toBeTruthy();
    expect(await screen.findByText(tx.push.denied)).toBeTruthy();
    expect(screen.queryByRole('button', { name: tx.pushHere.enable })).toBeNull();
    expect(browser.notification.requestPermission).not.toHaveBeenCalled();
  });

  it('says when the phone is offline, above every screen', async () => {
    device('default', { supported: false });
    open(wrap);
    await screen.findByRole('heading', { name: tx.inbox.title });
    expect(screen.queryByText(tx.offline.banner)).toBeNull();
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    act(() => void window.dispatchEvent(new Event('offline')));
    expect(await screen.findByText(tx.offline.banner)).toBeTruthy();
    onLine.mockReturnValue(true);
    act(() => void window.dispatchEvent(new Event('online')));
    await waitFor(() => expect(screen.queryByText(tx.offline.banner)).toBeNull());
    onLine.mockRestore();
  });
});
