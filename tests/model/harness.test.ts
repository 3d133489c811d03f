// The harness must be able to fail: these tests feed it broken actors and incomplete specs.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { assign, createActor, emit, fromPromise, setup } from 'xstate';
import { computeCoverage, machineEventTypes, machineStateKeys } from './coverage';
import { elapse, planPaths, runPath, send, settle, T0, type ModelSpec } from './harness';

const door = setup({
  types: {
    context: {} as { opens: number },
    events: {} as { type: 'door.open' } | { type: 'door.close' },
    emitted: {} as { type: 'door.opened' },
  },
  actors: { unlock: fromPromise(async () => undefined) },
  delays: { autoClose: 1000 },
}).createMachine({
  id: 'door',
  initial: 'closed',
  context: { opens: 0 },
  states: {
    closed: { on: { 'door.open': { target: 'unlocking' } } },
    unlocking: {
      invoke: { id: 'unlock', src: 'unlock', onDone: { target: 'open' }, onError: { target: 'closed' } },
    },
    open: {
      entry: [assign({ opens: ({ context }) => context.opens + 1 }), emit({ type: 'door.opened' })],
      after: { autoClose: { target: 'closed' } },
      on: { 'door.close': { target: 'closed' } },
    },
  },
});

function spec(overrides: Partial<ModelSpec> = {}): ModelSpec {
  return {
    name: 'door',
    machine: door,
    traversal: {
      events: [{ type: 'door.open' }, { type: 'door.close' }],
      internal: [
        { type: 'xstate.done.actor.unlock', output: undefined },
        { type: 'xstate.error.actor.unlock', error: new Error('jammed') },
        { type: 'xstate.after.autoClose.door.open' },
      ],
      // `opens` grows forever: one vertex per state value keeps the traversal finite.
      serializeState: (snapshot) => JSON.stringify(snapshot.value),
      limit: 100,
    },
    createActor: ({ fakes }) => createActor(door.provide({ actors: { unlock: fakes.promise() } })),
    states: { closed: () => {}, unlocking: () => {}, open: () => {} },
    events: {
      'door.open': send,
      'door.close': send,
      'xstate.done.actor.unlock': settle,
      'xstate.error.actor.unlock': settle,
      'xstate.after.autoClose.door.open': elapse,
    },
    emits: ({ from, to }) => (!from.matches('open') && to.matches('open') ? [{ type: 'door.opened' }] : []),
    ...overrides,
  };
}

const longest = (paths: ReturnType<typeof planPaths>) => paths.reduce((a, b) => (b.steps.length > a.steps.length ? b : a));
const through = (paths: ReturnType<typeof planPaths>, fragment: string) => {
  const path = paths.find((candidate) => candidate.description.includes(fragment));
  if (!path) throw new Error(`no path through ${fragment}`);
  return path;
};

describe('model harness', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: T0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('plans paths that take every transition, and passes a correct spec', async () => {
    const paths = planPaths(door, spec().traversal);
    const report = computeCoverage('door', door, paths);
    expect(report.transitions.uncovered).toEqual([]);
    expect(report.states.uncovered).toEqual([]);
    for (const path of paths) await runPath(spec(), path);
  });

  it('refuses an unbounded traversal', () => {
    expect(() => planPaths(door, { ...spec().traversal, serializeState: undefined })).toThrow(/Traversal limit exceeded/);
  });

  it('lists every state and event type that needs a handler', () => {
    expect(machineStateKeys(door).sort()).toEqual(['closed', 'open', 'unlocking']);
    expect(machineEventTypes(door)).toEqual([
      'door.close',
      'door.open',
      'xstate.after.autoClose.door.open',
      'xstate.done.actor.unlock',
      'xstate.error.actor.unlock',
    ]);
  });

  it('reports transitions the paths never take', () => {
    const paths = planPaths(door, spec().traversal).filter((path) => !path.description.includes('error.actor.unlock'));
    expect(computeCoverage('door', door, paths).transitions.uncovered).toEqual(['door.unlocking · xstate.error.actor.unlock #0 → door.closed']);
  });

  it('fails when the real actor diverges from the model', async () => {
    // An executor that does nothing: the model moves, the real actor does not.
    const broken = spec({ events: { ...spec().events, 'door.open': () => {} } });
    await expect(runPath(broken, longest(planPaths(door, broken.traversal)))).rejects.toThrow(/state value/);
  });

  it('fails on an unexpected or missing emitted event', async () => {
    const silent = spec({ emits: () => [] });
    await expect(runPath(silent, through(planPaths(door, silent.traversal), 'done.actor.unlock'))).rejects.toThrow(/emitted events/);
  });

  it('fails when a state has no assertion', async () => {
    const partial = spec({ states: { closed: () => {} } });
    await expect(runPath(partial, through(planPaths(door, partial.traversal), 'door.open'))).rejects.toThrow(/no assertion for state "unlocking"/);
  });

  it('fails when a delay fires early or late', async () => {
    const early = door.provide({ delays: { autoClose: 10 } });
    const wrong = spec({ createActor: ({ fakes }) => createActor(early.provide({ actors: { unlock: fakes.promise() } })) });
    await expect(runPath(wrong, through(planPaths(door, wrong.traversal), 'after.autoClose'))).rejects.toThrow(/fired before "autoClose"/);
  });

  it('fails when an I/O actor is not under the test\'s control', async () => {
    // The unprovided `unlock` resolves on its own, so the real door opens before the model says so.
    const uncontrolled = spec({ createActor: () => createActor(door) });
    await expect(runPath(uncontrolled, through(planPaths(door, uncontrolled.traversal), 'done.actor.unlock'))).rejects.toThrow(
      /state value/,
    );
  });
});
