// Running an abstract model's paths in the browser: every state has a check and every
// event a driver, both taking the path's context; and the transitions a set of paths goes through, to
// compare with the ones the model has.
import type { AnyStateMachine, EventObject, Snapshot } from 'xstate';
import type { StatePath, TestPath } from 'xstate/graph';

/**
 * A path's time limit: its setup plus a few seconds per step. A long path legitimately takes longer than
 * the config's 30 s for one test, and its steps may each wait up to the expect timeout on a busy machine.
 */
export const PATH_TIMEOUT = (steps: number): number => 20_000 + 5_000 * steps;

export type Checks<S extends string, C> = Record<S, (ctx: C) => Promise<void>>;
export type Drivers<E extends string, C> = Record<E, (ctx: C) => Promise<void>>;

/** Runs `path`: before each step's state check, the driver of the event that led there. */
export async function runPath<TSnapshot extends Snapshot<unknown>, TEvent extends EventObject, C>(
  path: TestPath<TSnapshot, TEvent>,
  ctx: C,
  checks: Checks<string, C>,
  drivers: Drivers<TEvent['type'], C>,
): Promise<void> {
  const events = Object.fromEntries(
    Object.entries<(ctx: C) => Promise<void>>(drivers).map(([type, drive]) => [type, () => drive(ctx)]),
  ) as { [K in TEvent['type']]: () => Promise<void> };
  await path.test({
    states: Object.fromEntries(Object.entries(checks).map(([state, check]) => [state, () => check(ctx)])),
    events,
  });
}

/** Every event type a flat model handles, sorted. */
export function modelEvents(machine: AnyStateMachine): string[] {
  const events = new Set<string>();
  for (const node of Object.values(machine.states)) for (const event of Object.keys(node.config.on ?? {})) events.add(event);
  return [...events].sort();
}

/**
 * Every transition of a flat model as "<source> <event>" (the source JSON-encoded, as a path's state value
 * is), plus "undefined xstate.init" for the start.
 */
export function modelTransitions(machine: AnyStateMachine): string[] {
  const transitions = ['undefined xstate.init'];
  for (const [name, node] of Object.entries(machine.states)) {
    for (const event of Object.keys(node.config.on ?? {})) transitions.push(`${JSON.stringify(name)} ${event}`);
  }
  return transitions.sort();
}

/** The transitions `paths` go through, in the form of `modelTransitions`. */
export function pathTransitions(paths: readonly StatePath<Snapshot<unknown> & { value?: unknown }, EventObject>[]): string[] {
  const covered = new Set<string>();
  for (const path of paths) {
    let from: unknown;
    for (const step of path.steps) {
      covered.add(`${JSON.stringify(from)} ${step.event.type}`);
      from = step.state.value;
    }
  }
  return [...covered].sort();
}
