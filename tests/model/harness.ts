// Model-based test harness. Paths come from `xstate/graph` run on the machine itself (its invokes and
// delays make `createTestModel` refuse it); each path is then replayed on a REAL actor whose I/O actors
// are controllable fakes and whose timers are vitest fake timers. At every step the harness checks:
//   - the real state value equals the spec's ORACLE (below), written by hand in the test,
//   - the real state value and context equal the model's (pure `transition`) prediction,
//   - the per-state invariants written in the spec for every active state node,
//   - the emitted events equal the spec's independent oracle (`emits`), nothing more, nothing less,
//   - the actor did not crash.
// It also refuses a spec with a state or event that has no handler, and fails when the paths do not
// take every transition definition of the machine or never exercise an entry of the oracle.
//
// THE ORACLE: where the real actor must be after each event, stated by the test from the feature's
// behaviour (SPEC, docs/decisions/, the machine's header comment), never read from the machine. The
// model above is the machine checked against itself: a wrong target passes it; it fails the oracle.
//
//   oracle: {
//     initial: 'closed',
//     targets: {
//       // source state key → event type → target state key
//       closed: { 'sidebar.toggle': 'open', 'sidebar.open': 'open' },
//       open: { 'sidebar.toggle': 'closed', 'sidebar.close': 'closed', 'route.changed': 'closed' },
//     },
//   },
//
// - Keys are `stateKey`s (coverage.ts), as in `states`: the state's path below the root, dot-joined
//   (`loggedOut.signingIn`); `'*'` is any state (the machine's root `on`).
// - A target names a LEAF (`sent.sending`, not `sent`), so initial child states are stated too. In a
//   parallel machine a target names the region it changes (`'course.shown'` keeps the other regions);
//   a state value states several regions at once, and the initial state of a parallel machine is one
//   (`initial: { course: 'loading', callList: 'running' }`).
// - A guarded branch is a function of the step that restates the rule in the test's own words:
//     'xstate.done.actor.fetchItems': ({ event }) => (event.output.items.length ? 'loaded' : 'empty'),
//     'loading.finish': ({ context, stay }) => (context.pending === 1 ? 'idle' : stay),
//   It gets the event (typed by its key; a done event's `output` is `any`), the real context before the
//   step, and `stay` (the real state value before it). `initial` may likewise be a function of the input.
//   Do not call the machine's guards or rules module to answer: say the rule again, for this test's data.
// - NO ENTRY means "this event changes nothing here": the state value must stay as it was. So an
//   added, removed or retargeted transition fails. The entry of the deepest active state wins (a
//   child's entry replaces its parent's, as in XState); in a parallel state each region's is taken.
// - A re-entry (`reenter: true`) keeps the value; say what it restarts in the state's invariants
//   (`env.started`: the fake calls started by this step; a timer, by the delay the next step waits).
// - Every entry must be exercised by some path (else the coverage test fails): no stale entries.
// - `createActor` builds the real actor from the `machine` it is given, so a test of the harness can run
//   the same spec on a mutated copy (harness.test.ts does, with the sidebar).
// - Every spec states one: a spec without an oracle does not type-check.
//
// Besides targets, a state's invariants can state the facts the view relies on from the events so far
// (`env.history`), e.g. the sidebar is open after an odd number of toggles: the selector is then
// checked against the test's own account, not against the machine's view of itself.
//
// Writing a spec's oracle: (1) read the machine's header comment, its SPEC section and decision record, not
// its transitions; (2) write `oracle: { initial, targets }`, one entry per state
// and event that moves it, guards restated as functions; (3) give `createActor` the `machine` of its
// env; (4) run the file: where the oracle and the machine disagree, find out which is right from the
// SPEC (a machine defect gets a failing test first, then the fix); (5) `npx tsc -p tsconfig.json`.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  fromPromise,
  initialTransition,
  transition,
  type AnyActorRef,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyEventObject,
  type ContextFrom,
  type EventFromLogic,
  type EventObject,
  type InputFrom,
  type InspectionEvent,
  type PromiseActorLogic,
  type StateValue,
} from 'xstate';
import { getAdjacencyMap, getShortestPaths, getStateNodes, serializeSnapshot } from 'xstate/graph';
import {
  activeStateKeys,
  computeCoverage,
  machineEventTypes,
  machineStateKeys,
  machineTransitions,
  transitionsTaken,
  writeCoverage,
  type CoveragePath,
} from './coverage';

/** Fixed start of every path's clock (fake timers), 2026-03-02T12:00:00Z. */
export const T0 = Date.UTC(2026, 2, 2, 12, 0, 0);

export interface Step {
  event: EventObject;
  state: AnyMachineSnapshot;
}

export interface PlannedPath {
  description: string;
  /** The input this path starts the machine with (its variant's, or the traversal's). */
  input: unknown;
  /** steps[0]: the initial snapshot (event `xstate.init`); then (event, snapshot after it). */
  steps: Step[];
  /** What this path was chosen for: transition ids, or `blocked:` entries for guard-refused events. */
  covers: string[];
}

export interface Traversal {
  /** Events from outside (user, other actors): offered in every state, so ignoring them is tested too. */
  events: readonly AnyEventObject[];
  /**
   * `xstate.done|error.actor.*` and `xstate.after.*` events: offered only in states that handle them,
   * since they cannot happen elsewhere (no such actor or timer is running).
   */
  internal?: readonly AnyEventObject[];
  filterEvents?: (snapshot: AnyMachineSnapshot, event: EventObject) => boolean;
  /** Coarser vertex identity, to bound traversals over growing context. */
  serializeState?: (snapshot: AnyMachineSnapshot) => string;
  input?: unknown;
  /** Required: every traversal is bounded (xstate/graph throws past it). */
  limit: number;
  stopWhen?: (snapshot: AnyMachineSnapshot) => boolean;
}

/** Event types some active state node (or the root) has a transition for. */
function handledTypes(machine: AnyStateMachine, snapshot: AnyMachineSnapshot): Set<string> {
  const types = new Set<string>(machine.root.transitions.keys());
  for (const node of getStateNodes(machine.root)) {
    if (snapshot.matches(node.path.join('.'))) for (const type of node.transitions.keys()) types.add(type);
  }
  return types;
}

/** Epoch-ms values near T0 are shown as offsets, so path titles stay readable. */
function readable(_key: string, value: unknown): unknown {
  if (typeof value === 'number' && Math.abs(value - T0) < 1e10) {
    const offset = value - T0;
    return `T0${offset < 0 ? '-' : '+'}${Math.abs(offset) / 1000}s`;
  }
  return value;
}

function describeEvent(event: EventObject): string {
  const { type, ...payload } = event as EventObject & Record<string, unknown>;
  const short = type.replace(/^xstate\./, '');
  const data = 'output' in payload ? payload.output : 'error' in payload ? payload.error : payload;
  let detail = '';
  if (data instanceof Error) detail = (data as Error & { code?: string }).code ?? data.message;
  else if (data !== undefined && !(typeof data === 'object' && data !== null && Object.keys(data).length === 0)) {
    detail = JSON.stringify(data, readable);
  }
  if (detail.length > 60) detail = `${detail.slice(0, 57)}…`;
  return detail ? `${short} ${detail}` : short;
}

/**
 * Edge cover: for every edge of the explored state graph (a vertex and one offered event), the shortest
 * path to that vertex (from `getShortestPaths`) plus that event. This takes every transition definition
 * from every distinct context it can be taken in, and every guard-refused or ignored event once per
 * vertex, so "nothing happens" is asserted too. Paths that are prefixes of other chosen paths are
 * dropped: the longer one checks every step of the shorter.
 */
export function planPaths(machine: AnyStateMachine, traversal: Traversal): PlannedPath[] {
  const serialize = traversal.serializeState ?? ((snapshot: AnyMachineSnapshot) => serializeSnapshot(snapshot));
  const { events, internal = [], ...rest } = traversal;
  const options = {
    ...rest,
    serializeState: serialize,
    events: (snapshot: AnyMachineSnapshot) => {
      // A finished actor is stopped: nothing can reach it (XState only warns), so nothing is offered.
      if (snapshot.status === 'done') return [];
      const handled = handledTypes(machine, snapshot);
      return [...events, ...internal.filter((event) => handled.has(event.type))];
    },
  } as never;
  const adjacency = getAdjacencyMap(machine, options) as Record<
    string,
    { state: AnyMachineSnapshot; transitions: Record<string, { event: EventObject; state: AnyMachineSnapshot }> }
  >;
  const shortest = new Map<string, Step[]>();
  for (const path of getShortestPaths(machine, options) as Array<{ state: AnyMachineSnapshot; steps: Step[] }>) {
    shortest.set(serialize(path.state), path.steps);
  }
  const infos = machineTransitions(machine);
  const best = new Map<string, Step[]>();
  for (const [vertex, { state, transitions }] of Object.entries(adjacency)) {
    const prefix = shortest.get(vertex);
    if (!prefix) continue;
    for (const { event, state: next } of Object.values(transitions)) {
      const taken = transitionsTaken(machine, state, event).map((definition) => infos.get(definition)?.id ?? '?');
      const what = taken.length > 0 ? taken.join(' + ') : `ignored ${event.type}`;
      best.set(`${vertex} · ${JSON.stringify(event)} · ${what}`, [...prefix, { event, state: next }]);
    }
  }
  const byEvents = new Map<string, PlannedPath>();
  for (const [key, steps] of best) {
    const signature = JSON.stringify(steps.map((step) => step.event));
    const existing = byEvents.get(signature);
    if (existing) existing.covers.push(key);
    else byEvents.set(signature, { description: '', input: traversal.input, steps, covers: [key] });
  }
  const signatures = [...byEvents.keys()];
  const kept = [...byEvents.entries()].filter(
    ([signature]) => !signatures.some((other) => other !== signature && other.startsWith(`${signature.slice(0, -1)},`)),
  );
  return kept.map(([, path], index) => ({
    ...path,
    // With a coarse `serializeState`, the graph keeps one snapshot per vertex, which need not be the one
    // these exact events lead to; replaying the events purely gives each step its true snapshot.
    steps: replay(
      machine,
      path.steps.map((step) => step.event),
      traversal.input,
    ),
    description: `#${String(index + 1).padStart(3, '0')} ${path.steps.map((step) => describeEvent(step.event)).join(' → ')}`,
  }));
}

/** The steps of `events` (the first is the init event) on `machine`, computed purely. */
function replay(machine: AnyStateMachine, events: EventObject[], input: unknown): Step[] {
  let [state] = initialTransition(machine, input as never) as [AnyMachineSnapshot, unknown];
  return events.map((event, index) => {
    if (index > 0) [state] = transition(machine, state, event) as [AnyMachineSnapshot, unknown];
    return { event, state };
  });
}

// --- fakes ------------------------------------------------------------------------------------------

interface PendingCall {
  input: unknown;
  signal: AbortSignal;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
}

/** Promise actors whose outcome the test decides, addressed by the invoke id they run under. */
export class Fakes {
  private readonly pending = new Map<string, PendingCall>();
  readonly calls: Array<{ id: string; input: unknown }> = [];

  /** Fake logic for a `fromPromise` actor; the type parameters only satisfy `.provide()`. */
  promise<TOutput = unknown, TInput = unknown>(): PromiseActorLogic<TOutput, TInput> {
    return fromPromise<TOutput, TInput>(
      ({ input, self, signal }) =>
        new Promise<TOutput>((resolve, reject) => {
          this.calls.push({ id: self.id, input });
          this.pending.set(self.id, { input, signal, resolve: resolve as (value: unknown) => void, reject });
        }),
    );
  }

  /** The live (not aborted) call running under `id`; fails the test when there is none. */
  live(id: string): PendingCall {
    const call = this.pending.get(id);
    expect(call, `no running actor "${id}" to settle`).toBeDefined();
    expect(call?.signal.aborted, `actor "${id}" was already stopped`).toBe(false);
    return call as PendingCall;
  }

  inputOf(id: string): unknown {
    return this.live(id).input;
  }

  isRunning(id: string): boolean {
    const call = this.pending.get(id);
    return call !== undefined && !call.signal.aborted;
  }

  resolve(id: string, output: unknown): void {
    const call = this.live(id);
    this.pending.delete(id);
    call.resolve(output);
  }

  reject(id: string, error: unknown): void {
    const call = this.live(id);
    this.pending.delete(id);
    call.reject(error);
  }
}

/** Lets promise callbacks and the actors they notify run (no timers are advanced). */
export async function flush(): Promise<void> {
  for (let index = 0; index < 20; index += 1) await Promise.resolve();
}

// --- the spec ---------------------------------------------------------------------------------------

export interface StepEnv {
  actor: AnyActorRef;
  machine: AnyStateMachine;
  /** The model's snapshot before and after this step. */
  from: AnyMachineSnapshot;
  to: AnyMachineSnapshot;
  event: EventObject & Record<string, unknown>;
  fakes: Fakes;
  /** Events delivered during this step to any actor of the system, from inspection. */
  delivered: Delivery[];
  /** The path's events so far, this step's last (empty at the initial state): for facts the test derives itself. */
  history: EventObject[];
  /** Ids of the fake I/O actors started during this step, in order (a restarted call shows here). */
  started: string[];
}

export interface Delivery {
  /** The receiving actor's systemId, or its id when it has none. */
  to: string;
  /** The sender's systemId or id; null for events from outside the system. */
  from: string | null;
  event: EventObject;
}

// --- the oracle -------------------------------------------------------------------------------------

/** A leaf state key (`loggedOut.idle`), or a state value for parallel states (`{ dialog: 'open' }`). */
export type Target = StateValue;

type DoneType = `xstate.done.actor.${string}`;
type ErrorType = `xstate.error.actor.${string}`;
type AfterType = `xstate.after.${string}`;
type OracleEventType<M extends AnyStateMachine> = EventFromLogic<M>['type'] | DoneType | ErrorType | AfterType;
/** The event an oracle entry is keyed by, typed from the machine's events (`output: any`: the fakes' outputs are the test's). */
type OracleEvent<M extends AnyStateMachine, K> = K extends DoneType
  ? // biome-ignore lint/suspicious/noExplicitAny: an invoke's id is not in the machine's types, so neither is its output; each entry reads the output its fake gives (unknown would refuse the entries that annotate it).
    { type: string; output: any }
  : K extends ErrorType
    ? { type: string; error: unknown }
    : K extends AfterType
      ? { type: string }
      : Extract<EventFromLogic<M>, { type: K }>;

export interface OracleEnv<TEvent = AnyEventObject, TContext = unknown> {
  event: TEvent;
  /** The real actor's context before the event. */
  context: TContext;
  /** The real state value before the event: "this event changes nothing here". */
  stay: StateValue;
}

export type Expectation<TEvent = AnyEventObject, TContext = unknown> = Target | ((env: OracleEnv<TEvent, TContext>) => Target);

/** Where the real actor must be, written by hand from the feature's behaviour (see the guide at the top). */
export interface Oracle<M extends AnyStateMachine = AnyStateMachine> {
  /** The state right after start (a function of the path's input when it depends on it). */
  initial: Target | ((input: InputFrom<M>) => Target);
  /** Source state key (`'*'`: any state) → event type → the target; no entry: the event changes nothing there. */
  targets: Record<string, { [K in OracleEventType<M>]?: Expectation<OracleEvent<M, K>, ContextFrom<M>> }>;
}

export interface ModelSpec<M extends AnyStateMachine = AnyStateMachine> {
  /** Report file name (kebab-case, like the machine file). */
  name: string;
  machine: M;
  traversal: Traversal;
  /**
   * Starts that no single traversal reaches (another input, other loader outputs): each is planned with
   * `traversal` overridden by its own fields, its paths titled with its name, and coverage is their union.
   */
  variants?: readonly { name: string; traversal: Partial<Traversal> }[];
  /**
   * The real actor for one path, wired to `fakes`; not started. Build it from `machine` (the spec's), so a
   * test of the harness can run the same spec on a mutated copy. Pass `inspect` on to record deliveries.
   */
  createActor: (env: { fakes: Fakes; path: PlannedPath; inspect: (event: InspectionEvent) => void; machine: M }) => AnyActorRef;
  /** Where the real actor must be after each event, independent of the machine (guide at the top). */
  oracle: Oracle<M>;
  /** Invariants per state node key (`loggedOut.signingIn`); checked on the REAL snapshot. */
  states: Record<string, (snapshot: AnyMachineSnapshot, env: StepEnv) => void>;
  /** How each event type is made to happen on the real actor. */
  events: Record<string, (env: StepEnv) => void | Promise<void>>;
  /** The oracle: what the step must emit, from the step alone. Checked exactly. */
  emits: (env: StepEnv) => AnyEventObject[];
  /** What of the context is compared; functions are dropped by default. */
  contextOf?: (context: unknown) => unknown;
  /**
   * Mutation mode only (below): facts of the snapshot after a step that the stored subset of paths must
   * still reach in every value the whole plan reaches (e.g. the set of error keys, when a test checks that
   * the paths met every rule).
   */
  mutationFacts?: (snapshot: AnyMachineSnapshot) => string;
}

const isMap = (value: StateValue | undefined): value is Exclude<StateValue, string> => typeof value === 'object' && value !== null;

/** `'a.b.c'` → `{ a: { b: 'c' } }`; state values pass through. */
function stateValueOf(target: Target): StateValue {
  if (typeof target !== 'string') return target;
  const parts = target.split('.');
  return parts.slice(0, -1).reduceRight<StateValue>((inner, key) => ({ [key]: inner }), parts.at(-1) as string);
}

/**
 * The value after moving to `target` from `previous`: where the target follows the previous value's
 * keys it descends (a parallel state keeps the regions the target does not name); where it leaves them,
 * it replaces that part whole.
 */
function moveTo(previous: StateValue, target: StateValue): StateValue {
  if (!isMap(previous) || !isMap(target)) return target;
  const keys = Object.keys(target);
  if (!keys.every((key) => key in previous)) return target;
  const result: Record<string, StateValue | undefined> = { ...previous };
  for (const key of keys) result[key] = moveTo(previous[key] as StateValue, target[key] as StateValue);
  return result;
}

/** The keys of the leaf states of a value (`{ a: { b: 'c' }, d: 'e' }` → `a.b.c`, `d.e`). */
function leafKeys(value: StateValue, prefix = ''): string[] {
  if (!isMap(value)) return [`${prefix}${value}`];
  return Object.entries(value).flatMap(([key, inner]) => (inner === undefined ? [] : leafKeys(inner, `${prefix}${key}.`)));
}

/** The oracle entries `eventType` uses from `value`: per leaf, the deepest state (then `'*'`) with an entry. */
export function oracleEntries(oracle: Oracle, value: StateValue, eventType: string): string[] {
  const entries = new Set<string>();
  for (const leaf of leafKeys(value)) {
    const parts = leaf.split('.');
    const candidates = [...parts.map((_, index) => parts.slice(0, parts.length - index).join('.')), '*'];
    const source = candidates.find((key) => oracle.targets[key]?.[eventType] !== undefined);
    if (source !== undefined) entries.add(source);
  }
  return [...entries];
}

/** What the oracle expects after `event` from the real snapshot `before`, and which entries said so. */
export function expectedAfter(oracle: Oracle, before: AnyMachineSnapshot, event: EventObject): { value: StateValue; why: string } {
  const sources = oracleEntries(oracle, before.value, event.type);
  let value: StateValue = before.value;
  const reasons: string[] = [];
  for (const source of sources) {
    const expectation = oracle.targets[source]?.[event.type] as Expectation;
    const target = typeof expectation === 'function' ? expectation({ event, context: before.context, stay: before.value }) : expectation;
    value = moveTo(value, stateValueOf(target));
    reasons.push(`${source} + ${event.type} → ${JSON.stringify(target)}`);
  }
  return { value, why: reasons.length ? reasons.join('; ') : `no entry for ${event.type} in ${JSON.stringify(before.value)}: it stays` };
}

export function expectedInitial(oracle: Oracle, input: unknown): StateValue {
  return stateValueOf(typeof oracle.initial === 'function' ? oracle.initial(input) : oracle.initial);
}

/**
 * Entries of the oracle that no step of `paths` uses (an event offered in a state where the machine no
 * longer handles it is never planned, so its entry would go unchecked), and target keys that name no state.
 */
export function oracleGaps(machine: AnyStateMachine, oracle: Oracle, paths: CoveragePath[]): { unused: string[]; unknown: string[] } {
  const used = new Set<string>();
  for (const path of paths) {
    path.steps.forEach((step, index) => {
      const previous = path.steps[index - 1];
      if (!previous) return;
      for (const source of oracleEntries(oracle, previous.state.value, step.event.type)) used.add(`${source} · ${step.event.type}`);
    });
  }
  const keys = new Set(machineStateKeys(machine));
  const all = Object.entries(oracle.targets).flatMap(([source, entries]) => Object.keys(entries).map((type) => `${source} · ${type}`));
  const named = Object.entries(oracle.targets).flatMap(([source, entries]) => [
    source,
    ...Object.values(entries).flatMap((target) => (typeof target === 'string' ? [target] : [])),
  ]);
  if (typeof oracle.initial === 'string') named.push(oracle.initial);
  return {
    unused: all.filter((entry) => !used.has(entry)),
    unknown: [...new Set(named)].filter((key) => key !== '*' && !keys.has(key)),
  };
}

const plainContext = (context: unknown) => JSON.parse(JSON.stringify(context ?? null)) as unknown;

// --- generic executors ------------------------------------------------------------------------------

/** Sends the model's event as is. */
export const send = (env: StepEnv) => {
  env.actor.send(env.event);
};

/** `xstate.done.actor.<id>` / `xstate.error.actor.<id>`: settles the fake running under that id. */
export const settle = (env: StepEnv) => {
  const match = /^xstate\.(done|error)\.actor\.(.+)$/.exec(env.event.type);
  if (!match) throw new Error(`settle: not an actor event: ${env.event.type}`);
  const [, kind, id] = match as unknown as [string, 'done' | 'error', string];
  if (kind === 'done') env.fakes.resolve(id, env.event.output);
  else env.fakes.reject(id, env.event.error);
};

/**
 * `xstate.after.<delay>.<state id>`: advances the fake clock by exactly the named delay (computed on
 * the real snapshot, so context-dependent delays are honoured), checking the state holds 1 ms before.
 */
export const elapse = (env: StepEnv) => {
  const match = /^xstate\.after\.([^.]+)\./.exec(env.event.type);
  if (!match) throw new Error(`elapse: not a delayed event: ${env.event.type}`);
  const name = match[1] as string;
  const config = (env.machine.implementations.delays as Record<string, unknown>)[name];
  if (config === undefined) throw new Error(`elapse: delay "${name}" is not a named delay`);
  const snapshot = env.actor.getSnapshot() as AnyMachineSnapshot;
  const delay =
    typeof config === 'function'
      ? (config as (args: unknown) => number)({ context: snapshot.context, event: env.event, self: env.actor, system: env.actor.system })
      : (config as number);
  if (delay > 0) {
    vi.advanceTimersByTime(delay - 1);
    expect((env.actor.getSnapshot() as AnyMachineSnapshot).value, `fired before "${name}" (${delay} ms)`).toEqual(snapshot.value);
    vi.advanceTimersByTime(1);
  } else {
    vi.advanceTimersByTime(0);
  }
};

// --- running --------------------------------------------------------------------------------------

export interface RunOptions {
  /** Check the model alone, without the spec's oracle: for the harness's own test, nothing else. */
  withoutOracle?: boolean;
}

export async function runPath<M extends AnyStateMachine>(spec: ModelSpec<M>, path: PlannedPath, options: RunOptions = {}): Promise<void> {
  const fakes = new Fakes();
  const emitted: EventObject[] = [];
  const delivered: Delivery[] = [];
  const nameOf = (ref: unknown) => {
    const actorRef = ref as { id?: string; systemId?: string } | undefined;
    return actorRef ? (actorRef.systemId ?? actorRef.id ?? null) : null;
  };
  const inspect = (event: InspectionEvent) => {
    if (event.type !== '@xstate.event') return;
    delivered.push({ to: nameOf(event.actorRef) ?? '?', from: nameOf(event.sourceRef), event: event.event });
  };
  const actor = spec.createActor({ fakes, path, inspect, machine: spec.machine });
  actor.on('*', (event: EventObject) => emitted.push(event));
  const crashes: unknown[] = [];
  actor.subscribe({ error: (error: unknown) => crashes.push(error) });
  const contextOf = spec.contextOf ?? plainContext;
  // Only the harness's own test turns the oracle off, to show what the model alone lets through.
  const oracle = options.withoutOracle ? null : (spec.oracle as Oracle);
  const initial = path.steps[0] as Step;
  const history: EventObject[] = [];

  const check = (env: StepEnv, label: string, expected: { value: StateValue; why: string } | null) => {
    const real = actor.getSnapshot() as AnyMachineSnapshot;
    expect(crashes, `${label}: actor crashed`).toEqual([]);
    // The oracle first: when the machine is wrong, the model below agrees with it.
    if (expected) expect(real.value, `${label}: state value, by the spec's oracle (${expected.why})`).toEqual(expected.value);
    expect(real.value, `${label}: state value`).toEqual(env.to.value);
    expect(contextOf(real.context), `${label}: context`).toEqual(contextOf(env.to.context));
    for (const key of activeStateKeys(spec.machine, real)) {
      const assertState = spec.states[key];
      if (!assertState) throw new Error(`${label}: no assertion for state "${key}"`);
      assertState(real, env);
    }
    expect(emitted.splice(0), `${label}: emitted events`).toEqual(spec.emits(env));
  };

  actor.start();
  await flush();
  const start: StepEnv = {
    actor,
    machine: spec.machine,
    from: initial.state,
    to: initial.state,
    event: initial.event as StepEnv['event'],
    fakes,
    delivered: delivered.splice(0),
    history: [],
    started: fakes.calls.map((call) => call.id),
  };
  check(start, 'initial state', oracle && { value: expectedInitial(oracle, path.input), why: `initial ${JSON.stringify(oracle.initial)}` });
  for (let index = 1; index < path.steps.length; index += 1) {
    const step = path.steps[index] as Step;
    const previous = path.steps[index - 1] as Step;
    history.push(step.event);
    const env: StepEnv = {
      actor,
      machine: spec.machine,
      from: previous.state,
      to: step.state,
      event: step.event as StepEnv['event'],
      fakes,
      delivered: [],
      history: [...history],
      started: [],
    };
    const execute = spec.events[step.event.type];
    if (!execute) throw new Error(`no executor for event "${step.event.type}"`);
    // Predicted before the step, from the real snapshot as it is now.
    const expected = oracle && expectedAfter(oracle, actor.getSnapshot() as AnyMachineSnapshot, step.event);
    delivered.length = 0;
    const callsBefore = fakes.calls.length;
    await execute(env);
    await flush();
    env.delivered = delivered.splice(0);
    env.started = fakes.calls.slice(callsBefore).map((call) => call.id);
    check(env, `step ${index} (${describeEvent(step.event)})`, expected);
  }
  actor.stop();
}

/** The traversal of each variant of a spec (`null`: the spec's own, when it has no variants). */
function traversalsOf(spec: ModelSpec): Array<{ variant: string | null; traversal: Traversal }> {
  return spec.variants
    ? spec.variants.map((variant) => ({ variant: variant.name, traversal: { ...spec.traversal, ...variant.traversal } }))
    : [{ variant: null, traversal: spec.traversal }];
}

/** Every path of a spec: each variant's planned paths, titled with its name. */
function planSpec(spec: ModelSpec): PlannedPath[] {
  return traversalsOf(spec).flatMap(({ variant, traversal }) =>
    planPaths(spec.machine, traversal).map((path) =>
      variant === null ? path : { ...path, description: `[${variant}] ${path.description}` },
    ),
  );
}

// --- mutation mode ------------------------------------------------------------------------------------
//
// `npm run mutation` (decision 0126) runs the model tests in two modes, set by vitest.mutation.config.ts:
// - MODEL_PLAN=write (`--mode plan`, before Stryker starts): each spec plans its paths on the ORIGINAL
//   machine, as in normal mode, and writes a covering subset of them (below) to MODEL_PLAN_DIR/<name>.json;
//   its only test is the one that writes them.
// - MODEL_PLAN=read (Stryker's runs): nothing is planned when a test file loads; the stored paths are the
//   tests, so they are the same for every mutant (a mutant changes the code, not the tests), their titles do
//   not change (Stryker's per-test coverage holds), and planning does not run again for each mutant. Each
//   stored path is replayed on the machine inside its own test, not at load: guards and actions then run
//   only within tests, where Stryker sees which tests reach them.
//
// The subset: a path is kept when one of its steps is a (variant, state value, event type, transition
// definitions taken, and the spec's `mutationFacts` after it) that no path kept before it has. Every
// transition definition, guarded branch and ignored event is still taken from every state value it was
// planned from, but from fewer contexts and with fewer event payloads, so some mutants the whole plan kills
// survive it (one whose effect shows only for some payload). A mutant the subset kills, the whole plan
// kills too: the score is a lower bound.

/** One stored path: its title, its variant, and its events as indices into that traversal's `[...events, ...internal]`. */
interface StoredPath {
  description: string;
  variant: string | null;
  events: number[];
}

/** The traversal a path of `spec` was planned with, from the `[variant] ` its title starts with. */
function traversalOfPath(spec: ModelSpec, description: string): { variant: string | null; traversal: Traversal } {
  const all = traversalsOf(spec);
  const found = spec.variants ? all.find((entry) => description.startsWith(`[${entry.variant}] `)) : all[0];
  if (!found) throw new Error(`${spec.name}: no variant for "${description}"`);
  return found;
}

const offeredBy = (traversal: Traversal): readonly EventObject[] => [...traversal.events, ...(traversal.internal ?? [])];

/** The path's events as indices into its traversal's offered events (kept as the spec gives them, so Errors survive). */
function storePath(spec: ModelSpec, path: PlannedPath): StoredPath {
  const { variant, traversal } = traversalOfPath(spec, path.description);
  const offered = offeredBy(traversal);
  const events = path.steps.slice(1).map(({ event }) => {
    let index = offered.indexOf(event);
    if (index < 0) index = offered.findIndex((candidate) => JSON.stringify(candidate) === JSON.stringify(event));
    if (index < 0) throw new Error(`${spec.name}: event ${JSON.stringify(event)} is not one the traversal offers`);
    return index;
  });
  return { description: path.description, variant, events };
}

/** The covering subset of a spec's planned paths (see above), stored. */
function storedSubset(spec: ModelSpec, paths: PlannedPath[]): StoredPath[] {
  const infos = machineTransitions(spec.machine);
  const seen = new Set<string>();
  const kept: StoredPath[] = [];
  for (const path of paths) {
    const { variant } = traversalOfPath(spec, path.description);
    const fresh = path.steps.slice(1).flatMap((step, index) => {
      const before = (path.steps[index] as Step).state;
      const taken = transitionsTaken(spec.machine, before, step.event).map((definition) => infos.get(definition)?.id ?? '?');
      const facts = spec.mutationFacts ? ` · ${spec.mutationFacts(step.state)}` : '';
      const key = `${variant} · ${JSON.stringify(before.value)} · ${step.event.type} · ${taken.join(' + ') || 'ignored'}${facts}`;
      return seen.has(key) ? [] : [key];
    });
    if (fresh.length === 0) continue;
    for (const key of fresh) seen.add(key);
    kept.push(storePath(spec, path));
  }
  return kept;
}

/** A stored path as a planned one, its snapshots computed now on `spec.machine` (the mutant's, under Stryker). */
function restorePath(spec: ModelSpec, stored: StoredPath): PlannedPath {
  const { traversal } = traversalOfPath(spec, stored.description);
  const offered = offeredBy(traversal);
  const events = [{ type: 'xstate.init' }, ...stored.events.map((index) => offered[index] as EventObject)];
  return { description: stored.description, input: traversal.input, steps: replay(spec.machine, events, traversal.input), covers: [] };
}

const planFile = (name: string) => resolve(process.env.MODEL_PLAN_DIR ?? '', `${name}.json`);

/** Registers the test that writes a spec's stored paths (MODEL_PLAN=write). */
function defineStoring(spec: ModelSpec): void {
  describe(`${spec.name} (model)`, () => {
    const paths = planSpec(spec);
    it('stores its paths for mutation testing', () => {
      const stored = storedSubset(spec, paths);
      mkdirSync(dirname(planFile(spec.name)), { recursive: true });
      writeFileSync(planFile(spec.name), JSON.stringify(stored));
      expect(stored.length).toBeGreaterThan(0);
    });
  });
}

/** Registers the model suite of one machine: handler checks, one test per path, and coverage. */
export function defineModelTests<M extends AnyStateMachine>(spec: ModelSpec<M>): void {
  const anySpec = spec as unknown as ModelSpec;
  if (collecting) {
    collecting.push(anySpec);
    return;
  }
  const mode = process.env.MODEL_PLAN;
  if (mode === 'write') {
    defineStoring(anySpec);
    return;
  }
  describe(`${spec.name} (model)`, () => {
    // Normal mode plans here; under Stryker the stored paths are read, and replayed within the tests.
    const stored = mode === 'read' ? (JSON.parse(readFileSync(planFile(spec.name), 'utf8')) as StoredPath[]) : null;
    const planned = stored ? null : planSpec(anySpec);
    const allPaths = (): PlannedPath[] => planned ?? (stored ?? []).map((path) => restorePath(anySpec, path));
    const oracle = spec.oracle as Oracle;

    beforeEach(() => {
      vi.useFakeTimers({ now: T0 });
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it('has an assertion for every state and an executor for every event, and nothing stale', () => {
      expect(Object.keys(spec.states).sort(), 'state assertions').toEqual(machineStateKeys(spec.machine).sort());
      expect(Object.keys(spec.events).sort(), 'event executors').toEqual(machineEventTypes(spec.machine));
    });

    it("states an oracle in the machine's state names, every entry of it exercised", () => {
      const gaps = oracleGaps(spec.machine, oracle, allPaths());
      expect(gaps.unknown, 'oracle keys that name no state').toEqual([]);
      expect(gaps.unused, 'oracle entries no path exercises').toEqual([]);
    });

    if (planned) {
      for (const path of planned) it(path.description, () => runPath(spec, path));
    } else {
      for (const path of stored ?? []) it(path.description, () => runPath(spec, restorePath(anySpec, path)));
    }

    it('takes every transition of the machine (coverage report)', () => {
      vi.useRealTimers();
      const report = computeCoverage(spec.name, spec.machine, allPaths());
      if (planned) writeCoverage(report);
      expect(report.states.uncovered, 'states never reached').toEqual([]);
      expect(report.transitions.uncovered, 'transitions never taken').toEqual([]);
      expect(report.paths).toBeGreaterThan(0);
    });
  });
}

/** Set while `specsOf` imports a test file: its `defineModelTests` hands the spec over instead of registering. */
let collecting: ModelSpec[] | null = null;

/**
 * The specs a model test file defines, without registering its tests (for tests of the harness that run
 * a real spec on a mutated machine). `load` imports the file: `() => import('./sidebar.test')`. A module
 * runs once: call this once per file and keep the result.
 */
export async function specsOf(load: () => Promise<unknown>): Promise<ModelSpec[]> {
  const specs: ModelSpec[] = [];
  collecting = specs;
  try {
    await load();
  } finally {
    collecting = null;
  }
  return specs;
}
