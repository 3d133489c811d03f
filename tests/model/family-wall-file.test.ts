// One file of a wall post (family/wall-file.ts): nothing fetched until asked (a picture near the screen, a
// document's «Descargar»); shown from its object URL, which is held while shown and revoked after; failed
// with retry; a 401 ends it and tells `session.expired`.
import { createActor, fromCallback, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import { FamilyFailureError } from '../../src/services/family/api';
import { familyWallFileMachine, selectFilePhase, selectFileUrl } from '../../src/machines/family/wall-file';
import { defineModelTests, send, settle, type StepEnv } from './harness';

type Snapshot = Parameters<typeof selectFilePhase>[0];
const snap = (s: AnyMachineSnapshot) => s as unknown as Snapshot;

const failure = (status: number, code: string) => new FamilyFailureError({ status, code, message: '', fieldErrors: {} });
const OFFLINE = failure(0, 'network');
const EXPIRED = failure(401, 'auth.unauthenticated');
const URL_OUT = 'blob:http://localhost/foto-40';
const INPUT = { token: 'tok', postId: 4, attachmentId: 40 };

/** The object URLs held now (kept by `keepObjectUrl`, dropped when it stops). */
const held = new Set<string>();

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
      { type: 'xstate.done.actor.fetchWallFile', output: URL_OUT },
      { type: 'xstate.error.actor.fetchWallFile', error: OFFLINE },
      { type: 'xstate.error.actor.fetchWallFile', error: EXPIRED },
    ],
    limit: 2000,
  },
  createActor: ({ fakes, inspect, machine, path }) => {
    held.clear();
    return createActor(
      machine.provide({
        actors: {
          fetchWallFile: fakes.promise(),
          keepObjectUrl: fromCallback<{ type: 'never' }, { url: string }>(({ input }) => {
            held.add(input.url);
            return () => held.delete(input.url);
          }),
        },
      }),
      { input: path.input as typeof INPUT, inspect },
    );
  },
  states: {
    waiting: (s, env) => {
      // Nothing is fetched before it is asked for.
      expect(selectFilePhase(snap(s))).toBe('waiting');
      expect(env.fakes.calls).toEqual([]);
      expect(selectFileUrl(snap(s))).toBeNull();
    },
    loading: (s, env) => {
      expect(selectFilePhase(snap(s))).toBe('loading');
      expect(s.hasTag('busy')).toBe(true);
      expect(env.fakes.inputOf('fetchWallFile')).toEqual(INPUT);
      expect(held.size).toBe(0);
    },
    shown: (s) => {
      expect(selectFilePhase(snap(s))).toBe('shown');
      expect(selectFileUrl(snap(s))).toBe(URL_OUT);
      expect([...held]).toEqual([URL_OUT]);
    },
    failed: (s) => {
      expect(selectFilePhase(snap(s))).toBe('failed');
      expect(selectFileUrl(snap(s))).toBeNull();
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
