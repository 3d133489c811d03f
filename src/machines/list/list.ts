// The list pattern of every list screen (templates, recipient lists, the news wall, the picker's saved
// lists…): a query (filters and search), pages appended with "Cargar más", an optional live refresh, and
// silent failures (SPEC §8). The first load has its own `loading` and `failed`; afterwards every reload
// keeps the rows on screen, the latest request wins (re-entering aborts the one in flight), and a failed
// reload only marks the rows `stale` with `list.reload` to try again (a failed next page: that page again;
// scrolling does not retry it). A host that changes rows itself (moved to the trash, fresher progress)
// says so with `list.remove` / `list.update`, instead of reloading what is shown.
//
// The fetch is the `fetchPage` actor, provided per use (services turn the API's pages into `ListPage`);
// `key` names an item for `list.remove` / `list.update`:
//   createListMachine<Template, TemplateQuery>({ key: (t) => t.id }).provide({ actors: { fetchPage: fetchTemplatePage } })
import {
  assertEvent,
  assign,
  fromPromise,
  sendTo,
  setup,
  type AnyActorRef,
  type EventObject,
  type MachineContext,
  type PromiseActorLogic,
  type SnapshotFrom,
} from 'xstate';
import type { ListFetchInput, ListPage } from '../../services/list/pages';

export type ListKey = string | number;

export interface ListOptions<T> {
  /** What identifies an item. A property of the item type, not of one list: kept out of the context. */
  key: (item: T) => ListKey;
}

interface ListInput<Q> {
  query: Q;
  /** A live list reloads its first page this often (ms) while shown; 0 or absent: never. */
  refreshMs?: number;
}

interface ListContext<T, Q> {
  query: Q;
  items: T[];
  total: number | null;
  next: string | null;
  /** A reload after the first load failed: the rows shown may be out of date. */
  stale: boolean;
  /** Some page has arrived (a failure then is `stale`, not `failed`). */
  loaded: boolean;
  refreshMs: number;
}

type ListEvent<T, Q> =
  /** New filters or search text: page 1 again, once typing pauses. */
  | { type: 'list.query'; query: Q }
  /** "Cargar más": the next page, appended. */
  | { type: 'list.more' }
  /** Again, now: after a failed first load, or over stale rows; after a failed next page, that page. */
  | { type: 'list.reload' }
  /** These items left the list (moved, deleted): gone at once, without a reload. */
  | { type: 'list.remove'; keys: ListKey[] }
  /** Fresher versions of listed items (same key), replaced where they are; others are ignored. */
  | { type: 'list.update'; items: T[] };

/** Quiet time after the last keystroke before a new query loads. */
const LIST_DEBOUNCE_MS = 250;

export function createListMachine<T, Q>({ key }: ListOptions<T>) {
  const listSetup = setup({
    types: {
      input: {} as ListInput<Q>,
      context: {} as ListContext<T, Q>,
      events: {} as ListEvent<T, Q>,
    },
    actors: {
      // A list without a fetch is a wiring mistake: it fails loudly.
      fetchPage: fromPromise<ListPage<T>, ListFetchInput<Q>>(async () => {
        throw new Error('list: provide a fetchPage actor');
      }),
    },
    actions: {
      assignQuery: assign(({ event }) => {
        assertEvent(event, 'list.query');
        return { query: event.query };
      }),
      replaceItems: assign((_, page: ListPage<T>) => ({
        items: page.items,
        total: page.total,
        next: page.next,
        stale: false,
        loaded: true,
      })),
      appendItems: assign(({ context }, page: ListPage<T>) => ({
        items: [...context.items, ...page.items],
        total: page.total,
        next: page.next,
        stale: false,
      })),
      markStale: assign({ stale: true }),
      // The rows stay, but not their cursor: after a new query it would page another list.
      markRefreshFailed: assign({ stale: true, next: null }),
      removeItems: assign(({ context, event }) => {
        assertEvent(event, 'list.remove');
        const gone = new Set(event.keys);
        const items = context.items.filter((item) => !gone.has(key(item)));
        if (items.length === context.items.length) return {};
        const removed = context.items.length - items.length;
        return { items, total: context.total === null ? null : Math.max(0, context.total - removed) };
      }),
      updateItems: assign(({ context, event }) => {
        assertEvent(event, 'list.update');
        const fresher = new Map(event.items.map((item) => [key(item), item]));
        if (!context.items.some((item) => fresher.has(key(item)))) return {};
        return { items: context.items.map((item) => fresher.get(key(item)) ?? item) };
      }),
    },
    guards: {
      isEmptyPage: (_, page: ListPage<T>) => page.items.length === 0,
      /** A next page exists and the last one asked for did not fail (scrolling does not retry it). */
      canAppend: ({ context }) => context.next !== null && !context.stale,
      /** Stale rows with a cursor: only a failed next page leaves both (a failed refresh drops the cursor). */
      hasFailedNext: ({ context }) => context.stale && context.next !== null,
      removesAll: ({ context, event }) => {
        assertEvent(event, 'list.remove');
        const gone = new Set(event.keys);
        return context.items.every((item) => gone.has(key(item)));
      },
      hasItems: ({ context }) => context.items.length > 0,
      hasLoaded: ({ context }) => context.loaded,
      isLive: ({ context }) => context.refreshMs > 0,
    },
    delays: {
      debounce: LIST_DEBOUNCE_MS,
      refresh: ({ context }) => context.refreshMs,
    },
  });

  /**
   * Page 1 (the first load, or again behind the rows shown): it replaces what is shown; none at all is
   * `empty`. A first load that fails is `failed`; a reload that fails keeps the rows, now stale.
   */
  const firstPage = (after: 'firstLoad' | 'reload') =>
    listSetup.createStateConfig({
      tags: 'busy',
      invoke: {
        id: 'fetchPage',
        src: 'fetchPage',
        input: ({ context }) => ({ query: context.query, after: null }),
        onDone: [
          {
            guard: { type: 'isEmptyPage', params: ({ event }) => event.output },
            target: 'empty',
            actions: { type: 'replaceItems', params: ({ event }) => event.output },
          },
          { target: 'loaded', actions: { type: 'replaceItems', params: ({ event }) => event.output } },
        ],
        onError:
          after === 'firstLoad'
            ? { target: 'failed' }
            : [
                { guard: 'hasItems', target: 'loaded', actions: 'markRefreshFailed' },
                { target: 'empty', actions: 'markRefreshFailed' },
              ],
      },
    });

  return listSetup.createMachine({
    id: 'list',
    initial: 'loading',
    context: ({ input }) => ({
      query: input.query,
      items: [],
      total: null,
      next: null,
      stale: false,
      loaded: false,
      refreshMs: input.refreshMs ?? 0,
    }),
    // Wherever the list is, rows the host changed change now; a page on its way replaces them anyway.
    on: {
      'list.remove': { actions: 'removeItems' },
      'list.update': { actions: 'updateItems' },
    },
    states: {
      // The first page: the view shows a skeleton.
      loading: {
        ...firstPage('firstLoad'),
        on: { 'list.query': { target: 'debouncing', actions: 'assignQuery' } },
      },
      // The first page could not be loaded: nothing to show but the failure and a retry.
      failed: {
        on: {
          'list.reload': { target: 'loading' },
          'list.query': { target: 'debouncing', actions: 'assignQuery' },
        },
      },
      loaded: {
        after: { refresh: { guard: 'isLive', target: 'refreshing' } },
        on: {
          'list.more': { guard: 'canAppend', target: 'appending' },
          'list.query': { target: 'debouncing', actions: 'assignQuery' },
          'list.reload': [{ guard: 'hasFailedNext', target: 'appending' }, { target: 'refreshing' }],
          // None of the rows shown is left, but later pages may hold some: page 1 again.
          'list.remove': [{ guard: 'removesAll', target: 'refreshing', actions: 'removeItems' }, { actions: 'removeItems' }],
        },
      },
      // Nothing matches the query (or the list is empty): the view says which.
      empty: {
        after: { refresh: { guard: 'isLive', target: 'refreshing' } },
        on: {
          'list.query': { target: 'debouncing', actions: 'assignQuery' },
          'list.reload': { target: 'refreshing' },
        },
      },
      appending: {
        tags: 'busy',
        invoke: {
          id: 'fetchPage',
          src: 'fetchPage',
          input: ({ context }) => ({ query: context.query, after: context.next }),
          onDone: { target: 'loaded', actions: { type: 'appendItems', params: ({ event }) => event.output } },
          // The pages shown stay; `list.reload` asks for the same page again.
          onError: { target: 'loaded', actions: 'markStale' },
        },
        on: {
          'list.query': { target: 'debouncing', actions: 'assignQuery' },
          // Appending to no rows at all would show a later page alone: page 1 again instead.
          'list.remove': [{ guard: 'removesAll', target: 'refreshing', actions: 'removeItems' }, { actions: 'removeItems' }],
        },
      },
      // Typing: each keystroke restarts the wait; the rows shown stay until the new first page arrives.
      debouncing: {
        after: { debounce: [{ guard: 'hasLoaded', target: 'refreshing' }, { target: 'loading' }] },
        on: { 'list.query': { target: 'debouncing', reenter: true, actions: 'assignQuery' } },
      },
      // Page 1 again behind the rows shown (new query, live refresh, retry over stale rows).
      refreshing: {
        ...firstPage('reload'),
        on: {
          'list.query': { target: 'debouncing', actions: 'assignQuery' },
          // The page on its way may have left before the host's change was saved: ask again, or the rows
          // just moved away would come back with it.
          'list.remove': { target: 'refreshing', reenter: true, actions: 'removeItems' },
        },
      },
    },
  });
}

/** The list of one resource: its `fetchPage` provided, its items keyed by `key`. */
export const listOf = <T, Q>(fetchPage: PromiseActorLogic<ListPage<T>, ListFetchInput<Q>>, key: (item: T) => ListKey) =>
  createListMachine<T, Q>({ key }).provide({ actors: { fetchPage } });

export type ListMachine<T, Q> = ReturnType<typeof createListMachine<T, Q>>;
export type ListSnapshot<T, Q> = SnapshotFrom<ListMachine<T, Q>>;

// Selectors: primitives, or context references that change only with their value.
export const selectItems = <T, Q>(s: ListSnapshot<T, Q>): T[] => s.context.items;
export const selectTotal = <T, Q>(s: ListSnapshot<T, Q>): number | null => s.context.total;
export const selectQuery = <T, Q>(s: ListSnapshot<T, Q>): Q => s.context.query;
/** The first page is on its way (skeleton). */
export const selectIsLoading = <T, Q>(s: ListSnapshot<T, Q>): boolean => s.matches('loading');
/** The first page failed (error with Reintentar). */
export const selectHasFailed = <T, Q>(s: ListSnapshot<T, Q>): boolean => s.matches('failed');
export const selectIsEmpty = <T, Q>(s: ListSnapshot<T, Q>): boolean => s.matches('empty');
export const selectIsAppending = <T, Q>(s: ListSnapshot<T, Q>): boolean => s.matches('appending');
/** A request runs behind what is shown (for `aria-busy`). */
export const selectIsBusy = <T, Q>(s: ListSnapshot<T, Q>): boolean => s.hasTag('busy');
export const selectIsStale = <T, Q>(s: ListSnapshot<T, Q>): boolean => s.context.stale;
/**
 * What stands in place of the rows while there are none: the failure with Reintentar (the first page failed,
 * or a reload of an empty list did), the empty state, or the skeleton of a page on its way; `rows` once
 * there are some.
 */
export type ListPlaceholder = 'rows' | 'failed' | 'empty' | 'loading';
export const selectPlaceholder = <T, Q>(s: ListSnapshot<T, Q>): ListPlaceholder => {
  if (s.context.items.length > 0) return 'rows';
  if (s.matches('failed') || (s.matches('empty') && s.context.stale)) return 'failed';
  return s.matches('empty') ? 'empty' : 'loading';
};
/** "Cargar más" is offered. */
export const selectCanLoadMore = <T, Q>(s: ListSnapshot<T, Q>): boolean => s.can({ type: 'list.more' });

// The host's side: a screen that shows a list invokes it as its child `list` (`listChild`), mirrors its
// rows in its own context (`items`, to find the row an event names: its own `assignItems` action reads them
// from the `xstate.snapshot.list` event, typed by its events) and asks it for pages (`askQuery`, `askMore`,
// `askReload`): `...listHostActions<Context, Event, Query>(queryOf)` in the host's `setup({ actions })` and
// `invoke: { ...listChild(queryOf), onError }` in the state that shows it.

/** The actions every list host has the same, typed for the host (`C`, `E`) with its query `Q`. */
export function listHostActions<C extends MachineContext, E extends EventObject, Q>(queryOf: (context: C) => Q) {
  return {
    /** New search or filters: page 1 again (the list debounces). */
    askQuery: sendTo<C, E, undefined, AnyActorRef, E>('list', ({ context }: { context: C }) => ({
      type: 'list.query',
      query: queryOf(context),
    })),
    askMore: sendTo<C, E, undefined, AnyActorRef, E>('list', { type: 'list.more' }),
    askReload: sendTo<C, E, undefined, AnyActorRef, E>('list', { type: 'list.reload' }),
  };
}

/** The `invoke` of the list child on the host's query; its rows land in `items`. Add the host's `onError`. */
export const listChild = <C, Q>(queryOf: (context: C) => Q) =>
  ({
    id: 'list',
    src: 'list',
    input: ({ context }: { context: C }) => ({ query: queryOf(context) }),
    onSnapshot: { actions: 'assignItems' },
  }) as const;
