// One file of a wall post (family/wall-file.ts): nothing fetched until asked (a picture near the screen, a
// document's «Descargar»); its bytes kept once fetched; failed with retry; a 401 ends it and tells
// `session.expired`.
import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import { FamilyFailureError } from '../../src/services/family/api';
import { familyWallFileMachine, selectFileBlob, selectFilePhase } from '../../src/machines/family/wall-file';
import { defineModelTests, send, settle, type StepEnv } from './harness';

type Snapshot = Parameters<typeof selectFilePhase>[0];
const snap = (s: AnyMachineSnapshot) => s as unknown as Snapshot;

const failure = (status: number, code: string) => new FamilyFailureError({ status, code, message: '', fieldErrors: {} });
const OFFLINE = failure(0, 'network');
const EXPIRED = failure(401, 'auth.unauthenticated');
const BYTES = new Blob(['foto'], { type: 'image/jpeg' });
const INPUT = { token: 'tok', postId: 4, attachmentId: 40 };

function emits({ event }: StepEnv): AnyEventObject[] {
  const error = (event as { error?: unknown }).error;
  return event.type.startsWith('xstate.error.actor.') && error === EXPIRED ? [{ type: 'session.expired' }] : [];
}

defineModelTests({
  name: 'family-wall-file',
  machine: familyWallFileMachine,
  oracle: {
    initial: 'waiting',
    targets: {
      waiting: { 'file.load': 'loading' },
      loading: {
        'xstate.done.actor.fetchWallFile': 'shown',
        'xstate.error.actor.fetchWallFile': ({ event }) => (event.error === EXPIRED ? 'expired' : 'failed'),
      },
      failed: { 'file.retry': 'loading' },
    },
  },
  traversal: {
    input: INPUT,
    events: [{ type: 'file.load' }, { type: 'file.retry' }],
    internal: [
      { type: 'xstate.done.actor.fetchWallFile', output: BYTES },
      { type: 'xstate.error.actor.fetchWallFile', error: OFFLINE },
      { type: 'xstate.error.actor.fetchWallFile', error: EXPIRED },
    ],
    limit: 2000,
  },
  createActor: ({ fakes, inspect, machine, path }) =>
    createActor(machine.provide({ actors: { fetchWallFile: fakes.promise() } }), { input: path.input as typeof INPUT, inspect }),
  states: {
    waiting: (s, env) => {
      // Nothing is fetched before it is asked for.
      expect(selectFilePhase(snap(s))).toBe('waiting');
      expect(env.fakes.calls).toEqual([]);
      expect(selectFileBlob(snap(s))).toBeNull();
    },
    loading: (s, env) => {
      expect(selectFilePhase(snap(s))).toBe('loading');
      expect(s.hasTag('busy')).toBe(true);
      expect(env.fakes.inputOf('fetchWallFile')).toEqual(INPUT);
      expect(selectFileBlob(snap(s))).toBeNull();
    },
    shown: (s) => {
      expect(selectFilePhase(snap(s))).toBe('shown');
      expect(selectFileBlob(snap(s))).toBe(BYTES);
    },
    failed: (s) => {
      expect(selectFilePhase(snap(s))).toBe('failed');
      expect(selectFileBlob(snap(s))).toBeNull();
    },
    expired: (s) => {
      expect(selectFilePhase(snap(s))).toBe('expired');
      expect(s.status).toBe('done');
    },
  },
  events: {
    'file.load': send,
    'file.retry': send,
    'xstate.done.actor.fetchWallFile': settle,
    'xstate.error.actor.fetchWallFile': settle,
  },
  emits,
});
