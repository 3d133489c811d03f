// The message lifecycle's pure rules: where a message opens, where a restore takes it, and the vocabulary
// of the machine (messages/lifecycle.ts) and its views.
import type { MessageKind } from '../../../shared/codes';
import { kindOfFolder } from '../../../shared/message-rules';
import type { MessageSummary } from '../../../shared/messages-contract';
import type { DeliveryProgress } from '../../../shared/reception-contract';
import type { ApiFailure } from '../../services/http/client';

export type LiveKind = Exclude<MessageKind, 'deleted'>;

/** The reading view's "Eliminar definitivamente" button, where focus returns when the purge is not confirmed. */
export const PURGE_BUTTON_ID = 'message-purge';
/** Its "Cancelar envío programado", where focus returns when the cancellation is not confirmed. */
export const CANCEL_SCHEDULE_BUTTON_ID = 'message-cancel-schedule';

/**
 * What the lifecycle needs of a MessageSummary or MessageDetail. `reception` (the detail's delivery
 * progress) picks where a sent message starts; without it a sent message counts as delivered.
 */
export type LifecycleMessage = Pick<MessageSummary, 'id' | 'kind' | 'unread' | 'deleted_from'> & {
  reception?: DeliveryProgress | null;
};

export interface LifecycleContext {
  id: number | null;
  /** Received messages: not read yet. */
  unread: boolean;
  /** Trashed messages: the kind a restore returns to. */
  deletedFrom: LiveKind | null;
  /** The last failed call, until the next one starts. */
  error: ApiFailure | null;
  /** Sent messages: the last known delivery progress (null when unknown, e.g. right after sending). */
  progress: DeliveryProgress | null;
}

/** Where a message can rest, as lifecycle state paths. */
export const RESTING = [
  'draft',
  'scheduled',
  'sent.sending',
  'sent.delivered',
  'sent.partiallyFailed',
  'received.unread',
  'received.read',
  'deleted',
] as const;
export type Resting = (typeof RESTING)[number];

/** The kind a trashed message returns to; null when it does not say where from (it cannot be restored). */
export function deletedFromOf(message: LifecycleMessage): LiveKind | null {
  if (message.kind !== 'deleted') return message.kind;
  return message.deleted_from && message.deleted_from !== 'trash' ? kindOfFolder(message.deleted_from) : null;
}

/** A sent message rests where its progress says; unknown progress (just sent or restored) is in flight. */
function sentStateOf(progress: DeliveryProgress | null): Resting {
  if (progress?.state === 'sent') return 'sent.delivered';
  if (progress?.state === 'partially_failed') return 'sent.partiallyFailed';
  return 'sent.sending';
}

/** Where a message opens; null when it cannot be handled (a trashed message that does not say where from). */
export function openingOf(message: LifecycleMessage): Resting | null {
  switch (message.kind) {
    case 'draft':
    case 'scheduled':
      return message.kind;
    // Opened without its progress (a summary), a sent message counts as delivered.
    case 'sent':
      return message.reception ? sentStateOf(message.reception) : 'sent.delivered';
    case 'received':
      return message.unread ? 'received.unread' : 'received.read';
    case 'deleted':
      return deletedFromOf(message) === null ? null : 'deleted';
  }
}

/** Where a restore takes a trashed message: back to its kind, unread again if it was; deliveries do not change in the trash. */
export function restoredTo(context: Pick<LifecycleContext, 'deletedFrom' | 'unread' | 'progress'>): Resting {
  switch (context.deletedFrom) {
    case 'draft':
    case 'scheduled':
      return context.deletedFrom;
    case 'sent':
      return sentStateOf(context.progress);
    default:
      return context.unread ? 'received.unread' : 'received.read';
  }
}
