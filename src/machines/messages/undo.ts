// "Deshacer": the toast of Eliminar carries a button whose event (`undo.restore` with the ids
// deleted) the edge sends to the app root, which hands it here. App-lifetime (systemId `undo`), because
// the screen that deleted may be gone by then: the reading view leaves for its folder as soon as its
// message is in the trash. Restoring puts the messages back where they were (the server remembers), then
// says so, reloads the counters and tells the open pages (`messages.restored`) so a folder shows them again.
// Undos pressed while one runs wait their turn.
import { assertEvent, assign, emit, setup, type SnapshotFrom } from 'xstate';
import { restoreMessages } from '../../services/messages/folder-info';
import type { CountsChangedEvent, ToastCommand, ToastEvent } from '../app/effects';

export interface UndoContext {
  /** The ids being restored now. */
  ids: number[];
  /** Ids of undos pressed meanwhile, restored next. */
  queued: number[];
}

export type UndoEvent = Extract<ToastCommand, { type: 'undo.restore' }>;

/** The open pages learn that these messages are back (a folder reloads its list). */
export interface MessagesRestoredEvent {
  type: 'messages.restored';
  ids: number[];
}

export type UndoEmitted = ToastEvent | CountsChangedEvent | MessagesRestoredEvent;

const idsOf = (event: UndoEvent) => {
  assertEvent(event, 'undo.restore');
  return event.ids;
};

export const undoMachine = setup({
  types: {
    context: {} as UndoContext,
    events: {} as UndoEvent,
    emitted: {} as UndoEmitted,
  },
  actors: { restoreMessages },
  actions: {
    take: assign(({ event }) => ({ ids: idsOf(event) })),
    queue: assign(({ context, event }) => ({
      queued: [...context.queued, ...idsOf(event).filter((id) => !context.queued.includes(id) && !context.ids.includes(id))],
    })),
    takeQueued: assign(({ context }) => ({ ids: context.queued, queued: [] })),
    clear: assign({ ids: [] }),
    toastRestored: emit(({ context }) => ({
      type: 'toast' as const,
      kind: 'success' as const,
      key: 'messages.restored' as const,
      params: { count: context.ids.length },
    })),
    toastFailed: emit({ type: 'toast', kind: 'error', key: 'error.request' }),
    announceCounts: emit({ type: 'counts.changed' }),
    announceRestored: emit(({ context }) => ({ type: 'messages.restored' as const, ids: context.ids })),
  },
  guards: {
    hasIds: ({ event }) => idsOf(event).length > 0,
    hasQueued: ({ context }) => context.queued.length > 0,
  },
}).createMachine({
  id: 'undo',
  initial: 'idle',
  context: { ids: [], queued: [] },
  states: {
    idle: {
      on: { 'undo.restore': { guard: 'hasIds', target: 'restoring', actions: 'take' } },
    },
    restoring: {
      tags: 'busy',
      invoke: {
        id: 'restoreMessages',
        src: 'restoreMessages',
        input: ({ context }) => ({ ids: context.ids }),
        onDone: [
          {
            guard: 'hasQueued',
            target: 'restoring',
            reenter: true,
            actions: ['toastRestored', 'announceCounts', 'announceRestored', 'takeQueued'],
          },
          { target: 'idle', actions: ['toastRestored', 'announceCounts', 'announceRestored', 'clear'] },
        ],
        // Restored meanwhile (from the trash) or gone: nothing to put back; the toast says it did not work.
        onError: [
          { guard: 'hasQueued', target: 'restoring', reenter: true, actions: ['toastFailed', 'takeQueued'] },
          { target: 'idle', actions: ['toastFailed', 'clear'] },
        ],
      },
      on: { 'undo.restore': { guard: 'hasIds', actions: 'queue' } },
    },
  },
});

export type UndoSnapshot = SnapshotFrom<typeof undoMachine>;

export const selectIsUndoing = (snapshot: UndoSnapshot): boolean => snapshot.hasTag('busy');
