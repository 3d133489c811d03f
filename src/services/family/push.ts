// Web Push on this device (shared/push-contract.ts): what the browser allows, the guardian's permission,
// this browser's subscription made with the server's VAPID key and registered with the server, and
// undone at sign-out. The choice «Ahora no» is remembered on the device, so the app does not ask every visit.
import { fromPromise } from 'xstate';
import type { PushSubscriptionBody } from '../../../shared/push-contract';
import { fetchPushKey, removeSubscription, saveSubscription } from './api';
import { FAMILY_SCOPE_PATH } from './worker-rules';

const DISMISSED_KEY = 'hermes.familia.avisos.ahora-no';

/** What the app finds when it starts: whether push can work here, and what the guardian chose before. */
export interface PushStart {
  supported: boolean;
  permission: NotificationPermission;
  /** When «Ahora no» was chosen on this device (ms), or null. */
  dismissedAt: number | null;
  /** Whether this browser holds a push subscription of the app's worker. */
  subscribed: boolean;
  /** The device's clock as it was read (ms), for the machine to weigh `dismissedAt` without a clock of its own. */
  checkedAt: number;
}

const isSupported = (): boolean =>
  typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

function dismissedAt(): number | null {
  try {
    const at = Number(localStorage.getItem(DISMISSED_KEY));
    return Number.isFinite(at) && at > 0 ? at : null;
  } catch {
    return null;
  }
}

async function hasSubscription(): Promise<boolean> {
  try {
    const registration = await navigator.serviceWorker.getRegistration(FAMILY_SCOPE_PATH);
    return (await registration?.pushManager.getSubscription()) != null;
  } catch {
    return false;
  }
}

export const readPushStart = fromPromise<PushStart>(async () => ({
  supported: isSupported(),
  permission: isSupported() ? Notification.permission : 'default',
  subscribed: isSupported() && (await hasSubscription()),
  dismissedAt: dismissedAt(),
  checkedAt: Date.now(),
}));

/** The browser's own question, asked only once the guardian chose «Activar avisos». */
export const askPermission = fromPromise<NotificationPermission>(() => Notification.requestPermission());

/** Remembers «Ahora no» (or «Entendido») on this device. */
export const keepDismissal = fromPromise<void>(async () => {
  try {
    localStorage.setItem(DISMISSED_KEY, String(Date.now()));
  } catch {
    // Private mode: asked again next visit.
  }
});

/** The app's worker registration, once it is active (it installs on the first visit). */
async function activeRegistration(timeoutMs: number): Promise<ServiceWorkerRegistration> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('service worker not active')), timeoutMs);
  });
  try {
    return await Promise.race([navigator.serviceWorker.ready, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A base64url string as bytes (the VAPID key). */
function bytesOf(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

const sameKey = (a: ArrayBuffer | null | undefined, b: Uint8Array): boolean =>
  a != null && a.byteLength === b.byteLength && new Uint8Array(a).every((byte, i) => byte === b[i]);

/**
 * This browser's subscription with the server's key (made when there is none, made again when the server's
 * key changed), registered for the guardian. Also run at each start when notifications are allowed: the
 * server learns the subscription is alive, and a phone that changed hands moves to who signed in.
 */
export const subscribePush = fromPromise<void, { token: string }>(async ({ input, signal }) => {
  const key = bytesOf(await fetchPushKey(input.token, signal));
  const registration = await activeRegistration(15_000);
  let subscription = await registration.pushManager.getSubscription();
  if (subscription && !sameKey(subscription.options.applicationServerKey, key)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  await saveSubscription(input.token, subscription.toJSON() as PushSubscriptionBody, signal);
});

/** At sign-out: the server stops pushing to this browser, and the browser drops the subscription. */
/** This browser's subscription undone without telling the server (it has already dropped it). */
export async function unsubscribeHere(): Promise<void> {
  if (!isSupported()) return;
  try {
    const registration = await navigator.serviceWorker.getRegistration(FAMILY_SCOPE_PATH);
    await (await registration?.pushManager.getSubscription())?.unsubscribe();
  } catch {
    // Nothing more to do: the server no longer pushes to it.
  }
}

export async function dropPushSubscription(token: string): Promise<void> {
  if (!isSupported()) return;
  try {
    const registration = await navigator.serviceWorker.getRegistration(FAMILY_SCOPE_PATH);
    const subscription = await registration?.pushManager.getSubscription();
    if (!subscription) return;
    // Told to the server first (the token still works); unsubscribed whatever it answers.
    await removeSubscription(token, subscription.endpoint).catch(() => undefined);
    await subscription.unsubscribe();
  } catch {
    // A browser that refuses: the server drops the subscription when its push service answers 410.
  }
}
