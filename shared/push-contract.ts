// API contract of Web Push in the guardian app (mounted at /api/app, bearer token of a guardian), shared by
// the app and `server/`. Plain types and constants only.
//
//   GET    /api/app/push/key            → 200 { data: PushKeyAnswer }
//   POST   /api/app/push/subscriptions  PushSubscriptionBody → 201 created, 200 known (updated, or moved
//                                       from another guardian of the school: a shared phone), 422 PUSH_TEXTS
//   DELETE /api/app/push/subscriptions  PushUnsubscribeBody → 204; 404 when this guardian has no such endpoint
//
// Without a token every call answers 401.

export const PUSH_API = {
  key: '/push/key',
  subscriptions: '/push/subscriptions',
} as const;

/** The VAPID public key, base64url: `applicationServerKey` of `pushManager.subscribe`. */
export interface PushKeyAnswer {
  public_key: string;
}

/** What the browser's `PushSubscription.toJSON()` gives (`expirationTime` is accepted and ignored). */
export interface PushSubscriptionBody {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  expirationTime?: number | null;
}

export interface PushSubscriptionAnswer {
  id: number;
  endpoint: string;
}

export interface PushUnsubscribeBody {
  endpoint: string;
}

/** Longest endpoint accepted (the push services' URLs are a few hundred characters). */
export const PUSH_ENDPOINT_MAX = 2048;
/** Decoded sizes of the browser's keys: an uncompressed P-256 point and a 16-byte auth secret (RFC 8291). */
export const PUSH_P256DH_BYTES = 65;
export const PUSH_AUTH_BYTES = 16;

/** The Spanish 422 field errors of the subscription calls (fields `endpoint`, `keys.p256dh`, `keys.auth`). */
export const PUSH_TEXTS = {
  endpointRequired: 'Falta la dirección de la suscripción.',
  endpointInvalid: 'La dirección de la suscripción debe ser una URL https.',
  endpointTooLong: `La dirección de la suscripción no puede superar los ${PUSH_ENDPOINT_MAX} caracteres.`,
  p256dhInvalid: `La clave p256dh debe ser base64url de ${PUSH_P256DH_BYTES} bytes.`,
  authInvalid: `La clave auth debe ser base64url de ${PUSH_AUTH_BYTES} bytes.`,
} as const;

/**
 * What a push carries, as JSON, for the app's service worker to show: never the message's text (a locked
 * phone shows the notification to whoever holds it). `child` is the first names of the students the message
 * is about ("Ana, Tomás"), null when it concerns none; `url` is the app's page of the message.
 */
export interface PushPayload {
  message_id: number;
  title: string;
  school: string;
  child: string | null;
  url: string;
  /** Marked "Emergencia" in compose: sent with high urgency; the app may keep it on screen. */
  emergency: boolean;
}

/** The app's page of one message, which the notification opens. */
export const pushMessageUrl = (messageId: number) => `/familia/mensajes/${messageId}`;
