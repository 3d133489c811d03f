import { createActor, fromCallback, type AnyMachineSnapshot, type AnyEventObject } from 'xstate';
import { expect } from 'vitest';
import {
  folderMachine,
  selectAllSelected,
  selectCanDelete,
  selectCanPurge,
  selectCanRestore,
  selectHasFailed,
  selectHasNextPage,
  selectIsConfirmingPurge,
  selectIsEmpty,
  selectIsLoaded,
  selectIsLoading,
  selectIsMutating,
  selectIsPaging,
  selectIsSearching,
  selectItemCount,
  selectQuery,
  selectSelectedCount,
  selectSelectedIds,
  SEARCH_DEBOUNCE_MS,
  type FolderSnapshot,
} from '../../src/machines/folder';
import type { MessageSummary, Paged } from '../../shared/messages-contract';
import type { DeliveryProgress } from '../../shared/reception-contract';
import { defineModelTests, elapse, send, settle, type StepEnv } from './harness';
import { failure } from './fixtures';

const fol = (snapshot: AnyMachineSnapshot) => snapshot as unknown as FolderSnapshot;

const row = (id: number, kind: MessageSummary['kind'], folder: MessageSummary['folder']): MessageSummary => ({
  id,
  folder,
  kind,
  title: `Mensaje ${id}`,
  snippet: 'Reunión de apoderados el jueves',
  counterpart: 'Ana Pérez',
  channels: ['app-mobile'],
  has_attachments: false,
  unread: kind === 'received',
  date: '2026-03-01T12:00:00Z',
  deleted_from: kind === 'deleted' ? 'inbox' : null,
  progress: null,
});

const page = (data: MessageSummary[], next: string | null, total: number): Paged<MessageSummary> => ({
  data,
  meta: { per_page: 50, next_cursor: next, prev_cursor: null, total },
  links: { next: next === null ? null : `/api/messages?cursor=${next}`, prev: null },
});

const INBOX_1 = page([row(1, 'received', 'inbox'), row(2, 'received', 'inbox')], 'c2', 3);
const INBOX_2 = page([row(3, 'received', 'inbox')], null, 3);
const TRASH = page([row(11, 'deleted', 'trash'), row(12, 'deleted', 'trash')], null, 2);
const NONE = page([], null, 0);
const SENDING: DeliveryProgress = { total: 4, queued: 2, sent: 0, received: 2, read: 0, not_received: 0, error: 0, failed: 0, state: 'sending', retryable: 0 };

/** What the progress watcher was started with; null while it is not running. */
let watched: { folder: string; q: string; ids: number[] } | null = null;
const SERVER_DOWN = failure(500, 'server.error');

const MUTATIONS: Record<string, string> = {
  deleteMessages: 'messages.deleted',
  restoreMessages: 'messages.restored',
  purgeMessages: 'messages.purged',
};
const MUTATION_DONE = /^xstate\.done\.actor\.(deleteMessages|restoreMessages|purgeMessages)$/;
const MUTATION_ERROR = /^xstate\.error\.actor\.(deleteMessages|restoreMessages|purgeMessages)$/;
const IO_IDS = ['fetchFolderPage', ...Object.keys(MUTATIONS)];

/** Exactly the named I/O actor runs (or none). */
function expectRunning(env: StepEnv, id: string | null) {
  for (const other of IO_IDS) expect(env.fakes.isRunning(other), `${other} running`).toBe(other === id);
}

const step = (run: (env: StepEnv) => void) => (env: StepEnv) => run(env);

function emits({ from, event }: StepEnv): AnyEventObject[] {
  const done = MUTATION_DONE.exec(event.type);
  if (done) {
    const key = MUTATIONS[done[1] as string] as string;
    const count = from.context.selection.length;
    // The toast (its text's plural follows `count`), then the SPEC §7 counts event: the counters reload.
    return [{ type: 'toast', kind: 'success', key, params: { count } }, { type: 'counts.changed' }];
  }
  if (MUTATION_ERROR.test(event.type)) return [{ type: 'toast', kind: 'error', key: 'error.request' }];
  // List failures are silent (SPEC §8), and nothing else is shown.
  return [];
}

defineModelTests({
  name: 'folder',
  machine: folderMachine,
  traversal: {
    input: { folder: 'inbox' },
    events: [
      { type: 'folder.open', folder: 'inbox' },
      { type: 'folder.open', folder: 'trash' },
      { type: 'folder.search', q: 'Ana' },
      { type: 'folder.reload' },
      { type: 'folder.retry' },
      { type: 'folder.loadMore' },
      { type: 'folder.toggleSelect', id: 1 },
      { type: 'folder.toggleSelect', id: 11 },
      { type: 'folder.toggleSelect', id: 99 },
      { type: 'folder.selectAll' },
      { type: 'folder.clearSelection' },
      { type: 'folder.delete' },
      { type: 'folder.restore' },
      { type: 'folder.purge' },
      { type: 'folder.confirm' },
      { type: 'folder.cancel' },
    ],
    internal: [
      { type: 'xstate.done.actor.fetchFolderPage', output: INBOX_1 },
      { type: 'xstate.done.actor.fetchFolderPage', output: INBOX_2 },
      { type: 'xstate.done.actor.fetchFolderPage', output: TRASH },
      { type: 'xstate.done.actor.fetchFolderPage', output: NONE },
      { type: 'xstate.error.actor.fetchFolderPage', error: SERVER_DOWN },
      { type: 'xstate.done.actor.deleteMessages', output: 1 },
      { type: 'xstate.error.actor.deleteMessages', error: SERVER_DOWN },
      { type: 'xstate.done.actor.restoreMessages', output: 1 },
      { type: 'xstate.error.actor.restoreMessages', error: SERVER_DOWN },
      { type: 'xstate.done.actor.purgeMessages', output: 1 },
      { type: 'xstate.error.actor.purgeMessages', error: failure(409, 'message.illegal_transition') },
      { type: 'xstate.after.searchDebounce.folder.searching' },
      // Only the progress watcher sends it, and it runs only while the list is shown.
      { type: 'folder.progress', progress: { 1: SENDING } },
      { type: 'xstate.error.actor.watchFolderProgress', error: SERVER_DOWN },
    ],
    // Pages answer what was asked: page 2 only for the next page, inbox pages in the inbox, the trash page in the trash.
    filterEvents: (snapshot, event) => {
      if (event.type === 'folder.progress' || event.type === 'xstate.error.actor.watchFolderProgress') return snapshot.matches('loaded');
      if (event.type !== 'xstate.done.actor.fetchFolderPage') return true;
      const output = (event as { output?: unknown }).output;
      if (snapshot.matches('paging')) return output === INBOX_2 && snapshot.context.folder === 'inbox';
      if (output === NONE) return true;
      return snapshot.context.folder === 'inbox' ? output === INBOX_1 : output === TRASH;
    },
    // The search text changes no transition: one vertex per state, folder, list and selection.
    serializeState: (snapshot) =>
      JSON.stringify([
        snapshot.value,
        snapshot.context.folder,
        snapshot.context.items.map((item: MessageSummary) => item.id),
        [...snapshot.context.selection].sort(),
      ]),
    limit: 20_000,
  },
  createActor: ({ fakes }) => {
    watched = null;
    return createActor(
      folderMachine.provide({
        actors: {
          fetchFolderPage: fakes.promise(),
          deleteMessages: fakes.promise(),
          restoreMessages: fakes.promise(),
          purgeMessages: fakes.promise(),
          watchFolderProgress: fromCallback(({ input }) => {
            watched = input as typeof watched;
            return () => {
              watched = null;
            };
          }),
        },
      }),
      { input: { folder: 'inbox' } },
    );
  },
  states: {
    loading: (snapshot, env) => {
      expect(watched, 'progress watcher stopped').toBeNull();
      expect(selectIsLoading(fol(snapshot))).toBe(true);
      // Page 1 of the current folder and search, from an empty, unselected list.
      expect(env.fakes.inputOf('fetchFolderPage')).toEqual({ folder: snapshot.context.folder, q: snapshot.context.q, cursor: null });
      expect(selectItemCount(fol(snapshot))).toBe(0);
      expect(selectSelectedCount(fol(snapshot))).toBe(0);
      expectRunning(env, 'fetchFolderPage');
      if (env.event.type === 'folder.open' && env.event.folder !== env.from.context.folder) expect(selectQuery(fol(snapshot))).toBe('');
    },
    loaded: (snapshot, env) => {
      expect(selectIsLoaded(fol(snapshot))).toBe(true);
      // The progress watcher runs while the list is shown, for the rows whose deliveries were in flight.
      expect(watched?.folder).toBe(snapshot.context.folder);
      expect(watched?.q).toBe(snapshot.context.q);
      if (env.event.type === 'xstate.error.actor.watchFolderProgress') {
        expect(snapshot.context).toEqual(env.from.context);
      } else if (env.event.type === 'folder.progress') {
        expect(snapshot.context.items.find((item: MessageSummary) => item.id === 1)?.progress ?? null).toEqual(
          env.from.context.items.some((item: MessageSummary) => item.id === 1) ? SENDING : null,
        );
        expect(snapshot.context.items.filter((item: MessageSummary) => item.id !== 1)).toEqual(env.from.context.items.filter((item: MessageSummary) => item.id !== 1));
      } else if (!env.from.matches('loaded')) {
        expect(watched?.ids).toEqual(snapshot.context.items.filter((item: MessageSummary) => item.progress?.state === 'sending').map((item: MessageSummary) => item.id));
      }
      expect(selectItemCount(fol(snapshot))).toBeGreaterThan(0);
      expectRunning(env, null);
      // The selection only names listed messages.
      const listed = new Set(snapshot.context.items.map((item: MessageSummary) => item.id));
      for (const id of selectSelectedIds(fol(snapshot))) expect(listed.has(id)).toBe(true);
      expect(selectAllSelected(fol(snapshot))).toBe(selectSelectedCount(fol(snapshot)) === listed.size);
      const inTrash = snapshot.context.folder === 'trash';
      const some = selectSelectedCount(fol(snapshot)) > 0;
      expect(selectCanDelete(fol(snapshot))).toBe(some && !inTrash);
      expect(selectCanRestore(fol(snapshot))).toBe(some && inTrash);
      expect(selectCanPurge(fol(snapshot))).toBe(some && inTrash);
      if (env.event.type === 'xstate.done.actor.fetchFolderPage' && env.from.matches('paging')) {
        // Appended after what was shown, not replacing it.
        expect(snapshot.context.items).toEqual([...env.from.context.items, ...INBOX_2.data]);
        expect(selectHasNextPage(fol(snapshot))).toBe(false);
      }
      if (MUTATION_ERROR.test(env.event.type)) {
        // A failed action keeps the list and the selection.
        expect(snapshot.context.items).toEqual(env.from.context.items);
        expect(selectSelectedIds(fol(snapshot))).toEqual(env.from.context.selection);
      }
      if (MUTATION_DONE.test(env.event.type)) {
        // The acted-on messages left this folder; the others stay, in order.
        const gone = new Set(env.from.context.selection as number[]);
        expect(snapshot.context.items).toEqual(env.from.context.items.filter((item: MessageSummary) => !gone.has(item.id)));
      }
      if (env.event.type === 'folder.clearSelection' || MUTATION_DONE.test(env.event.type)) {
        expect(selectSelectedCount(fol(snapshot))).toBe(0);
      }
    },
    empty: (snapshot, env) => {
      expect(watched, 'progress watcher stopped').toBeNull();
      expect(selectIsEmpty(fol(snapshot))).toBe(true);
      expect(selectItemCount(fol(snapshot))).toBe(0);
      expectRunning(env, null);
    },
    failed: (snapshot, env) => {
      expect(watched, 'progress watcher stopped').toBeNull();
      expect(selectHasFailed(fol(snapshot))).toBe(true);
      expectRunning(env, null);
      // The search text survives a failure.
      expect(selectQuery(fol(snapshot))).toBe(env.from.context.q);
    },
    paging: (snapshot, env) => {
      expect(watched, 'progress watcher stopped').toBeNull();
      expect(selectIsPaging(fol(snapshot))).toBe(true);
      expect(env.fakes.inputOf('fetchFolderPage')).toEqual({ folder: 'inbox', q: snapshot.context.q, cursor: 'c2' });
      expect(selectItemCount(fol(snapshot))).toBeGreaterThan(0);
      expectRunning(env, 'fetchFolderPage');
    },
    searching: (snapshot, env) => {
      expect(selectIsSearching(fol(snapshot))).toBe(true);
      expect(selectQuery(fol(snapshot))).toBe('Ana');
      expectRunning(env, null);
      // Nothing is asked for before the debounce has passed.
      expect(SEARCH_DEBOUNCE_MS).toBe(250);
    },
    confirmingPurge: (snapshot, env) => {
      expect(selectIsConfirmingPurge(fol(snapshot))).toBe(true);
      expect(snapshot.context.folder).toBe('trash');
      expect(selectSelectedCount(fol(snapshot))).toBeGreaterThan(0);
      expectRunning(env, null);
    },
    mutating: (snapshot) => {
      expect(selectIsMutating(fol(snapshot))).toBe(true);
    },
    'mutating.deleting': (snapshot, env) => {
      expect(env.fakes.inputOf('deleteMessages')).toEqual({ ids: snapshot.context.selection });
      expect(snapshot.context.folder).not.toBe('trash');
      expectRunning(env, 'deleteMessages');
    },
    'mutating.restoring': (snapshot, env) => {
      expect(env.fakes.inputOf('restoreMessages')).toEqual({ ids: snapshot.context.selection });
      expect(snapshot.context.folder).toBe('trash');
      expectRunning(env, 'restoreMessages');
    },
    'mutating.purging': (snapshot, env) => {
      expect(env.fakes.inputOf('purgeMessages')).toEqual({ ids: snapshot.context.selection });
      // Only after the confirmation step.
      if (!env.from.matches({ mutating: 'purging' })) expect(env.from.matches('confirmingPurge')).toBe(true);
      expectRunning(env, 'purgeMessages');
    },
  },
  events: {
    'folder.open': step(send),
    'folder.search': step(send),
    'folder.reload': step(send),
    'folder.retry': step(send),
    'folder.loadMore': step(send),
    'folder.toggleSelect': step(send),
    'folder.selectAll': step(send),
    'folder.clearSelection': step(send),
    'folder.delete': step(send),
    'folder.restore': step(send),
    'folder.purge': step(send),
    'folder.confirm': step(send),
    'folder.cancel': step(send),
    // What the running watcher sends back.
    'folder.progress': step(send),
    // The watcher giving up is silent: the list stays as it is.
    'xstate.error.actor.watchFolderProgress': step(send),
    'xstate.done.actor.fetchFolderPage': step(settle),
    'xstate.error.actor.fetchFolderPage': step(settle),
    'xstate.done.actor.deleteMessages': step(settle),
    'xstate.error.actor.deleteMessages': step(settle),
    'xstate.done.actor.restoreMessages': step(settle),
    'xstate.error.actor.restoreMessages': step(settle),
    'xstate.done.actor.purgeMessages': step(settle),
    'xstate.error.actor.purgeMessages': step(settle),
    'xstate.after.searchDebounce.folder.searching': step(elapse),
  },
  emits,
});
