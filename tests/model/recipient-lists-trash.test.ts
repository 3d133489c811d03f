// The recipient lists' trash (recipient-lists/trash.ts) around its hosted list: search, more, retry told to
// the list; restore one row; delete one forever only after the question (declining returns focus to its
// button); a row acted on leaves the list (`list.remove`) with a toast; a failure keeps it with a toast.
import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import type { RecipientListSummary } from '../../shared/recipient-lists-contract';
import {
  recipientListsTrashMachine,
  selectIsConfirmingPurge,
  selectTrashItems,
  type RecipientListsTrashSnapshot,
} from '../../src/machines/recipient-lists/trash';
import { defineModelTests, send, settle, type StepEnv } from './harness';
import { failure } from './fixtures';
import { listExecutors, listStandIn, showing, toldList } from './list-stand-in';
import { trashedList } from '../fixtures/recipient-lists';

const tr = (snapshot: AnyMachineSnapshot) => snapshot as unknown as RecipientListsTrashSnapshot;
const NONE = showing('none', []);
const ROWS = showing('1,2', [trashedList({ id: 1 }), trashedList({ id: 2, name: '4° Medio' })]);
const IO = ['restoreList', 'purgeList'];
const running = (env: StepEnv, id: string | null) => {
  for (const other of IO) expect(env.fakes.isRunning(other), other).toBe(other === id);
};

/** The rows on screen after these events, by the test's account: the list's last rows, none since a crash. */
const shownIds = (history: readonly AnyEventObject[]): number[] =>
  history.reduce<number[]>((ids, event) => {
    if (event.type === 'xstate.snapshot.list')
      return (event.snapshot as AnyMachineSnapshot).context.items.map((list: { id: number }) => list.id);
    return event.type === 'xstate.error.actor.list' ? [] : ids;
  }, []);
/** The last search typed (a list started after a crash searches it again). */
const searched = (history: readonly AnyEventObject[]): string =>
  history.reduce((q, event) => (event.type === 'trash.search' ? (event.q as string) : q), '');
/** Only a row on screen can be restored or deleted: another id (a stale button) does nothing. */
const onScreen = (id: number, context: { items: { id: number }[] }) => context.items.some((list) => list.id === id);

function expectedTold(env: StepEnv): AnyEventObject[] {
  const { from, event } = env;
  if (!from.matches('shown')) return [];
  if (/^xstate\.done\.actor\.(restoreList|purgeList)$/.test(event.type)) return [{ type: 'list.remove', keys: [from.context.target] }];
  switch (event.type) {
    case 'trash.search':
      return [{ type: 'list.query', query: { q: event.q } }];
    case 'trash.loadMore':
      return [{ type: 'list.more' }];
    case 'trash.retry':
      return [{ type: 'list.reload' }];
    default:
      return [];
  }
}

function emits({ from, event }: StepEnv): AnyEventObject[] {
  if (event.type === 'xstate.done.actor.restoreList') return [{ type: 'toast', kind: 'success', key: 'recipientLists.restored' }];
  if (event.type === 'xstate.done.actor.purgeList') return [{ type: 'toast', kind: 'success', key: 'recipientLists.purged' }];
  if (/^xstate\.error\.actor\.(restoreList|purgeList)$/.test(event.type)) return [{ type: 'toast', kind: 'error', key: 'error.request' }];
  if (event.type === 'trash.cancel' && from.matches({ shown: 'confirmingPurge' }))
    return [{ type: 'focus', target: `trash-purge-${from.context.target}` }];
  return [];
}

defineModelTests({
  name: 'recipient-lists-trash',
  machine: recipientListsTrashMachine,
  // The header and SPEC §2: restore at once, delete forever only after the question; either call
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
      'shown.restoring': { 'xstate.done.actor.restoreList': 'shown.idle', 'xstate.error.actor.restoreList': 'shown.idle' },
      'shown.purging': { 'xstate.done.actor.purgeList': 'shown.idle', 'xstate.error.actor.purgeList': 'shown.idle' },
      crashed: { 'trash.retry': 'shown.idle' },
    },
  },
  traversal: {
    events: [
      { type: 'trash.search', q: 'Básico' },
      { type: 'trash.loadMore' },
      { type: 'trash.retry' },
      { type: 'trash.restore', id: 1 },
      { type: 'trash.restore', id: 99 },
      { type: 'trash.purge', id: 2 },
      { type: 'trash.confirm' },
      { type: 'trash.cancel' },
    ],
    internal: [
      NONE,
      ROWS,
      { type: 'xstate.done.actor.restoreList', output: trashedList({ id: 1 }) },
      { type: 'xstate.error.actor.restoreList', error: failure(500, 'server.error') },
      { type: 'xstate.done.actor.purgeList', output: undefined },
      { type: 'xstate.error.actor.purgeList', error: failure(404, 'not_found') },
      { type: 'xstate.error.actor.list', error: new Error('list: a bug') },
    ],
    serializeState: (s) => JSON.stringify([s.value, s.context.q, s.context.items.map((i: { id: number }) => i.id), s.context.target]),
    limit: 5000,
  },
  createActor: ({ fakes, inspect, machine }) =>
    createActor(
      machine.provide({
        actors: {
          list: listStandIn as never,
          restoreList: fakes.promise<RecipientListSummary, { id: number }>(),
          purgeList: fakes.promise<void, { id: number }>(),
        },
      }),
      { inspect },
    ),
  states: {
    shown: (s, env) => {
      expect(toldList(env)).toEqual(expectedTold(env));
      const list = s.children.list as { getSnapshot: () => AnyMachineSnapshot } | undefined;
      expect(list, 'hosted list').toBeDefined();
      // The rows are the list's rows, the same array.
      expect(selectTrashItems(tr(s))).toBe(list?.getSnapshot().context.items);
      expect(
        selectTrashItems(tr(s)).map((row) => row.id),
        'rows on screen',
      ).toEqual(shownIds(env.history));
      if (env.event.type === 'xstate.init' || env.from.matches('crashed')) {
        expect(list?.getSnapshot().context.input).toEqual({ query: { q: s.context.q } });
        expect(list?.getSnapshot().context.input, 'a new list searches what was typed').toEqual({ query: { q: searched(env.history) } });
      }
    },
    'shown.idle': (s, env) => {
      running(env, null);
      expect(s.context.target).toBeNull();
      expect(selectIsConfirmingPurge(tr(s))).toBe(false);
      // Only a listed row can be acted on.
      for (const item of s.context.items as { id: number }[]) {
        expect(s.can({ type: 'trash.restore', id: item.id })).toBe(true);
        expect(s.can({ type: 'trash.purge', id: item.id })).toBe(true);
      }
      expect(s.can({ type: 'trash.restore', id: 99 })).toBe(false);
    },
    'shown.confirmingPurge': (s, env) => {
      running(env, null);
      expect(selectIsConfirmingPurge(tr(s))).toBe(true);
      expect(s.context.target).toBe(2);
    },
    'shown.restoring': (s, env) => {
      running(env, 'restoreList');
      expect(env.fakes.inputOf('restoreList')).toEqual({ id: s.context.target });
    },
    'shown.purging': (s, env) => {
      running(env, 'purgeList');
      expect(env.fakes.inputOf('purgeList')).toEqual({ id: s.context.target });
      if (!env.from.matches({ shown: 'purging' })) expect(env.from.matches({ shown: 'confirmingPurge' })).toBe(true);
    },
    crashed: (s, env) => {
      expect(s.children.list).toBeUndefined();
      running(env, null);
      expect(s.can({ type: 'trash.retry' })).toBe(true);
    },
  },
  events: {
    'trash.search': send,
    'trash.loadMore': send,
    'trash.retry': send,
    'trash.restore': send,
    'trash.purge': send,
    'trash.confirm': send,
    'trash.cancel': send,
    ...listExecutors,
    'xstate.done.actor.restoreList': settle,
    'xstate.error.actor.restoreList': settle,
    'xstate.done.actor.purgeList': settle,
    'xstate.error.actor.purgeList': settle,
  },
  emits,
});
