// /mural/trash (managers): the school's deleted posts, newest deleted first, with who deleted each and when
// (over the API's cursor pages). "Restaurar" puts one back on the desk as it was; "Eliminar definitivamente"
// asks first (its files go too). The trash machine is list/trash.ts's.
import type { ActorRefFrom } from 'xstate';
import type { NewsPost } from '../../../shared/news-contract';
import { fetchNewsTrashPage, purgeNewsPost, restoreNewsPost, type NewsTrashQuery } from '../../services/news/admin';
import { listOf } from '../list/list';
import {
  createTrashMachine,
  selectTrashBusy,
  selectTrashConfirming,
  selectTrashCrashed,
  selectTrashItems,
  selectTrashList,
  type TrashSnapshot,
} from '../list/trash';

const newsTrashListMachine = listOf<NewsPost, NewsTrashQuery>(fetchNewsTrashPage, (post) => post.id);
export type NewsTrashListActor = ActorRefFrom<typeof newsTrashListMachine>;

/** The row's "Eliminar definitivamente" button, where focus returns when the question is declined. */
export const newsPurgeButtonId = (id: number) => `news-trash-purge-${id}`;

export const newsTrashMachine = createTrashMachine({
  id: 'newsTrash',
  list: newsTrashListMachine,
  searchable: false,
  queryOf: () => ({}),
  restore: { name: 'restoreNewsPost', call: restoreNewsPost },
  purge: { name: 'purgeNewsPost', call: purgeNewsPost },
  toasts: { restored: 'newsAdmin.trash.restored', purged: 'newsAdmin.trash.purged' },
  purgeButtonId: newsPurgeButtonId,
});

export type NewsTrashSnapshot = TrashSnapshot<NewsPost, NewsTrashQuery>;

export const selectNewsTrashList = selectTrashList<NewsPost, NewsTrashQuery>;
export const selectNewsTrashItems = selectTrashItems<NewsPost, NewsTrashQuery>;
export const selectNewsTrashConfirming = selectTrashConfirming<NewsPost, NewsTrashQuery>;
export const selectNewsTrashBusy = selectTrashBusy<NewsPost, NewsTrashQuery>;
export const selectNewsTrashCrashed = selectTrashCrashed<NewsPost, NewsTrashQuery>;
