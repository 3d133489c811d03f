import { createActor, type AnyMachineSnapshot } from 'xstate';
import { expect, vi } from 'vitest';
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
  selectPlaceholder,
  selectQuery,
  selectTotal,
  type ListSnapshot,
} from '../../src/machines/list/list';
import type { ListPage } from '../../src/services/list/pages';
import { defineModelTests, elapse, send, settle, type StepEnv } from './harness';
import { failure } from './fixtures';

type Item = { id: number; title: string };
type Query = { q: string };
const listMachine = createListMachine<Item, Query>({ key: (item) => item.id });
const list = (snapshot: AnyMachineSnapshot) => snapshot as unknown as ListSnapshot<Item, Query>;

const PAGE_1: ListPage<Item> = {
  items: [
    { id: 1, title: 'Uno' },
    { id: 2, title: 'Dos' },
  ],
  total: 3,
  next: '2',
};
const PAGE_2: ListPage<Item> = { items: [{ id: 3, title: 'Tres' }], total: 3, next: null };
/** What a host knows better than the last page: item 2, changed. */
const FRESHER_2: Item = { id: 2, title: 'Dos (actualizado)' };
const NONE: ListPage<Item> = { items: [], total: 0, next: null };
const SERVER_DOWN = failure(500, 'server.error', 'Error del servidor');
const LIVE_MS = 5000;
/** The list decision: a search waits 250 ms of quiet. */
const DEBOUNCE_MS = 250;

/** The running fetch asks for this query and, when appending, the page after the last one shown. */
function expectFetch(env: StepEnv, snapshot: AnyMachineSnapshot, after: string | null) {
  expect(env.fakes.inputOf('fetchPage')).toEqual({ query: snapshot.context.query, after });
}

/** The rows and flags a settled list shows, checked against what the step did. */
function expectSettled(snapshot: AnyMachineSnapshot, env: StepEnv) {
  expectHostChanges(snapshot, env);
  expect(env.fakes.isRunning('fetchPage')).toBe(false);
  expect(selectIsBusy(list(snapshot))).toBe(false);
  const event = env.event as { type: string; output?: ListPage<Item> };
  if (event.type === 'xstate.done.actor.fetchPage' && event.output) {
    const appended = env.from.matches('appending');
    expect(selectItems(list(snapshot))).toEqual(
      appended ? [...(env.from.context.items as Item[]), ...event.output.items] : event.output.items,
    );
    expect(selectTotal(list(snapshot))).toBe(event.output.total);
    expect(selectIsStale(list(snapshot))).toBe(false);
  }
  if (event.type === 'xstate.error.actor.fetchPage') {
    // A later failure keeps what was shown and says it may be out of date.
    expect(selectItems(list(snapshot))).toEqual(env.from.context.items);
    expect(selectIsStale(list(snapshot))).toBe(true);
    // A failed next page keeps its cursor (Reintentar asks for it); a failed page 1 drops it, since after a
    // new query it would page another list.
    expect(snapshot.context.next).toBe(env.from.matches('appending') ? env.from.context.next : null);
  }
}

/** How much of a restarted wait the `list.query` step already let pass, per actor. */
const waited = new WeakMap<object, number>();

/** fetchPage calls made up to the last `refreshing` step of each actor. */
const callsBefore = new WeakMap<object, number>();

/** `list.remove` / `list.update`, in whatever state they arrive: the rows change at once, nothing else. */
function expectHostChanges(snapshot: AnyMachineSnapshot, env: StepEnv) {
  const before = env.from.context as { items: Item[]; total: number | null };
  if (env.event.type === 'list.remove') {
    const gone = new Set(env.event.keys as number[]);
    const kept = before.items.filter((item) => !gone.has(item.id));
    expect(selectItems(list(snapshot))).toEqual(kept);
    expect(selectTotal(list(snapshot))).toBe(before.total === null ? null : before.total - (before.items.length - kept.length));
  }
  if (env.event.type === 'list.update') {
    // Replaced where it is; items the list does not hold are not added.
    const fresher = new Map((env.event.items as Item[]).map((item) => [item.id, item]));
    expect(selectItems(list(snapshot))).toEqual(before.items.map((item) => fresher.get(item.id) ?? item));
    expect(selectTotal(list(snapshot))).toBe(before.total);
  }
}

defineModelTests({
  name: 'list',
  machine: listMachine,
  // The header and the list decision: a first load with its own failure, then every reload behind the rows
  // shown; a search waits for typing to pause; "Cargar más" appends; a live list reloads page 1 while shown.
  oracle: {
    initial: 'loading',
    targets: {
      // Rows the host removed or updated change in place, wherever the list is (no entry: it stays).
      loading: {
        // No rows at all: the empty state, not a table.
        'xstate.done.actor.fetchPage': ({ event }) => (event.output.items.length > 0 ? 'loaded' : 'empty'),
        'xstate.error.actor.fetchPage': 'failed',
        'list.query': 'debouncing',
      },
      failed: { 'list.reload': 'loading', 'list.query': 'debouncing' },
      loaded: {
        'list.query': 'debouncing',
        // Only while there is a next page and the last one asked for did not fail (Reintentar retries it).
        'list.more': ({ context, stay }) => (context.next !== null && !context.stale ? 'appending' : stay),
        // After a failed next page (stale, its cursor kept) Reintentar asks for that page; else page 1.
        'list.reload': ({ context }) => (context.stale && context.next !== null ? 'appending' : 'refreshing'),
        // Every row shown gone: page 1 again, as later pages may hold more.
        'list.remove': ({ event, context, stay }) => (context.items.every((item) => event.keys.includes(item.id)) ? 'refreshing' : stay),
        // Only a live list reloads by itself.
        'xstate.after.refresh.list.loaded': ({ context, stay }) => (context.refreshMs > 0 ? 'refreshing' : stay),
      },
      empty: {
        'list.query': 'debouncing',
        'list.reload': 'refreshing',
        'xstate.after.refresh.list.empty': ({ context, stay }) => (context.refreshMs > 0 ? 'refreshing' : stay),
      },
      appending: {
        // Appended, or failed with the pages shown kept (marked stale): the rows either way.
        'xstate.done.actor.fetchPage': 'loaded',
        'xstate.error.actor.fetchPage': 'loaded',
        'list.query': 'debouncing',
        // A later page alone would be shown: page 1 again instead.
        'list.remove': ({ event, context, stay }) => (context.items.every((item) => event.keys.includes(item.id)) ? 'refreshing' : stay),
      },
      debouncing: {
        // Typing again restarts the wait (same state); once it pauses, page 1: behind the rows if any
        // page ever arrived, else as a first load.
        'xstate.after.debounce.list.debouncing': ({ context }) => (context.loaded ? 'refreshing' : 'loading'),
      },
      refreshing: {
        'xstate.done.actor.fetchPage': ({ event }) => (event.output.items.length > 0 ? 'loaded' : 'empty'),
        // The rows stay (stale); with none shown, the empty list says the reload failed.
        'xstate.error.actor.fetchPage': ({ context }) => (context.items.length > 0 ? 'loaded' : 'empty'),
        'list.query': 'debouncing',
        // `list.remove` asks again in place (the `refreshing` invariant sees the new request).
      },
    },
  },
  traversal: {
    events: [
      { type: 'list.query', query: { q: 'ana' } },
      { type: 'list.query', query: { q: '' } },
      { type: 'list.more' },
      { type: 'list.reload' },
      // The host moved item 2 away, or every item shown (page 1 again when nothing is left).
      { type: 'list.remove', keys: [2] },
      { type: 'list.remove', keys: [1, 2, 3] },
      { type: 'list.update', items: [FRESHER_2] },
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
    // Which items, not their versions: an update changes no transition (replays give each step its own).
    serializeState: (snapshot) =>
      JSON.stringify([
        snapshot.value,
        snapshot.context.query,
        snapshot.context.items.map((item: Item) => item.id),
        snapshot.context.next,
        snapshot.context.stale,
        snapshot.context.loaded,
      ]),
    limit: 5000,
  },
  variants: [
    { name: 'paged', traversal: { input: { query: { q: '' } } } },
    // A live list (the sent folder, the reception view) reloads page 1 while shown.
    { name: 'live', traversal: { input: { query: { q: '' }, refreshMs: LIVE_MS } } },
  ],
  createActor: ({ fakes, path, machine }) =>
    createActor(machine.provide({ actors: { fetchPage: fakes.promise() } }), { input: path.input as { query: Query; refreshMs?: number } }),
  states: {
    loading: (snapshot, env) => {
      expectHostChanges(snapshot, env);
      expect(selectIsLoading(list(snapshot))).toBe(true);
      expect(selectIsBusy(list(snapshot))).toBe(true);
      expect(snapshot.context.loaded).toBe(false);
      expect(selectPlaceholder(list(snapshot))).toBe('loading');
      expectFetch(env, snapshot, null);
    },
    failed: (snapshot, env) => {
      expectHostChanges(snapshot, env);
      expect(selectHasFailed(list(snapshot))).toBe(true);
      expect(selectItems(list(snapshot))).toEqual([]);
      expect(selectPlaceholder(list(snapshot))).toBe('failed');
      // The query (the search text as typed) survives the failure.
      expect(selectQuery(list(snapshot))).toEqual(env.from.context.query);
      expect(env.fakes.isRunning('fetchPage')).toBe(false);
      expect(snapshot.can({ type: 'list.reload' })).toBe(true);
    },
    loaded: (snapshot, env) => {
      expect(selectItems(list(snapshot)).length).toBeGreaterThan(0);
      expect(selectPlaceholder(list(snapshot))).toBe('rows');
      // After a failed next page, scrolling does not ask for it again; Reintentar does.
      expect(selectCanLoadMore(list(snapshot))).toBe(snapshot.context.next !== null && !snapshot.context.stale);
      // "Cargar más" follows the page that just arrived (page 1 has a next page, page 2 is the last), and a
      // failed next page hides it.
      if (env.event.type === 'xstate.done.actor.fetchPage') {
        expect(selectCanLoadMore(list(snapshot))).toBe((env.event.output as ListPage<Item>).next !== null);
      }
      if (env.event.type === 'xstate.error.actor.fetchPage') expect(selectCanLoadMore(list(snapshot))).toBe(false);
      expectSettled(snapshot, env);
    },
    empty: (snapshot, env) => {
      expect(selectIsEmpty(list(snapshot))).toBe(true);
      expect(selectCanLoadMore(list(snapshot))).toBe(false);
      // A reload of the empty list that failed: the failure with Reintentar, not "nothing here".
      expect(selectPlaceholder(list(snapshot))).toBe(snapshot.context.stale ? 'failed' : 'empty');
      expectSettled(snapshot, env);
    },
    appending: (snapshot, env) => {
      expectHostChanges(snapshot, env);
      expect(selectIsAppending(list(snapshot))).toBe(true);
      // Reintentar after a failed next page asks for that page again, not page 1.
      if (env.event.type === 'list.reload' && !env.from.matches('appending')) expect(env.from.context.stale).toBe(true);
      expect(selectItems(list(snapshot)).length).toBeGreaterThan(0);
      expectFetch(env, snapshot, snapshot.context.next);
    },
    debouncing: (snapshot, env) => {
      expectHostChanges(snapshot, env);
      // Nothing asked yet; the rows (if any) stay while the user types.
      expect(env.fakes.isRunning('fetchPage')).toBe(false);
      expect(selectQuery(list(snapshot))).toEqual((env.event as { query?: Query }).query ?? env.from.context.query);
    },
    refreshing: (snapshot, env) => {
      expectHostChanges(snapshot, env);
      expect(selectIsBusy(list(snapshot))).toBe(true);
      // Removing every row shown asks for page 1 again (later pages may hold more).
      if (env.event.type === 'list.remove' && !env.from.matches('refreshing')) expect(selectItems(list(snapshot))).toEqual([]);
      // A page that left before the host's change may still hold the rows it removed: it is asked again.
      if (env.event.type === 'list.remove' && env.from.matches('refreshing')) {
        expect(env.fakes.calls.filter((call) => call.id === 'fetchPage').length).toBe((callsBefore.get(env.actor) ?? 0) + 1);
        expect(env.started, 'the page is asked for again').toEqual(['fetchPage']);
      }
      callsBefore.set(env.actor, env.fakes.calls.filter((call) => call.id === 'fetchPage').length);
      expect(snapshot.context.loaded).toBe(true);
      expectFetch(env, snapshot, null);
      // A live refresh happens only on a live list.
      if (env.event.type.startsWith('xstate.after.refresh')) expect(snapshot.context.refreshMs).toBe(LIVE_MS);
    },
  },
  events: {
    // Typing again just before the wait ends starts the wait over: a whole wait less 1 ms later, nothing asked.
    'list.query': (env) => {
      const typing = (env.actor.getSnapshot() as AnyMachineSnapshot).matches('debouncing');
      if (typing) vi.advanceTimersByTime(DEBOUNCE_MS - 1);
      send(env);
      waited.delete(env.actor);
      if (!typing) return;
      vi.advanceTimersByTime(DEBOUNCE_MS - 1);
      expect((env.actor.getSnapshot() as AnyMachineSnapshot).matches('debouncing'), 'typing again restarts the wait').toBe(true);
      expect(env.fakes.isRunning('fetchPage')).toBe(false);
      waited.set(env.actor, DEBOUNCE_MS - 1);
    },
    'list.more': send,
    'list.reload': send,
    'list.remove': send,
    // A change that touches no listed item keeps the same array (views re-render on a new one).
    'list.update': (env) => {
      const before = selectItems(list(env.actor.getSnapshot() as AnyMachineSnapshot));
      send(env);
      const touches = before.some((item) => (env.event.items as Item[]).some((fresher) => fresher.id === item.id));
      if (!touches) expect(selectItems(list(env.actor.getSnapshot() as AnyMachineSnapshot))).toBe(before);
    },
    'xstate.done.actor.fetchPage': settle,
    'xstate.error.actor.fetchPage': settle,
    'xstate.after.debounce.list.debouncing': (env) => {
      const already = waited.get(env.actor) ?? 0;
      waited.delete(env.actor);
      if (already > 0) vi.advanceTimersByTime(DEBOUNCE_MS - already);
      else elapse(env);
    },
    'xstate.after.refresh.list.loaded': elapse,
    'xstate.after.refresh.list.empty': elapse,
  },
  // List failures are silent (SPEC §8): the list never emits anything, toasts included.
  emits: () => [],
});
