// The message lifecycle's actions and guards (messages/lifecycle.ts names them in `setup`), and the steps
// its states share: the failure every call ends in, the id a call acts on, the rule-table guard. They
// run messages/lifecycle-rules.ts on the lifecycle's context; the effects are emitted, never performed.
import { assertEvent, assign, emit } from 'xstate';
import type { MessageKind } from '../../../shared/codes';
import { canTransition, type MessageAction } from '../../../shared/message-rules';
import type { DeliveryProgress } from '../../../shared/reception-contract';
import type { MessageKey } from '../../i18n';
import { toApiFailure } from '../../services/http/client';
import type { LifecycleEmitted, LifecycleEvent } from './lifecycle';
import { deletedFromOf, openingOf, restoredTo, type LifecycleContext, type LiveKind, type Resting } from './lifecycle-rules';

type Ctx = LifecycleContext;
type Ev = LifecycleEvent;
type Args = { context: Ctx; event: Ev };

// `assign` and `emit` typed for the lifecycle (inside `setup` it types them itself).
const update = <P = undefined>(assignment: Parameters<typeof assign<Ctx, Ev, P, Ev, never>>[0]) => assign<Ctx, Ev, P, Ev, never>(assignment);
const say = <P = undefined>(effect: Parameters<typeof emit<Ctx, Ev, P, Ev, LifecycleEmitted>>[0]) => emit<Ctx, Ev, P, Ev, LifecycleEmitted>(effect);

/** The reading view's "Eliminar definitivamente" button, where focus returns when the purge is not confirmed. */
export const PURGE_BUTTON_ID = 'message-purge';
/** Its "Cancelar envío programado", where focus returns when the cancellation is not confirmed. */
export const CANCEL_SCHEDULE_BUTTON_ID = 'message-cancel-schedule';

/** What a call on the message sends: its id, or its id as the one of a list. */
export const byId = ({ context }: { context: Ctx }) => ({ id: context.id as number });
export const byIds = ({ context }: { context: Ctx }) => ({ ids: [context.id as number] });

/** A call that failed: the error kept, and its toast. */
export const failed = (key: MessageKey) => ['assignError', { type: 'toastError', params: { key } }] as const;
export const FAILED_REQUEST = failed('error.request');

/** A step the contract's rule table allows from `kind`; a step that starts a call forgets the last error. */
export const allowed = <T extends string>(kind: MessageKind, action: MessageAction, target: T, clears = true) =>
  ({ guard: { type: 'allows' as const, params: { kind, action } }, target, actions: clears ? (['clearError'] as const) : ([] as const) });

const progressIs = (state: DeliveryProgress['state']) => ({ event }: Args) => {
  assertEvent(event, 'delivery.progress');
  return event.progress.state === state;
};

export const lifecycleActions = {
  openMessage: update(({ event }) => {
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
  assignProgress: update(({ event }) => {
    assertEvent(event, 'delivery.progress');
    return { progress: event.progress };
  }),
  clearError: update({ error: null }),
  /** On an `xstate.error.actor.*` event. */
  assignError: update(({ event }) => ({ error: toApiFailure((event as { error?: unknown }).error) })),
  markAsRead: update({ unread: false }),
  rememberOrigin: update<{ from: LiveKind }>((_, params: { from: LiveKind }) => ({ deletedFrom: params.from })),
  forgetOrigin: update({ deletedFrom: null }),
  toastDone: say<{ key: MessageKey }>((_, params: { key: MessageKey }) => ({ type: 'toast' as const, kind: 'success' as const, key: params.key, params: { count: 1 } })),
  toastError: say<{ key: MessageKey }>((_, params: { key: MessageKey }) => ({ type: 'toast' as const, kind: 'error' as const, key: params.key })),
  /** "Mensaje eliminado" with "Deshacer": the app's undo actor restores it (this view may be gone by then). */
  toastDeleted: say(({ context }) => ({
    type: 'toast' as const,
    kind: 'success' as const,
    key: 'messages.deleted' as const,
    params: { count: 1 },
    action: { label: 'toast.undo' as const, event: { type: 'undo.restore' as const, ids: [context.id as number] } },
  })),
  /** SPEC §7: folder counters reload. */
  announceCounts: say({ type: 'counts.changed' }),
  focusPurge: say({ type: 'focus', target: PURGE_BUTTON_ID }),
  focusCancelSchedule: say({ type: 'focus', target: CANCEL_SCHEDULE_BUTTON_ID }),
};

export const lifecycleGuards = {
  /** The rule table of the contract, for the kind the message is now. */
  allows: (_: Args, params: { kind: MessageKind; action: MessageAction }) => canTransition(params.kind, params.action),
  opensAs: ({ event }: Args, params: { at: Resting }) => {
    assertEvent(event, 'message.open');
    return openingOf(event.message) === params.at;
  },
  restoresTo: ({ context }: Args, params: { at: Resting }) => restoredTo(context) === params.at,
  isDelivered: progressIs('sent'),
  isPartiallyFailed: progressIs('partially_failed'),
  /** Unknown progress (sent or restored a moment ago) is still in flight until the first poll. */
  isProgressSending: ({ context }: Args) => context.progress === null || context.progress.state === 'sending',
  isProgressPartial: ({ context }: Args) => context.progress?.state === 'partially_failed',
  isUnread: ({ context }: Args) => context.unread,
};
