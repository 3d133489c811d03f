// Loads one message for the reading view (/<folder>/message/:id). What the user can do with it lives
// in message-lifecycle; this only fetches, and retries when asked (SPEC §8 'error getting message details').
import { assign, emit, setup, type SnapshotFrom } from 'xstate';
import { fetchMessage } from '../services/messages';
import type { MessageDetail } from '../../shared/messages-contract';
import type { ToastEvent } from './effects';

export interface MessageReaderInput {
  id: number;
}

export interface MessageReaderContext {
  id: number;
  message: MessageDetail | null;
  /** 404: someone else's id, or a message purged meanwhile. No retry offered. */
  notFound: boolean;
}

export type MessageReaderEvent = { type: 'reader.retry' };

export const messageReaderMachine = setup({
  types: {
    input: {} as MessageReaderInput,
    context: {} as MessageReaderContext,
    events: {} as MessageReaderEvent,
    emitted: {} as ToastEvent,
  },
  actors: { fetchMessage },
  actions: {
    assignMessage: assign((_, params: { message: MessageDetail }) => ({ message: params.message, notFound: false })),
    assignNotFound: assign((_, params: { notFound: boolean }) => ({ notFound: params.notFound })),
    toastFailure: emit({ type: 'toast', kind: 'error', key: 'messages.readFailed' }),
  },
  guards: {
    isNotFound: (_, params: { error: unknown }) => (params.error as { status?: number } | null)?.status === 404,
  },
}).createMachine({
  id: 'messageReader',
  initial: 'loading',
  context: ({ input }) => ({ id: input.id, message: null, notFound: false }),
  states: {
    loading: {
      invoke: {
        id: 'fetchMessage',
        src: 'fetchMessage',
        input: ({ context }) => ({ id: context.id }),
        onDone: { target: 'loaded', actions: { type: 'assignMessage', params: ({ event }) => ({ message: event.output }) } },
        onError: [
          {
            guard: { type: 'isNotFound', params: ({ event }) => ({ error: event.error }) },
            target: 'notFound',
            actions: { type: 'assignNotFound', params: { notFound: true } },
          },
          { target: 'failed', actions: ['toastFailure', { type: 'assignNotFound', params: { notFound: false } }] },
        ],
      },
    },
    loaded: {},
    notFound: {},
    failed: { on: { 'reader.retry': { target: 'loading' } } },
  },
});

export type MessageReaderSnapshot = SnapshotFrom<typeof messageReaderMachine>;

export const selectMessage = (s: MessageReaderSnapshot): MessageDetail | null => s.context.message;
export const selectIsReaderLoading = (s: MessageReaderSnapshot): boolean => s.matches('loading');
export const selectIsReaderFailed = (s: MessageReaderSnapshot): boolean => s.matches('failed');
export const selectIsReaderNotFound = (s: MessageReaderSnapshot): boolean => s.matches('notFound');
