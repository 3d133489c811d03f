import { createActor, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import {
  messageReaderMachine,
  selectIsReaderFailed,
  selectIsReaderLoading,
  selectIsReaderNotFound,
  selectMessage,
  type MessageReaderSnapshot,
} from '../../src/machines/message-reader';
import type { MessageDetail } from '../../shared/messages-contract';
import { failure } from './fixtures';
import { defineModelTests, send, settle } from './harness';

const snap = (snapshot: AnyMachineSnapshot) => snapshot as unknown as MessageReaderSnapshot;

const DETAIL: MessageDetail = {
  id: 41,
  folder: 'inbox',
  kind: 'received',
  title: 'Reunión de apoderados 3° Básico A',
  snippet: 'Estimados apoderados…',
  counterpart: 'María José Núñez',
  channels: ['app-mobile', 'e-mail'],
  has_attachments: false,
  unread: true,
  date: '2026-03-02T12:00:00.000Z',
  deleted_from: null,
  progress: null,
  content: 'Estimados apoderados: los esperamos el jueves.',
  sender: { id: 3, name: 'María José Núñez', kind: 'funcionario' },
  recipients_summary: { total: 1, label: 'Ana Pérez', groups: [] },
  attachments: [],
  allow_replies: true,
  copy_to_sender: false,
  scheduled_at: null,
  timezone: 'America/Santiago',
  reception: null,
  reply_to_id: null,
  read_at: null,
};

defineModelTests({
  name: 'message-reader',
  machine: messageReaderMachine,
  traversal: {
    events: [{ type: 'reader.retry' }],
    internal: [
      { type: 'xstate.done.actor.fetchMessage', output: DETAIL },
      { type: 'xstate.error.actor.fetchMessage', error: failure(404, 'not_found') },
      { type: 'xstate.error.actor.fetchMessage', error: failure(500, 'server.error') },
    ],
    input: { id: 41 },
    limit: 100,
  },
  createActor: ({ fakes }) =>
    createActor(messageReaderMachine.provide({ actors: { fetchMessage: fakes.promise() } }), { input: { id: 41 } }),
  states: {
    loading: (snapshot, env) => {
      expect(selectIsReaderLoading(snap(snapshot))).toBe(true);
      expect(env.fakes.inputOf('fetchMessage')).toEqual({ id: 41 });
    },
    loaded: (snapshot) => {
      expect(selectMessage(snap(snapshot))).toEqual(DETAIL);
      expect(snapshot.context.notFound).toBe(false);
    },
    notFound: (snapshot, env) => {
      expect(selectIsReaderNotFound(snap(snapshot))).toBe(true);
      expect(selectMessage(snap(snapshot))).toBeNull();
      expect(env.fakes.isRunning('fetchMessage')).toBe(false);
    },
    failed: (snapshot) => {
      expect(selectIsReaderFailed(snap(snapshot))).toBe(true);
      expect(snapshot.context.notFound).toBe(false);
      expect(snapshot.can({ type: 'reader.retry' })).toBe(true);
    },
  },
  events: {
    'reader.retry': send,
    'xstate.done.actor.fetchMessage': settle,
    'xstate.error.actor.fetchMessage': settle,
  },
  emits: ({ event }) =>
    event.type === 'xstate.error.actor.fetchMessage' && (event as unknown as { error: { status?: number } }).error.status !== 404
      ? [{ type: 'toast', kind: 'error', key: 'messages.readFailed' }]
      : [],
});
