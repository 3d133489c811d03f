// Model coverage: which state nodes and which transition definitions of a machine the generated paths
// went through. Transitions are the machine's own definitions (each guarded alternative, `after`,
// `onDone`, `onError` counts separately), so "covered" means "this exact branch was taken".
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnyMachineSnapshot, AnyStateMachine, AnyStateNode, EventObject } from 'xstate';
import { getStateNodes } from 'xstate/graph';

export const REPORT_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../reports/model-coverage');

export interface TransitionInfo {
  id: string;
  source: string;
  event: string;
  targets: string[];
  guard: string | null;
}

export interface CoverageReport {
  machine: string;
  states: { total: number; covered: number; uncovered: string[] };
  transitions: { total: number; covered: number; uncovered: string[] };
  paths: number;
  steps: number;
  generatedAt: string;
}

/** A state node's key for reports and assertion tables: its path below the root, dot-joined. */
export const stateKey = (node: AnyStateNode): string => node.path.join('.');

function guardName(guard: unknown): string | null {
  if (guard === undefined || guard === null) return null;
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'object' && guard !== null && 'type' in guard) {
    const { type, params } = guard as { type: string; params?: unknown };
    return typeof params === 'object' && params !== null && !('call' in params) ? `${type}(${JSON.stringify(params)})` : type;
  }
  return 'inline';
}

/** Every transition definition of the machine, keyed by object identity for lookups. */
export function machineTransitions(machine: AnyStateMachine): Map<object, TransitionInfo> {
  const result = new Map<object, TransitionInfo>();
  for (const node of [machine.root, ...getStateNodes(machine.root)]) {
    for (const [eventType, definitions] of node.transitions) {
      definitions.forEach((definition, index) => {
        const targets = (definition.target ?? []).map((target: AnyStateNode) => target.id);
        const guard = guardName(definition.guard);
        result.set(definition, {
          id: `${node.id} · ${eventType} #${index}${guard ? ` [${guard}]` : ''} → ${targets.length ? targets.join(', ') : '(stay)'}`,
          source: node.id,
          event: eventType,
          targets,
          guard,
        });
      });
    }
    // Eventless transitions are invisible to path generators; count them so they show up as uncovered.
    node.always?.forEach((definition: object, index: number) => {
      result.set(definition, { id: `${node.id} · always #${index}`, source: node.id, event: '(always)', targets: [], guard: null });
    });
  }
  return result;
}

/** Every state node below the root, by key. */
export function machineStateKeys(machine: AnyStateMachine): string[] {
  return getStateNodes(machine.root).map(stateKey);
}

/** Every event type some transition of the machine listens to. */
export function machineEventTypes(machine: AnyStateMachine): string[] {
  const types = new Set<string>();
  for (const info of machineTransitions(machine).values()) if (info.event !== '(always)') types.add(info.event);
  return [...types].sort();
}

/** The transition definitions `event` takes from `snapshot` (guards evaluated). */
export function transitionsTaken(machine: AnyStateMachine, snapshot: AnyMachineSnapshot, event: EventObject): object[] {
  return machine.getTransitionData(snapshot, event) as object[];
}

export function activeStateKeys(machine: AnyStateMachine, snapshot: AnyMachineSnapshot): string[] {
  return getStateNodes(machine.root)
    .filter((node) => snapshot.matches(node.path.join('.')))
    .map(stateKey);
}

export interface CoveragePath {
  /** steps[0] is the initial snapshot (event `xstate.init`); each later step is (event, snapshot after it). */
  steps: Array<{ event: EventObject; state: AnyMachineSnapshot }>;
}

export function computeCoverage(name: string, machine: AnyStateMachine, paths: CoveragePath[]): CoverageReport {
  const transitions = machineTransitions(machine);
  const coveredTransitions = new Set<object>();
  const coveredStates = new Set<string>();
  let steps = 0;
  for (const path of paths) {
    path.steps.forEach((step, index) => {
      for (const key of activeStateKeys(machine, step.state)) coveredStates.add(key);
      if (index === 0) return;
      steps += 1;
      const previous = path.steps[index - 1];
      if (!previous) return;
      for (const definition of transitionsTaken(machine, previous.state, step.event)) coveredTransitions.add(definition);
    });
  }
  const allStates = machineStateKeys(machine);
  return {
    machine: name,
    states: {
      total: allStates.length,
      covered: allStates.filter((key) => coveredStates.has(key)).length,
      uncovered: allStates.filter((key) => !coveredStates.has(key)),
    },
    transitions: {
      total: transitions.size,
      covered: [...transitions.keys()].filter((definition) => coveredTransitions.has(definition)).length,
      uncovered: [...transitions.entries()].filter(([definition]) => !coveredTransitions.has(definition)).map(([, info]) => info.id),
    },
    paths: paths.length,
    steps,
    generatedAt: new Date().toISOString(),
  };
}

export function writeCoverage(report: CoverageReport): string {
  mkdirSync(REPORT_DIR, { recursive: true });
  const file = resolve(REPORT_DIR, `${report.machine}.json`);
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  return file;
}
