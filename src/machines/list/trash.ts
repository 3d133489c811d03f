// A trash screen (the recipient lists' and the news wall's): the deleted rows, paged (and searched, where the
// screen has a search box) by the list pattern (list/list.ts) as the child `list`. "Restaurar" puts one
// back; "Eliminar definitivamente" asks first, and declining gives the focus back to the row's button. A row
// acted on leaves the list at once (`list.remove`) with a toast; a failure keeps it, with a toast. A crashed
// list is shown as a failure, and Reintentar starts a new one.
//
// Each screen makes its machine with `createTrashMachine`, naming its own calls (their names are also the
// invoke ids, so each screen's done and error events say which call ended).
import { assertEvent, assign, emit, sendTo, setup, type PromiseActorLogic, type SnapshotFrom } from 'xstate';
import type { MessageKey } from '../../i18n';
import type { Effect } from '../app/effects';
import { listChild, listHostActions, type ListMachine, type ListSnapshot } from './list';

/** A call on one trashed row (restore it, delete it forever), by the row's id; its answer (`R`), whatever it is, is not read. */
type TrashCall<R> = PromiseActorLogic<R, { id: number }>;

export interface TrashOptions<T extends { id: number }, Q, R = unknown, P = unknown> {
  /** The machine's id. */
  id: string;
  /** The list of trashed rows, provided with its `fetchPage`. */
  list: ListMachine<T, Q>;
  /** A screen with a search box keeps its text (`q`) and hears `trash.search`. */
  searchable: boolean;
  /** What the list is asked for, from the search box's text ('' without one). */
  queryOf: (q: string) => Q;
  /** The screen's calls, under their names (also their invoke ids, so the done and error events name them). */
  restore: { name: string; call: TrashCall<R> };
  purge: { name: string; call: TrashCall<P> };
  toasts: { restored: MessageKey; purged: MessageKey };
  /** The row's "Eliminar definitivamente" button, where focus returns when the question is declined. */
  purgeButtonId: (id: number) => string;
}

export interface TrashContext<T> {
  /** The search box's text, as typed (only on a screen that has one). */
  q?: string;
  items: T[];
  /** The row being restored, or asked about / being deleted forever. */
  target: number | null;
}

export type TrashEvent<T, Q> =
  | { type: 'trash.search'; q: string }
  | { type: 'trash.loadMore' }
  | { type: 'trash.retry' }
  | { type: 'trash.restore'; id: number }
  | { type: 'trash.purge'; id: number }
  | { type: 'trash.confirm' }
  | { type: 'trash.cancel' }
  | { type: 'xstate.snapshot.list'; snapshot: ListSnapshot<T, Q> };

export function createTrashMachine<T extends { id: number }, Q, R = unknown, P = unknown>(options: TrashOptions<T, Q, R, P>) {
  const { restore, purge, toasts, purgeButtonId } = options;
  const queryOf = (context: TrashContext<T>) => options.queryOf(context.q ?? '');
  const targetOf = (event: TrashEvent<T, Q>): number => {
    assertEvent(event, ['trash.restore', 'trash.purge']);
    return event.id;
  };
  /** Restoring or deleting forever the row asked about: it leaves the list with its toast, or stays with a failure's. */
  const rowCall = (name: string, done: 'toastRestored' | 'toastPurged') =>
    ({
      tags: 'busy',
      invoke: {
        id: name,
        src: name,
        input: ({ context }: { context: TrashContext<T> }) => ({ id: context.target ?? 0 }),
        onDone: { target: 'idle', actions: [done, 'removeTarget', 'clearTarget'] },
        onError: { target: 'idle', actions: ['toastFailed', 'clearTarget'] },
      },
    }) as const;

  return setup({
    types: {
      context: {} as TrashContext<T>,
      events: {} as TrashEvent<T, Q>,
      emitted: {} as Effect,
      children: {} as { list: 'list' },
    },
    actors: { list: options.list, [restore.name]: restore.call, [purge.name]: purge.call },
    actions: {
      /** Its rows, as the child's last snapshot had them (the same array). */
      assignItems: assign({
        items: ({ event }) => {
          assertEvent(event, 'xstate.snapshot.list');
          return event.snapshot.context.items;
        },
      }),
      ...listHostActions<TrashContext<T>, TrashEvent<T, Q>, Q>(queryOf),
      /** The list crashed: its rows go with it (a new list starts empty). */
      forgetItems: assign({ target: null, items: [] }),
      assignQuery: assign(({ event }) => {
        assertEvent(event, 'trash.search');
        return { q: event.q };
      }),
      assignTarget: assign(({ event }) => ({ target: targetOf(event) })),
      clearTarget: assign({ target: null }),
      removeTarget: sendTo('list', ({ context }) => ({
        type: 'list.remove' as const,
        keys: context.target === null ? [] : [context.target],
      })),
      toastRestored: emit({ type: 'toast', kind: 'success', key: toasts.restored }),
      toastPurged: emit({ type: 'toast', kind: 'success', key: toasts.purged }),
      toastFailed: emit({ type: 'toast', kind: 'error', key: 'error.request' }),
      focusPurge: emit(({ context }) => ({ type: 'focus' as const, target: purgeButtonId(context.target ?? 0) })),
    },
    guards: {
      isListed: ({ context, event }) => context.items.some((item) => item.id === targetOf(event)),
    },
  }).createMachine({
    id: options.id,
    initial: 'shown',
    context: options.searchable ? { q: '', items: [], target: null } : { items: [], target: null },
    states: {
      shown: {
        invoke: { ...listChild(queryOf), onError: { target: 'crashed', actions: 'forgetItems' } },
        on: {
          ...(options.searchable ? { 'trash.search': { actions: ['assignQuery', 'askQuery'] } } : {}),
          'trash.loadMore': { actions: 'askMore' },
          'trash.retry': { actions: 'askReload' },
        },
        initial: 'idle',
        states: {
          idle: {
            on: {
              'trash.restore': { guard: 'isListed', target: 'restoring', actions: 'assignTarget' },
              'trash.purge': { guard: 'isListed', target: 'confirmingPurge', actions: 'assignTarget' },
            },
          },
          confirmingPurge: {
            on: {
              'trash.confirm': { target: 'purging' },
              'trash.cancel': { target: 'idle', actions: ['focusPurge', 'clearTarget'] },
            },
          },
          restoring: rowCall(restore.name, 'toastRestored'),
          purging: rowCall(purge.name, 'toastPurged'),
        },
      },
      crashed: {
        on: { 'trash.retry': { target: 'shown' } },
      },
    },
  });
}

type TrashMachine<T extends { id: number }, Q> = ReturnType<typeof createTrashMachine<T, Q>>;
export type TrashSnapshot<T extends { id: number }, Q> = SnapshotFrom<TrashMachine<T, Q>>;

// Selectors: primitives, or context references that change only with their value.
export const selectTrashList = <T extends { id: number }, Q>(s: TrashSnapshot<T, Q>) => s.children.list;
export const selectTrashItems = <T extends { id: number }, Q>(s: TrashSnapshot<T, Q>): T[] => s.context.items;
export const selectTrashQuery = <T extends { id: number }, Q>(s: TrashSnapshot<T, Q>): string => s.context.q ?? '';
export const selectTrashTarget = <T extends { id: number }, Q>(s: TrashSnapshot<T, Q>): number | null => s.context.target;
export const selectTrashConfirming = <T extends { id: number }, Q>(s: TrashSnapshot<T, Q>): boolean =>
  s.matches({ shown: 'confirmingPurge' });
/** Restoring or deleting one row. */
export const selectTrashBusy = <T extends { id: number }, Q>(s: TrashSnapshot<T, Q>): boolean => s.hasTag('busy');
export const selectTrashCrashed = <T extends { id: number }, Q>(s: TrashSnapshot<T, Q>): boolean => s.matches('crashed');
