// /recipient-lists/trash (SPEC §2): the user's deleted lists (who deleted each and when), paged and searched.
// "Restaurar" puts one back, "Eliminar definitivamente" asks first. The trash machine is list/trash.ts's.
import type { TrashedRecipientList } from '../../../shared/recipient-lists-contract';
import { fetchTrashPage, purgeList, restoreList, type ListsQuery } from '../../services/recipient-lists/recipient-lists';
import { createListMachine } from '../list/list';
import {
  createTrashMachine,
  selectTrashBusy as busy,
  selectTrashConfirming,
  selectTrashCrashed as crashed,
  selectTrashItems as items,
  selectTrashList as list,
  selectTrashQuery as query,
  selectTrashTarget as target,
  type TrashSnapshot,
} from '../list/trash';

const trashListMachine = createListMachine<TrashedRecipientList, ListsQuery>({ key: (list) => list.id }).provide({
  actors: { fetchPage: fetchTrashPage },
});

/** The row's "Eliminar definitivamente" button, where focus returns when the question is declined. */
export const trashPurgeButtonId = (id: number) => `trash-purge-${id}`;

export const recipientListsTrashMachine = createTrashMachine({
  id: 'recipientListsTrash',
  list: trashListMachine,
  searchable: true,
  queryOf: (q) => ({ q }),
  restore: { name: 'restoreList', call: restoreList },
  purge: { name: 'purgeList', call: purgeList },
  toasts: { restored: 'recipientLists.restored', purged: 'recipientLists.purged' },
  purgeButtonId: trashPurgeButtonId,
});

export type RecipientListsTrashSnapshot = TrashSnapshot<TrashedRecipientList, ListsQuery>;

export const selectTrashList = list<TrashedRecipientList, ListsQuery>;
export const selectTrashItems = items<TrashedRecipientList, ListsQuery>;
export const selectTrashQuery = query<TrashedRecipientList, ListsQuery>;
export const selectTrashTarget = target<TrashedRecipientList, ListsQuery>;
export const selectIsConfirmingPurge = selectTrashConfirming<TrashedRecipientList, ListsQuery>;
export const selectTrashBusy = busy<TrashedRecipientList, ListsQuery>;
export const selectTrashCrashed = crashed<TrashedRecipientList, ListsQuery>;
