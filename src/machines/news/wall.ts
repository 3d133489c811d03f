// /mural/news (the wall as readers see it) and /mural (the managers' desk). Both are the list
// pattern (list/list.ts, hosted as the child `list`) over the wall's cursor pages, pinned first then newest,
// filtered by category and searched on the server (case and accents ignored; the list debounces typing).
// The categories of the filter load beside it (a failure only hides the filter until Reintentar).
//
// The desk (`manage`, a manager of the school, SPEC §6) lists every status (`status=all`) and acts on one
// post at a time: Despublicar, Publicar de nuevo, Eliminar (to the trash, with "Deshacer" in its toast:
// the toast's button reaches this page through the app root as `news.restore`). What is offered for a post
// is what `state.can(...)` allows: the post's status and the server's `editable` decide. A change answered
// by the server replaces the row where it is (`list.update`); a post sent to the trash leaves at once
// (`list.remove`); one restored brings page 1 again (it goes back to its place).
//
// The search and the category live in the address (news/wall-rules.ts; replaced, not pushed, like the staff
// activity page): the wall opens with what its address says, writes each choice back with `navigate`, and an
// address changed by the browser (Back, a link) comes back as `wall.address` and is shown.
import { assertEvent, assign, emit, sendTo, setup, stateIn, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { NewsCategory, NewsPost } from '../../../shared/news-contract';
import type { MessageKey } from '../../i18n';
import {
  fetchNewsCategories,
  fetchWallPage,
  publishPost,
  restorePost,
  trashPost,
  unpublishPost,
  type WallQuery,
} from '../../services/news/wall';
import type { Effect } from '../app/effects';
import { listOf, listChild, listHostActions } from '../list/list';
import { sameWallAddress, wallAddress, wallAddressOf } from './wall-rules';

const wallListMachine = listOf<NewsPost, WallQuery>(fetchWallPage, (post) => post.id);
export type WallListActor = ActorRefFrom<typeof wallListMachine>;
type WallListSnapshot = SnapshotFrom<typeof wallListMachine>;

export interface WallInput {
  /** The desk: every status and the managers' actions. */
  manage: boolean;
  /** The page's path (/mural or /mural/news) and the query it opened with (`?q=…&category=…`). */
  path: string;
  search: string;
}

export interface WallContext {
  manage: boolean;
  path: string;
  /** The address's query as last read (its other parameters, such as `newsfeed`, are written back as they were). */
  search: string;
  /** The category filter; null: every category. */
  category: number | null;
  q: string;
  /** The rows the list shows (its last snapshot's array). */
  items: NewsPost[];
  categories: NewsCategory[];
  /** The post an action runs on. */
  target: number | null;
}

type WallEvent =
  | { type: 'wall.search'; q: string }
  | { type: 'wall.filter'; category: number | null }
  /** "Limpiar búsqueda": no search and every category. */
  | { type: 'wall.clear' }
  /** The address changed without a choice here (Back, Forward, a link). */
  | { type: 'wall.address'; search: string }
  | { type: 'wall.loadMore' }
  | { type: 'wall.retry' }
  | { type: 'news.unpublish'; id: number }
  | { type: 'news.publish'; id: number }
  | { type: 'news.delete'; id: number }
  /** "Deshacer" in the toast of Eliminar (through the app root). */
  | { type: 'news.restore'; id: number }
  | { type: 'xstate.snapshot.list'; snapshot: WallListSnapshot };

const NO_CATEGORIES: NewsCategory[] = [];

const queryOf = (context: WallContext): WallQuery => ({ category: context.category, q: context.q, all: context.manage });

const postOf = (context: WallContext, id: number): NewsPost | undefined => context.items.find((post) => post.id === id);
const idOf = (event: WallEvent): number => {
  if (!('id' in event)) throw new Error(`news-wall: ${event.type} names no post`);
  return event.id;
};

/** What a manager may do with a post in its status (the server's `editable` says whether it is theirs to touch). */
export function postActions(post: Pick<NewsPost, 'status' | 'editable'>): { unpublish: boolean; publish: boolean; remove: boolean } {
  const editable = post.editable && post.status !== 'deleted';
  return {
    unpublish: editable && (post.status === 'published' || post.status === 'scheduled'),
    // The server puts an ended post back too (its passed end date dropped).
    publish: editable && (post.status === 'unpublished' || post.status === 'ended'),
    remove: editable,
  };
}

const wallSetup = setup({
  types: {
    input: {} as WallInput,
    context: {} as WallContext,
    events: {} as WallEvent,
    emitted: {} as Effect,
    children: {} as { list: 'list' },
  },
  actors: { list: wallListMachine, fetchNewsCategories, unpublishPost, publishPost, trashPost, restorePost },
  actions: {
    ...listHostActions<WallContext, WallEvent, WallQuery>(queryOf),
    /** Its rows, as the list's last snapshot had them (the same array). */
    assignItems: assign({
      items: ({ event }) => {
        assertEvent(event, 'xstate.snapshot.list');
        return event.snapshot.context.items;
      },
    }),
    /** The list crashed: its rows go with it. */
    forgetItems: assign({ items: [] }),
    assignSearch: assign(({ event }) => {
      assertEvent(event, 'wall.search');
      return { q: event.q };
    }),
    assignCategory: assign(({ event }) => {
      assertEvent(event, 'wall.filter');
      return { category: event.category };
    }),
    clearQuery: assign({ q: '', category: null }),
    assignAddress: assign(({ event }) => {
      assertEvent(event, 'wall.address');
      return { search: event.search, ...wallAddressOf(event.search) };
    }),
    /** The choice goes in the address, replacing the entry. */
    showInAddress: emit(({ context }) => ({
      type: 'navigate' as const,
      to: wallAddress(context.path, context.search, context),
      replace: true,
    })),
    assignCategories: assign((_, categories: NewsCategory[]) => ({ categories })),
    assignTarget: assign(({ event }) => ({ target: idOf(event) })),
    clearTarget: assign({ target: null }),
    updateRow: sendTo('list', (_, post: NewsPost) => ({ type: 'list.update' as const, items: [post] })),
    removeRow: sendTo('list', (_, post: NewsPost) => ({ type: 'list.remove' as const, keys: [post.id] })),
    toastUnpublished: emit({ type: 'toast', kind: 'success', key: 'news.toast.unpublished' }),
    toastPublished: emit({ type: 'toast', kind: 'success', key: 'news.toast.published' }),
    toastRestored: emit({ type: 'toast', kind: 'success', key: 'news.toast.restored' }),
    toastTrashed: emit((_, post: NewsPost) => ({
      type: 'toast' as const,
      kind: 'success' as const,
      key: 'news.toast.trashed' as const,
      params: { title: post.title },
      action: { label: 'toast.undo' as const, event: { type: 'news.restore' as const, id: post.id } },
    })),
    toastFailed: emit((_, params: { key: MessageKey }) => ({ type: 'toast' as const, kind: 'error' as const, key: params.key })),
  },
  guards: {
    /** The list is there to tell (an answer may arrive after it crashed: Reintentar then loads afresh). */
    hasList: stateIn({ posts: 'shown' }),
    /** Nothing to clear: the search is empty and every category is shown. */
    hasQuery: ({ context }) => context.q !== '' || context.category !== null,
    isOtherAddress: ({ context, event }) => {
      assertEvent(event, 'wall.address');
      return !sameWallAddress(wallAddressOf(event.search), context);
    },
    isCategoryChange: ({ context, event }) => {
      assertEvent(event, 'wall.filter');
      return event.category !== context.category;
    },
    canUnpublish: ({ context, event }) => {
      const post = context.manage ? postOf(context, idOf(event)) : undefined;
      return post !== undefined && postActions(post).unpublish;
    },
    canPublish: ({ context, event }) => {
      const post = context.manage ? postOf(context, idOf(event)) : undefined;
      return post !== undefined && postActions(post).publish;
    },
    canDelete: ({ context, event }) => {
      const post = context.manage ? postOf(context, idOf(event)) : undefined;
      return post !== undefined && postActions(post).remove;
    },
    /** "Deshacer": a manager's desk, for a post it no longer shows. */
    canRestore: ({ context, event }) => context.manage && postOf(context, idOf(event)) === undefined,
  },
});

/** Despublicar or Publicar de nuevo: the answer replaces the row while the list is there to tell. */
const changing = (src: 'unpublishPost' | 'publishPost', done: 'toastUnpublished' | 'toastPublished', failed: MessageKey) =>
  wallSetup.createStateConfig({
    tags: 'busy',
    invoke: {
      id: src,
      src,
      input: ({ context }) => ({ id: context.target ?? 0 }),
      onDone: [
        { guard: 'hasList', target: 'idle', actions: [{ type: 'updateRow', params: ({ event }) => event.output }, done, 'clearTarget'] },
        { target: 'idle', actions: [done, 'clearTarget'] },
      ],
      onError: { target: 'idle', actions: [{ type: 'toastFailed', params: { key: failed } }, 'clearTarget'] },
    },
  });

export const newsWallMachine = wallSetup.createMachine({
  id: 'newsWall',
  type: 'parallel',
  context: ({ input }) => ({
    manage: input.manage,
    path: input.path,
    search: input.search,
    ...wallAddressOf(input.search),
    items: [],
    categories: NO_CATEGORIES,
    target: null,
  }),
  states: {
    posts: {
      initial: 'shown',
      states: {
        shown: {
          invoke: { ...listChild(queryOf), onError: { target: 'crashed', actions: 'forgetItems' } },
          on: {
            'wall.search': { actions: ['assignSearch', 'askQuery', 'showInAddress'] },
            'wall.filter': { guard: 'isCategoryChange', actions: ['assignCategory', 'askQuery', 'showInAddress'] },
            'wall.clear': { guard: 'hasQuery', actions: ['clearQuery', 'askQuery', 'showInAddress'] },
            'wall.address': { guard: 'isOtherAddress', actions: ['assignAddress', 'askQuery'] },
            'wall.loadMore': { actions: 'askMore' },
            'wall.retry': { actions: 'askReload' },
          },
        },
        // The list broke (a bug, not a failed request): Reintentar opens it again on the same query.
        crashed: {
          on: { 'wall.retry': { target: 'shown' } },
        },
      },
    },
    categories: {
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            id: 'fetchNewsCategories',
            src: 'fetchNewsCategories',
            onDone: { target: 'loaded', actions: { type: 'assignCategories', params: ({ event }) => event.output } },
            // The wall works without its filter; Reintentar asks again.
            onError: { target: 'failed' },
          },
        },
        loaded: {},
        failed: {
          on: { 'wall.retry': { target: 'loading' } },
        },
      },
    },
    // The desk's actions, one at a time (each button is busy meanwhile; the others are not offered).
    action: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'news.unpublish': { guard: 'canUnpublish', target: 'unpublishing', actions: 'assignTarget' },
            'news.publish': { guard: 'canPublish', target: 'publishing', actions: 'assignTarget' },
            'news.delete': { guard: 'canDelete', target: 'trashing', actions: 'assignTarget' },
            'news.restore': { guard: 'canRestore', target: 'restoring', actions: 'assignTarget' },
          },
        },
        // One action on one post (`target`): busy while its call runs; the answer replaces or removes the row
        // while the list is there to tell (else only its toast), a failure has its toast; idle again either way.
        unpublishing: changing('unpublishPost', 'toastUnpublished', 'news.toast.unpublishFailed'),
        publishing: changing('publishPost', 'toastPublished', 'news.toast.publishFailed'),
        trashing: {
          tags: 'busy',
          invoke: {
            id: 'trashPost',
            src: 'trashPost',
            input: ({ context }) => ({ id: context.target ?? 0 }),
            onDone: [
              {
                guard: 'hasList',
                target: 'idle',
                actions: [
                  { type: 'removeRow', params: ({ event }) => event.output },
                  { type: 'toastTrashed', params: ({ event }) => event.output },
                  'clearTarget',
                ],
              },
              { target: 'idle', actions: [{ type: 'toastTrashed', params: ({ event }) => event.output }, 'clearTarget'] },
            ],
            onError: { target: 'idle', actions: [{ type: 'toastFailed', params: { key: 'news.toast.trashFailed' } }, 'clearTarget'] },
          },
        },
        restoring: {
          tags: 'busy',
          invoke: {
            id: 'restorePost',
            src: 'restorePost',
            input: ({ context }) => ({ id: context.target ?? 0 }),
            onDone: [
              { guard: 'hasList', target: 'idle', actions: ['askReload', 'toastRestored', 'clearTarget'] },
              { target: 'idle', actions: ['toastRestored', 'clearTarget'] },
            ],
            onError: { target: 'idle', actions: [{ type: 'toastFailed', params: { key: 'news.toast.restoreFailed' } }, 'clearTarget'] },
          },
        },
      },
    },
  },
});

export type NewsWallActor = ActorRefFrom<typeof newsWallMachine>;
export type NewsWallSnapshot = SnapshotFrom<typeof newsWallMachine>;

// Selectors: primitives, or context references that change only with their value.
export const selectWallList = (s: NewsWallSnapshot): WallListActor | undefined => s.children.list;
export const selectWallItems = (s: NewsWallSnapshot): NewsPost[] => s.context.items;
export const selectWallSearch = (s: NewsWallSnapshot): string => s.context.q;
export const selectWallCategory = (s: NewsWallSnapshot): number | null => s.context.category;
export const selectHasQuery = (s: NewsWallSnapshot): boolean => s.context.q.trim() !== '' || s.context.category !== null;
export const selectCategories = (s: NewsWallSnapshot): NewsCategory[] => s.context.categories;
export const selectCategoriesFailed = (s: NewsWallSnapshot): boolean => s.matches({ categories: 'failed' });
export const selectHasCrashed = (s: NewsWallSnapshot): boolean => s.matches({ posts: 'crashed' });
/** The post an action runs on now (its buttons are busy), or null. */
export const selectActingOn = (s: NewsWallSnapshot): number | null => (s.hasTag('busy') ? s.context.target : null);
export const selectWallCount = (s: NewsWallSnapshot): number => s.context.items.length;
