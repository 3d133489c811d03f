// The guardian app's push subscriptions: checking what the browser sends, keeping one row per browser and
// school (the same endpoint again updates it; held by another guardian of the school, it moves: a shared
// phone notifies whoever signed in last), removing the caller's own, and the push service's gone ones.
import { and, eq, sql } from 'drizzle-orm';
import { PUSH_AUTH_BYTES, PUSH_ENDPOINT_MAX, PUSH_P256DH_BYTES, PUSH_TEXTS, type PushSubscriptionAnswer } from '../../shared/push-contract';
import { textList } from '../db/arrays';
import type { Db, Queryable } from '../db/client';
import { pushSubscriptions } from '../db/schema/push';
import { rowsOf } from '../db/sql';
import { addFieldError, type FieldErrors, hasFieldErrors } from '../http/field-errors';

/** Who subscribes: the signed-in guardian and their school. */
interface PushOwner {
  guardianId: number;
  institutionId: number;
}

interface CheckedSubscription {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** The User-Agent kept as a label: enough to tell two phones apart. */
const USER_AGENT_MAX = 200;

/** Decoded length of a base64url text (without padding, as browsers give it); -1 when it is not one. */
function base64urlBytes(value: unknown): number {
  if (typeof value !== 'string' || !/^[A-Za-z0-9_-]+$/.test(value)) return -1;
  return Buffer.from(value, 'base64url').length;
}

/**
 * The endpoint must be https: the push services all are, web-push only speaks https, and a plain http
 * address would let the server be pointed at anything on the school's network in cleartext.
 */
function checkEndpoint(raw: unknown, errors: FieldErrors): string | null {
  if (typeof raw !== 'string' || raw.trim() === '') {
    addFieldError(errors, 'endpoint', PUSH_TEXTS.endpointRequired);
    return null;
  }
  if (raw.length > PUSH_ENDPOINT_MAX) {
    addFieldError(errors, 'endpoint', PUSH_TEXTS.endpointTooLong);
    return null;
  }
  const url = URL.canParse(raw) ? new URL(raw) : null;
  if (url?.protocol !== 'https:' || url.username !== '' || url.password !== '') {
    addFieldError(errors, 'endpoint', PUSH_TEXTS.endpointInvalid);
    return null;
  }
  return raw;
}

/** The body of a subscribe call (PushSubscription.toJSON()), checked; or its field errors. */
export function checkSubscription(body: unknown): { ok: true; value: CheckedSubscription } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const input = (typeof body === 'object' && body !== null ? body : {}) as { endpoint?: unknown; keys?: unknown };
  const endpoint = checkEndpoint(input.endpoint, errors);
  const keys = (typeof input.keys === 'object' && input.keys !== null ? input.keys : {}) as { p256dh?: unknown; auth?: unknown };
  if (base64urlBytes(keys.p256dh) !== PUSH_P256DH_BYTES) addFieldError(errors, 'keys.p256dh', PUSH_TEXTS.p256dhInvalid);
  if (base64urlBytes(keys.auth) !== PUSH_AUTH_BYTES) addFieldError(errors, 'keys.auth', PUSH_TEXTS.authInvalid);
  if (hasFieldErrors(errors) || endpoint === null) return { ok: false, errors };
  return { ok: true, value: { endpoint, p256dh: keys.p256dh as string, auth: keys.auth as string } };
}

/** `endpoint` of an unsubscribe call; null when it is not a text. */
export function checkEndpointOnly(body: unknown): { ok: true; endpoint: string } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const raw = (typeof body === 'object' && body !== null ? body : {}) as { endpoint?: unknown };
  if (typeof raw.endpoint !== 'string' || raw.endpoint.trim() === '') {
    addFieldError(errors, 'endpoint', PUSH_TEXTS.endpointRequired);
    return { ok: false, errors };
  }
  return { ok: true, endpoint: raw.endpoint };
}

/**
 * Keeps the subscription for this guardian: new (`created`), or the row of this endpoint in the school
 * updated with the keys the browser has now and moved to this guardian.
 */
export async function saveSubscription(
  db: Db,
  owner: PushOwner,
  subscription: CheckedSubscription,
  userAgent: string | undefined,
  now: Date,
): Promise<PushSubscriptionAnswer & { created: boolean }> {
  const label = userAgent?.trim().slice(0, USER_AGENT_MAX) || null;
  // xmax is 0 on a row this statement inserted, not on one it updated (PostgreSQL's own bookkeeping).
  const [row] = rowsOf<{ id: number; created: boolean }>(
    await db.execute(sql`
      insert into ${pushSubscriptions} (institution_id, guardian_id, endpoint, p256dh, auth, user_agent, created_at, last_seen_at)
      values (${owner.institutionId}, ${owner.guardianId}, ${subscription.endpoint}, ${subscription.p256dh}, ${subscription.auth},
        ${label}, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz)
      on conflict (institution_id, endpoint) do update set guardian_id = excluded.guardian_id, p256dh = excluded.p256dh,
        auth = excluded.auth, user_agent = excluded.user_agent, last_seen_at = excluded.last_seen_at
      returning id, (xmax = 0) as created`),
  );
  return { id: Number(row!.id), endpoint: subscription.endpoint, created: row!.created === true };
}

/** Removes this guardian's subscription of `endpoint`; false when they have none (another's is not theirs). */
export async function removeSubscription(db: Db, owner: PushOwner, endpoint: string): Promise<boolean> {
  const removed = await db
    .delete(pushSubscriptions)
    .where(
      and(
        eq(pushSubscriptions.institutionId, owner.institutionId),
        eq(pushSubscriptions.guardianId, owner.guardianId),
        eq(pushSubscriptions.endpoint, endpoint),
      ),
    )
    .returning({ id: pushSubscriptions.id });
  return removed.length > 0;
}

/** The push service said these endpoints are gone (404/410): no school can reach them any more. */
export async function removeGoneEndpoints(db: Queryable, endpoints: readonly string[]): Promise<void> {
  if (endpoints.length === 0) return;
  await db.execute(sql`delete from ${pushSubscriptions} where endpoint = any(${textList([...endpoints])}::text[])`);
}
