// The two shared machine parts a screen's panels are built from, on a small host of their own:
// `loadStates` (app/load-states.ts: loading → shown | failed, Reintentar asks again, the last answer kept)
// and `childPanelRegion` (app/child-panel.ts: a child actor that crashes alone, restarted on request).
import { assign, createActor, fromPromise, setup, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import { childPanelRegion } from '../../src/machines/app/child-panel';
import { loadStates } from '../../src/machines/app/load-states';
import { defineModelTests, send, settle } from './harness';

interface HostContext {
  asked: number;
  answer: number | null;
}
type HostEvent = { type: 'panel.retry' } | { type: 'panel.restart' };

const hostMachine = setup({
  types: { context: {} as HostContext, events: {} as HostEvent },
  actors: {
    fetchAnswer: fromPromise<number, { asked: number }>(async () => 0),
    runSummary: fromPromise<void, { answer: number | null }>(async () => undefined),
  },
  actions: {
    keepAnswer: assign((_, answer: number) => ({ answer })),
  },
}).createMachine({
  id: 'host',
  type: 'parallel',
  context: { asked: 7, answer: null },
  states: {
    table: {
      initial: 'loading',
      states: loadStates<HostContext, HostEvent>()('fetchAnswer', ({ context }) => ({ asked: context.asked }), 'keepAnswer', 'panel.retry'),
    },
    summary: childPanelRegion<HostContext, HostEvent>()('runSummary', ({ context }) => ({ answer: context.answer }), 'panel.restart'),
  },
});

const contextOf = (snapshot: AnyMachineSnapshot) => snapshot.context as HostContext;
/** The last answer that came, by the test's account of the events so far. */
const lastAnswer = (history: readonly { type: string; output?: unknown }[]): number | null =>
  history.reduce<number | null>((kept, event) => (event.type === 'xstate.done.actor.fetchAnswer' ? (event.output as number) : kept), null);

defineModelTests({
  name: 'panel parts',
  machine: hostMachine,
  oracle: {
    initial: { table: 'loading', summary: 'running' },
    targets: {
      'table.loading': { 'xstate.done.actor.fetchAnswer': 'table.shown', 'xstate.error.actor.fetchAnswer': 'table.failed' },
      'table.failed': { 'panel.retry': 'table.loading' },
      'summary.running': { 'xstate.error.actor.runSummary': 'summary.crashed' },
      'summary.crashed': { 'panel.restart': 'summary.running' },
    },
  },
  traversal: {
    events: [{ type: 'panel.retry' }, { type: 'panel.restart' }],
    internal: [
      { type: 'xstate.done.actor.fetchAnswer', output: 42 },
      { type: 'xstate.error.actor.fetchAnswer', error: new Error('sin red') },
      { type: 'xstate.error.actor.runSummary', error: new Error('un error del panel') },
    ],
    limit: 200,
  },
  createActor: ({ fakes, machine }) =>
    createActor(machine.provide({ actors: { fetchAnswer: fakes.promise(), runSummary: fakes.promise() } })),
  states: {
    table: () => {},
    summary: () => {},
    'table.loading': (snapshot, env) => {
      expect(snapshot.hasTag('busy'), 'busy while asking').toBe(true);
      // Asked on entry, with the host's input; the answer shown before stays until the next one.
      expect(env.fakes.inputOf('fetchAnswer')).toEqual({ asked: 7 });
      expect(contextOf(snapshot).answer).toBe(lastAnswer(env.history));
    },
    'table.shown': (snapshot, env) => {
      expect(snapshot.hasTag('busy')).toBe(false);
      expect(contextOf(snapshot).answer).toBe(lastAnswer(env.history));
    },
    'table.failed': (snapshot, env) => {
      expect(snapshot.hasTag('busy')).toBe(false);
      expect(contextOf(snapshot).answer, 'the last answer stays on screen').toBe(lastAnswer(env.history));
    },
    'summary.running': (_snapshot, env) => {
      expect(env.fakes.isRunning('runSummary'), 'the child runs').toBe(true);
    },
    'summary.crashed': (snapshot, env) => {
      expect(env.fakes.isRunning('runSummary')).toBe(false);
      // A crash of the panel leaves the rest of the screen as it was.
      expect(contextOf(snapshot).answer).toBe(lastAnswer(env.history));
    },
  },
  events: {
    'panel.retry': send,
    'panel.restart': send,
    'xstate.done.actor.fetchAnswer': settle,
    'xstate.error.actor.fetchAnswer': settle,
    'xstate.error.actor.runSummary': settle,
  },
  emits: () => [],
});
