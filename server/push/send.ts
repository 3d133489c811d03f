// The push half of the app channel: a guardian's app delivery announced to each of their subscribed
// browsers through the browser's push service, signed with the VAPID keys (server/push/keys.ts) and
// encrypted to the browser's keys by web-push. The message itself is already in the app's inbox; a push
// only tells the phone it is there, so it carries the title, the school and the child, never the text.
import type { Agent } from 'node:https';
import webPush from 'web-push';
import { type PushPayload, pushMessageUrl } from '../../shared/push-contract';
import type { Logger } from '../log';
import type { VapidKeys } from './keys';

/**
 * How long a push service keeps a push for a phone that is off: 3 days, as long as the engine waits for
 * the app to fetch the message before counting it not received (server/delivery/sweep.ts).
 */
const PUSH_TTL_S = 72 * 3600;
/** One push service's answer may take this long; the engine's attempt deadline cuts the whole send anyway. */
const PUSH_TIMEOUT_MS = 10_000;

interface PushSenderOptions {
  keys: () => Promise<VapidKeys>;
  /** VAPID `sub`: who the push services may write to about our pushes. */
  subject: string;
  /** The push service said these endpoints no longer exist (404/410): forget them. */
  gone(endpoints: string[]): Promise<void>;
  logger: Logger;
  /** Tests: the agent that trusts the local push service's certificate. */
  agent?: Agent;
}

/** "Ana Pérez, Tomás Pérez" → "Ana, Tomás": the first name is what a parent recognises on a lock screen. */
export function childOf(studentNames: string | null): string | null {
  const names = (studentNames ?? '')
    .split(',')
    .map((name) => name.trim().split(/\s+/)[0] ?? '')
    .filter((name) => name !== '');
  return names.length > 0 ? names.join(', ') : null;
}

/** A browser subscribed to a guardian's pushes: where to push, and the keys to encrypt to. */
export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** One delivery's notice: which message, as its notification shows it, and the guardian's browsers. */
export interface PushNotice {
  /** For the log only. */
  deliveryId: number;
  messageId: number;
  title: string;
  school: string;
  /** The students the message concerns, as compose named them ("Ana Pérez, Tomás Pérez"); null: none. */
  studentNames: string | null;
  /** Marked "Emergencia" in compose. */
  emergency: boolean;
  /** The guardian turned pushes off for every child it concerns (server/push/mutes.ts). */
  muted?: boolean;
  targets: PushTarget[];
}

/**
 * `announced`: a phone took it, or none can (no subscription, every one gone or refused); the inbox has it
 * either way. `later`: no phone took it and one may later (429, 5xx, no answer).
 */
type PushResult = 'announced' | 'later';

function payloadOf(notice: PushNotice): PushPayload {
  return {
    message_id: notice.messageId,
    title: notice.title,
    school: notice.school,
    child: childOf(notice.studentNames),
    url: pushMessageUrl(notice.messageId),
    emergency: notice.emergency,
  };
}

type PushOutcome = 'pushed' | 'gone' | 'transient' | 'refused';

/** 404/410: the subscription is gone for good; 429 and 5xx (and no answer at all): try again later. */
function outcomeOf(err: unknown): PushOutcome {
  const status = (err as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status !== 'number') return 'transient';
  if (status === 404 || status === 410) return 'gone';
  if (status === 429 || status >= 500) return 'transient';
  return 'refused';
}

/** Sends one delivery's pushes, one per subscribed browser at once, and forgets the gone ones. */
export function createPushSender(options: PushSenderOptions) {
  return async function sendPushes(notice: PushNotice): Promise<PushResult> {
    // Muted children's messages wait in the inbox unannounced; an emergency rings all the same.
    if (notice.targets.length === 0 || (notice.muted === true && !notice.emergency)) return 'announced';
    const keys = await options.keys();
    const body = JSON.stringify(payloadOf(notice));
    const outcomes = await Promise.all(
      notice.targets.map(async (subscription): Promise<PushOutcome> => {
        try {
          await webPush.sendNotification(
            { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
            body,
            {
              vapidDetails: { subject: options.subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
              TTL: PUSH_TTL_S,
              urgency: notice.emergency ? 'high' : 'normal',
              // A retry of the same message replaces its push still waiting at the service instead of adding one.
              topic: `m${notice.messageId}`,
              timeout: PUSH_TIMEOUT_MS,
              ...(options.agent ? { agent: options.agent } : {}),
            },
          );
          return 'pushed';
        } catch (err) {
          const outcome = outcomeOf(err);
          // The status only: an endpoint is a device's address, and the log keeps no people (server/log.ts).
          const status = (err as { statusCode?: unknown } | null)?.statusCode ?? 'sin respuesta';
          if (outcome !== 'gone') options.logger.debug(`Push del envío ${notice.deliveryId}: ${outcome} (${String(status)})`);
          return outcome;
        }
      }),
    );
    const gone = notice.targets.filter((_, i) => outcomes[i] === 'gone').map((s) => s.endpoint);
    // Forgetting them is housekeeping: should it fail, the next push finds them gone again.
    if (gone.length > 0)
      await options.gone(gone).catch((err: unknown) => options.logger.error('Push: no se pudieron quitar suscripciones vencidas', err));
    return !outcomes.includes('pushed') && outcomes.includes('transient') ? 'later' : 'announced';
  };
}

export type PushSender = ReturnType<typeof createPushSender>;
