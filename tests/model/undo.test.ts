import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import { selectIsUndoing, undoMachine, type UndoContext } from '../../src/machines/messages/undo';
import { defineModelTests, send, settle, type StepEnv } from './harness';
import { failure } from './fixtures';

/** "Deshacer" on a toast of two messages deleted; another pressed meanwhile; a toast of nothing (no ids). */
const FIRST = { type: 'undo.restore', ids: [31, 32] };
const LATER = { type: 'undo.restore', ids: [33] };
const AGAIN = { type: 'undo.restore', ids: [31, 32] };
const NOTHING = { type: 'undo.restore', ids: [] };
/** Restored from the trash meanwhile, or purged: the server refuses. */
const GONE = failure(409, 'message.illegal_transition', 'El mensaje ya no está en la papelera.');

const ctx = (snapshot: AnyMachineSnapshot) => snapshot.context as UndoContext;

function expectRunning(env: StepEnv, ids: number[] | null) {
  expect(env.fakes.isRunning('restoreMessages'), 'restoreMessages running').toBe(ids !== null);
  if (ids !== null) expect(env.fakes.inputOf('restoreMessages')).toEqual({ ids });
}

defineModelTests({
  name: 'undo',
  machine: undoMachine,
  // "Deshacer" restores what its toast deleted; undos pressed meanwhile wait their turn.
  oracle: {
    initial: 'idle',
    targets: {
      // A toast of nothing has nothing to put back.
      idle: { 'undo.restore': ({ event, stay }) => (event.ids.length > 0 ? 'restoring' : stay) },
      // Done or refused, the next waiting undo starts; with none waiting, it rests.
      restoring: {
        'xstate.done.actor.restoreMessages': ({ context }) => (context.queued.length > 0 ? 'restoring' : 'idle'),
        'xstate.error.actor.restoreMessages': ({ context }) => (context.queued.length > 0 ? 'restoring' : 'idle'),
      },
    },
  },
  traversal: {
    events: [FIRST, LATER, AGAIN, NOTHING],
    internal: [
      { type: 'xstate.done.actor.restoreMessages', output: 2 },
      { type: 'xstate.error.actor.restoreMessages', error: GONE },
    ],
    // One more undo pressed while one runs is enough to see the queue (and the same ids twice, once).
    filterEvents: (snapshot, event) => event.type !== 'undo.restore' || ctx(snapshot).queued.length === 0,
    limit: 500,
  },
  createActor: ({ fakes, inspect, machine }) => createActor(machine.provide({ actors: { restoreMessages: fakes.promise() } }), { inspect }),
  states: {
    idle: (snapshot, env) => {
      expect(selectIsUndoing(snapshot as never)).toBe(false);
      expect(ctx(snapshot)).toEqual({ ids: [], queued: [] });
      expectRunning(env, null);
    },
    restoring: (snapshot, env) => {
      expect(selectIsUndoing(snapshot as never)).toBe(true);
      expect(ctx(snapshot).ids.length).toBeGreaterThan(0);
      expectRunning(env, ctx(snapshot).ids);
      // Pressed meanwhile: waits, unless those ids are already on their way.
      if (env.event.type === 'undo.restore' && env.from.matches('restoring')) {
        expect(env.started, 'the running restore goes on').toEqual([]);
        const known = [...ctx(env.from).ids, ...ctx(env.from).queued];
        expect(ctx(snapshot).queued).toEqual([...ctx(env.from).queued, ...(env.event.ids as number[]).filter((id) => !known.includes(id))]);
      }
      // Done or failed with more waiting: those go next, all of them, and nothing waits behind them.
      if (env.event.type.startsWith('xstate.')) {
        expect(ctx(snapshot).ids).toEqual(ctx(env.from).queued);
        expect(ctx(snapshot).queued, 'still waiting').toEqual([]);
      }
    },
  },
  events: {
    'undo.restore': send,
    'xstate.done.actor.restoreMessages': settle,
    'xstate.error.actor.restoreMessages': settle,
  },
  // Back: the toast says how many, the counters reload, the open pages hear which. Not back: the error toast.
  emits: ({ event, from }): AnyEventObject[] => {
    const { ids } = ctx(from);
    if (event.type === 'xstate.done.actor.restoreMessages') {
      return [
        { type: 'toast', kind: 'success', key: 'messages.restored', params: { count: ids.length } },
        { type: 'counts.changed' },
        { type: 'messages.restored', ids },
      ];
    }
    if (event.type === 'xstate.error.actor.restoreMessages') return [{ type: 'toast', kind: 'error', key: 'error.request' }];
    return [];
  },
});
