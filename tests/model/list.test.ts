import { createActor, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import {
  createListMachine,
  selectCanLoadMore,
  selectHasFailed,
  selectIsAppending,
  selectIsBusy,
  selectIsEmpty,
  selectIsLoading,
  selectIsStale,
  selectItems,
  selectQuery,
  selectTotal,
  type ListSnapshot,
} from '../../src/machines/list';
import type { ListPage } from '../../src/services/pages';
import { defineModelTests, elapse, send, settle, type StepEnv } from './harness';
import { failure } from './fixtures';

type Item = { id: number };
type Query = { q: string };
const listMachine = createListMachine<Item, Query>();
const list = (snapshot: AnyMachineSnapshot) => snapshot as unknown as ListSnapshot<Item, Query>;

const PAGE_1: ListPage<Item> = { items: [{ id: 1 }, { id: 2 }], total: 3, next: '2' };
const PAGE_2: ListPage<Item> = { items: [{ id: 3 }], total: 3, next: null };
const NONE: ListPage<Item> = { items: [], total: 0, next: null };
const SERVER_DOWN = failure(500, 'server.error', 'Error del servidor');
const LIVE_MS = 5000;

/** The running fetch asks for this query and, when appending, the page after the last one shown. */
function expectFetch(env: StepEnv, snapshot: AnyMachineSnapshot, after: string | null) {
  expect(env.fakes.inputOf('fetchPage')).toEqual({ query: snapshot.context.query, after });
}

/** The rows and flags a settled list shows, checked against what the step did. */
function expectSettled(snapshot: AnyMachineSnapshot, env: StepEnv) {
  expect(env.fakes.isRunning('fetchPage')).toBe(false);
  expect(selectIsBusy(list(snapshot))).toBe(false);
  const event = env.event as { type: string; output?: ListPage<Item> };
  if (event.type === 'xstate.done.actor.fetchPage' && event.output) {
    const appended = env.from.matches('appending');
    expect(selectItems(list(snapshot))).toEqual(appended ? [...(env.from.context.items as Item[]), ...event.output.items] : event.output.items);
    expect(selectTotal(list(snapshot))).toBe(event.output.total);
    expect(selectIsStale(list(snapshot))).toBe(false);
  }
  if (event.type === 'xstate.error.actor.fetchPage') {
    // A later failure keeps what was shown and says it may be out of date.
    expect(selectItems(list(snapshot))).toEqual(env.from.context.items);
    expect(selectIsStale(list(snapshot))).toBe(true);
  }
}

defineModelTests({
  name: 'list',
  machine: listMachine,
  traversal: {
    events: [
      { type: 'list.query', query: { q: 'ana' } },
      { type: 'list.query', query: { q: '' } },
      { type: 'list.more' },
      { type: 'list.reload' },
    ],
    internal: [
      { type: 'xstate.done.actor.fetchPage', output: PAGE_1 },
      { type: 'xstate.done.actor.fetchPage', output: PAGE_2 },
      { type: 'xstate.done.actor.fetchPage', output: NONE },
      { type: 'xstate.error.actor.fetchPage', error: SERVER_DOWN },
      { type: 'xstate.after.debounce.list.debouncing' },
      { type: 'xstate.after.refresh.list.loaded' },
      { type: 'xstate.after.refresh.list.empty' },
    ],
    // A first page answers a first-page request; page 2 answers the append. Keeps the lists finite.
    filterEvents: (snapshot, event) =>
      event.type !== 'xstate.done.actor.fetchPage' || snapshot.matches('appending') === ((event as { output?: unknown }).output === PAGE_2),
    serializeState: (snapshot) =>
      JSON.stringify([snapshot.value, snapshot.context.query, snapshot.context.items.length, snapshot.context.next, snapshot.context.stale, snapshot.context.loaded]),
    limit: 3000,
  },
  variants: [
    { name: 'paged', traversal: { input: { query: { q: '' } } } },
    // A live list (the sent folder, the reception view) reloads page 1 while shown.
    { name: 'live', traversal: { input: { query: { q: '' }, refreshMs: LIVE_MS } } },
  ],
  createActor: ({ fakes, path }) =>
    createActor(listMachine.provide({ actors: { fetchPage: fakes.promise() } }), { input: path.input as { query: Query; refreshMs?: number } }),
  states: {
    loading: (snapshot, env) => {
      expect(selectIsLoading(list(snapshot))).toBe(true);
      expect(selectIsBusy(list(snapshot))).toBe(true);
      expect(snapshot.context.loaded).toBe(false);
      expectFetch(env, snapshot, null);
    },
    failed: (snapshot, env) => {
      expect(selectHasFailed(list(snapshot))).toBe(true);
      expect(selectItems(list(snapshot))).toEqual([]);
      expect(env.fakes.isRunning('fetchPage')).toBe(false);
      expect(snapshot.can({ type: 'list.reload' })).toBe(true);
    },
    loaded: (snapshot, env) => {
      expect(selectItems(list(snapshot)).length).toBeGreaterThan(0);
      expect(selectCanLoadMore(list(snapshot))).toBe(snapshot.context.next !== null);
      expectSettled(snapshot, env);
    },
    empty: (snapshot, env) => {
      expect(selectIsEmpty(list(snapshot))).toBe(true);
      expect(selectCanLoadMore(list(snapshot))).toBe(false);
      expectSettled(snapshot, env);
    },
    appending: (snapshot, env) => {
      expect(selectIsAppending(list(snapshot))).toBe(true);
      expect(selectItems(list(snapshot)).length).toBeGreaterThan(0);
      expectFetch(env, snapshot, snapshot.context.next);
    },
    debouncing: (snapshot, env) => {
      // Nothing asked yet; the rows (if any) stay while the user types.
      expect(env.fakes.isRunning('fetchPage')).toBe(false);
      expect(selectQuery(list(snapshot))).toEqual((env.event as { query?: Query }).query ?? env.from.context.query);
    },
    refreshing: (snapshot, env) => {
      expect(selectIsBusy(list(snapshot))).toBe(true);
      expect(snapshot.context.loaded).toBe(true);
      expectFetch(env, snapshot, null);
      // A live refresh happens only on a live list.
      if (env.event.type.startsWith('xstate.after.refresh')) expect(snapshot.context.refreshMs).toBe(LIVE_MS);
    },
  },
  events: {
    'list.query': send,
    'list.more': send,
    'list.reload': send,
    'xstate.done.actor.fetchPage': settle,
    'xstate.error.actor.fetchPage': settle,
    'xstate.after.debounce.list.debouncing': elapse,
    'xstate.after.refresh.list.loaded': elapse,
    'xstate.after.refresh.list.empty': elapse,
  },
  // List failures are silent (SPEC §8): the list never emits anything, toasts included.
  emits: () => [],
});
