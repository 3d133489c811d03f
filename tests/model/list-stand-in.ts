// A stand-in for a hosted list (machines/list.ts) in the model tests of the screens that host one (the
// recipient lists and their trash): it shows the rows a path gives it (`test.show`), crashes on request,
// and ignores what its host tells it, so a step changes only the host's own reaction. What reached it is
// read from the inspection's deliveries.
import { assign, initialTransition, setup, transition, type AnyActorRef, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import type { StepEnv } from './harness';

export const listStandIn = setup({
  types: {
    input: {} as unknown,
    context: {} as { items: unknown[]; input: unknown },
    events: {} as { type: 'test.show'; items: unknown[] } | { type: 'test.crash' },
  },
  actions: {
    crash: () => {
      throw new Error('list: a bug');
    },
  },
}).createMachine({
  id: 'listStandIn',
  context: ({ input }) => ({ items: [], input }),
  on: {
    'test.show': { actions: assign({ items: ({ event }) => event.items }) },
    'test.crash': { actions: 'crash' },
  },
});

/** The list's snapshot showing `items`, as the host's `xstate.snapshot.list` carries it; `rows` titles paths. */
export function showing(rows: string, items: unknown[]): AnyEventObject {
  const [initial] = initialTransition(listStandIn, {});
  const [shown] = transition(listStandIn, initial, { type: 'test.show', items });
  return { type: 'xstate.snapshot.list', rows, snapshot: shown };
}

const listOf = (env: StepEnv) => (env.actor.getSnapshot() as AnyMachineSnapshot).children.list as AnyActorRef | undefined;

/** Executors of the list's own events on the stand-in. */
export const listExecutors = {
  'xstate.snapshot.list': (env: StepEnv) => listOf(env)?.send({ type: 'test.show', items: (env.event.snapshot as AnyMachineSnapshot).context.items }),
  'xstate.error.actor.list': (env: StepEnv) => listOf(env)?.send({ type: 'test.crash' }),
};

/** What the host told its list in this step (the stand-in's own and XState's events left out). */
export const toldList = (env: StepEnv): AnyEventObject[] =>
  env.delivered.filter((d) => d.to === 'list' && !/^(test|xstate)\./.test(d.event.type)).map((d) => d.event as AnyEventObject);
