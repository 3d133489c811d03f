// One mail folder (SPEC §1, §2 /inbox /sent /scheduled /draft and the trash). Loading, search, next pages
// and their silent failures are the list pattern's (list/list.ts), hosted as the child `list` and told what to
// do; the folder keeps what only a mail folder has: the selection and the actions on it (delete, restore,
// purge after a confirmation) and the live progress of sent rows still going out. Mutation results are
// toasts plus the SPEC §7 counts event (`counts.changed`), all emitted.
//
// The folder mirrors the list's rows (the same array, from each snapshot): its guards, which decide what
// may be done to the selection, see only its context. What the list is doing (first load, failure, more
// pages) is never judged here, so the view reads that from the child itself (`selectList`).
import { assertEvent, assign, emit, sendTo, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { canTransition, type MessageAction } from '../../../shared/message-rules';
import {
  deleteMessages,
  fetchFolderListPage,
  purgeMessages,
  watchFolderProgress,
  type FolderProgressEvent,
  type FolderQuery,
} from '../../services/messages/messages';
import { restoreMessages } from '../../services/messages/folder-info';
import type { MessageSummary } from '../../../shared/messages-contract';
import type { CountsChangedEvent, FocusEvent, NavigateEvent, ToastEvent } from '../app/effects';
import { listOf } from '../list/list';
import type { MessagesRestoredEvent } from './undo';
import type { MessageKey } from '../../i18n';
import type { Folder } from '../../../shared/codes';

/** A folder's rows: cursor pages of the folder with the search text, keyed by message id. */
export const folderListMachine = listOf<MessageSummary, FolderQuery>(fetchFolderListPage, (message) => message.id);

export type FolderListActor = ActorRefFrom<typeof folderListMachine>;
type FolderListSnapshot = SnapshotFrom<typeof folderListMachine>;

export interface FolderInput {
  folder: Folder;
  /** The search the address carries (`/inbox?q=reunión`): Back to a searched folder finds it searched. */
  q?: string;
}

export interface FolderContext {
  folder: Folder;
  /** The search box's text, exactly as typed; the list's query is `{ folder, q }`. */
  q: string;
  /** The list's rows as its last snapshot had them (the same array, so selectors keep their reference). */
  items: MessageSummary[];
  /** Selected message ids, in selection order. Replaced (new array) only when it changes. */
  selection: number[];
}

export type FolderEvent =
  | { type: 'folder.search'; q: string }
  /** The address's search changed without typing (Back, Forward, a link to the bare folder). */
  | { type: 'folder.address'; q: string }
  | { type: 'folder.loadMore' }
  /** Reintentar, after a failed load of the list (or its crash). */
  | { type: 'folder.retry' }
  | { type: 'folder.toggleSelect'; id: number }
  | { type: 'folder.selectAll' }
  | { type: 'folder.clearSelection' }
  | { type: 'folder.delete' }
  | { type: 'folder.restore' }
  | { type: 'folder.purge' }
  | { type: 'folder.confirm' }
  | { type: 'folder.cancel' }
  | { type: 'xstate.snapshot.list'; snapshot: FolderListSnapshot }
  | FolderProgressEvent
  /** From the app root: messages were restored (undo); the list may have them again. */
  | MessagesRestoredEvent;

export type FolderEmitted = ToastEvent | CountsChangedEvent | FocusEvent | NavigateEvent;

/** A folder's address with its search: `/inbox`, `/inbox?q=reuni%C3%B3n`. */
const folderAddress = (folder: Folder, q: string): string => (q ? `/${folder}?q=${encodeURIComponent(q)}` : `/${folder}`);

/** Where a row opens: a draft straight in compose, ready to edit; anything else in the reading view. */
export const messageHref = (folder: Folder, message: Pick<MessageSummary, 'id' | 'kind'>): string =>
  message.kind === 'draft' ? `/new?draft=${message.id}` : `/${folder}/message/${message.id}`;

/** The toolbar's "Eliminar definitivamente", where focus returns when the purge is not confirmed. */
export const FOLDER_PURGE_BUTTON_ID = 'folder-purge';

const NO_IDS: number[] = [];
const NO_ROWS: MessageSummary[] = [];

/** Listed messages whose deliveries are still going out (the sent folder's "Enviando N %"). */
const inFlight = (items: MessageSummary[]): number[] => items.filter((item) => item.progress?.state === 'sending').map((item) => item.id);

const listedItems = (event: FolderEvent): MessageSummary[] => {
  assertEvent(event, 'xstate.snapshot.list');
  return event.snapshot.context.items;
};

/**
 * One action on the selection: when it succeeds the rows leave the list at once, with the toast and the
 * counters reloading; when it fails the list and the selection stay as they were. A delete's toast offers
 * "Deshacer" (the app's undo actor puts the rows back; `messages.restored` then reloads this list).
 */
const actOnSelection = (src: 'deleteMessages' | 'restoreMessages' | 'purgeMessages', key: MessageKey, undoable = false) => ({
  invoke: {
    id: src,
    src,
    input: ({ context }: { context: FolderContext }) => ({ ids: context.selection }),
    onDone: {
      target: '#folder.shown.idle',
      actions: [{ type: 'toastDone', params: { key, undoable } }, 'announceCounts', 'removeSelected', 'clearSelection'] as const,
    },
    onError: { target: '#folder.shown.idle', actions: 'toastRequestError' as const },
  },
});

export const folderMachine = setup({
  types: {
    input: {} as FolderInput,
    context: {} as FolderContext,
    events: {} as FolderEvent,
    emitted: {} as FolderEmitted,
    children: {} as { list: 'list' },
  },
  actors: { list: folderListMachine, deleteMessages, restoreMessages, purgeMessages, watchFolderProgress },
  actions: {
    assignItems: assign({ items: ({ event }) => listedItems(event) }),
    forgetItems: assign({ items: NO_ROWS, selection: NO_IDS }),
    /** The selection only names rows still listed (a search or a reload may have replaced them). */
    pruneSelection: assign({
      selection: ({ context }) => {
        const listed = new Set(context.items.map((item) => item.id));
        return context.selection.every((id) => listed.has(id)) ? context.selection : context.selection.filter((id) => listed.has(id));
      },
    }),
    assignQuery: assign({
      q: ({ event }) => {
        assertEvent(event, ['folder.search', 'folder.address']);
        return event.q;
      },
    }),
    askQuery: sendTo('list', ({ context, event }) => {
      assertEvent(event, ['folder.search', 'folder.address']);
      return { type: 'list.query' as const, query: { folder: context.folder, q: event.q } };
    }),
    /** The search goes in the address, replacing the entry (no history step per keystroke). */
    showQueryInAddress: emit(({ context, event }) => {
      assertEvent(event, 'folder.search');
      return { type: 'navigate' as const, to: folderAddress(context.folder, event.q), replace: true };
    }),
    askMore: sendTo('list', { type: 'list.more' }),
    askReload: sendTo('list', { type: 'list.reload' }),
    /** Fresher delivery progress of listed messages, merged into their rows by the list. */
    updateProgress: sendTo('list', ({ context, event }) => {
      assertEvent(event, 'folder.progress');
      const items = context.items
        .filter((item) => event.progress[item.id])
        .map((item) => ({ ...item, progress: event.progress[item.id]! }));
      return { type: 'list.update' as const, items };
    }),
    /** The action succeeded: the selected rows have left this folder, at once. */
    removeSelected: sendTo('list', ({ context }) => ({ type: 'list.remove' as const, keys: context.selection })),
    toggleSelect: assign({
      selection: ({ context, event }) => {
        assertEvent(event, 'folder.toggleSelect');
        return context.selection.includes(event.id) ? context.selection.filter((id) => id !== event.id) : [...context.selection, event.id];
      },
    }),
    selectAll: assign({ selection: ({ context }) => context.items.map((item) => item.id) }),
    clearSelection: assign({ selection: NO_IDS }),
    /** "Mensaje eliminado" or "3 mensajes eliminados": the text's plural follows `count`; "Deshacer" when undoable. */
    toastDone: emit(({ context }, params: { key: MessageKey; undoable: boolean }) => ({
      type: 'toast' as const,
      kind: 'success' as const,
      key: params.key,
      params: { count: context.selection.length },
      ...(params.undoable
        ? { action: { label: 'toast.undo' as const, event: { type: 'undo.restore' as const, ids: context.selection } } }
        : {}),
    })),
    toastRequestError: emit({ type: 'toast', kind: 'error', key: 'error.request' }),
    /** SPEC §7: the folder counters reload. */
    announceCounts: emit({ type: 'counts.changed' }),
    focusPurge: emit({ type: 'focus', target: FOLDER_PURGE_BUTTON_ID }),
  },
  guards: {
    isOtherQuery: ({ context, event }) => {
      assertEvent(event, 'folder.address');
      return event.q !== context.q;
    },
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
    /** Other rows are in flight now (a page arrived, a search, a row finished): the watcher follows them. */
    changesInFlight: ({ context, event }) => {
      const items = listedItems(event);
      return items !== context.items && inFlight(items).join() !== inFlight(context.items).join();
    },
  },
}).createMachine({
  id: 'folder',
  initial: 'shown',
  context: ({ input }) => ({ folder: input.folder, q: input.q ?? '', items: NO_ROWS, selection: NO_IDS }),
  states: {
    shown: {
      // Messages put back elsewhere ("Deshacer" after a delete): this folder may list them again.
      on: { 'messages.restored': { actions: 'askReload' } },
      invoke: {
        id: 'list',
        src: 'list',
        input: ({ context }) => ({ query: { folder: context.folder, q: context.q } }),
        onSnapshot: { actions: 'assignItems' },
        // A bug in the list, not a failed request (those are its own silent states).
        onError: { target: 'crashed', actions: 'forgetItems' },
      },
      initial: 'idle',
      states: {
        idle: {
          entry: 'pruneSelection',
          // Sent messages still going out keep their row's progress fresh while nothing else is asked.
          invoke: {
            id: 'watchFolderProgress',
            src: 'watchFolderProgress',
            input: ({ context }) => ({ folder: context.folder, q: context.q, ids: inFlight(context.items) }),
            // Polling failures are silent and retried by the poller itself; it never ends in error.
            onError: {},
          },
          on: {
            'xstate.snapshot.list': [
              { guard: 'changesInFlight', target: 'idle', reenter: true, actions: 'assignItems' },
              { actions: ['assignItems', 'pruneSelection'] },
            ],
            'folder.progress': { actions: 'updateProgress' },
            'folder.search': { actions: ['assignQuery', 'askQuery', 'showQueryInAddress'] },
            'folder.address': { guard: 'isOtherQuery', actions: ['assignQuery', 'askQuery'] },
            'folder.loadMore': { actions: 'askMore' },
            'folder.retry': { actions: 'askReload' },
            'folder.toggleSelect': { guard: 'isListed', actions: 'toggleSelect' },
            'folder.selectAll': { actions: 'selectAll' },
            'folder.clearSelection': { actions: 'clearSelection' },
            'folder.delete': { guard: { type: 'canActOnSelection', params: { action: 'delete' } }, target: 'mutating.deleting' },
            'folder.restore': { guard: { type: 'canActOnSelection', params: { action: 'restore' } }, target: 'mutating.restoring' },
            'folder.purge': { guard: { type: 'canActOnSelection', params: { action: 'purge' } }, target: 'confirmingPurge' },
          },
        },
        confirmingPurge: {
          on: {
            'folder.confirm': { target: 'mutating.purging' },
            // Keyboard focus goes back to the button that asked, instead of being lost with the question.
            'folder.cancel': { target: 'idle', actions: 'focusPurge' },
          },
        },
        // The action on the selection runs; which one is the child state. The selection holds still
        // meanwhile (rows arriving do not prune it), so the toast counts what was acted on.
        mutating: {
          initial: 'deleting',
          states: {
            deleting: actOnSelection('deleteMessages', 'messages.deleted', true),
            restoring: actOnSelection('restoreMessages', 'messages.restored'),
            purging: actOnSelection('purgeMessages', 'messages.purged'),
          },
        },
      },
    },
    // The list crashed: nothing to show but the failure; Reintentar opens a new list on the same search.
    crashed: {
      on: { 'folder.retry': { target: 'shown' } },
    },
  },
});

export type FolderMachine = typeof folderMachine;
export type FolderSnapshot = SnapshotFrom<typeof folderMachine>;

// Selectors: primitives, or references that keep their identity until their value changes.
export const selectQuery = (snapshot: FolderSnapshot): string => snapshot.context.q;
/** The hosted list (loading, failures, total, more pages); undefined once it crashed. */
export const selectList = (snapshot: FolderSnapshot): FolderListActor | undefined => snapshot.children.list;
export const selectItems = (snapshot: FolderSnapshot): MessageSummary[] => snapshot.context.items;
export const selectSelectedIds = (snapshot: FolderSnapshot): number[] => snapshot.context.selection;
export const selectSelectedCount = (snapshot: FolderSnapshot): number => snapshot.context.selection.length;
export const selectIsSelected =
  (id: number) =>
  (snapshot: FolderSnapshot): boolean =>
    snapshot.context.selection.includes(id);
export const selectAllSelected = (snapshot: FolderSnapshot): boolean =>
  snapshot.context.items.length > 0 && snapshot.context.selection.length === snapshot.context.items.length;
export const selectIsConfirmingPurge = (snapshot: FolderSnapshot): boolean => snapshot.matches({ shown: 'confirmingPurge' });
export const selectIsMutating = (snapshot: FolderSnapshot): boolean => snapshot.matches({ shown: 'mutating' });
export const selectCanDelete = (snapshot: FolderSnapshot): boolean => snapshot.can({ type: 'folder.delete' });
export const selectCanRestore = (snapshot: FolderSnapshot): boolean => snapshot.can({ type: 'folder.restore' });
export const selectCanPurge = (snapshot: FolderSnapshot): boolean => snapshot.can({ type: 'folder.purge' });
