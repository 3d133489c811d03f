// The lifecycle of one message as its user sees it (SPEC §4; rules in messages-contract.ts and
// message-rules.ts): draft ⇄ scheduled, draft → sent, received unread → read, any of those → deleted
// (remembering where from) → restored or purged. Each step is a server call under a named invoke; a
// failure returns to the state the step left, with the error in context and a toast.
//
// The actor starts `closed` and is given its message with `message.open` (see `openMessageLifecycle`):
// the starting state depends on the message, and a machine's initial state cannot.
//
// A sent message also follows its deliveries: `sent.sending` polls the message while anything
// is in flight and settles in `sent.delivered` or `sent.partiallyFailed`.
//
// Its rules are messages/lifecycle-rules.ts's, what the views read messages/lifecycle-selectors.ts's.
import { assertEvent, assign, createActor, emit, setup, type SnapshotFrom } from 'xstate';
import type { MessageKind } from '../../../shared/codes';
import { canTransition, type MessageAction } from '../../../shared/message-rules';
import type { DeliveryProgress } from '../../../shared/reception-contract';
import type { MessageKey } from '../../i18n';
import { resaveDraftById, scheduleDraftById, sendDraftById } from '../../services/compose/compose';
import { toApiFailure, type ApiFailure } from '../../services/http/client';
import { restoreMessages } from '../../services/messages/folder-info';
import { cancelSchedule, deleteMessages, markRead, purgeMessages } from '../../services/messages/messages';
import { watchProgress, type ProgressEvent } from '../../services/reception/reception';
import type { CountsChangedEvent, FocusEvent, ToastEvent } from '../app/effects';
import {
  CANCEL_SCHEDULE_BUTTON_ID,
  deletedFromOf,
  openingOf,
  PURGE_BUTTON_ID,
  RESTING,
  restoredTo,
  type LifecycleContext,
  type LifecycleMessage,
  type LiveKind,
  type Resting,
} from './lifecycle-rules';

type LifecycleEvent =
  | { type: 'message.open'; message: LifecycleMessage }
  | { type: 'message.save' }
  | { type: 'message.schedule'; at: string }
  | { type: 'message.send' }
  | { type: 'message.cancelSchedule' }
  | { type: 'message.read' }
  | { type: 'message.delete' }
  | { type: 'message.restore' }
  | { type: 'message.purge' }
  /** Answers the purge and cancel-schedule confirmations (SPEC: "Eliminar definitivamente" asks first). */
  | { type: 'message.confirm' }
  | { type: 'message.cancel' }
  | ProgressEvent;

type LifecycleEmitted = ToastEvent | CountsChangedEvent | FocusEvent;

const progressIs = (event: LifecycleEvent, state: DeliveryProgress['state']) => {
  assertEvent(event, 'delivery.progress');
  return event.progress.state === state;
};

const lifecycleSetup = setup({
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
  // The rules are messages/lifecycle-rules.ts's; the effects are emitted, never performed.
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
    /** A call that failed: its error is kept until the next one starts. */
    assignError: assign((_, error: ApiFailure) => ({ error })),
    markAsRead: assign({ unread: false }),
    rememberOrigin: assign((_, params: { from: LiveKind }) => ({ deletedFrom: params.from })),
    forgetOrigin: assign({ deletedFrom: null }),
    toastDone: emit((_, params: { key: MessageKey }) => ({
      type: 'toast' as const,
      kind: 'success' as const,
      key: params.key,
      params: { count: 1 },
    })),
    toastError: emit((_, params: { key: MessageKey }) => ({ type: 'toast' as const, kind: 'error' as const, key: params.key })),
    /** "Mensaje eliminado" with "Deshacer": the app's undo actor restores it (this view may be gone by then). */
    toastDeleted: emit(({ context }) => ({
      type: 'toast' as const,
      kind: 'success' as const,
      key: 'messages.deleted' as const,
      params: { count: 1 },
      action: { label: 'toast.undo' as const, event: { type: 'undo.restore' as const, ids: context.id === null ? [] : [context.id] } },
    })),
    /** SPEC §7: folder counters reload. */
    announceCounts: emit({ type: 'counts.changed' }),
    focusPurge: emit({ type: 'focus', target: PURGE_BUTTON_ID }),
    focusCancelSchedule: emit({ type: 'focus', target: CANCEL_SCHEDULE_BUTTON_ID }),
  },
  guards: {
    /** The rule table of the contract, for the kind the message is now. */
    allows: (_, params: { kind: MessageKind; action: MessageAction }) => canTransition(params.kind, params.action),
    opensAs: ({ event }, params: { at: Resting }) => {
      assertEvent(event, 'message.open');
      return openingOf(event.message) === params.at;
    },
    restoresTo: ({ context }, params: { at: Resting }) => restoredTo(context) === params.at,
    isDelivered: ({ event }) => progressIs(event, 'sent'),
    isPartiallyFailed: ({ event }) => progressIs(event, 'partially_failed'),
    /** Unknown progress (sent or restored a moment ago) is still in flight until the first poll. */
    isProgressSending: ({ context }) => context.progress === null || context.progress.state === 'sending',
    isProgressPartial: ({ context }) => context.progress?.state === 'partially_failed',
    isUnread: ({ context }) => context.unread,
  },
});

/** A step the contract's rule table allows from `kind`; a step that starts a call forgets the last error. */
const allowed = <T extends string>(kind: MessageKind, action: MessageAction, target: T, clears = true) =>
  ({ guard: { type: 'allows', params: { kind, action } }, target, actions: clears ? (['clearError'] as const) : ([] as const) }) as const;

/** A call on the message that failed: its error kept, and a toast saying so (`key`). */
const failedCall = (key: MessageKey) =>
  [
    { type: 'assignError', params: ({ event }: { event: { error: unknown } }) => toApiFailure(event.error) },
    { type: 'toastError', params: { key } },
  ] as const;

/** A call on the message that succeeded: it is now `target`, a toast says so (`key`), the folder counts change. */
const doneCall = <T extends string>(target: T, key: MessageKey) =>
  ({ target, actions: [{ type: 'toastDone', params: { key } }, 'announceCounts'] }) as const;

const deleteSent = allowed('sent', 'delete', 'deleting');

type BackGuard = 'isProgressSending' | 'isProgressPartial' | 'isUnread';

/**
 * The same `deleting` step in every live kind: to trash, remembering where from (restore goes back). A
 * failure returns to `back`: the first of its targets whose guard holds.
 */
const deletingFrom = (from: LiveKind, back: readonly { guard?: BackGuard; target: string }[] = [{ target: 'idle' }]) =>
  lifecycleSetup.createStateConfig({
    tags: ['busy', 'deleting'],
    invoke: {
      id: 'deleteMessages',
      src: 'deleteMessages',
      input: ({ context }) => ({ ids: context.id === null ? [] : [context.id] }),
      onDone: {
        target: '#messageLifecycle.deleted',
        actions: [{ type: 'rememberOrigin', params: { from } }, 'toastDeleted', 'announceCounts'],
      },
      onError: back.map(({ guard, target }) => ({
        guard,
        target,
        actions: failedCall('error.request'),
      })),
    },
  });

/**
 * A question asked in place before a step that cannot be undone (purge, cancel a schedule): confirmed, the
 * call (`then`) starts; not, keyboard focus goes back to the button that asked (`focus`), instead of being
 * lost with the question.
 */
const confirming = <T extends string, F extends 'focusPurge' | 'focusCancelSchedule'>(then: T, focus: F) =>
  ({
    on: {
      'message.confirm': { target: then, actions: 'clearError' },
      'message.cancel': { target: 'idle', actions: focus },
    },
  }) as const;

export const messageLifecycleMachine = lifecycleSetup.createMachine({
  id: 'messageLifecycle',
  initial: 'closed',
  context: { id: null, unread: false, deletedFrom: null, error: null, progress: null },
  states: {
    closed: {
      on: {
        // Where the message rests (messages/lifecycle-rules.ts `openingOf`); a trashed message that does
        // not say where from cannot be restored: it stays closed.
        'message.open': RESTING.map((at) => ({
          guard: { type: 'opensAs' as const, params: { at } },
          target: at,
          actions: 'openMessage' as const,
        })),
      },
    },
    draft: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'message.save': allowed('draft', 'save', 'saving'),
            'message.schedule': allowed('draft', 'schedule', 'scheduling'),
            'message.send': allowed('draft', 'send', 'sending'),
            'message.delete': allowed('draft', 'delete', 'deleting'),
          },
        },
        saving: {
          tags: 'busy',
          invoke: {
            id: 'saveDraft',
            src: 'saveDraft',
            input: ({ context }) => ({ id: context.id ?? 0 }),
            onDone: { target: 'idle', actions: { type: 'toastDone', params: { key: 'messages.saved' } } },
            onError: { target: 'idle', actions: failedCall('error.request') },
          },
        },
        scheduling: {
          tags: 'busy',
          invoke: {
            id: 'scheduleMessage',
            src: 'scheduleMessage',
            input: ({ context, event }) => {
              assertEvent(event, 'message.schedule');
              return { id: context.id ?? 0, at: event.at };
            },
            onDone: doneCall('#messageLifecycle.scheduled', 'messages.scheduled'),
            onError: { target: 'idle', actions: failedCall('error.request') },
          },
        },
        sending: {
          tags: 'busy',
          invoke: {
            id: 'sendMessage',
            src: 'sendMessage',
            input: ({ context }) => ({ id: context.id ?? 0 }),
            onDone: doneCall('#messageLifecycle.sent', 'messages.sent'),
            onError: { target: 'idle', actions: failedCall('error.send') },
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
            'message.cancelSchedule': allowed('scheduled', 'cancelSchedule', 'confirmingCancel', false),
            'message.delete': allowed('scheduled', 'delete', 'deleting'),
          },
        },
        // Cancelling takes the message out of the schedule (it will not go out): the author confirms first.
        confirmingCancel: confirming('cancelling', 'focusCancelSchedule'),
        cancelling: {
          tags: ['busy', 'cancelling'],
          invoke: {
            id: 'cancelSchedule',
            src: 'cancelSchedule',
            input: ({ context }) => ({ id: context.id ?? 0 }),
            onDone: doneCall('#messageLifecycle.draft', 'messages.scheduleCancelled'),
            onError: { target: 'idle', actions: failedCall('error.request') },
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
            input: ({ context }) => ({ id: context.id ?? 0 }),
            // The poller outlives failed polls by itself; should it still die, the last progress stays on
            // screen (silent, as the polling is) and the reception page is one link away.
            onError: { actions: { type: 'assignError', params: ({ event }) => toApiFailure(event.error) } },
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
        ]),
      },
    },
    received: {
      initial: 'unread',
      states: {
        unread: {
          on: {
            'message.read': allowed('received', 'read', 'markingRead'),
            'message.delete': allowed('received', 'delete', 'deleting'),
          },
        },
        // Reading is silent: a failure keeps the message unread and shows no toast (it is retried next open).
        markingRead: {
          tags: 'busy',
          invoke: {
            id: 'markRead',
            src: 'markRead',
            input: ({ context }) => ({ id: context.id ?? 0 }),
            onDone: { target: 'read', actions: ['markAsRead', 'announceCounts'] },
            onError: { target: 'unread', actions: { type: 'assignError', params: ({ event }) => toApiFailure(event.error) } },
          },
        },
        // Marking read again is idempotent: nothing to ask the server.
        read: {
          on: {
            'message.delete': allowed('received', 'delete', 'deleting'),
          },
        },
        deleting: deletingFrom('received', [{ guard: 'isUnread', target: 'unread' }, { target: 'read' }]),
      },
    },
    deleted: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'message.restore': allowed('deleted', 'restore', 'restoring'),
            'message.purge': allowed('deleted', 'purge', 'confirmingPurge', false),
          },
        },
        // Forever cannot be undone: the user confirms first, or goes back to the trashed message.
        confirmingPurge: confirming('purging', 'focusPurge'),
        restoring: {
          tags: ['busy', 'restoring'],
          invoke: {
            id: 'restoreMessages',
            src: 'restoreMessages',
            input: ({ context }) => ({ ids: context.id === null ? [] : [context.id] }),
            // Back where it was (messages/lifecycle-rules.ts `restoredTo`).
            onDone: RESTING.filter((at) => at !== 'deleted').map((at) => ({
              guard: { type: 'restoresTo' as const, params: { at } },
              target: `#messageLifecycle.${at}`,
              actions: ['forgetOrigin', { type: 'toastDone', params: { key: 'messages.restored' } }, 'announceCounts'] as const,
            })),
            onError: { target: 'idle', actions: failedCall('error.request') },
          },
        },
        purging: {
          tags: ['busy', 'purging'],
          invoke: {
            id: 'purgeMessages',
            src: 'purgeMessages',
            input: ({ context }) => ({ ids: context.id === null ? [] : [context.id] }),
            onDone: doneCall('#messageLifecycle.purged', 'messages.purged'),
            onError: { target: 'idle', actions: failedCall('error.request') },
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
