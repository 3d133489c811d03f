// The reading view (/<folder>/message/:id): loads one message (SPEC §8 'error getting message details'),
// then hosts its lifecycle (messages/lifecycle.ts) as the child `lifecycle`, which the view reads and
// sends the user's actions to. The rules of the page live here: opening an unread message marks it read,
// a message moved out of this folder (deleted, restored, back to drafts) or purged takes the user where
// it now makes sense, and reply / edit are offered only when they apply.
import { assertEvent, assign, emit, enqueueActions, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { Folder, MessageKind } from '../../../shared/codes';
import { canReply, folderOfKind } from '../../../shared/message-rules';
import type { MessageDetail } from '../../../shared/messages-contract';
import { toApiFailure, type ApiFailure } from '../../services/http/client';
import { fetchMessage } from '../../services/messages/messages';
import { relayEffects, type Effect, type RelayedEffect } from '../app/effects';
import { messageLifecycleMachine, type MessageLifecycleSnapshot } from './lifecycle';
import { selectKind } from './lifecycle-selectors';

export interface MessageReaderInput {
  id: number;
  /** The folder the message was opened from (the URL's). */
  folder: Folder;
}

export interface MessageReaderContext {
  id: number;
  folder: Folder;
  message: MessageDetail | null;
  /** 404: someone else's id, or a message purged meanwhile. No retry offered. */
  notFound: boolean;
  /** The kind the message is now, as its lifecycle says (null before it opens). */
  kind: MessageKind | null;
}

export type MessageReaderEvent =
  | { type: 'reader.retry' }
  /** "Responder": compose opens addressed to the sender. */
  | { type: 'message.reply' }
  /** "Editar borrador": compose opens the draft. */
  | { type: 'message.edit' }
  | { type: 'xstate.snapshot.lifecycle'; snapshot: MessageLifecycleSnapshot }
  | RelayedEffect;

/**
 * Where the view goes once the message no longer belongs to the folder it was opened from; null while it
 * still does, or before the lifecycle has it (a purge ends the lifecycle and goes back to the trash).
 * Trashed: back to the folder. Restored: back to the trash. Moved (a schedule cancelled): to its folder.
 */
export function destinationAfter(folder: Folder, kind: MessageKind | null): string | null {
  if (kind === null) return null;
  if (kind === 'deleted') return folder === 'trash' ? null : `/${folder}`;
  if (folder === 'trash') return '/trash';
  return folderOfKind(kind) === folder ? null : `/${folderOfKind(kind)}`;
}

const kindOf = (event: MessageReaderEvent) => {
  assertEvent(event, 'xstate.snapshot.lifecycle');
  return selectKind(event.snapshot);
};

export const messageReaderMachine = setup({
  types: {
    input: {} as MessageReaderInput,
    context: {} as MessageReaderContext,
    events: {} as MessageReaderEvent,
    emitted: {} as Effect,
    children: {} as { lifecycle: 'lifecycle'; lifecycleEffects: 'relayEffects' },
  },
  actors: { fetchMessage, lifecycle: messageLifecycleMachine, relayEffects },
  actions: {
    assignMessage: assign((_, params: { message: MessageDetail }) => ({ message: params.message, notFound: false })),
    assignNotFound: assign((_, params: { notFound: boolean }) => ({ notFound: params.notFound })),
    toastFailure: emit({ type: 'toast', kind: 'error', key: 'messages.readFailed' }),
    /** Opens the lifecycle on the message; SPEC: opening an unread inbox message marks it read. */
    openLifecycle: enqueueActions(({ context, enqueue }) => {
      const message = context.message;
      if (message === null) return;
      enqueue.sendTo('lifecycle', { type: 'message.open', message });
      if (message.kind === 'received' && message.unread) enqueue.sendTo('lifecycle', { type: 'message.read' });
    }),
    assignKind: assign(({ event }) => ({ kind: kindOf(event) })),
    leave: enqueueActions(({ context, event, enqueue }) => {
      const to = destinationAfter(context.folder, kindOf(event));
      if (to !== null) enqueue.emit({ type: 'navigate', to, replace: true });
    }),
    leaveToTrash: emit({ type: 'navigate', to: '/trash', replace: true }),
    reply: emit(({ context }) => ({ type: 'navigate' as const, to: `/new?reply=${context.id}` })),
    edit: emit(({ context }) => ({ type: 'navigate' as const, to: `/new?draft=${context.id}` })),
    /** The lifecycle's toasts and counter updates, passed on to whoever hosts this page. */
    relay: emit(({ event }) => {
      assertEvent(event, 'effect.relay');
      return event.effect;
    }),
  },
  guards: {
    isNotFound: (_, failure: ApiFailure) => failure.status === 404,
    leavesFolder: ({ context, event }) => destinationAfter(context.folder, kindOf(event)) !== null,
    /** Staff answer a guardian or a student always, a colleague who allowed replies (shared/message-rules.ts). */
    canReply: ({ context }) =>
      context.kind !== null &&
      context.message !== null &&
      canReply(context.kind, context.message.sender.kind, context.message.allow_replies),
    isDraft: ({ context }) => context.kind === 'draft',
  },
}).createMachine({
  id: 'messageReader',
  initial: 'loading',
  context: ({ input }) => ({ id: input.id, folder: input.folder, message: null, notFound: false, kind: null }),
  states: {
    loading: {
      invoke: {
        id: 'fetchMessage',
        src: 'fetchMessage',
        input: ({ context }) => ({ id: context.id }),
        onDone: { target: 'loaded', actions: { type: 'assignMessage', params: ({ event }) => ({ message: event.output }) } },
        onError: [
          {
            guard: { type: 'isNotFound', params: ({ event }) => toApiFailure(event.error) },
            target: 'notFound',
            actions: { type: 'assignNotFound', params: { notFound: true } },
          },
          { target: 'failed', actions: ['toastFailure', { type: 'assignNotFound', params: { notFound: false } }] },
        ],
      },
    },
    loaded: {
      invoke: [
        {
          id: 'lifecycle',
          src: 'lifecycle',
          onSnapshot: [{ guard: 'leavesFolder', target: 'left', actions: 'leave' }, { actions: 'assignKind' }],
          // Purged: the message is gone for good, and so is this view.
          onDone: { target: 'left', actions: 'leaveToTrash' },
        },
        // Started after the lifecycle (same step), so it finds it among this actor's children.
        { id: 'lifecycleEffects', src: 'relayEffects', input: ({ self }) => ({ parent: self, child: 'lifecycle' }) },
      ],
      on: {
        'effect.relay': { actions: 'relay' },
        'message.reply': { guard: 'canReply', actions: 'reply' },
        'message.edit': { guard: 'isDraft', actions: 'edit' },
      },
      // A child state, so the lifecycle (invoked on entering `loaded`) exists when it is opened.
      initial: 'open',
      states: {
        open: {
          entry: 'openLifecycle',
        },
      },
    },
    notFound: {},
    failed: { on: { 'reader.retry': { target: 'loading' } } },
    // The message left this folder and the view is navigating away: nothing more to show or do.
    left: { type: 'final' },
  },
});

export type MessageReaderSnapshot = SnapshotFrom<typeof messageReaderMachine>;
export type LifecycleActor = ActorRefFrom<typeof messageLifecycleMachine>;

export const selectMessage = (s: MessageReaderSnapshot): MessageDetail | null => s.context.message;
export const selectIsReaderLoading = (s: MessageReaderSnapshot): boolean => s.matches('loading');
export const selectIsReaderFailed = (s: MessageReaderSnapshot): boolean => s.matches('failed');
export const selectIsReaderNotFound = (s: MessageReaderSnapshot): boolean => s.matches('notFound');
/** The hosted lifecycle while the message is shown (the same reference until it leaves). */
export const selectLifecycle = (s: MessageReaderSnapshot): LifecycleActor | null => s.children.lifecycle ?? null;
export const selectCanReply = (s: MessageReaderSnapshot): boolean => s.can({ type: 'message.reply' });
export const selectCanEdit = (s: MessageReaderSnapshot): boolean => s.can({ type: 'message.edit' });
