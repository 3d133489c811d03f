// The hosted list's stand-in (doubles.ts `listStandIn`) as the recipient-list screens' model tests drive it:
// its executors (show rows, crash) and what the host told it in a step, read from the deliveries.
import type { AnyActorRef, AnyEventObject, AnyMachineSnapshot } from 'xstate';
import { listStandIn, showingRows } from './doubles';
import type { StepEnv } from './harness';

export { listStandIn };
export const showing = (rows: string, items: unknown[]): AnyEventObject => showingRows(rows, items);

const listOf = (env: StepEnv) => (env.actor.getSnapshot() as AnyMachineSnapshot).children.list as AnyActorRef | undefined;

/** Executors of the list's own events on the stand-in. */
export const listExecutors = {
  'xstate.snapshot.list': (env: StepEnv) =>
    listOf(env)?.send({ type: 'test.show', items: (env.event.snapshot as AnyMachineSnapshot).context.items }),
  'xstate.error.actor.list': (env: StepEnv) => listOf(env)?.send({ type: 'test.crash' }),
};

/** What the host told its list in this step (the stand-in's own and XState's events left out). */
export const toldList = (env: StepEnv): AnyEventObject[] =>
  env.delivered.filter((d) => d.to === 'list' && !/^(test|xstate)\./.test(d.event.type)).map((d) => d.event as AnyEventObject);
