// Generic list loader (SPEC §4): each resource loads once; paged lists (recipient lists) can be reset or
// appended page by page. The fetch is the `fetchPage` actor, provided per use:
//   createResourceMachine<Course>().provide({ actors: { fetchPage: fromPromise(...) } })
// List failures are silent (SPEC §8): no toast, the machine just sits in `failed` until a retry.
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';

export interface PageMeta {
  current_page?: number;
  last_page?: number;
  per_page?: number;
  total?: number;
  next_cursor?: string | null;
}

export interface PageLinks {
  next?: string | null;
  prev?: string | null;
}

/** A Laravel-style page; unpaged lists answer with `meta: {}` and `links: {}`. */
export interface Page<T> {
  data: T[];
  meta: PageMeta;
  links: PageLinks;
}

export interface FetchPageInput {
  /** null for the first page; otherwise what `nextCursorOf` read from the previous page. */
  cursor: string | null;
}

export interface ResourceContext<T> {
  items: T[];
  /** meta and links of the last page received; null before the first one. */
  meta: PageMeta | null;
  links: PageLinks | null;
}

export type ResourceEvent =
  | { type: 'resource.load' }
  | { type: 'resource.reload' }
  | { type: 'resource.reset' }
  | { type: 'resource.append' }
  | { type: 'resource.retry' };

/** The next page's cursor: a cursor-paginated `meta.next_cursor`, else the `links.next` URL. */
export function nextCursorOf(meta: PageMeta | null, links: PageLinks | null): string | null {
  return meta?.next_cursor ?? links?.next ?? null;
}

export function createResourceMachine<T>() {
  return setup({
    types: {
      context: {} as ResourceContext<T>,
      events: {} as ResourceEvent,
    },
    actors: {
      // Placeholder until provided: a resource without a fetch is a wiring mistake, so it fails loudly.
      fetchPage: fromPromise<Page<T>, FetchPageInput>(async () => {
        throw new Error('resource: provide a fetchPage actor');
      }),
    },
    actions: {
      replaceItems: assign((_, page: Page<T>) => ({ items: page.data, meta: page.meta, links: page.links })),
      appendItems: assign(({ context }, page: Page<T>) => ({
        items: [...context.items, ...page.data],
        meta: page.meta,
        links: page.links,
      })),
      clearItems: assign({ items: [], meta: null, links: null }),
    },
    guards: {
      hasNextPage: ({ context }) => nextCursorOf(context.meta, context.links) !== null,
      hasLoadedPage: ({ context }) => context.links !== null,
    },
  }).createMachine({
    id: 'resource',
    initial: 'idle',
    context: { items: [], meta: null, links: null },
    on: {
      'resource.reset': { target: '.idle', actions: 'clearItems' },
    },
    states: {
      idle: {
        on: {
          'resource.load': { target: 'loading' },
          'resource.reload': { target: 'loading' },
        },
      },
      loading: {
        invoke: {
          id: 'fetchPage',
          src: 'fetchPage',
          input: { cursor: null },
          onDone: { target: 'loaded', actions: { type: 'replaceItems', params: ({ event }) => event.output } },
          onError: { target: 'failed' },
        },
      },
      loaded: {
        on: {
          // `resource.load` is deliberately not handled: a resource loads once.
          'resource.reload': { target: 'loading', actions: 'clearItems' },
          'resource.append': { guard: 'hasNextPage', target: 'appending' },
        },
      },
      appending: {
        invoke: {
          id: 'fetchPage',
          src: 'fetchPage',
          input: ({ context }) => ({ cursor: nextCursorOf(context.meta, context.links) }),
          onDone: { target: 'loaded', actions: { type: 'appendItems', params: ({ event }) => event.output } },
          onError: { target: 'failed' },
        },
        on: { 'resource.reload': { target: 'loading', actions: 'clearItems' } },
      },
      failed: {
        on: {
          // After a failed append the pages already shown stay; the retry asks for the next page again.
          'resource.retry': [{ guard: 'hasLoadedPage', target: 'appending' }, { target: 'loading' }],
          'resource.reload': { target: 'loading', actions: 'clearItems' },
        },
      },
    },
  });
}

/** The untyped-item instance, for tests and for views that only read flags. */
export const resourceMachine = createResourceMachine<unknown>();

export type ResourceMachine<T> = ReturnType<typeof createResourceMachine<T>>;
export type ResourceSnapshot<T> = SnapshotFrom<ResourceMachine<T>>;

export const selectItems = <T>(snapshot: ResourceSnapshot<T>): T[] => snapshot.context.items;
export const selectItemCount = <T>(snapshot: ResourceSnapshot<T>): number => snapshot.context.items.length;
export const selectTotal = <T>(snapshot: ResourceSnapshot<T>): number | null => snapshot.context.meta?.total ?? null;
export const selectIsLoading = <T>(snapshot: ResourceSnapshot<T>): boolean => snapshot.matches('loading');
export const selectIsAppending = <T>(snapshot: ResourceSnapshot<T>): boolean => snapshot.matches('appending');
export const selectIsLoaded = <T>(snapshot: ResourceSnapshot<T>): boolean => snapshot.matches('loaded');
export const selectHasFailed = <T>(snapshot: ResourceSnapshot<T>): boolean => snapshot.matches('failed');
export const selectHasNextPage = <T>(snapshot: ResourceSnapshot<T>): boolean =>
  nextCursorOf(snapshot.context.meta, snapshot.context.links) !== null;
