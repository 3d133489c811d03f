// The harness must be able to fail: these tests feed it broken actors and incomplete specs.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { assertEvent, assign, createActor, createMachine, emit, fromPromise, setup, type AnyStateMachine } from 'xstate';
import { computeCoverage, machineEventTypes, machineStateKeys } from './coverage';
import { elapse, oracleGaps, planPaths, runPath, send, settle, specsOf, T0, type ModelSpec, type Oracle, type RunOptions } from './harness';

const door = setup({
  types: {
    context: {} as { opens: number },
    events: {} as { type: 'door.open'; master?: boolean } | { type: 'door.close' },
    emitted: {} as { type: 'door.opened' },
  },
  actors: { unlock: fromPromise(async () => undefined) },
  guards: {
    hasMasterKey: ({ event }) => {
      assertEvent(event, 'door.open');
      return event.master === true;
    },
  },
  delays: { autoClose: 1000 },
}).createMachine({
  id: 'door',
  initial: 'closed',
  context: { opens: 0 },
  states: {
    // The master key opens at once; anyone else's waits for the lock.
    closed: { on: { 'door.open': [{ guard: 'hasMasterKey', target: 'open' }, { target: 'unlocking' }] } },
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

type Door = typeof door;

/** The door as its users know it, written without looking at the machine. */
const doorOracle: Oracle<Door> = {
  initial: 'closed',
  targets: {
    closed: { 'door.open': ({ event }) => (event.master ? 'open' : 'unlocking') },
    unlocking: { 'xstate.done.actor.unlock': 'open', 'xstate.error.actor.unlock': 'closed' },
    open: { 'door.close': 'closed', 'xstate.after.autoClose.door.open': 'closed' },
  },
};

function spec(overrides: Partial<ModelSpec<Door>> = {}): ModelSpec<Door> {
  return {
    name: 'door',
    machine: door,
    oracle: doorOracle,
    traversal: {
      events: [{ type: 'door.open' }, { type: 'door.open', master: true }, { type: 'door.close' }],
      internal: [
        { type: 'xstate.done.actor.unlock', output: undefined },
        { type: 'xstate.error.actor.unlock', error: new Error('jammed') },
        { type: 'xstate.after.autoClose.door.open' },
      ],
      // `opens` grows forever: one vertex per state value keeps the traversal finite.
      serializeState: (snapshot) => JSON.stringify(snapshot.value),
      limit: 100,
    },
    createActor: ({ fakes, machine }) => createActor(machine.provide({ actors: { unlock: fakes.promise() } })),
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

/**
 * A copy of `machine` with one part of its config changed: `at` is the path to it in `machine.config`
 * (`['states', 'closed', 'on', 'sidebar.toggle']`), `change` gets it and returns its replacement
 * (undefined: removed). Same implementations, so the copy runs exactly like the original but for that.
 */
function mutant<M extends AnyStateMachine>(
  machine: M,
  at: readonly (string | number)[],
  change: (found: Record<string, unknown>) => unknown,
): M {
  const copy = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(copy)
      : typeof value === 'object' && value !== null
        ? Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, copy(inner)]))
        : value;
  const config = copy(machine.config) as Record<string | number, unknown>;
  const parent = at.slice(0, -1).reduce<Record<string | number, unknown>>((node, key) => {
    const next = node[key];
    if (typeof next !== 'object' || next === null) throw new Error(`mutant: nothing at ${at.join(' › ')}`);
    return next as Record<string | number, unknown>;
  }, config);
  const key = at.at(-1) as string | number;
  const replacement = change(parent[key] as Record<string, unknown>);
  if (replacement === undefined) delete parent[key];
  else parent[key] = replacement;
  return createMachine(config as never, machine.implementations as never) as unknown as M;
}

/** The same machine with the transition at `at` sent to `target` instead. */
const retarget = <M extends AnyStateMachine>(machine: M, at: readonly (string | number)[], target: string) =>
  mutant(machine, at, (transition) => {
    if (!('target' in transition)) throw new Error(`retarget: ${at.join(' › ')} has no target`);
    return { ...transition, target };
  });

/** The door spec run on `machine` (a mutated copy) instead of the door. */
const onDoor = (machine: Door) => spec({ machine });

/** Runs every planned path of `spec`; resolves with the first failure's message (or null: all passed). */
async function firstFailure<M extends AnyStateMachine>(subject: ModelSpec<M>, options: RunOptions = {}): Promise<string | null> {
  for (const path of planPaths(subject.machine, subject.traversal)) {
    try {
      await runPath(subject, path, options);
    } catch (error) {
      return `${path.description}: ${(error as Error).message}`;
    }
  }
  return null;
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
    expect(computeCoverage('door', door, paths).transitions.uncovered).toEqual([
      'door.unlocking · xstate.error.actor.unlock #0 → door.closed',
    ]);
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
    await expect(runPath(partial, through(planPaths(door, partial.traversal), 'door.open'))).rejects.toThrow(
      /no assertion for state "unlocking"/,
    );
  });

  it('fails when a delay fires early or late', async () => {
    const early = door.provide({ delays: { autoClose: 10 } });
    const wrong = spec({ createActor: ({ fakes }) => createActor(early.provide({ actors: { unlock: fakes.promise() } })) });
    await expect(runPath(wrong, through(planPaths(door, wrong.traversal), 'after.autoClose'))).rejects.toThrow(/fired before "autoClose"/);
  });

  it("fails when an I/O actor is not under the test's control", async () => {
    // The unprovided `unlock` resolves on its own, so the real door opens before the model says so.
    const uncontrolled = spec({ createActor: () => createActor(door) });
    await expect(runPath(uncontrolled, through(planPaths(door, uncontrolled.traversal), 'done.actor.unlock'))).rejects.toThrow(
      /state value/,
    );
  });
});

describe('the oracle', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: T0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** The real sidebar spec (tests/model/sidebar.test.ts), taken without registering its tests here. */
  const sidebar = specsOf(() => import('./sidebar.test'));
  const sidebarSpec = async () => {
    const [found] = await sidebar;
    if (!found) throw new Error('sidebar.test.ts defines no spec');
    return found;
  };
  // The menu button, pressed on a closed sidebar, leaves it closed.
  const stuckSidebar = async () => {
    const real = await sidebarSpec();
    return retarget(real.machine, ['states', 'closed', 'on', 'sidebar.toggle'], 'closed');
  };

  it('is what catches a wrong target: the model is the machine checked against itself', async () => {
    const real = await sidebarSpec();
    const machine = await stuckSidebar();
    // Without the oracle and the test's own facts, the broken sidebar passes every path.
    const modelOnly = { ...real, machine, states: { closed: () => {}, open: () => {} } };
    expect(await firstFailure(modelOnly, { withoutOracle: true })).toBeNull();
  });

  it('fails the real sidebar spec on a sidebar whose toggle does not open it', async () => {
    const real = await sidebarSpec();
    const machine = await stuckSidebar();
    expect(await firstFailure(real)).toBeNull();
    expect(await firstFailure({ ...real, machine })).toMatch(
      /sidebar\.toggle\): state value, by the spec's oracle \(closed \+ sidebar\.toggle → "open"\)/,
    );
    // And the sidebar's state facts fail on their own too: the view would read "closed" after a toggle.
    expect(await firstFailure({ ...real, machine }, { withoutOracle: true })).toMatch(/open after these events/);
  });

  it.each([
    {
      what: 'a guarded branch: the master key waits for the lock',
      at: ['states', 'closed', 'on', 'door.open', 0],
      target: 'unlocking',
      message: /closed \+ door\.open → "open"/,
    },
    {
      what: 'an `after`: the door never closes by itself',
      at: ['states', 'open', 'after', 'autoClose'],
      target: 'open',
      message: /open \+ xstate\.after\.autoClose\.door\.open → "closed"/,
    },
    {
      what: 'an `onDone`: unlocked, it stays closed',
      at: ['states', 'unlocking', 'invoke', 'onDone'],
      target: 'closed',
      message: /unlocking \+ xstate\.done\.actor\.unlock → "open"/,
    },
    {
      what: 'an `onError`: a jammed lock opens',
      at: ['states', 'unlocking', 'invoke', 'onError'],
      target: 'open',
      message: /unlocking \+ xstate\.error\.actor\.unlock → "closed"/,
    },
  ] as const)('fails a door with a wrong target in $what', async ({ at, target, message }) => {
    expect(await firstFailure(onDoor(retarget(door, at, target)))).toMatch(message);
  });

  it('fails when an event it has no entry for moves the actor (an added transition)', async () => {
    const slams = mutant(door, ['states', 'unlocking'], (state) => ({ ...state, on: { 'door.close': { target: 'closed' } } }));
    expect(await firstFailure(onDoor(slams))).toMatch(/no entry for door\.close in "unlocking": it stays/);
  });

  it('fails when the actor does not start where it says', async () => {
    const wrong = spec({ oracle: { ...doorOracle, initial: 'open' } });
    await expect(runPath(wrong, longest(planPaths(door, wrong.traversal)))).rejects.toThrow(
      /initial state: state value, by the spec's oracle/,
    );
  });

  it('reports entries no path exercises, and keys that name no state', () => {
    // Without its `onError` the machine never plans a failed unlock, so that entry would go unchecked.
    const unguarded = mutant(door, ['states', 'unlocking', 'invoke', 'onError'], () => undefined);
    expect(oracleGaps(unguarded, doorOracle, planPaths(unguarded, spec().traversal)).unused).toEqual([
      'unlocking · xstate.error.actor.unlock',
    ]);
    expect(oracleGaps(door, doorOracle, planPaths(door, spec().traversal))).toEqual({ unused: [], unknown: [] });
    const typo = { ...doorOracle, targets: { ...doorOracle.targets, opened: { 'door.close': 'closd' } } };
    expect(oracleGaps(door, typo, []).unknown).toEqual(['opened', 'closd']);
  });
});

describe('the oracle of a parallel machine', () => {
  // Two regions that change apart, and a reset of both at once.
  const lamp = setup({
    types: { events: {} as { type: 'power.toggle' } | { type: 'colour.next' } | { type: 'lamp.reset' } },
  }).createMachine({
    id: 'lamp',
    type: 'parallel',
    on: { 'lamp.reset': { target: ['.power.off', '.colour.white'] } },
    states: {
      power: {
        initial: 'off',
        states: { off: { on: { 'power.toggle': { target: 'on' } } }, on: { on: { 'power.toggle': { target: 'off' } } } },
      },
      colour: {
        initial: 'white',
        states: { white: { on: { 'colour.next': { target: 'red' } } }, red: { on: { 'colour.next': { target: 'white' } } } },
      },
    },
  });
  const lampOracle: Oracle<typeof lamp> = {
    initial: { power: 'off', colour: 'white' },
    targets: {
      // A region's target names that region only; the other keeps its state.
      'power.off': { 'power.toggle': 'power.on' },
      'power.on': { 'power.toggle': 'power.off' },
      'colour.white': { 'colour.next': 'colour.red' },
      'colour.red': { 'colour.next': 'colour.white' },
      // Both at once: a state value.
      '*': { 'lamp.reset': { power: 'off', colour: 'white' } },
    },
  };
  const lampSpec = (machine: typeof lamp): ModelSpec<typeof lamp> => ({
    name: 'lamp',
    machine,
    oracle: lampOracle,
    traversal: { events: [{ type: 'power.toggle' }, { type: 'colour.next' }, { type: 'lamp.reset' }], limit: 50 },
    createActor: ({ machine: logic }) => createActor(logic),
    states: {
      power: () => {},
      'power.off': () => {},
      'power.on': () => {},
      colour: () => {},
      'colour.white': () => {},
      'colour.red': () => {},
    },
    events: { 'power.toggle': send, 'colour.next': send, 'lamp.reset': send },
    emits: () => [],
  });

  beforeEach(() => {
    vi.useFakeTimers({ now: T0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('states each region apart, and passes the lamp', async () => {
    expect(await firstFailure(lampSpec(lamp))).toBeNull();
    expect(oracleGaps(lamp, lampOracle, planPaths(lamp, lampSpec(lamp).traversal))).toEqual({ unused: [], unknown: [] });
  });

  it('fails a wrong target in one region', async () => {
    const stuck = retarget(lamp, ['states', 'colour', 'states', 'red', 'on', 'colour.next'], 'red');
    expect(await firstFailure(lampSpec(stuck))).toMatch(/colour\.red \+ colour\.next → "colour\.white"/);
  });

  it('fails a reset that puts one region in the wrong state', async () => {
    const badReset = mutant(lamp, ['on', 'lamp.reset'], () => ({ target: ['.power.on', '.colour.white'] }));
    expect(await firstFailure(lampSpec(badReset))).toMatch(/\* \+ lamp\.reset → \{"power":"off","colour":"white"\}/);
  });
});
