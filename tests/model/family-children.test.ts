// The families' children list (family/children.ts): loading, then the children, or failed (offline said
// apart) with retry; a 401 ends the screen and tells `session.expired`, exactly once.
import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import type { FamilyChild } from '../../shared/family-contract';
import { FamilyFailureError } from '../../src/services/family/api';
import { familyChildrenMachine, selectChildren, selectChildrenFailed, selectChildrenFailure } from '../../src/machines/family/children';
import { defineModelTests, send, settle, type StepEnv } from './harness';

type Snapshot = Parameters<typeof selectChildren>[0];
const snap = (s: AnyMachineSnapshot) => s as unknown as Snapshot;

const failure = (status: number, code: string) => new FamilyFailureError({ status, code, message: '', fieldErrors: {} });
const OFFLINE = failure(0, 'network');
const SERVER = failure(500, 'server.error');
const EXPIRED = failure(401, 'auth.unauthenticated');

const child = (id: number, school: string, course: string, unread: number): FamilyChild => ({
  id,
  name: `Estudiante ${id}`,
  school_name: school,
  course_name: course,
  unread,
});
const TWO_SCHOOLS = [child(3, 'Colegio San Andrés de Ñuñoa', '3° Básico A', 1), child(9, 'Escuela Benito Juárez', '1° de Secundaria B', 0)];
const NONE: FamilyChild[] = [];

function emits({ event }: StepEnv): AnyEventObject[] {
  const error = (event as { error?: unknown }).error;
  return event.type.startsWith('xstate.error.actor.') && error === EXPIRED ? [{ type: 'session.expired' }] : [];
}

/** The last answer of the path: what the list must show. */
function lastAnswer(history: readonly AnyEventObject[]): FamilyChild[] {
  const done = [...history].reverse().find((e) => e.type === 'xstate.done.actor.fetchChildren');
  return (done?.output as FamilyChild[] | undefined) ?? [];
}

defineModelTests({
  name: 'family-children',
  machine: familyChildrenMachine,
  oracle: {
    initial: 'loading',
    targets: {
      loading: {
        'xstate.done.actor.fetchChildren': 'loaded',
        'xstate.error.actor.fetchChildren': ({ event }) => (event.error === EXPIRED ? 'expired' : 'failed'),
      },
      failed: { 'children.retry': 'loading' },
    },
  },
  traversal: {
    input: { token: 'tok' },
    events: [{ type: 'children.retry' }],
    internal: [
      { type: 'xstate.done.actor.fetchChildren', output: TWO_SCHOOLS },
      { type: 'xstate.done.actor.fetchChildren', output: NONE },
      { type: 'xstate.error.actor.fetchChildren', error: OFFLINE },
      { type: 'xstate.error.actor.fetchChildren', error: SERVER },
      { type: 'xstate.error.actor.fetchChildren', error: EXPIRED },
    ],
    limit: 2000,
  },
  createActor: ({ fakes, inspect, machine, path }) =>
    createActor(machine.provide({ actors: { fetchChildren: fakes.promise() } }), { input: path.input as { token: string }, inspect }),
  states: {
    loading: (s, env) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(env.fakes.inputOf('fetchChildren')).toEqual({ token: 'tok' });
      // A retry after a failure has shown no children yet.
      expect(selectChildren(snap(s))).toEqual(lastAnswer(env.history));
    },
    loaded: (s, env) => {
      expect(selectChildrenFailed(snap(s))).toBe(false);
      expect(selectChildren(snap(s))).toEqual(lastAnswer(env.history));
      expect(selectChildrenFailure(snap(s))).toBeNull();
    },
    failed: (s, env) => {
      expect(selectChildrenFailed(snap(s))).toBe(true);
      const last = [...env.history].reverse().find((e) => e.type === 'xstate.error.actor.fetchChildren') as AnyEventObject | undefined;
      expect(selectChildrenFailure(snap(s))).toBe(last?.error === OFFLINE ? 'offline' : 'error');
    },
    expired: (s) => {
      expect(s.status).toBe('done');
    },
  },
  events: {
    'children.retry': send,
    'xstate.done.actor.fetchChildren': settle,
    'xstate.error.actor.fetchChildren': settle,
  },
  emits,
});
