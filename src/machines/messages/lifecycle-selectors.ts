// What views and hosts read of a message lifecycle (messages/lifecycle.ts): primitives for `useSelector`.
import type { MessageKind } from '../../../shared/codes';
import type { DeliveryProgress } from '../../../shared/reception-contract';
import type { MessageLifecycleSnapshot } from './lifecycle';
import type { LiveKind } from './lifecycle-rules';

/** The kind the message is now, as the contract names it; null before `message.open` and once purged. */
export function selectKind(snapshot: MessageLifecycleSnapshot): MessageKind | null {
  if (snapshot.matches('draft')) return 'draft';
  if (snapshot.matches('scheduled')) return 'scheduled';
  if (snapshot.matches('sent')) return 'sent';
  if (snapshot.matches('received')) return 'received';
  if (snapshot.matches('deleted')) return 'deleted';
  return null;
}

/** A server call is running (buttons disabled). Deliveries in flight (`sent.sending`) are not the user's call. */
export const selectIsBusy = (snapshot: MessageLifecycleSnapshot): boolean => snapshot.hasTag('busy');
/** What the message view offers: what the lifecycle would take now, or the call of that action running. */
export const selectOffersDelete = (snapshot: MessageLifecycleSnapshot): boolean =>
  snapshot.can({ type: 'message.delete' }) || snapshot.hasTag('deleting');
export const selectOffersRestore = (snapshot: MessageLifecycleSnapshot): boolean =>
  snapshot.can({ type: 'message.restore' }) || snapshot.hasTag('restoring');
export const selectOffersPurge = (snapshot: MessageLifecycleSnapshot): boolean =>
  snapshot.can({ type: 'message.purge' }) || snapshot.hasTag('purging');
export const selectOffersCancelSchedule = (snapshot: MessageLifecycleSnapshot): boolean =>
  snapshot.can({ type: 'message.cancelSchedule' }) || snapshot.hasTag('cancelling');
export const selectIsConfirmingPurge = (snapshot: MessageLifecycleSnapshot): boolean => snapshot.matches({ deleted: 'confirmingPurge' });
export const selectIsConfirmingCancel = (snapshot: MessageLifecycleSnapshot): boolean =>
  snapshot.matches({ scheduled: 'confirmingCancel' });

export type DeliveryState = 'sending' | 'delivered' | 'partiallyFailed';

/** Where a sent message's deliveries stand; null for other kinds (and while a sent one is being deleted). */
export function selectDelivery(snapshot: MessageLifecycleSnapshot): DeliveryState | null {
  if (snapshot.matches({ sent: 'sending' })) return 'sending';
  if (snapshot.matches({ sent: 'delivered' })) return 'delivered';
  if (snapshot.matches({ sent: 'partiallyFailed' })) return 'partiallyFailed';
  return null;
}
export const selectProgress = (snapshot: MessageLifecycleSnapshot): DeliveryProgress | null => snapshot.context.progress;
export const selectIsUnread = (snapshot: MessageLifecycleSnapshot): boolean => snapshot.matches({ received: 'unread' });
export const selectIsPurged = (snapshot: MessageLifecycleSnapshot): boolean => snapshot.matches('purged');
export const selectErrorCode = (snapshot: MessageLifecycleSnapshot): string | null => snapshot.context.error?.code ?? null;
export const selectDeletedFrom = (snapshot: MessageLifecycleSnapshot): LiveKind | null => snapshot.context.deletedFrom;
