// What every channel adapter (e-mail, SMS, WhatsApp, app) offers the delivery engine, and what it answers.
// Adapters record no outcome in the database (the app's pushes only forget subscriptions a push service
// calls gone): the engine records outcomes, so a crash between the provider's answer
// and the record is healed by re-sending with the same `key` (providers and the outbox dedupe on it).
import type { ChannelCode, PersonKind } from '../../shared/codes';
import type { PushTarget } from '../push/send';

interface OutgoingAttachment {
  filename: string;
  contentType: string;
  /** File on disk (new uploads) … */
  path?: string;
  /** … or the bytes (rows written before attachments moved to disk). */
  content?: Buffer;
}

export interface Outgoing {
  deliveryId: number;
  /**
   * Idempotency key of this delivery and round (`hermes-<deliveryId>-<generation>`): the provider's
   * `reference`, the e-mail's Message-ID local part, the outbox file name.
   */
  key: string;
  channel: ChannelCode;
  /** E-mail address, E.164 phone, or app account (`guardian:<id>`, `user:<id>`). */
  address: string;
  messageId: number;
  title: string;
  /** Content with the signature appended when the message carries one; for SMS, its GSM-7 form (shared/sms-text.ts). */
  text: string;
  senderName: string;
  institutionName: string;
  /** Who the recipient is to the school: where a WhatsApp template's link takes them (server/delivery/meta/send.ts). */
  recipientKind?: PersonKind;
  /** E-mail only. */
  attachments: OutgoingAttachment[];
  /** E-mail only: the school's logo, shown above the text in an HTML alternative; null without one. */
  logo?: { content: Buffer; contentType: string } | null;
  /** App to a guardian only: what their phones are notified with (server/push/send.ts). */
  push?: OutgoingPush;
}

/** A guardian's app delivery, as its push notification needs it. */
export interface OutgoingPush {
  /** The guardian's browsers subscribed to pushes (none: the message waits in the app's inbox unannounced). */
  subscriptions: PushTarget[];
  /** The students the message concerns, as compose named them ("Ana Pérez, Tomás Pérez"); null: none. */
  studentNames: string | null;
  /** Marked "Emergencia" in compose. */
  emergency: boolean;
  /** Every child it concerns has pushes off in the guardian's «Avisos» (server/push/mutes.ts). */
  muted: boolean;
}

export type SendResult =
  /**
   * `received`: the channel itself confirms arrival at hand-over (SMTP 250, a staff inbox).
   * `sent`: handed over; a later report (provider webhook, the app fetching it) says received / read.
   */
  | { ok: true; status: 'sent' | 'received'; providerRef?: string }
  /**
   * `transient`: worth retrying with backoff; `permanent`: fails the delivery at once. `error` is a short code.
   * `ifExhausted`: what to record instead of a failure when no retry is left, for a delivery that reached its
   * destination and only failed to announce it (an app message is in the inbox whether or not its push went).
   */
  | { ok: false; kind: 'transient' | 'permanent'; error: string; ifExhausted?: 'sent' };

/**
 * A short text to a phone that is no delivery (the answer to a family's opt-out word): no message, no
 * reception row, no quota, and no status report asked for. Sent as written, without a title or a template.
 */
interface Notice {
  /** `hermes-notice-<uuid>` (noticeKey): the own API's `reference`, which `parseDeliveryKey` never takes for a delivery's. */
  key: string;
  /** E.164 phone. */
  address: string;
  text: string;
}

export interface ChannelAdapter {
  /** Once before the first send (the outbox tidies up after a crash). */
  start?(): Promise<void>;
  send(message: Outgoing, signal?: AbortSignal): Promise<SendResult>;
  /** SMS and WhatsApp only: sends a notice (server/delivery/notice.ts). */
  notify?(notice: Notice, signal?: AbortSignal): Promise<SendResult>;
  close?(): Promise<void>;
}

export type Adapters = Record<ChannelCode, ChannelAdapter>;

/** The stable key of a delivery round (see Outgoing.key). */
export const deliveryKey = (deliveryId: number, generation: number) => `hermes-${deliveryId}-${generation}`;

/** Parses a key back; null when it is not one of ours. */
export function parseDeliveryKey(key: string): { deliveryId: number; generation: number } | null {
  const match = /^hermes-(\d+)-(\d+)$/.exec(key);
  return match ? { deliveryId: Number(match[1]), generation: Number(match[2]) } : null;
}
