// /mural/trash (managers): the school's deleted posts, newest deleted first, with who deleted each
// and when (the list pattern, list/list.ts, as the child `list`, over the API's cursor pages). "Restaurar" puts
// one back on the desk as it was (toast); "Eliminar definitivamente" asks first (its files go too). A post
// acted on leaves the list at once; a failure keeps it, with a toast.
import { assertEvent, assign, emit, sendTo, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { NewsPost } from '../../../shared/news-contract';
import { fetchNewsTrashPage, purgeNewsPost, restoreNewsPost, type NewsTrashQuery } from '../../services/news/admin';
import type { Effect } from '../app/effects';
import { createListMachine, listChild, listHostActions } from '../list/list';
import { trashRowStates } from '../messages/trash-rows';

export const newsTrashListMachine = createListMachine<NewsPost, NewsTrashQuery>({ key: (post) => post.id }).provide({
  actors: { fetchPage: fetchNewsTrashPage },
});
export type NewsTrashListActor = ActorRefFrom<typeof newsTrashListMachine>;
type NewsTrashListSnapshot = SnapshotFrom<typeof newsTrashListMachine>;

export interface NewsTrashContext {
  items: NewsPost[];
  /** The post being restored, or asked about / being deleted forever. */
  target: number | null;
}

export type NewsTrashEvent =
  | { type: 'trash.loadMore' }
  | { type: 'trash.retry' }
  | { type: 'trash.restore'; id: number }
  | { type: 'trash.purge'; id: number }
  | { type: 'trash.confirm' }
  | { type: 'trash.cancel' }
  | { type: 'xstate.snapshot.list'; snapshot: NewsTrashListSnapshot };

/** The row's "Eliminar definitivamente" button, where focus returns when the question is declined. */
export const newsPurgeButtonId = (id: number) => `news-trash-purge-${id}`;

const queryOf = (): NewsTrashQuery => ({});

const targetOf = (event: NewsTrashEvent): number => {
  assertEvent(event, ['trash.restore', 'trash.purge']);
  return event.id;
};

export const newsTrashMachine = setup({
  types: {
    context: {} as NewsTrashContext,
    events: {} as NewsTrashEvent,
    emitted: {} as Effect,
  },
  actors: { list: newsTrashListMachine, restoreNewsPost, purgeNewsPost },
  actions: {
    /** The list crashed: its rows go with it (a new list starts empty). */
    forgetItems: assign({ target: null, items: [] }),
    ...listHostActions<NewsTrashContext, NewsTrashEvent, NewsTrashQuery>(queryOf),
    assignTarget: assign(({ event }) => ({ target: targetOf(event) })),
    clearTarget: assign({ target: null }),
    removeTarget: sendTo('list', ({ context }) => ({ type: 'list.remove' as const, keys: context.target === null ? [] : [context.target] })),
    toastRestored: emit({ type: 'toast', kind: 'success', key: 'newsAdmin.trash.restored' }),
    toastPurged: emit({ type: 'toast', kind: 'success', key: 'newsAdmin.trash.purged' }),
    toastFailed: emit({ type: 'toast', kind: 'error', key: 'error.request' }),
    focusPurge: emit(({ context }) => ({ type: 'focus' as const, target: newsPurgeButtonId(context.target ?? 0) })),
  },
  guards: {
    isListed: ({ context, event }) => context.items.some((item) => item.id === targetOf(event)),
  },
}).createMachine({
  id: 'newsTrash',
  initial: 'shown',
  context: { items: [], target: null },
  states: {
    shown: {
      invoke: { ...listChild(queryOf), onError: { target: 'crashed', actions: 'forgetItems' } },
      on: {
        'trash.loadMore': { actions: 'askMore' },
        'trash.retry': { actions: 'askReload' },
      },
      initial: 'idle',
      states: trashRowStates('restoreNewsPost', 'purgeNewsPost'),
    },
    crashed: {
      on: { 'trash.retry': { target: 'shown' } },
    },
  },
});

export type NewsTrashSnapshot = SnapshotFrom<typeof newsTrashMachine>;

export const selectNewsTrashList = (s: NewsTrashSnapshot): NewsTrashListActor | undefined => s.children.list as NewsTrashListActor | undefined;
export const selectNewsTrashItems = (s: NewsTrashSnapshot): NewsPost[] => s.context.items;
export const selectNewsTrashTarget = (s: NewsTrashSnapshot): number | null => s.context.target;
export const selectNewsTrashConfirming = (s: NewsTrashSnapshot): boolean => s.matches({ shown: 'confirmingPurge' });
export const selectNewsTrashBusy = (s: NewsTrashSnapshot): boolean => s.hasTag('busy');
export const selectNewsTrashCrashed = (s: NewsTrashSnapshot): boolean => s.matches('crashed');
