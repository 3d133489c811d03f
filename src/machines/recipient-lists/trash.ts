// /recipient-lists/trash (SPEC §2): the user's deleted lists (who deleted each and when), paged and searched.
// "Restaurar" puts one back, "Eliminar definitivamente" asks first. The trash machine is list/trash.ts's.
import type { TrashedRecipientList } from '../../../shared/recipient-lists-contract';
import { fetchTrashPage, purgeList, restoreList, type ListsQuery } from '../../services/recipient-lists/recipient-lists';
import { listOf } from '../list/list';
import * as trash from '../list/trash';

const trashListMachine = listOf<TrashedRecipientList, ListsQuery>(fetchTrashPage, (list) => list.id);

/** The row's "Eliminar definitivamente" button, where focus returns when the question is declined. */
export const trashPurgeButtonId = (id: number) => `trash-purge-${id}`;

export const recipientListsTrashMachine = trash.createTrashMachine({
  id: 'recipientListsTrash',
  list: trashListMachine,
  searchable: true,
  queryOf: (q) => ({ q }),
  restore: { name: 'restoreList', call: restoreList },
  purge: { name: 'purgeList', call: purgeList },
  toasts: { restored: 'recipientLists.restored', purged: 'recipientLists.purged' },
  purgeButtonId: trashPurgeButtonId,
});

export type RecipientListsTrashSnapshot = trash.TrashSnapshot<TrashedRecipientList, ListsQuery>;

export const selectTrashList = trash.selectTrashList<TrashedRecipientList, ListsQuery>;
export const selectTrashItems = trash.selectTrashItems<TrashedRecipientList, ListsQuery>;
export const selectTrashQuery = trash.selectTrashQuery<TrashedRecipientList, ListsQuery>;
export const selectIsConfirmingPurge = trash.selectTrashConfirming<TrashedRecipientList, ListsQuery>;
export const selectTrashCrashed = trash.selectTrashCrashed<TrashedRecipientList, ListsQuery>;
