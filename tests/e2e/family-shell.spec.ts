// The families' app as an installed app in Chromium against the real server: its service worker registers
// under /familia/, keeps the app and the messages the guardian opened, and with no network the app opens and
// rereads them (saying it is offline); sign-out deletes those copies. Push: the card asks before the browser
// does (axe finds nothing in it), the subscription reaches the server, a push delivered to the worker
// through the DevTools protocol shows the message's title tagged with its id, and sign-out removes the
// subscription; after «Ahora no», «Avisos» turns them on. Chromium without Google's keys cannot reach a real
// push service, so the page's `pushManager.subscribe` is replaced by one that answers a well-formed subscription.
// The click on that notification: neither Chromium nor the DevTools protocol can click a notification, so
// the test dispatches a `notificationclick` for the real notification (read back with
// `registration.getNotifications`) inside the real worker, whose own handler runs: it closes the
// notification, finds the app's window and navigates it for real. Only what Chromium allows a trusted
// click alone is stood in for: `WindowClient.focus()` (answers the window itself) and `clients.openWindow()`
// (records the address, which the test then opens as the browser would).
import { expect, test, type BrowserContext, type Page, type Worker } from '@playwright/test';
import type { PushPayload } from '../../shared/push-contract';
import familyCL from '../../src/i18n/family/es-CL.json' with { type: 'json' };
import { expectNoAxeViolations } from './support/axe';
import { USERS } from './support/env';
import { guardianWithApp, inboxRow, sendToGuardian, signInAsGuardian } from './support/family';
import { BASE_URL } from './support/server';
import { loginViaApi } from './support/session';

const tx = familyCL.family;

/** Until the app's worker is active and controls the page (it claims the open pages when it activates). */
async function workerInControl(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    if (!registration.scope.endsWith('/familia/')) throw new Error(`worker of ${registration.scope}`);
    if (navigator.serviceWorker.controller) return;
    await new Promise<void>((resolve) => navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), { once: true }));
  });
}

/**
 * A touch on the notification tagged `tag`, dispatched inside the app's worker to its own handler: whether it
 * closed the notification, and what it asked to open in a new window. (Whether the closed notification is
 * gone from `getNotifications` is Chromium's to say, a moment later, and not reliably after a retried push
 * replaced it by tag.)
 */
function clickNotification(worker: Worker, tag: string): Promise<{ closed: boolean; opened: string[] }> {
  return worker.evaluate(async (tag) => {
    interface WorkerScope {
      registration: { getNotifications(filter: { tag: string }): Promise<Notification[]> };
      clients: object;
      dispatchEvent(event: Event): boolean;
    }
    interface WorkerGlobals {
      NotificationEvent: new (type: string, init: { notification: Notification }) => Event;
      WindowClient: { prototype: { focus(): Promise<unknown> } };
    }
    const scope = self as unknown as WorkerScope;
    const globals = globalThis as unknown as WorkerGlobals;
    const [notification] = await scope.registration.getNotifications({ tag });
    if (!notification) throw new Error(`no notification tagged ${tag}`);
    let closed = false;
    const close = notification.close.bind(notification);
    notification.close = () => {
      closed = true;
      close();
    };
    const opened: string[] = [];
    const focus = globals.WindowClient.prototype.focus;
    globals.WindowClient.prototype.focus = function (this: unknown) {
      return Promise.resolve(this);
    };
    Object.defineProperty(scope.clients, 'openWindow', {
      configurable: true,
      value: async (url: string) => {
        opened.push(url);
        return null;
      },
    });
    const event = new globals.NotificationEvent('notificationclick', { notification });
    // A script-made event's own waitUntil throws in Chromium; the handler's promises are awaited here.
    const pending: Promise<unknown>[] = [];
    Object.defineProperty(event, 'waitUntil', { value: (promise: Promise<unknown>) => void pending.push(promise) });
    try {
      scope.dispatchEvent(event);
      await Promise.all(pending);
    } finally {
      globals.WindowClient.prototype.focus = focus;
      Reflect.deleteProperty(scope.clients, 'openWindow');
    }
    return { closed, opened };
  }, tag);
}

/**
 * A well-formed subscription (65-byte p256dh, 16-byte auth) at an address nothing answers, in every page of
 * the context (a click on a notification loads the app again).
 */
async function fakePushService(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const b64url = (bytes: Uint8Array) =>
      btoa(String.fromCharCode(...bytes))
        .replace(/\+/g, '-')
        .replace(/\//g, '_')
        .replace(/=+$/, '');
    const p256dh = new Uint8Array(65).map((_, i) => (i === 0 ? 4 : (i * 7) % 256));
    let current: PushSubscription | null = null;
    PushManager.prototype.getSubscription = async () => current;
    PushManager.prototype.subscribe = async (options?: PushSubscriptionOptionsInit) => {
      const endpoint = `https://push.invalid/e2e/${crypto.randomUUID()}`;
      const key = options?.applicationServerKey as Uint8Array;
      current = {
        endpoint,
        expirationTime: null,
        options: { applicationServerKey: key.slice().buffer, userVisibleOnly: true },
        getKey: () => null,
        unsubscribe: async () => {
          current = null;
          return true;
        },
        toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh: b64url(p256dh), auth: b64url(new Uint8Array(16).fill(9)) } }),
      } as unknown as PushSubscription;
      return current;
    };
  });
}

/** Names of the caches that hold a session's copies of messages. */
const copiesCaches = (page: Page) =>
  page.evaluate(async () => (await caches.keys()).filter((name) => name.startsWith('hermes-familia-copias-')));

async function teacherPage(context: BrowserContext): Promise<Page> {
  const teacher = await context.newPage();
  await loginViaApi(teacher, USERS.teacher);
  return teacher;
}

test('the app opens offline and rereads a message the guardian opened; sign-out deletes the copies', async ({ page, browser }) => {
  test.setTimeout(90_000);
  const teacherContext = await browser.newContext({ baseURL: BASE_URL });
  const teacher = await teacherPage(teacherContext);
  const guardian = await guardianWithApp(teacher, 1);
  const title = `Para releer ${Date.now().toString(36)}`;
  const unopened = `Sin abrir ${Date.now().toString(36)}`;
  await sendToGuardian(teacher, guardian, unopened, 'Este no se abrió antes.');
  const id = await sendToGuardian(teacher, guardian, title, 'El lunes traer el delantal.');
  await teacherContext.close();

  await page.setViewportSize({ width: 390, height: 844 });
  await signInAsGuardian(page, guardian);
  await workerInControl(page);
  const manifest = await page.evaluate(async () => {
    const link = document.querySelector<HTMLLinkElement>('link[rel="manifest"]');
    return link ? ((await (await fetch(link.href)).json()) as Record<string, unknown>) : null;
  });
  expect(manifest).toMatchObject({ start_url: '/familia/', scope: '/familia/', lang: 'es', short_name: 'Hermes' });

  await (await inboxRow(page, title)).click();
  await expect(page).toHaveURL(new RegExp(`/familia/mensajes/${id}$`));
  await expect(page.getByRole('heading', { name: title })).toBeVisible();
  await page.getByRole('link', { name: tx.app.back }).click();
  await expect(page.getByRole('link', { name: new RegExp(title) })).toBeVisible();
  expect(await copiesCaches(page)).toHaveLength(1);

  await inboxRow(page, unopened);
  await page.context().setOffline(true);
  await page.reload();
  await expect(page.getByText(tx.offline.banner)).toBeVisible();
  // Only what was opened: the other message cannot be read without the network.
  await page.getByRole('link', { name: new RegExp(unopened) }).click();
  await expect(page.getByText(tx.message.offline)).toBeVisible();
  await page.getByRole('link', { name: tx.app.back }).click();
  await page.getByRole('link', { name: new RegExp(title) }).click();
  await expect(page.getByRole('heading', { name: title })).toBeVisible();
  await expect(page.getByText('El lunes traer el delantal.')).toBeVisible();
  await expect(page.getByText(tx.offline.banner)).toBeVisible();
  await expectNoAxeViolations(page, 'message reread offline');

  await page.context().setOffline(false);
  await page.getByRole('button', { name: tx.app.signOut }).click();
  await expect(page.getByRole('heading', { name: tx.signIn.title })).toBeVisible();
  expect(await copiesCaches(page)).toEqual([]);
});

test('the card asks first; the subscription reaches the server; a push shows the message, a touch opens it; sign-out removes it', async ({
  page,
  context,
  browser,
}) => {
  test.setTimeout(90_000);
  const teacherContext = await browser.newContext({ baseURL: BASE_URL });
  const teacher = await teacherPage(teacherContext);
  const guardian = await guardianWithApp(teacher, 2);
  const title = `Para tocar ${Date.now().toString(36)}`;
  const id = await sendToGuardian(teacher, guardian, title, 'Mañana no hay clases por el corte de agua.');
  await teacherContext.close();

  await fakePushService(context);

  await page.setViewportSize({ width: 390, height: 844 });
  await signInAsGuardian(page, guardian);
  await workerInControl(page);
  const cardTitle = page.getByRole('heading', { name: tx.push.title });
  await expect(cardTitle).toBeVisible();
  await expectNoAxeViolations(page, 'notifications card at 390 px');
  await page.setViewportSize({ width: 320, height: 640 });
  await expectNoAxeViolations(page, 'notifications card at 320 px');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);

  await context.grantPermissions(['notifications'], { origin: BASE_URL });
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/app/push/subscriptions') && r.request().method() === 'POST');
  await page.getByRole('button', { name: tx.push.enable }).click();
  expect((await saved).status()).toBe(201);
  await expect(page.getByText(tx.push.enabled)).toBeVisible();
  // The engine hands the message over (and would push) on its own time: in the inbox first.
  await inboxRow(page, title);

  // A push for a message, delivered to the worker as the push service would.
  const cdp = await context.newCDPSession(page);
  const registrations = new Map<string, string>();
  cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations: updated }) => {
    for (const r of updated) if (!r.isDeleted) registrations.set(r.scopeURL, r.registrationId);
  });
  await cdp.send('ServiceWorker.enable');
  await expect.poll(() => registrations.get(`${BASE_URL}/familia/`)).toBeTruthy();
  const payload: PushPayload = {
    message_id: id,
    title,
    school: 'Colegio de prueba',
    child: 'Tomás',
    url: `/familia/mensajes/${id}`,
    emergency: true,
  };
  const deliver = () =>
    cdp.send('ServiceWorker.deliverPushMessage', {
      origin: BASE_URL,
      registrationId: registrations.get(`${BASE_URL}/familia/`)!,
      data: JSON.stringify(payload),
    });
  const shown = () =>
    page.evaluate(async () =>
      (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
        title: n.title,
        tag: n.tag,
        body: n.body,
        requireInteraction: n.requireInteraction,
      })),
    );
  await deliver();
  await expect.poll(shown).toEqual([{ title, tag: String(id), body: 'Colegio de prueba · Tomás', requireInteraction: true }]);
  // A retry of the same push replaces its notification.
  await deliver();
  await expect.poll(async () => (await shown()).length).toBe(1);

  // Touched with the app open: the notification goes, and the same window shows the message.
  const worker = context.serviceWorkers().find((w) => w.url() === `${BASE_URL}/familia/sw.js`);
  expect(worker, 'the app’s worker').toBeTruthy();
  const message = `/familia/mensajes/${id}`;
  expect(await clickNotification(worker!, String(id))).toEqual({ closed: true, opened: [] });
  await expect(page).toHaveURL(`${BASE_URL}${message}`);
  await expect(page.getByRole('heading', { name: title })).toBeVisible();
  await expect(page.getByText('Mañana no hay clases por el corte de agua.')).toBeVisible();

  // Touched with no window of the app: a new one is asked for at the message.
  await deliver();
  await expect.poll(async () => (await shown()).length).toBe(1);
  await cdp.detach();
  await page.close();
  expect(await clickNotification(worker!, String(id))).toEqual({ closed: true, opened: [`${BASE_URL}${message}`] });
  const opened = await context.newPage();
  await opened.setViewportSize({ width: 390, height: 844 });
  // Allowed already: the app registers this page's subscription again as it starts.
  const renewed = opened.waitForResponse((r) => r.url().endsWith('/api/app/push/subscriptions') && r.request().method() === 'POST');
  await opened.goto(`${BASE_URL}${message}`);
  await expect(opened.getByRole('heading', { name: title })).toBeVisible();
  expect((await renewed).status()).toBe(201);

  const removed = opened.waitForResponse((r) => r.url().endsWith('/api/app/push/subscriptions') && r.request().method() === 'DELETE');
  await opened.getByRole('button', { name: tx.app.signOut }).click();
  expect((await removed).status()).toBe(204);
  await expect(opened.getByRole('heading', { name: tx.signIn.title })).toBeVisible();
});

test('after «Ahora no», «Avisos» turns them on in this phone: the browser’s permission, the subscription, the server', async ({
  page,
  context,
  browser,
}) => {
  test.setTimeout(90_000);
  const teacherContext = await browser.newContext({ baseURL: BASE_URL });
  const guardian = await guardianWithApp(await teacherPage(teacherContext), 3);
  await teacherContext.close();
  await fakePushService(context);

  await page.setViewportSize({ width: 390, height: 844 });
  await signInAsGuardian(page, guardian);
  await workerInControl(page);
  await page.getByRole('button', { name: tx.push.later }).click();
  await expect(page.getByRole('heading', { name: tx.push.title })).toBeHidden();

  await page.getByRole('link', { name: tx.devices.nav.notices }).click();
  await expect(page.getByRole('heading', { name: tx.pushHere.title })).toBeVisible();
  await expect(page.getByText(tx.pushHere.off)).toBeVisible();
  await expectNoAxeViolations(page, '«Avisos» offering notifications on this phone');
  await context.grantPermissions(['notifications'], { origin: BASE_URL });
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/app/push/subscriptions') && r.request().method() === 'POST');
  await page.getByRole('button', { name: tx.pushHere.enable }).click();
  expect((await saved).status()).toBe(201);
  await expect(page.getByText(tx.push.enabled)).toBeVisible();

  // Back later (in the same page: the stand-in push service keeps its subscription only there): this phone
  // receives them, and says so.
  await page.getByRole('link', { name: tx.devices.nav.inbox }).click();
  await expect(page.getByRole('heading', { name: tx.inbox.title })).toBeVisible();
  await page.getByRole('link', { name: tx.devices.nav.notices }).click();
  await expect(page.getByText(tx.pushHere.receiving)).toBeVisible();
  await expect(page.getByRole('button', { name: tx.pushHere.enable })).toBeHidden();
});
