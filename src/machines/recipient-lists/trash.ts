// /recipient-lists/trash (SPEC §2): the user's deleted lists (who deleted each and when), paged
// and searched (the list pattern, list/list.ts, as the child `list`); "Restaurar" puts one back, "Eliminar
// definitivamente" asks first. A row acted on leaves the list at once; a failure keeps it with a toast.
import { assertEvent, assign, emit, sendTo, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { TrashedRecipientList } from '../../../shared/recipient-lists-contract';
import { fetchTrashPage, purgeList, restoreList, type ListsQuery } from '../../services/recipient-lists/recipient-lists';
import type { Effect } from '../app/effects';
import { createListMachine, listChild, listHostActions } from '../list/list';
import { trashRowStates } from '../messages/trash-rows';

export const trashListMachine = createListMachine<TrashedRecipientList, ListsQuery>({ key: (list) => list.id }).provide({
  actors: { fetchPage: fetchTrashPage },
});
export type TrashListActor = ActorRefFrom<typeof trashListMachine>;
type TrashListSnapshot = SnapshotFrom<typeof trashListMachine>;

export interface TrashContext {
  q: string;
  items: TrashedRecipientList[];
  /** The list being restored, or asked about / being deleted forever. */
  target: number | null;
}

export type TrashEvent =
  | { type: 'trash.search'; q: string }
  | { type: 'trash.loadMore' }
  | { type: 'trash.retry' }
  | { type: 'trash.restore'; id: number }
  | { type: 'trash.purge'; id: number }
  | { type: 'trash.confirm' }
  | { type: 'trash.cancel' }
  | { type: 'xstate.snapshot.list'; snapshot: TrashListSnapshot };

/** The row's "Eliminar definitivamente" button, where focus returns when the question is declined. */
export const trashPurgeButtonId = (id: number) => `trash-purge-${id}`;

const queryOf = (context: TrashContext): ListsQuery => ({ q: context.q });

const targetOf = (event: TrashEvent): number => {
  assertEvent(event, ['trash.restore', 'trash.purge']);
  return event.id;
};

export const recipientListsTrashMachine = setup({
  types: {
    context: {} as TrashContext,
    events: {} as TrashEvent,
    emitted: {} as Effect,
  },
  actors: { list: trashListMachine, restoreList, purgeList },
  actions: {
    /** The list crashed: its rows go with it (a new list starts empty). */
    forgetItems: assign({ target: null, items: [] }),
    ...listHostActions<TrashContext, TrashEvent, ListsQuery>(queryOf),
    assignQuery: assign(({ event }) => {
      assertEvent(event, 'trash.search');
      return { q: event.q };
    }),
    assignTarget: assign(({ event }) => ({ target: targetOf(event) })),
    clearTarget: assign({ target: null }),
    removeTarget: sendTo('list', ({ context }) => ({ type: 'list.remove' as const, keys: context.target === null ? [] : [context.target] })),
    toastRestored: emit({ type: 'toast', kind: 'success', key: 'recipientLists.restored' }),
    toastPurged: emit({ type: 'toast', kind: 'success', key: 'recipientLists.purged' }),
    toastFailed: emit({ type: 'toast', kind: 'error', key: 'error.request' }),
    focusPurge: emit(({ context }) => ({ type: 'focus' as const, target: trashPurgeButtonId(context.target ?? 0) })),
  },
  guards: {
    isListed: ({ context, event }) => context.items.some((item) => item.id === targetOf(event)),
  },
}).createMachine({
  id: 'recipientListsTrash',
  initial: 'shown',
  context: { q: '', items: [], target: null },
  states: {
    shown: {
      invoke: { ...listChild(queryOf), onError: { target: 'crashed', actions: 'forgetItems' } },
      on: {
        'trash.search': { actions: ['assignQuery', 'askQuery'] },
        'trash.loadMore': { actions: 'askMore' },
        'trash.retry': { actions: 'askReload' },
      },
      initial: 'idle',
      states: trashRowStates('restoreList', 'purgeList'),
    },
    crashed: {
      on: { 'trash.retry': { target: 'shown' } },
    },
  },
});

export type RecipientListsTrashSnapshot = SnapshotFrom<typeof recipientListsTrashMachine>;

export const selectTrashList = (s: RecipientListsTrashSnapshot): TrashListActor | undefined => s.children.list as TrashListActor | undefined;
export const selectTrashItems = (s: RecipientListsTrashSnapshot): TrashedRecipientList[] => s.context.items;
export const selectTrashQuery = (s: RecipientListsTrashSnapshot): string => s.context.q;
export const selectTrashTarget = (s: RecipientListsTrashSnapshot): number | null => s.context.target;
export const selectIsConfirmingPurge = (s: RecipientListsTrashSnapshot): boolean => s.matches({ shown: 'confirmingPurge' });
export const selectTrashBusy = (s: RecipientListsTrashSnapshot): boolean => s.matches({ shown: 'restoring' }) || s.matches({ shown: 'purging' });
export const selectTrashCrashed = (s: RecipientListsTrashSnapshot): boolean => s.matches('crashed');
