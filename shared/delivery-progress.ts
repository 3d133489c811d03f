// Reading a DeliveryProgress and a delivery (reception-contract.ts) the same way on every screen that shows one.
import type { ChannelDelivery, DeliveryErrorCode, DeliveryProgress, DeliveryStatus, RecipientStatus } from './reception-contract';

/** Deliveries no longer in flight (queued and sent are still waiting for an outcome). */
export const settledOf = (progress: DeliveryProgress): number => progress.total - progress.queued - progress.sent;

/** Whole percent settled; an empty message counts as done. */
export const settledPercent = (progress: DeliveryProgress): number =>
  progress.total === 0 ? 100 : Math.floor((settledOf(progress) * 100) / progress.total);

/**
 * Why a delivery did not arrive, once it has settled; null while it is in flight (queued again for a retry
 * after a temporary error, its earlier error is the reason of nothing yet) or when it arrived.
 */
export function settledReasonOf(delivery: Pick<ChannelDelivery, 'status' | 'error'>): DeliveryErrorCode | null {
  const inFlight = delivery.status === 'queued' || delivery.status === 'sent';
  return inFlight ? null : delivery.error;
}

/** A delivery's state as the filters name it: in flight (queued or handed over) is `pending`. */
export const recipientStatusOf = (status: DeliveryStatus): RecipientStatus =>
  status === 'queued' || status === 'sent' ? 'pending' : status;

/** A channel's summary figure under a filter's name (pending: queued + handed over; all: every delivery). */
export function figureOf(progress: DeliveryProgress, state: RecipientStatus | 'all'): number {
  if (state === 'all') return progress.total;
  return state === 'pending' ? progress.queued + progress.sent : progress[state];
}

// --- the rules of a sent message's outcome -----------------------------------------------------------------
// One definition for the folder's badge, the message's summary, the reception screen and "Reintentar
// fallidos" (the server's SQL counts by the same rules; the seed writes its outcomes by them).

/** A delivery that ended without arriving: not received (no receipt), a reception error, or given up. */
export const ENDED_BADLY: readonly DeliveryStatus[] = ['not_received', 'error', 'failed'];

/**
 * The error of a delivery never tried because the person had no address on its channel. What "Reintentar
 * fallidos" sends again is a delivery that ENDED_BADLY without it (one that was tried).
 */
export const NO_ADDRESS = 'missing_address';

/**
 * The error of a delivery not sent because the phone texted "BAJA" on its channel (server/opt-outs/): never
 * tried either, and not sent again by "Reintentar fallidos" while the phone stays opted out.
 */
export const OPTED_OUT = 'opted_out';

/**
 * The error of a delivery not sent because the school blocked the person at their request (objection,
 * server/privacy-requests/blocks.ts), on every channel: never tried, and not sent again while blocked.
 */
export const BLOCKED = 'person_blocked';

/** Deliveries never tried, which "Reintentar fallidos" does not promise: no address, opted out or blocked. */
export const NOT_TRIED: readonly string[] = [NO_ADDRESS, OPTED_OUT, BLOCKED];

const BEST_FIRST: readonly DeliveryStatus[] = ['read', 'received', 'queued', 'sent', 'not_received', 'error', 'failed'];

/**
 * A person's state over their deliveries: the best of their channels (read, else received, else pending while
 * one is under way, else the mildest failure); a person with none is failed.
 */
export function recipientStateOf(statuses: readonly DeliveryStatus[]): RecipientStatus {
  const best = BEST_FIRST.find((status) => statuses.includes(status)) ?? 'failed';
  return recipientStatusOf(best);
}

/**
 * Where a sent message stands: `sending` while deliveries are under way (`inFlight`: queued, or handed to
 * SMS / WhatsApp and waiting for the receipt; an app delivery waiting days for the guardian is not), else
 * `partially_failed` ("Enviado con fallos") when someone tried was reached on no channel, else `sent`. A
 * delivery lost on one channel of a person reached on another does not make the message "con fallos"
 * (it is still retryable, and the screen says so).
 */
export function messageStateOf(inFlight: number, unreached: number): DeliveryProgress['state'] {
  if (inFlight > 0) return 'sending';
  return unreached > 0 ? 'partially_failed' : 'sent';
}

/** Deliveries that were tried: every person on every channel where they had an address. */
export const triedOf = (progress: DeliveryProgress): number => progress.total - progress.no_address;

/**
 * Why the whole message's retry offer and its state do not simply agree, for the screen to say: everyone
 * tried was reached, yet deliveries lost on another of their channels can be sent again (`reachedElsewhere`);
 * or nothing can be sent again because what failed was never tried, for want of an address (`noAddressOnly`).
 */
export function retryNoteOf(progress: DeliveryProgress): 'reachedElsewhere' | 'noAddressOnly' | null {
  if (progress.state === 'sending') return null;
  if (progress.retryable > 0 && progress.unreached === 0) return 'reachedElsewhere';
  if (progress.retryable === 0 && progress.no_address > 0) return 'noAddressOnly';
  return null;
}
