// The folder around its hosted list: selection, the actions on it (delete, restore, purge after a
// confirmation) with their toasts and counters, the progress of sent rows, and what the folder tells the
// list. The list itself (loading, debounced search, cursor pages, silent failures, removing and updating
// rows) has its own model test (list.test.ts); here a stand-in takes its place, showing the rows the path
// says and recording nothing of its own, so every step checks exactly what reached it.
import { createActor, fromCallback, type AnyActorRef, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import {
  folderMachine,
  selectAllSelected,
  selectCanDelete,
  selectCanPurge,
  selectCanRestore,
  selectIsConfirmingPurge,
  selectIsMutating,
  selectItems,
  selectList,
  selectQuery,
  selectSelectedCount,
  selectSelectedIds,
  type FolderSnapshot,
} from '../../src/machines/messages/folder';
import type { MessageSummary } from '../../shared/messages-contract';
import type { DeliveryProgress } from '../../shared/reception-contract';
import type { Folder } from '../../shared/codes';
import { defineModelTests, send, settle, type StepEnv } from './harness';
import { listStandIn, showingRows } from './doubles';
import { failure } from './fixtures';
import { messageSummary } from '../fixtures/messages';
import { deliveryProgress } from '../fixtures/reception';

const fol = (snapshot: AnyMachineSnapshot) => snapshot as unknown as FolderSnapshot;
const IDLE = { shown: 'idle' } as const;

/** A row of its folder; inbox rows are unread. */
const row = (id: number, folder: Folder, progress: DeliveryProgress | null = null): MessageSummary =>
  messageSummary({ id, folder, unread: folder === 'inbox', progress });

const SENDING = deliveryProgress({ queued: 2, received: 2 });
const FURTHER = deliveryProgress({ queued: 1, received: 3 });
const DONE = deliveryProgress({ received: 4 });

const showing = (rows: string, items: MessageSummary[]) => showingRows(rows, items);

const NONE = showing('none', []);
const INBOX = showing('1,2', [row(1, 'inbox'), row(2, 'inbox')]);
const INBOX_MORE = showing('1,2,3', [row(1, 'inbox'), row(2, 'inbox'), row(3, 'inbox')]);
const TRASH = showing('11,12', [row(11, 'trash'), row(12, 'trash')]);
const SENT = showing('21 sending,22', [row(21, 'sent', SENDING), row(22, 'sent', DONE)]);
const SENT_DONE = showing('21,22', [row(21, 'sent', DONE), row(22, 'sent', DONE)]);

const SERVER_DOWN = failure(500, 'server.error');
const MUTATIONS: Record<string, string> = {
  deleteMessages: 'messages.deleted',
  restoreMessages: 'messages.restored',
  purgeMessages: 'messages.purged',
};
const MUTATION_DONE = /^xstate\.done\.actor\.(deleteMessages|restoreMessages|purgeMessages)$/;
const MUTATION_ERROR = /^xstate\.error\.actor\.(deleteMessages|restoreMessages|purgeMessages)$/;
const IO_IDS = Object.keys(MUTATIONS);

/** What the progress watcher was started with; null while it is not running. `starts` counts its starts. */
let watched: { folder: string; q: string; ids: number[] } | null = null;
let starts = 0;
/** `starts` as the last step in `idle` saw it. */
let startsSeen = 0;

/** Exactly the named mutation runs (or none). */
function expectRunning(env: StepEnv, id: string | null) {
  for (const other of IO_IDS) expect(env.fakes.isRunning(other), `${other} running`).toBe(other === id);
}

const itemsOf = (snapshot: AnyMachineSnapshot): MessageSummary[] => snapshot.context.items;
const inFlight = (items: MessageSummary[]) => items.filter((item) => item.progress?.state === 'sending').map((item) => item.id);
const listOf = (env: StepEnv) => selectList(fol(env.actor.getSnapshot() as AnyMachineSnapshot)) as AnyActorRef | undefined;
const isIdle = (snapshot: AnyMachineSnapshot) => snapshot.matches(IDLE);

/** The oracle of what the folder tells its list in this step: only while nothing else is asked. */
function toldList({ from, event }: StepEnv): AnyEventObject[] {
  if (MUTATION_DONE.test(event.type)) return [{ type: 'list.remove', keys: from.context.selection }];
  // Messages put back by "Deshacer" (any folder's, any time): the list asks again, they may be this folder's.
  if (event.type === 'messages.restored' && from.matches('shown')) return [{ type: 'list.reload' }];
  if (!isIdle(from)) return [];
  switch (event.type) {
    case 'folder.search':
      return [{ type: 'list.query', query: { folder: from.context.folder, q: event.q } }];
    // The address says another search (Back, a link): the list asks for it, as if typed.
    case 'folder.address':
      return event.q === from.context.q ? [] : [{ type: 'list.query', query: { folder: from.context.folder, q: event.q } }];
    case 'folder.loadMore':
      return [{ type: 'list.more' }];
    case 'folder.retry':
      return [{ type: 'list.reload' }];
    case 'folder.progress': {
      // Fresher progress of listed rows, for the list to merge where they are.
      const progress = event.progress as Record<number, DeliveryProgress>;
      const items = itemsOf(from)
        .filter((item) => progress[item.id])
        .map((item) => ({ ...item, progress: progress[item.id] }));
      return [{ type: 'list.update', items }];
    }
    default:
      return [];
  }
}

/**
 * The contract's rule table, for the kinds these folders list: a message in the trash is restored or purged,
 * any other is deleted.
 */
const ALLOWS: Record<'delete' | 'restore' | 'purge', (kind: MessageSummary['kind']) => boolean> = {
  delete: (kind) => kind !== 'deleted',
  restore: (kind) => kind === 'deleted',
  purge: (kind) => kind === 'deleted',
};

/** Something is selected, and every selected message is a listed row that allows `action`. */
function selectionAllows(context: { items: MessageSummary[]; selection: number[] }, action: keyof typeof ALLOWS): boolean {
  return (
    context.selection.length > 0 &&
    context.selection.every((id) => context.items.some((item) => item.id === id && ALLOWS[action](item.kind)))
  );
}

function emits({ from, event }: StepEnv): AnyEventObject[] {
  const done = MUTATION_DONE.exec(event.type);
  if (done) {
    const key = MUTATIONS[done[1] as string] as string;
    const count = from.context.selection.length;
    // The toast (its text's plural follows `count`), then the SPEC §7 counts event: the counters reload.
    // A delete's toast offers "Deshacer", which asks the app to restore exactly those messages.
    const undo =
      done[1] === 'deleteMessages' ? { action: { label: 'toast.undo', event: { type: 'undo.restore', ids: from.context.selection } } } : {};
    return [{ type: 'toast', kind: 'success', key, params: { count }, ...undo }, { type: 'counts.changed' }];
  }
  if (MUTATION_ERROR.test(event.type)) return [{ type: 'toast', kind: 'error', key: 'error.request' }];
  // The search lives in the address (`/inbox?q=Ana`, replacing the entry): Back returns to it.
  if (event.type === 'folder.search' && isIdle(from)) {
    const q = event.q as string;
    return [{ type: 'navigate', to: q ? `/${from.context.folder}?q=${encodeURIComponent(q)}` : `/${from.context.folder}`, replace: true }];
  }
  // Declining the purge gives keyboard focus back to the button that asked.
  if (event.type === 'folder.cancel' && from.matches({ shown: 'confirmingPurge' })) return [{ type: 'focus', target: 'folder-purge' }];
  // List failures are silent (SPEC §8, the list's own states), and nothing else is shown.
  return [];
}

const COMMON_EVENTS: AnyEventObject[] = [
  { type: 'folder.search', q: 'Ana' },
  { type: 'folder.search', q: '' },
  // The router reports the address's search: another one (Back to an earlier search), or none (a link).
  { type: 'folder.address', q: 'reunión 3°' },
  { type: 'folder.address', q: '' },
  { type: 'folder.loadMore' },
  { type: 'folder.retry' },
  { type: 'folder.toggleSelect', id: 99 },
  { type: 'folder.selectAll' },
  { type: 'folder.clearSelection' },
  { type: 'folder.delete' },
  { type: 'folder.restore' },
  { type: 'folder.purge' },
  { type: 'folder.confirm' },
  { type: 'folder.cancel' },
  // From the app root, after an undo elsewhere.
  { type: 'messages.restored', ids: [1] },
];

const COMMON_INTERNAL: AnyEventObject[] = [
  { type: 'xstate.done.actor.deleteMessages', output: 1 },
  { type: 'xstate.error.actor.deleteMessages', error: SERVER_DOWN },
  { type: 'xstate.done.actor.restoreMessages', output: 1 },
  { type: 'xstate.error.actor.restoreMessages', error: SERVER_DOWN },
  { type: 'xstate.done.actor.purgeMessages', output: 1 },
  { type: 'xstate.error.actor.purgeMessages', error: failure(409, 'message.illegal_transition') },
  // The poller never ends in error; if it did, nothing would show.
  { type: 'xstate.error.actor.watchFolderProgress', error: SERVER_DOWN },
  { type: 'xstate.error.actor.list', error: new Error('list: a bug') },
];

/** One folder: its rows as the list may show them, and what is selected there. */
const variant = (folder: Folder, ids: number[], shows: AnyEventObject[], extra: AnyEventObject[] = []) => ({
  name: folder,
  traversal: {
    input: { folder },
    events: [...COMMON_EVENTS, ...ids.map((id) => ({ type: 'folder.toggleSelect', id }))],
    internal: [...COMMON_INTERNAL, ...shows, ...extra],
  },
});

defineModelTests({
  name: 'folder',
  machine: folderMachine,
  // The header, SPEC §1, §2, §7 and the contract's rule table: the selection can be acted on only when
  // every selected row allows the action; purging asks first; any outcome of an action returns to the
  // rows; a list that breaks (a bug) leaves only Reintentar.
  oracle: {
    initial: 'shown.idle',
    targets: {
      shown: { 'xstate.error.actor.list': 'crashed' },
      'shown.idle': {
        'folder.delete': ({ context, stay }) => (selectionAllows(context, 'delete') ? 'shown.mutating.deleting' : stay),
        'folder.restore': ({ context, stay }) => (selectionAllows(context, 'restore') ? 'shown.mutating.restoring' : stay),
        'folder.purge': ({ context, stay }) => (selectionAllows(context, 'purge') ? 'shown.confirmingPurge' : stay),
        // Other rows in flight restart the progress watcher in place (the `shown.idle` invariant counts its starts).
      },
      'shown.confirmingPurge': { 'folder.confirm': 'shown.mutating.purging', 'folder.cancel': 'shown.idle' },
      'shown.mutating.deleting': { 'xstate.done.actor.deleteMessages': 'shown.idle', 'xstate.error.actor.deleteMessages': 'shown.idle' },
      'shown.mutating.restoring': { 'xstate.done.actor.restoreMessages': 'shown.idle', 'xstate.error.actor.restoreMessages': 'shown.idle' },
      'shown.mutating.purging': { 'xstate.done.actor.purgeMessages': 'shown.idle', 'xstate.error.actor.purgeMessages': 'shown.idle' },
      // A new list on the same search.
      crashed: { 'folder.retry': 'shown.idle' },
    },
  },
  traversal: {
    events: COMMON_EVENTS,
    // Progress comes from the running watcher only: in `idle`, while some listed row is in flight.
    // The address and a cleared search are tried with nothing selected (what they do to a selection is a search's).
    filterEvents: (snapshot, event) =>
      (event.type !== 'folder.progress' || (isIdle(snapshot) && inFlight(itemsOf(snapshot)).length > 0)) &&
      ((event.type !== 'folder.address' && (event.type !== 'folder.search' || (event as AnyEventObject).q !== '')) ||
        snapshot.context.selection.length === 0),
    // One vertex per state, search text (the watcher takes it), rows (and whether in flight) and selection.
    serializeState: (snapshot) =>
      JSON.stringify([
        snapshot.value,
        snapshot.context.q,
        itemsOf(snapshot).map((item) => `${item.id}${item.progress?.state === 'sending' ? '*' : ''}`),
        [...snapshot.context.selection].sort(),
      ]),
    limit: 20_000,
  },
  variants: [
    // The inbox: more rows arrive (a next page), fewer (a search); received rows are deleted.
    variant('inbox', [1, 3], [NONE, INBOX, INBOX_MORE]),
    // Opened from an address with a search (Back to `/inbox?q=reunión 3°`): the list starts on it.
    { name: 'inbox?q', traversal: { ...variant('inbox', [1], [NONE, INBOX]).traversal, input: { folder: 'inbox', q: 'reunión 3°' } } },
    // The trash: restore, or purge after the confirmation.
    variant('trash', [11], [NONE, TRASH]),
    // The sent folder: a row still going out is watched, its progress merged, until it is done.
    variant(
      'sent',
      [21],
      [NONE, SENT, SENT_DONE],
      [
        { type: 'folder.progress', progress: { 21: FURTHER } },
        { type: 'folder.progress', progress: { 21: DONE } },
      ],
    ),
  ],
  createActor: ({ fakes, path, inspect, machine }) => {
    watched = null;
    starts = 0;
    startsSeen = 0;
    return createActor(
      machine.provide({
        actors: {
          list: listStandIn as never,
          deleteMessages: fakes.promise(),
          restoreMessages: fakes.promise(),
          purgeMessages: fakes.promise(),
          watchFolderProgress: fromCallback(({ input }) => {
            watched = input as typeof watched;
            starts += 1;
            return () => {
              watched = null;
            };
          }),
        },
      }),
      { input: path.input as { folder: Folder; q?: string }, inspect },
    );
  },
  states: {
    shown: (snapshot, env) => {
      // The folder tells its list exactly what the step asks for, and nothing while confirming or acting.
      const told = env.delivered.filter((d) => d.to === 'list' && !/^(test|xstate)\./.test(d.event.type)).map((d) => d.event);
      expect(told).toEqual(toldList(env));
      // Its rows are the list's rows: the same array, as the list's last snapshot had them.
      const list = selectList(fol(snapshot)) as AnyActorRef | undefined;
      expect(list, 'hosted list').toBeDefined();
      expect(selectItems(fol(snapshot))).toBe((list!.getSnapshot() as AnyMachineSnapshot).context.items);
      // A list (re)started asks for this folder with the search as typed.
      if (env.event.type === 'xstate.init' || env.from.matches('crashed')) {
        expect((list!.getSnapshot() as AnyMachineSnapshot).context.input).toEqual({
          query: { folder: snapshot.context.folder, q: snapshot.context.q },
        });
      }
      if (env.event.type === 'folder.search' && isIdle(env.from)) expect(selectQuery(fol(snapshot))).toBe(env.event.q);
      // The search box shows what the address says.
      if (env.event.type === 'folder.address' && isIdle(env.from)) expect(selectQuery(fol(snapshot))).toBe(env.event.q);
    },
    'shown.idle': (snapshot, env) => {
      // The progress watcher runs while the list is shown, for the rows in flight; it starts again when
      // other rows are in flight (and then takes the search as typed), not on every change of the rows.
      expect(watched?.folder).toBe(snapshot.context.folder);
      expect(watched?.ids).toEqual(inFlight(itemsOf(snapshot)));
      const fresh =
        !isIdle(env.from) ||
        env.event.type === 'xstate.init' ||
        (env.event.type === 'xstate.snapshot.list' && inFlight(itemsOf(env.from)).join() !== inFlight(itemsOf(snapshot)).join());
      expect(starts - startsSeen, 'watcher starts').toBe(fresh ? 1 : 0);
      if (fresh) expect(watched?.q).toBe(snapshot.context.q);
      startsSeen = starts;
      expectRunning(env, null);
      if (env.event.type === 'xstate.error.actor.watchFolderProgress') expect(snapshot.context).toEqual(env.from.context);
      // The selection only names listed messages (rows replaced by a search or a reload leave it).
      const listed = new Set(itemsOf(snapshot).map((item) => item.id));
      for (const id of selectSelectedIds(fol(snapshot))) expect(listed.has(id)).toBe(true);
      expect(selectAllSelected(fol(snapshot))).toBe(listed.size > 0 && selectSelectedCount(fol(snapshot)) === listed.size);
      const inTrash = snapshot.context.folder === 'trash';
      const some = selectSelectedCount(fol(snapshot)) > 0;
      expect(selectCanDelete(fol(snapshot))).toBe(some && !inTrash);
      expect(selectCanRestore(fol(snapshot))).toBe(some && inTrash);
      expect(selectCanPurge(fol(snapshot))).toBe(some && inTrash);
      expect(selectIsConfirmingPurge(fol(snapshot))).toBe(false);
      expect(selectIsMutating(fol(snapshot))).toBe(false);
      if (MUTATION_ERROR.test(env.event.type)) {
        // A failed action keeps the list and the selection (but for rows that left meanwhile).
        expect(itemsOf(snapshot)).toEqual(itemsOf(env.from));
        expect(selectSelectedIds(fol(snapshot))).toEqual((env.from.context.selection as number[]).filter((id) => listed.has(id)));
      }
      if (env.event.type === 'folder.toggleSelect' && isIdle(env.from)) {
        // A listed row's checkbox flips that row alone; a row no longer listed changes nothing.
        const id = env.event.id as number;
        const before = env.from.context.selection as number[];
        const wasListed = itemsOf(env.from).some((item) => item.id === id);
        const flipped = before.includes(id) ? before.filter((other) => other !== id) : [...before, id];
        expect(selectSelectedIds(fol(snapshot)), 'the checkbox flips its row').toEqual(wasListed ? flipped : before);
      }
      if (env.event.type === 'folder.clearSelection' || MUTATION_DONE.test(env.event.type)) {
        // After an action the acted-on rows leave through the list (`list.remove`, checked in `shown`).
        expect(selectSelectedCount(fol(snapshot))).toBe(0);
      }
    },
    'shown.confirmingPurge': (snapshot, env) => {
      expect(selectIsConfirmingPurge(fol(snapshot))).toBe(true);
      expect(snapshot.context.folder).toBe('trash');
      expect(selectSelectedCount(fol(snapshot))).toBeGreaterThan(0);
      expect(watched, 'progress watcher stopped').toBeNull();
      expectRunning(env, null);
    },
    'shown.mutating': (snapshot) => {
      expect(selectIsMutating(fol(snapshot))).toBe(true);
      expect(watched, 'progress watcher stopped').toBeNull();
      // The selection holds still while the action runs, whatever rows arrive.
      expect(selectSelectedCount(fol(snapshot))).toBeGreaterThan(0);
    },
    'shown.mutating.deleting': (snapshot, env) => {
      expect(env.fakes.inputOf('deleteMessages')).toEqual({ ids: snapshot.context.selection });
      expect(env.started, 'one call, as the action starts').toEqual(
        env.from.matches({ shown: { mutating: 'deleting' } }) ? [] : ['deleteMessages'],
      );
      expect(snapshot.context.folder).not.toBe('trash');
      expectRunning(env, 'deleteMessages');
    },
    'shown.mutating.restoring': (snapshot, env) => {
      expect(env.fakes.inputOf('restoreMessages')).toEqual({ ids: snapshot.context.selection });
      expect(env.started, 'one call, as the action starts').toEqual(
        env.from.matches({ shown: { mutating: 'restoring' } }) ? [] : ['restoreMessages'],
      );
      expect(snapshot.context.folder).toBe('trash');
      expectRunning(env, 'restoreMessages');
    },
    'shown.mutating.purging': (snapshot, env) => {
      expect(env.fakes.inputOf('purgeMessages')).toEqual({ ids: snapshot.context.selection });
      expect(env.started, 'one call, as the action starts').toEqual(
        env.from.matches({ shown: { mutating: 'purging' } }) ? [] : ['purgeMessages'],
      );
      // Only after the confirmation step.
      if (!env.from.matches({ shown: { mutating: 'purging' } })) expect(env.from.matches({ shown: 'confirmingPurge' })).toBe(true);
      expectRunning(env, 'purgeMessages');
    },
    crashed: (snapshot, env) => {
      // The list broke (a bug): nothing is shown or selectable, nothing runs, Reintentar is offered.
      expect(selectList(fol(snapshot))).toBeUndefined();
      expect(selectItems(fol(snapshot))).toEqual([]);
      expect(selectSelectedCount(fol(snapshot))).toBe(0);
      expect(watched, 'progress watcher stopped').toBeNull();
      expectRunning(env, null);
      expect(snapshot.can({ type: 'folder.retry' })).toBe(true);
      expect(env.delivered.filter((d) => d.to === 'list' && !/^(test|xstate)\./.test(d.event.type))).toEqual([]);
    },
  },
  events: {
    'folder.search': send,
    'folder.address': send,
    'folder.loadMore': send,
    'folder.retry': send,
    'folder.toggleSelect': send,
    'folder.selectAll': send,
    'folder.clearSelection': send,
    'folder.delete': send,
    'folder.restore': send,
    'folder.purge': send,
    'folder.confirm': send,
    'folder.cancel': send,
    'messages.restored': send,
    // What the running watcher sends back.
    'folder.progress': send,
    // The watcher giving up is silent: the list stays as it is.
    'xstate.error.actor.watchFolderProgress': send,
    // The list shows other rows (a page, a search, rows removed or updated): its snapshot reaches the folder.
    'xstate.snapshot.list': (env) =>
      listOf(env)?.send({ type: 'test.show', items: (env.event.snapshot as AnyMachineSnapshot).context.items }),
    'xstate.error.actor.list': (env) => listOf(env)?.send({ type: 'test.crash' }),
    'xstate.done.actor.deleteMessages': settle,
    'xstate.error.actor.deleteMessages': settle,
    'xstate.done.actor.restoreMessages': settle,
    'xstate.error.actor.restoreMessages': settle,
    'xstate.done.actor.purgeMessages': settle,
    'xstate.error.actor.purgeMessages': settle,
  },
  emits,
});
