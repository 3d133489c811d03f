// One mail folder's list (SPEC §1, §2 /inbox /sent /scheduled /draft and the trash): first page, next
// pages by cursor, debounced search, multi-select and the actions on the selection (delete, restore,
// purge after a confirmation). List failures are silent (SPEC §8): `failed` waits for `folder.retry`.
// Mutation results are toasts plus the SPEC §7 counts event (`counts.changed`), all emitted.
import { assertEvent, assign, emit, setup, type SnapshotFrom } from 'xstate';
import { canTransition, type MessageAction } from '../../shared/message-rules';
import {
  deleteMessages,
  fetchFolderPage,
  purgeMessages,
  restoreMessages,
  watchFolderProgress,
  type FolderProgressEvent,
} from '../services/messages';
import type { MessageSummary, Paged } from '../../shared/messages-contract';
import type { CountsChangedEvent, ToastEvent } from './effects';
import type { MessageKey } from '../i18n';
import type { Folder } from '../../shared/codes';

/** Quiet time after the last keystroke before a search reloads page 1. */
export const SEARCH_DEBOUNCE_MS = 250;

export interface FolderInput {
  folder: Folder;
}

export interface FolderContext {
  folder: Folder;
  /** The search box's text, exactly as typed; kept through reloads, pages and failures. */
  q: string;
  items: MessageSummary[];
  /** `meta.next_cursor` of the last page; null when there is none (or nothing loaded yet). */
  nextCursor: string | null;
  /** Total of the folder (with `q`) from the last page; null before the first one. */
  total: number | null;
  /** Selected message ids, in selection order. Replaced (new array) only when it changes. */
  selection: number[];
}

export type FolderEvent =
  | { type: 'folder.open'; folder: Folder }
  | { type: 'folder.search'; q: string }
  | { type: 'folder.reload' }
  | { type: 'folder.retry' }
  | { type: 'folder.loadMore' }
  | { type: 'folder.toggleSelect'; id: number }
  | { type: 'folder.selectAll' }
  | { type: 'folder.clearSelection' }
  | { type: 'folder.delete' }
  | { type: 'folder.restore' }
  | { type: 'folder.purge' }
  | { type: 'folder.confirm' }
  | { type: 'folder.cancel' }
  | FolderProgressEvent;

export type FolderEmitted = ToastEvent | CountsChangedEvent;

const EMPTY: number[] = [];

const freshContext = (folder: Folder): FolderContext => ({
  folder,
  q: '',
  items: [],
  nextCursor: null,
  total: null,
  selection: EMPTY,
});

export const folderMachine = setup({
  types: {
    input: {} as FolderInput,
    context: {} as FolderContext,
    events: {} as FolderEvent,
    emitted: {} as FolderEmitted,
  },
  actors: { fetchFolderPage, deleteMessages, restoreMessages, purgeMessages, watchFolderProgress },
  actions: {
    openFolder: assign(({ event }) => {
      assertEvent(event, 'folder.open');
      return freshContext(event.folder);
    }),
    assignQuery: assign({
      q: ({ event }) => {
        assertEvent(event, 'folder.search');
        return event.q;
      },
    }),
    /** Before page 1 is asked for again: nothing of the old list stays selectable. */
    startOver: assign({ items: [], nextCursor: null, total: null, selection: EMPTY }),
    replaceItems: assign((_, page: Paged<MessageSummary>) => ({
      items: page.data,
      nextCursor: page.meta.next_cursor,
      total: page.meta.total,
    })),
    appendItems: assign(({ context }, page: Paged<MessageSummary>) => ({
      items: [...context.items, ...page.data],
      nextCursor: page.meta.next_cursor,
      total: page.meta.total,
    })),
    /** Fresher delivery progress of listed messages (the sent folder while they go out). */
    mergeProgress: assign({
      items: ({ context, event }) => {
        assertEvent(event, 'folder.progress');
        return context.items.map((item) => (event.progress[item.id] ? { ...item, progress: event.progress[item.id]! } : item));
      },
    }),
    toggleSelect: assign({
      selection: ({ context, event }) => {
        assertEvent(event, 'folder.toggleSelect');
        return context.selection.includes(event.id)
          ? context.selection.filter((id) => id !== event.id)
          : [...context.selection, event.id];
      },
    }),
    selectAll: assign({ selection: ({ context }) => context.items.map((item) => item.id) }),
    clearSelection: assign({ selection: EMPTY }),
    /** The mutation succeeded: the selected rows leave this folder. */
    removeSelected: assign(({ context }) => {
      const gone = new Set(context.selection);
      return {
        items: context.items.filter((item) => !gone.has(item.id)),
        total: context.total === null ? null : Math.max(0, context.total - gone.size),
        selection: EMPTY,
      };
    }),
    /** "Mensaje eliminado" or "3 mensajes eliminados": the text's plural follows `count`. */
    toastDone: emit((_, params: { key: MessageKey; count: number }) => ({
      type: 'toast' as const,
      kind: 'success' as const,
      key: params.key,
      params: { count: params.count },
    })),
    toastRequestError: emit({ type: 'toast', kind: 'error', key: 'error.request' }),
    /** SPEC §7: the folder counters reload. */
    announceCounts: emit({ type: 'counts.changed' }),
  },
  guards: {
    isOtherFolder: ({ context, event }) => {
      assertEvent(event, 'folder.open');
      return event.folder !== context.folder;
    },
    isEmptyPage: (_, page: Paged<MessageSummary>) => page.data.length === 0,
    hasNextPage: ({ context }) => context.nextCursor !== null,
    hasItems: ({ context }) => context.items.length > 0,
    isListed: ({ context, event }) => {
      assertEvent(event, 'folder.toggleSelect');
      return context.items.some((item) => item.id === event.id);
    },
    /** Every selected message allows the action (message-rules.ts); nothing selected allows nothing. */
    canActOnSelection: ({ context }, params: { action: MessageAction }) => {
      if (context.selection.length === 0) return false;
      const kinds = new Map(context.items.map((item) => [item.id, item.kind]));
      return context.selection.every((id) => {
        const kind = kinds.get(id);
        return kind !== undefined && canTransition(kind, params.action);
      });
    },
    removesEverything: ({ context }) => context.items.every((item) => context.selection.includes(item.id)),
  },
  delays: {
    searchDebounce: SEARCH_DEBOUNCE_MS,
  },
}).createMachine({
  id: 'folder',
  initial: 'loading',
  context: ({ input }) => freshContext(input.folder),
  on: {
    // Another folder is another list; opening the same folder again keeps what is shown.
    'folder.open': { guard: 'isOtherFolder', target: '.loading', actions: 'openFolder' },
  },
  states: {
    loading: {
      invoke: {
        id: 'fetchFolderPage',
        src: 'fetchFolderPage',
        input: ({ context }) => ({ folder: context.folder, q: context.q, cursor: null }),
        onDone: [
          { guard: { type: 'isEmptyPage', params: ({ event }) => event.output }, target: 'empty', actions: { type: 'replaceItems', params: ({ event }) => event.output } },
          { target: 'loaded', actions: { type: 'replaceItems', params: ({ event }) => event.output } },
        ],
        onError: { target: 'failed' },
      },
      on: {
        'folder.search': { target: 'searching', actions: 'assignQuery' },
      },
    },
    loaded: {
      // Sent messages still going out keep their row's progress fresh while the list is shown.
      invoke: {
        id: 'watchFolderProgress',
        src: 'watchFolderProgress',
        input: ({ context }) => ({
          folder: context.folder,
          q: context.q,
          ids: context.items.filter((item) => item.progress?.state === 'sending').map((item) => item.id),
        }),
        // Polling failures are silent and retried by the poller itself; it never ends in error.
        onError: {},
      },
      on: {
        'folder.progress': { actions: 'mergeProgress' },
        'folder.search': { target: 'searching', actions: 'assignQuery' },
        'folder.reload': { target: 'loading', actions: 'startOver' },
        'folder.loadMore': { guard: 'hasNextPage', target: 'paging' },
        'folder.toggleSelect': { guard: 'isListed', actions: 'toggleSelect' },
        'folder.selectAll': { actions: 'selectAll' },
        'folder.clearSelection': { actions: 'clearSelection' },
        'folder.delete': { guard: { type: 'canActOnSelection', params: { action: 'delete' } }, target: 'mutating.deleting' },
        'folder.restore': { guard: { type: 'canActOnSelection', params: { action: 'restore' } }, target: 'mutating.restoring' },
        'folder.purge': { guard: { type: 'canActOnSelection', params: { action: 'purge' } }, target: 'confirmingPurge' },
      },
    },
    empty: {
      on: {
        'folder.search': { target: 'searching', actions: 'assignQuery' },
        'folder.reload': { target: 'loading', actions: 'startOver' },
      },
    },
    failed: {
      on: {
        // After a failed next page the pages already shown stay; the retry asks for that page again.
        'folder.retry': [{ guard: 'hasItems', target: 'paging' }, { target: 'loading' }],
        'folder.reload': { target: 'loading', actions: 'startOver' },
        'folder.search': { target: 'searching', actions: 'assignQuery' },
      },
    },
    paging: {
      invoke: {
        id: 'fetchFolderPage',
        src: 'fetchFolderPage',
        input: ({ context }) => ({ folder: context.folder, q: context.q, cursor: context.nextCursor }),
        onDone: { target: 'loaded', actions: { type: 'appendItems', params: ({ event }) => event.output } },
        onError: { target: 'failed' },
      },
      on: {
        'folder.search': { target: 'searching', actions: 'assignQuery' },
        'folder.reload': { target: 'loading', actions: 'startOver' },
      },
    },
    searching: {
      // Each keystroke re-enters, restarting the debounce; the list shown stays until page 1 arrives.
      after: { searchDebounce: { target: 'loading', actions: 'startOver' } },
      on: {
        'folder.search': { target: 'searching', reenter: true, actions: 'assignQuery' },
      },
    },
    confirmingPurge: {
      on: {
        'folder.confirm': { target: 'mutating.purging' },
        'folder.cancel': { target: 'loaded' },
      },
    },
    // The action on the selection runs; which one is the child state. Leaving (another folder) aborts it.
    mutating: {
      initial: 'deleting',
      states: {
        deleting: {
          invoke: {
            id: 'deleteMessages',
            src: 'deleteMessages',
            input: ({ context }) => ({ ids: context.selection }),
            onDone: [
              {
                guard: 'removesEverything',
                target: '#folder.loading',
                actions: [{ type: 'toastDone', params: ({ context }) => ({ key: 'messages.deleted', count: context.selection.length }) }, 'announceCounts', 'startOver'],
              },
              {
                target: '#folder.loaded',
                actions: [{ type: 'toastDone', params: ({ context }) => ({ key: 'messages.deleted', count: context.selection.length }) }, 'announceCounts', 'removeSelected'],
              },
            ],
            onError: { target: '#folder.loaded', actions: 'toastRequestError' },
          },
        },
        restoring: {
          invoke: {
            id: 'restoreMessages',
            src: 'restoreMessages',
            input: ({ context }) => ({ ids: context.selection }),
            onDone: [
              {
                guard: 'removesEverything',
                target: '#folder.loading',
                actions: [{ type: 'toastDone', params: ({ context }) => ({ key: 'messages.restored', count: context.selection.length }) }, 'announceCounts', 'startOver'],
              },
              {
                target: '#folder.loaded',
                actions: [{ type: 'toastDone', params: ({ context }) => ({ key: 'messages.restored', count: context.selection.length }) }, 'announceCounts', 'removeSelected'],
              },
            ],
            onError: { target: '#folder.loaded', actions: 'toastRequestError' },
          },
        },
        purging: {
          invoke: {
            id: 'purgeMessages',
            src: 'purgeMessages',
            input: ({ context }) => ({ ids: context.selection }),
            onDone: [
              {
                guard: 'removesEverything',
                target: '#folder.loading',
                actions: [{ type: 'toastDone', params: ({ context }) => ({ key: 'messages.purged', count: context.selection.length }) }, 'announceCounts', 'startOver'],
              },
              {
                target: '#folder.loaded',
                actions: [{ type: 'toastDone', params: ({ context }) => ({ key: 'messages.purged', count: context.selection.length }) }, 'announceCounts', 'removeSelected'],
              },
            ],
            onError: { target: '#folder.loaded', actions: 'toastRequestError' },
          },
        },
      },
    },
  },
});

export type FolderMachine = typeof folderMachine;
export type FolderSnapshot = SnapshotFrom<typeof folderMachine>;

// Selectors: primitives, or arrays that keep their reference until the context key changes.
export const selectFolder = (snapshot: FolderSnapshot): Folder => snapshot.context.folder;
export const selectQuery = (snapshot: FolderSnapshot): string => snapshot.context.q;
export const selectItems = (snapshot: FolderSnapshot): MessageSummary[] => snapshot.context.items;
export const selectItemCount = (snapshot: FolderSnapshot): number => snapshot.context.items.length;
export const selectTotal = (snapshot: FolderSnapshot): number | null => snapshot.context.total;
export const selectSelectedIds = (snapshot: FolderSnapshot): number[] => snapshot.context.selection;
export const selectSelectedCount = (snapshot: FolderSnapshot): number => snapshot.context.selection.length;
export const selectIsSelected = (id: number) => (snapshot: FolderSnapshot): boolean => snapshot.context.selection.includes(id);
export const selectAllSelected = (snapshot: FolderSnapshot): boolean =>
  snapshot.context.items.length > 0 && snapshot.context.selection.length === snapshot.context.items.length;
export const selectHasNextPage = (snapshot: FolderSnapshot): boolean => snapshot.context.nextCursor !== null;
export const selectIsLoading = (snapshot: FolderSnapshot): boolean => snapshot.matches('loading');
export const selectIsSearching = (snapshot: FolderSnapshot): boolean => snapshot.matches('searching');
export const selectIsPaging = (snapshot: FolderSnapshot): boolean => snapshot.matches('paging');
export const selectIsLoaded = (snapshot: FolderSnapshot): boolean => snapshot.matches('loaded');
export const selectIsEmpty = (snapshot: FolderSnapshot): boolean => snapshot.matches('empty');
export const selectHasFailed = (snapshot: FolderSnapshot): boolean => snapshot.matches('failed');
export const selectIsConfirmingPurge = (snapshot: FolderSnapshot): boolean => snapshot.matches('confirmingPurge');
export const selectIsMutating = (snapshot: FolderSnapshot): boolean => snapshot.matches('mutating');
export const selectCanDelete = (snapshot: FolderSnapshot): boolean => snapshot.can({ type: 'folder.delete' });
export const selectCanRestore = (snapshot: FolderSnapshot): boolean => snapshot.can({ type: 'folder.restore' });
export const selectCanPurge = (snapshot: FolderSnapshot): boolean => snapshot.can({ type: 'folder.purge' });
