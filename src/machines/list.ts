// The list pattern of every list screen (templates, recipient lists, the news wall, the picker's saved
// lists…): a query (filters and search), pages appended with "Cargar más", an optional live refresh, and
// silent failures (SPEC §8). The first load has its own `loading` and `failed`; afterwards every reload
// keeps the rows on screen, the latest request wins (re-entering aborts the one in flight), and a failed
// reload only marks the rows `stale` with `list.reload` to try again.
//
// The fetch is the `fetchPage` actor, provided per use (services turn the API's pages into `ListPage`):
//   createListMachine<Template, TemplateQuery>().provide({ actors: { fetchPage: fetchTemplatePage } })
import { assertEvent, assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { ListFetchInput, ListPage } from '../services/pages';


export interface ListInput<Q> {
  query: Q;
  /** A live list reloads its first page this often (ms) while shown; 0 or absent: never. */
  refreshMs?: number;
}

export interface ListContext<T, Q> {
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

export type ListEvent<Q> =
  /** New filters or search text: page 1 again, once typing pauses. */
  | { type: 'list.query'; query: Q }
  /** "Cargar más": the next page, appended. */
  | { type: 'list.more' }
  /** Again, now: after a failed first load, or over stale rows. */
  | { type: 'list.reload' };

/** Quiet time after the last keystroke before a new query loads. */
export const LIST_DEBOUNCE_MS = 250;

export function createListMachine<T, Q>() {
  return setup({
    types: {
      input: {} as ListInput<Q>,
      context: {} as ListContext<T, Q>,
      events: {} as ListEvent<Q>,
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
      replaceItems: assign((_, page: ListPage<T>) => ({ items: page.items, total: page.total, next: page.next, stale: false, loaded: true })),
      appendItems: assign(({ context }, page: ListPage<T>) => ({
        items: [...context.items, ...page.items],
        total: page.total,
        next: page.next,
        stale: false,
      })),
      markStale: assign({ stale: true }),
    },
    guards: {
      isEmptyPage: (_, page: ListPage<T>) => page.items.length === 0,
      hasNext: ({ context }) => context.next !== null,
      hasItems: ({ context }) => context.items.length > 0,
      hasLoaded: ({ context }) => context.loaded,
      isLive: ({ context }) => context.refreshMs > 0,
    },
    delays: {
      debounce: LIST_DEBOUNCE_MS,
      refresh: ({ context }) => context.refreshMs,
    },
  }).createMachine({
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
    states: {
      // The first page: the view shows a skeleton.
      loading: {
        tags: 'busy',
        invoke: {
          id: 'fetchPage',
          src: 'fetchPage',
          input: ({ context }) => ({ query: context.query, after: null }),
          onDone: [
            { guard: { type: 'isEmptyPage', params: ({ event }) => event.output }, target: 'empty', actions: { type: 'replaceItems', params: ({ event }) => event.output } },
            { target: 'loaded', actions: { type: 'replaceItems', params: ({ event }) => event.output } },
          ],
          onError: { target: 'failed' },
        },
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
          'list.more': { guard: 'hasNext', target: 'appending' },
          'list.query': { target: 'debouncing', actions: 'assignQuery' },
          'list.reload': { target: 'refreshing' },
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
          // The pages shown stay; "Cargar más" asks for the same page again.
          onError: { target: 'loaded', actions: 'markStale' },
        },
        on: { 'list.query': { target: 'debouncing', actions: 'assignQuery' } },
      },
      // Typing: each keystroke restarts the wait; the rows shown stay until the new first page arrives.
      debouncing: {
        after: { debounce: [{ guard: 'hasLoaded', target: 'refreshing' }, { target: 'loading' }] },
        on: { 'list.query': { target: 'debouncing', reenter: true, actions: 'assignQuery' } },
      },
      // Page 1 again behind the rows shown (new query, live refresh, retry over stale rows).
      refreshing: {
        tags: 'busy',
        invoke: {
          id: 'fetchPage',
          src: 'fetchPage',
          input: ({ context }) => ({ query: context.query, after: null }),
          onDone: [
            { guard: { type: 'isEmptyPage', params: ({ event }) => event.output }, target: 'empty', actions: { type: 'replaceItems', params: ({ event }) => event.output } },
            { target: 'loaded', actions: { type: 'replaceItems', params: ({ event }) => event.output } },
          ],
          onError: [
            { guard: 'hasItems', target: 'loaded', actions: 'markStale' },
            { target: 'empty', actions: 'markStale' },
          ],
        },
        on: { 'list.query': { target: 'debouncing', actions: 'assignQuery' } },
      },
    },
  });
}

export type ListMachine<T, Q> = ReturnType<typeof createListMachine<T, Q>>;
export type ListSnapshot<T, Q> = SnapshotFrom<ListMachine<T, Q>>;

// Selectors: primitives, or context references that change only with their value.
export const selectItems = <T, Q>(s: ListSnapshot<T, Q>): T[] => s.context.items;
export const selectItemCount = <T, Q>(s: ListSnapshot<T, Q>): number => s.context.items.length;
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
/** "Cargar más" is offered. */
export const selectCanLoadMore = <T, Q>(s: ListSnapshot<T, Q>): boolean => s.can({ type: 'list.more' });
