// The lifecycle of one message as its user sees it (SPEC §4; rules in messages-contract.ts and
// message-rules.ts): draft ⇄ scheduled, draft → sent, received unread → read, any of those → deleted
// (remembering where from) → restored or purged. Each step is a server call under a named invoke; a
// failure returns to the state the step left, with the error in context and a toast.
//
// The actor starts `closed` and is given its message with `message.open` (see `openMessageLifecycle`):
// the starting state depends on the message, and a machine's initial state cannot.
//
// A sent message also follows its deliveries (issue 5): `sent.sending` polls the message while anything
// is in flight and settles in `sent.delivered` or `sent.partiallyFailed`.
import { assertEvent, assign, createActor, emit, setup, type SnapshotFrom } from 'xstate';
import { resaveDraftById, scheduleDraftById, sendDraftById } from '../services/compose';
import { toApiFailure, type ApiFailure } from '../services/http';
import { canTransition, kindOfFolder, type MessageAction } from '../../shared/message-rules';
import {
  cancelSchedule,
  deleteMessages,
  markRead,
  purgeMessages,
  restoreMessages,
} from '../services/messages';
import type { MessageSummary } from '../../shared/messages-contract';
import { watchProgress, type ProgressEvent } from '../services/reception';
import type { DeliveryProgress } from '../../shared/reception-contract';
import type { CountsChangedEvent, ToastEvent } from './effects';
import type { MessageKey } from '../i18n';
import type { MessageKind } from '../../shared/codes';

export { canTransition, type MessageAction } from '../../shared/message-rules';

type LiveKind = Exclude<MessageKind, 'deleted'>;

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

export type LifecycleEvent =
  | { type: 'message.open'; message: LifecycleMessage }
  | { type: 'message.save' }
  | { type: 'message.schedule'; at: string }
  | { type: 'message.send' }
  | { type: 'message.cancelSchedule' }
  | { type: 'message.read' }
  | { type: 'message.delete' }
  | { type: 'message.restore' }
  | { type: 'message.purge' }
  /** Answers the purge confirmation (SPEC: "Eliminar definitivamente" asks first). */
  | { type: 'message.confirm' }
  | { type: 'message.cancel' }
  | ProgressEvent;

export type LifecycleEmitted = ToastEvent | CountsChangedEvent;

export interface IdInput {
  id: number;
}

const deletedFromOf = (message: LifecycleMessage): LiveKind | null => {
  if (message.kind !== 'deleted') return message.kind;
  return message.deleted_from && message.deleted_from !== 'trash' ? kindOfFolder(message.deleted_from) : null;
};

const startKind = (kind: MessageKind) => ({ event }: { event: LifecycleEvent }) => {
  assertEvent(event, 'message.open');
  return event.message.kind === kind;
};

const opensSentIn = (state: DeliveryProgress['state']) => ({ event }: { event: LifecycleEvent }) => {
  assertEvent(event, 'message.open');
  return event.message.kind === 'sent' && event.message.reception?.state === state;
};

const progressIs = (state: DeliveryProgress['state']) => ({ event }: { event: LifecycleEvent }) => {
  assertEvent(event, 'delivery.progress');
  return event.progress.state === state;
};

const deleteSent = { guard: { type: 'allows', params: { kind: 'sent', action: 'delete' } }, target: 'deleting', actions: 'clearError' } as const;

const failedDelete = ['assignError', { type: 'toastError', params: { key: 'error.request' } }] as const;

/**
 * The same `deleting` step in every live kind: to trash, remembering where from (restore goes back). A
 * failure returns to `back`: the first of its targets whose guard holds.
 */
type BackGuard = 'isProgressSending' | 'isProgressPartial' | 'isUnread';
const deletingFrom = <B extends readonly { guard?: BackGuard; target: string }[]>(
  from: LiveKind,
  back: B = [{ target: 'idle' }] as unknown as B,
) => ({
  tags: ['busy', 'deleting'],
  invoke: {
    id: 'deleteMessages',
    src: 'deleteMessages',
    input: ({ context }: { context: LifecycleContext }) => ({ ids: [context.id as number] }),
    onDone: {
      target: '#messageLifecycle.deleted',
      actions: [
        { type: 'rememberOrigin', params: { from } },
        { type: 'toastDone', params: { key: 'messages.deleted' } },
        'announceCounts',
      ],
    },
    onError: back.map((b) => ({ ...b, actions: failedDelete })) as { [K in keyof B]: B[K] & { actions: typeof failedDelete } },
  },
} as const);

export const messageLifecycleMachine = setup({
  types: {
    context: {} as LifecycleContext,
    events: {} as LifecycleEvent,
    emitted: {} as LifecycleEmitted,
  },
  actors: {
    // A draft acted on by id (folder or reader, no form): read it, then save/schedule/send it as it is,
    // each send with a fresh idempotency key.
    saveDraft: resaveDraftById,
    scheduleMessage: scheduleDraftById,
    sendMessage: sendDraftById,
    cancelSchedule,
    markRead,
    deleteMessages,
    restoreMessages,
    purgeMessages,
    watchProgress,
  },
  actions: {
    openMessage: assign(({ event }) => {
      assertEvent(event, 'message.open');
      const { message } = event;
      return {
        id: message.id,
        unread: message.kind === 'received' && message.unread,
        deletedFrom: message.kind === 'deleted' ? deletedFromOf(message) : null,
        error: null,
        progress: message.kind === 'sent' ? (message.reception ?? null) : null,
      };
    }),
    assignProgress: assign(({ event }) => {
      assertEvent(event, 'delivery.progress');
      return { progress: event.progress };
    }),
    clearError: assign({ error: null }),
    /** On an `xstate.error.actor.*` event. */
    assignError: assign(({ event }) => ({ error: toApiFailure((event as { error?: unknown }).error) })),
    markAsRead: assign({ unread: false }),
    rememberOrigin: assign((_, params: { from: LiveKind }) => ({ deletedFrom: params.from })),
    forgetOrigin: assign({ deletedFrom: null }),
    toastDone: emit((_, params: { key: MessageKey }) => ({ type: 'toast' as const, kind: 'success' as const, key: params.key, params: { count: 1 } })),
    toastError: emit((_, params: { key: MessageKey }) => ({ type: 'toast' as const, kind: 'error' as const, key: params.key })),
    /** SPEC §7: folder counters reload. */
    announceCounts: emit({ type: 'counts.changed' }),
  },
  guards: {
    /** The rule table of the contract, for the kind the message is now. */
    allows: (_, params: { kind: MessageKind; action: MessageAction }) => canTransition(params.kind, params.action),
    opensDraft: startKind('draft'),
    opensScheduled: startKind('scheduled'),
    opensSending: opensSentIn('sending'),
    opensPartiallyFailed: opensSentIn('partially_failed'),
    opensSent: startKind('sent'),
    isDelivered: progressIs('sent'),
    isPartiallyFailed: progressIs('partially_failed'),
    /** Unknown progress (sent or restored a moment ago) is still in flight until the first poll. */
    isProgressSending: ({ context }) => context.progress === null || context.progress.state === 'sending',
    isProgressPartial: ({ context }) => context.progress?.state === 'partially_failed',
    restoresSentAt: ({ context }, params: { state: DeliveryProgress['state'] }) =>
      context.deletedFrom === 'sent' && context.progress?.state === params.state,
    opensUnread: ({ event }) => {
      assertEvent(event, 'message.open');
      return event.message.kind === 'received' && event.message.unread;
    },
    opensRead: startKind('received'),
    opensDeleted: ({ event }) => {
      assertEvent(event, 'message.open');
      return event.message.kind === 'deleted' && deletedFromOf(event.message) !== null;
    },
    isUnread: ({ context }) => context.unread,
    cameFrom: ({ context }, params: { kind: LiveKind }) => context.deletedFrom === params.kind,
  },
}).createMachine({
  id: 'messageLifecycle',
  initial: 'closed',
  context: { id: null, unread: false, deletedFrom: null, error: null, progress: null },
  states: {
    closed: {
      on: {
        'message.open': [
          { guard: 'opensDraft', target: 'draft', actions: 'openMessage' },
          { guard: 'opensScheduled', target: 'scheduled', actions: 'openMessage' },
          { guard: 'opensSending', target: 'sent.sending', actions: 'openMessage' },
          { guard: 'opensPartiallyFailed', target: 'sent.partiallyFailed', actions: 'openMessage' },
          { guard: 'opensSent', target: 'sent.delivered', actions: 'openMessage' },
          { guard: 'opensUnread', target: 'received.unread', actions: 'openMessage' },
          { guard: 'opensRead', target: 'received.read', actions: 'openMessage' },
          // A trashed message that does not say where from cannot be restored: it stays closed.
          { guard: 'opensDeleted', target: 'deleted', actions: 'openMessage' },
        ],
      },
    },
    draft: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'message.save': { guard: { type: 'allows', params: { kind: 'draft', action: 'save' } }, target: 'saving', actions: 'clearError' },
            'message.schedule': { guard: { type: 'allows', params: { kind: 'draft', action: 'schedule' } }, target: 'scheduling', actions: 'clearError' },
            'message.send': { guard: { type: 'allows', params: { kind: 'draft', action: 'send' } }, target: 'sending', actions: 'clearError' },
            'message.delete': { guard: { type: 'allows', params: { kind: 'draft', action: 'delete' } }, target: 'deleting', actions: 'clearError' },
          },
        },
        saving: {
          tags: 'busy',
          invoke: {
            id: 'saveDraft',
            src: 'saveDraft',
            input: ({ context }) => ({ id: context.id as number }),
            onDone: { target: 'idle', actions: { type: 'toastDone', params: { key: 'messages.saved' } } },
            onError: { target: 'idle', actions: ['assignError', { type: 'toastError', params: { key: 'error.request' } }] },
          },
        },
        scheduling: {
          tags: 'busy',
          invoke: {
            id: 'scheduleMessage',
            src: 'scheduleMessage',
            input: ({ context, event }) => {
              assertEvent(event, 'message.schedule');
              return { id: context.id as number, at: event.at };
            },
            onDone: { target: '#messageLifecycle.scheduled', actions: [{ type: 'toastDone', params: { key: 'messages.scheduled' } }, 'announceCounts'] },
            onError: { target: 'idle', actions: ['assignError', { type: 'toastError', params: { key: 'error.request' } }] },
          },
        },
        sending: {
          tags: 'busy',
          invoke: {
            id: 'sendMessage',
            src: 'sendMessage',
            input: ({ context }) => ({ id: context.id as number }),
            onDone: { target: '#messageLifecycle.sent', actions: [{ type: 'toastDone', params: { key: 'messages.sent' } }, 'announceCounts'] },
            onError: { target: 'idle', actions: ['assignError', { type: 'toastError', params: { key: 'error.send' } }] },
          },
        },
        deleting: deletingFrom('draft'),
      },
    },
    scheduled: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'message.cancelSchedule': {
              guard: { type: 'allows', params: { kind: 'scheduled', action: 'cancelSchedule' } },
              target: 'cancelling',
              actions: 'clearError',
            },
            'message.delete': { guard: { type: 'allows', params: { kind: 'scheduled', action: 'delete' } }, target: 'deleting', actions: 'clearError' },
          },
        },
        cancelling: {
          tags: ['busy', 'cancelling'],
          invoke: {
            id: 'cancelSchedule',
            src: 'cancelSchedule',
            input: ({ context }) => ({ id: context.id as number }),
            onDone: { target: '#messageLifecycle.draft', actions: [{ type: 'toastDone', params: { key: 'messages.scheduleCancelled' } }, 'announceCounts'] },
            onError: { target: 'idle', actions: ['assignError', { type: 'toastError', params: { key: 'error.request' } }] },
          },
        },
        deleting: deletingFrom('scheduled'),
      },
    },
    // Just sent (or restored): deliveries are in flight until the first poll says otherwise.
    sent: {
      initial: 'sending',
      states: {
        sending: {
          invoke: {
            id: 'watchProgress',
            src: 'watchProgress',
            input: ({ context }) => ({ id: context.id as number }),
            // The poller outlives failed polls by itself; should it still die, the last progress stays on
            // screen (silent, as the polling is) and the reception page is one link away.
            onError: { actions: 'assignError' },
          },
          on: {
            'delivery.progress': [
              { guard: 'isDelivered', target: 'delivered', actions: 'assignProgress' },
              { guard: 'isPartiallyFailed', target: 'partiallyFailed', actions: 'assignProgress' },
              { actions: 'assignProgress' },
            ],
            'message.delete': deleteSent,
          },
        },
        delivered: { on: { 'message.delete': deleteSent } },
        partiallyFailed: { on: { 'message.delete': deleteSent } },
        // Back where its progress says it rests (polling again if still in flight).
        deleting: deletingFrom('sent', [
          { guard: 'isProgressSending', target: 'sending' },
          { guard: 'isProgressPartial', target: 'partiallyFailed' },
          { target: 'delivered' },
        ] as const),
      },
    },
    received: {
      initial: 'unread',
      states: {
        unread: {
          on: {
            'message.read': { guard: { type: 'allows', params: { kind: 'received', action: 'read' } }, target: 'markingRead', actions: 'clearError' },
            'message.delete': { guard: { type: 'allows', params: { kind: 'received', action: 'delete' } }, target: 'deleting', actions: 'clearError' },
          },
        },
        // Reading is silent: a failure keeps the message unread and shows no toast (it is retried next open).
        markingRead: {
          tags: 'busy',
          invoke: {
            id: 'markRead',
            src: 'markRead',
            input: ({ context }) => ({ id: context.id as number }),
            onDone: { target: 'read', actions: ['markAsRead', 'announceCounts'] },
            onError: { target: 'unread', actions: 'assignError' },
          },
        },
        // Marking read again is idempotent: nothing to ask the server.
        read: {
          on: {
            'message.delete': { guard: { type: 'allows', params: { kind: 'received', action: 'delete' } }, target: 'deleting', actions: 'clearError' },
          },
        },
        deleting: deletingFrom('received', [{ guard: 'isUnread', target: 'unread' }, { target: 'read' }] as const),
      },
    },
    deleted: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'message.restore': { guard: { type: 'allows', params: { kind: 'deleted', action: 'restore' } }, target: 'restoring', actions: 'clearError' },
            'message.purge': { guard: { type: 'allows', params: { kind: 'deleted', action: 'purge' } }, target: 'confirmingPurge' },
          },
        },
        // Forever cannot be undone: the user confirms first, or goes back to the trashed message.
        confirmingPurge: {
          on: {
            'message.confirm': { target: 'purging', actions: 'clearError' },
            'message.cancel': { target: 'idle' },
          },
        },
        restoring: {
          tags: ['busy', 'restoring'],
          invoke: {
            id: 'restoreMessages',
            src: 'restoreMessages',
            input: ({ context }) => ({ ids: [context.id as number] }),
            onDone: [
              { guard: { type: 'cameFrom', params: { kind: 'draft' } }, target: '#messageLifecycle.draft', actions: ['forgetOrigin', { type: 'toastDone', params: { key: 'messages.restored' } }, 'announceCounts'] },
              { guard: { type: 'cameFrom', params: { kind: 'scheduled' } }, target: '#messageLifecycle.scheduled', actions: ['forgetOrigin', { type: 'toastDone', params: { key: 'messages.restored' } }, 'announceCounts'] },
              // Deliveries do not change in the trash: a sent message comes back where its progress rests.
              { guard: { type: 'restoresSentAt', params: { state: 'sent' } }, target: '#messageLifecycle.sent.delivered', actions: ['forgetOrigin', { type: 'toastDone', params: { key: 'messages.restored' } }, 'announceCounts'] },
              { guard: { type: 'restoresSentAt', params: { state: 'partially_failed' } }, target: '#messageLifecycle.sent.partiallyFailed', actions: ['forgetOrigin', { type: 'toastDone', params: { key: 'messages.restored' } }, 'announceCounts'] },
              { guard: { type: 'cameFrom', params: { kind: 'sent' } }, target: '#messageLifecycle.sent', actions: ['forgetOrigin', { type: 'toastDone', params: { key: 'messages.restored' } }, 'announceCounts'] },
              { guard: 'isUnread', target: '#messageLifecycle.received.unread', actions: ['forgetOrigin', { type: 'toastDone', params: { key: 'messages.restored' } }, 'announceCounts'] },
              { target: '#messageLifecycle.received.read', actions: ['forgetOrigin', { type: 'toastDone', params: { key: 'messages.restored' } }, 'announceCounts'] },
            ],
            onError: { target: 'idle', actions: ['assignError', { type: 'toastError', params: { key: 'error.request' } }] },
          },
        },
        purging: {
          tags: ['busy', 'purging'],
          invoke: {
            id: 'purgeMessages',
            src: 'purgeMessages',
            input: ({ context }) => ({ ids: [context.id as number] }),
            onDone: { target: '#messageLifecycle.purged', actions: [{ type: 'toastDone', params: { key: 'messages.purged' } }, 'announceCounts'] },
            onError: { target: 'idle', actions: ['assignError', { type: 'toastError', params: { key: 'error.request' } }] },
          },
        },
      },
    },
    purged: { type: 'final' },
  },
});

export type MessageLifecycleMachine = typeof messageLifecycleMachine;
export type MessageLifecycleSnapshot = SnapshotFrom<typeof messageLifecycleMachine>;

/** Creates, starts and opens the lifecycle of `message` (subscribe to `toast` before if needed). */
export function openMessageLifecycle(message: LifecycleMessage, logic: MessageLifecycleMachine = messageLifecycleMachine) {
  const actor = createActor(logic).start();
  actor.send({ type: 'message.open', message });
  return actor;
}

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
