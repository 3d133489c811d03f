// API contract of the delivery engine's screens, shared by the SPA and `server/`. Plain types only.
import type { DeviceStatus } from './compose-contract';
import { CHANNEL_CODES, type ChannelCode } from './codes';

/**
 * One channel of one recipient (SPEC §4 reception states, plus the two in-flight ones):
 * - queued: waiting to be handed to the channel (or waiting for a retry after a transient error)
 * - sent: handed over; waiting for the provider's or the app's receipt
 * - received, read, not_received, error (reception error reported by the provider), failed (given up)
 */
export const DELIVERY_STATUSES = ['queued', 'sent', 'received', 'read', 'not_received', 'error', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** A recipient: the best of their channels; `pending` while any channel is still in flight. */
export const RECIPIENT_STATUSES = ['pending', 'received', 'read', 'not_received', 'error', 'failed'] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];

export type ReceptionFilter = 'all' | RecipientStatus;
export const RECEPTION_FILTERS: readonly ReceptionFilter[] = ['all', ...RECIPIENT_STATUSES];

/**
 * Whose state the filters read: `all`, the recipient's (the best of their channels); a channel, that
 * channel's delivery to each recipient (queued or sent is `pending`), so "SMS, No recibidos" lists exactly
 * who did not get the SMS, and its counts are the SMS summary's figures.
 */
export type ReceptionChannel = 'all' | ChannelCode;
export const RECEPTION_CHANNELS: readonly ReceptionChannel[] = ['all', ...CHANNEL_CODES];

/** What a reception page lists and what "Reintentar fallidos" sends again: the screen's channel, filter and search. */
export interface ReceptionScope {
  channel: ReceptionChannel;
  status: ReceptionFilter;
  /** Search text; empty lists everyone. */
  q: string;
}

/** The deliveries of one channel a message used. */
export interface ChannelProgress {
  channel: ChannelCode;
  progress: DeliveryProgress;
}

/**
 * Short codes in `ChannelDelivery.error` (the view names them in Spanish): missing_address, invalid_number,
 * not_mobile, rejected (permanent provider/SMTP refusal), undelivered, unreachable (transient, retries
 * exhausted), quota, cancelled, no_receipt (SMS/WhatsApp without a provider receipt after a day),
 * app_not_opened (guardian app not opened in 3 days), provider_auth (provider refused our credentials;
 * transient). Meta's WhatsApp adds (server/delivery/meta/errors.ts): whatsapp_undeliverable (not on WhatsApp,
 * blocked, old app), whatsapp_window (free text after the 24-hour window), provider_account (the business
 * account locked or unpaid; transient), provider_template (the template missing, paused or not matching;
 * transient).
 * Through Twilio also (server/delivery/twilio/errors.ts): handset_unreachable, unknown_handset,
 * unsubscribed (the number texted STOP to the sender), blocked, filtered (carrier spam filter),
 * whatsapp_window (free text outside WhatsApp's 24 hours), not_on_whatsapp, provider_config (our sender
 * refused; transient). Hermes's own opt-outs (server/opt-outs/): opted_out (the phone texted "BAJA" on this
 * channel: never sent, `opted_out_at` says when). A queued or sent delivery may still carry the error of an
 * earlier attempt: it is shown only once the delivery has settled.
 */
export type DeliveryErrorCode = string;

export interface ChannelDelivery {
  channel: ChannelCode;
  status: DeliveryStatus;
  /** E-mail, E.164 phone, or null when the recipient has none on this channel. */
  address: string | null;
  error: DeliveryErrorCode | null;
  attempts: number;
  /** ISO 8601 UTC timestamps (SPEC §3: sent, delivered, read, last retry). */
  sent_at: string | null;
  delivered_at: string | null;
  read_at: string | null;
  last_retry_at: string | null;
  /** Failed `opted_out`: when the phone last texted "BAJA" on this channel (ISO 8601 UTC); null otherwise. */
  opted_out_at: string | null;
  /** Failed `person_blocked`: since when the school blocks the person at their request (ISO 8601 UTC); null otherwise. */
  blocked_at: string | null;
}

export interface ReceptionRow {
  recipient_id: number;
  kind: 'funcionario' | 'apoderado' | 'estudiante';
  /** The guardian (or student, or colleague) reached. */
  name: string;
  /** Guardians: the students they answer for in this message. */
  student_names: string | null;
  /**
   * Who the row is about, named in full with their course in the message's school year (two children named
   * "Maximiliano Pizarro" are told apart; last year's message keeps last year's course): a guardian's children
   * this message reached them for, a student themself; empty for staff.
   */
  students: { name: string; course: string }[];
  /** The group it came from ("3° Básico A", "Funcionarios"…). */
  group: string;
  email: string | null;
  phone: string | null;
  status: RecipientStatus;
  channels: ChannelDelivery[];
  /** Guardians: their device status now (SPEC §3 legend, yellow from their last 3 deliveries); null otherwise. */
  device: DeviceStatus | null;
}

/** Deliveries of one sent message by state, and where the message as a whole stands. */
export interface DeliveryProgress {
  total: number;
  queued: number;
  sent: number;
  received: number;
  read: number;
  not_received: number;
  error: number;
  failed: number;
  /** Where the message stands (delivery-progress.ts `messageStateOf`): sending, sent, or partially_failed. */
  state: 'sending' | 'sent' | 'partially_failed';
  /**
   * Deliveries "Reintentar fallidos" will send again (delivery-progress.ts `ENDED_BADLY`, not `NO_ADDRESS`): failed, error and
   * not_received, except those that had no address (a retry still tries them if an address was added since).
   */
  retryable: number;
  /** Deliveries never tried: the person had no address on that channel (failed, `missing_address`). */
  no_address: number;
  /**
   * People tried on at least one channel and reached on none, nothing of theirs still under way: what makes a
   * message "con fallos". Someone with no address on any chosen channel is not counted (compose warned).
   */
  unreached: number;
}

/** `GET /messages/:id/reception?channel=&status=&q=&page=&per_page=` (author only; others 404). */
export interface ReceptionPage {
  data: ReceptionRow[];
  meta: {
    current_page: number;
    last_page: number;
    per_page: number;
    /** Rows matching the filter and search. */
    total: number;
    /**
     * Recipients per state (search and channel applied, status filter not), for the filter chips: with a
     * channel, per state of that channel's delivery, equal to that channel's summary figures (`pending` is
     * its queued + sent) when nothing is searched.
     */
    counts: Record<ReceptionFilter, number>;
    /** The whole message. */
    progress: DeliveryProgress;
    /** The same per channel the message used, in CHANNEL_CODES order (empty for the seeded history). */
    channels: ChannelProgress[];
    /** Deliveries "Reintentar fallidos" of this list (channel, filter and search) would send again. */
    retryable: number;
    /**
     * The whole message's deliveries on a channel that reports reads (READ_REPORTING_CHANNELS) received within
     * the last READ_FOLLOW_WINDOW_MINUTES and not read yet: while any, the screen keeps following them.
     */
    awaiting_reads: number;
  };
  links: { first: string; last: string; prev: string | null; next: string | null };
}

/**
 * `POST /messages/:id/reception/retry` with an optional JSON body: the list's scope. Only the failed, not
 * received and reception-error deliveries of the recipients listed are sent again, and with a channel only
 * that channel's. No body (or `{}`) is the whole message.
 */
export type RetryRequest = Partial<ReceptionScope>;

/** `POST /messages/:id/reception/retry` → `{ data: RetryResult }`; the view says "reenviado a N destinatarios". */
export interface RetryResult {
  /** Distinct recipients with at least one delivery queued again. */
  resent: number;
  progress: DeliveryProgress;
  channels: ChannelProgress[];
  /** Deliveries of the same scope a retry would still send again (after this one: usually 0). */
  retryable: number;
}

export const RECEPTION_API = {
  page: (id: number) => `/messages/${id}/reception`,
  retry: (id: number) => `/messages/${id}/reception/retry`,
} as const;

/** Browser polling cadence of a message whose deliveries are in flight. */
export const PROGRESS_POLL_MS = 2000;

/** The channels whose provider (or the app) tells when the message was read, not only received. */
export const READ_REPORTING_CHANNELS = ['whatsapp', 'app-mobile'] as const satisfies readonly ChannelCode[];
/** How long after a receipt the reception screen still waits for its «Leído» (decision 0256). */
export const READ_FOLLOW_WINDOW_MINUTES = 60;
/** The reception screen's gentler pace while it only waits for reads (decision 0256). */
export const READ_FOLLOW_POLL_MS = 30_000;
