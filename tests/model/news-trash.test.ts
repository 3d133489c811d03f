// The news wall's trash (news/trash.ts) around its hosted list: more and retry told to the list; restore
// one post; delete one forever only after the question (declining returns focus to its button); a post
// acted on leaves the list (`list.remove`) with a toast; a failure keeps it with a toast; a crashed list
// is shown as a failure and Reintentar starts a new one. The machine is list/trash.ts's (shared with
// recipient-lists/trash.ts, whose model test drives it too).
import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import type { NewsPost } from '../../shared/news-contract';
import {
  newsTrashMachine,
  selectNewsTrashBusy,
  selectNewsTrashConfirming,
  selectNewsTrashItems,
  type NewsTrashSnapshot,
} from '../../src/machines/news/trash';
import { defineModelTests, send, settle, type StepEnv } from './harness';
import { failure } from './fixtures';
import { listExecutors, listStandIn, showing, toldList } from './list-stand-in';
import { trashedPost } from '../fixtures/news-admin';

const tr = (snapshot: AnyMachineSnapshot) => snapshot as unknown as NewsTrashSnapshot;
const NONE = showing('none', []);
const ROWS = showing('1,2', [trashedPost({ id: 1 }), trashedPost({ id: 2, title: 'Acto del 21 de mayo' })]);
const IO = ['restoreNewsPost', 'purgeNewsPost'];
const running = (env: StepEnv, id: string | null) => {
  for (const other of IO) expect(env.fakes.isRunning(other), other).toBe(other === id);
};

/** The posts on screen after these events, by the test's account: the list's last rows, none since a crash. */
const shownIds = (history: readonly AnyEventObject[]): number[] =>
  history.reduce<number[]>((ids, event) => {
    if (event.type === 'xstate.snapshot.list')
      return (event.snapshot as AnyMachineSnapshot).context.items.map((post: { id: number }) => post.id);
    return event.type === 'xstate.error.actor.list' ? [] : ids;
  }, []);
/** Only a post on screen can be restored or deleted: another id (a stale button) does nothing. */
const onScreen = (id: number, context: { items: { id: number }[] }) => context.items.some((post) => post.id === id);

function expectedTold(env: StepEnv): AnyEventObject[] {
  const { from, event } = env;
  if (!from.matches('shown')) return [];
  if (/^xstate\.done\.actor\.(restoreNewsPost|purgeNewsPost)$/.test(event.type))
    return [{ type: 'list.remove', keys: [from.context.target] }];
  if (event.type === 'trash.loadMore') return [{ type: 'list.more' }];
  if (event.type === 'trash.retry') return [{ type: 'list.reload' }];
  return [];
}

function emits({ from, event }: StepEnv): AnyEventObject[] {
  if (event.type === 'xstate.done.actor.restoreNewsPost') return [{ type: 'toast', kind: 'success', key: 'newsAdmin.trash.restored' }];
  if (event.type === 'xstate.done.actor.purgeNewsPost') return [{ type: 'toast', kind: 'success', key: 'newsAdmin.trash.purged' }];
  if (/^xstate\.error\.actor\.(restoreNewsPost|purgeNewsPost)$/.test(event.type))
    return [{ type: 'toast', kind: 'error', key: 'error.request' }];
  if (event.type === 'trash.cancel' && from.matches({ shown: 'confirmingPurge' }))
    return [{ type: 'focus', target: `news-trash-purge-${from.context.target}` }];
  return [];
}

defineModelTests({
  name: 'news-trash',
  machine: newsTrashMachine,
  // The header and decision 0088: restore at once, delete forever only after the question; either call
  // ends back at the rows, done or not. A crashed list is a failure until Reintentar starts a new one.
  oracle: {
    initial: 'shown.idle',
    targets: {
      shown: { 'xstate.error.actor.list': 'crashed' },
      'shown.idle': {
        'trash.restore': ({ event, context, stay }) => (onScreen(event.id, context) ? 'shown.restoring' : stay),
        'trash.purge': ({ event, context, stay }) => (onScreen(event.id, context) ? 'shown.confirmingPurge' : stay),
      },
      'shown.confirmingPurge': { 'trash.confirm': 'shown.purging', 'trash.cancel': 'shown.idle' },
      'shown.restoring': { 'xstate.done.actor.restoreNewsPost': 'shown.idle', 'xstate.error.actor.restoreNewsPost': 'shown.idle' },
      'shown.purging': { 'xstate.done.actor.purgeNewsPost': 'shown.idle', 'xstate.error.actor.purgeNewsPost': 'shown.idle' },
      crashed: { 'trash.retry': 'shown.idle' },
    },
  },
  traversal: {
    events: [
      { type: 'trash.loadMore' },
      { type: 'trash.retry' },
      { type: 'trash.restore', id: 1 },
      { type: 'trash.restore', id: 99 },
      { type: 'trash.purge', id: 2 },
      { type: 'trash.purge', id: 99 },
      { type: 'trash.confirm' },
      { type: 'trash.cancel' },
    ],
    internal: [
      NONE,
      ROWS,
      {
        type: 'xstate.done.actor.restoreNewsPost',
        output: trashedPost({ id: 1, status: 'published', deleted_at: null, deleted_by: null }),
      },
      { type: 'xstate.error.actor.restoreNewsPost', error: failure(500, 'server.error') },
      { type: 'xstate.done.actor.purgeNewsPost', output: undefined },
      { type: 'xstate.error.actor.purgeNewsPost', error: failure(409, 'message.illegal_transition') },
      { type: 'xstate.error.actor.list', error: new Error('list: a bug') },
    ],
    serializeState: (s) => JSON.stringify([s.value, s.context.items.map((i: { id: number }) => i.id), s.context.target]),
    limit: 5000,
  },
  createActor: ({ fakes, inspect, machine }) =>
    createActor(
      machine.provide({
        actors: {
          list: listStandIn as never,
          restoreNewsPost: fakes.promise<NewsPost, { id: number }>(),
          purgeNewsPost: fakes.promise<void, { id: number }>(),
        },
      }),
      { inspect },
    ),
  states: {
    shown: (s, env) => {
      expect(toldList(env)).toEqual(expectedTold(env));
      const list = s.children.list as { getSnapshot: () => AnyMachineSnapshot } | undefined;
      expect(list, 'hosted list').toBeDefined();
      expect(selectNewsTrashItems(tr(s))).toBe(list?.getSnapshot().context.items);
      expect(
        selectNewsTrashItems(tr(s)).map((post) => post.id),
        'posts on screen',
      ).toEqual(shownIds(env.history));
      if (env.event.type === 'xstate.init' || env.from.matches('crashed')) expect(list?.getSnapshot().context.input).toEqual({ query: {} });
    },
    'shown.idle': (s, env) => {
      running(env, null);
      expect(s.context.target).toBeNull();
      expect(selectNewsTrashConfirming(tr(s))).toBe(false);
      expect(selectNewsTrashBusy(tr(s))).toBe(false);
      for (const item of s.context.items as { id: number }[]) {
        expect(s.can({ type: 'trash.restore', id: item.id })).toBe(true);
        expect(s.can({ type: 'trash.purge', id: item.id })).toBe(true);
      }
      expect(s.can({ type: 'trash.restore', id: 99 })).toBe(false);
      expect(s.can({ type: 'trash.purge', id: 99 })).toBe(false);
    },
    'shown.confirmingPurge': (s, env) => {
      running(env, null);
      expect(selectNewsTrashConfirming(tr(s))).toBe(true);
      expect(s.context.target).toBe(2);
      // Nothing else is offered while the question is open.
      expect(s.can({ type: 'trash.restore', id: 1 })).toBe(false);
    },
    'shown.restoring': (s, env) => {
      running(env, 'restoreNewsPost');
      expect(selectNewsTrashBusy(tr(s))).toBe(true);
      expect(env.fakes.inputOf('restoreNewsPost')).toEqual({ id: 1 });
    },
    'shown.purging': (s, env) => {
      running(env, 'purgeNewsPost');
      expect(selectNewsTrashBusy(tr(s))).toBe(true);
      expect(env.fakes.inputOf('purgeNewsPost')).toEqual({ id: 2 });
      if (!env.from.matches({ shown: 'purging' })) expect(env.from.matches({ shown: 'confirmingPurge' })).toBe(true);
    },
    crashed: (s, env) => {
      expect(s.children.list).toBeUndefined();
      running(env, null);
      expect(s.context.items).toEqual([]);
      expect(s.can({ type: 'trash.retry' })).toBe(true);
    },
  },
  events: {
    'trash.loadMore': send,
    'trash.retry': send,
    'trash.restore': send,
    'trash.purge': send,
    'trash.confirm': send,
    'trash.cancel': send,
    ...listExecutors,
    'xstate.done.actor.restoreNewsPost': settle,
    'xstate.error.actor.restoreNewsPost': settle,
    'xstate.done.actor.purgeNewsPost': settle,
    'xstate.error.actor.purgeNewsPost': settle,
  },
  emits,
});
