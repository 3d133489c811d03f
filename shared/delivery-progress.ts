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
