// One wall post in the families' app (family/wall-post.ts): shown, or failed with retry (offline and other
// failures), missing for good (not this guardian's, or off the wall); a 401 ends the screen and tells
// `session.expired`.
import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import { FamilyFailureError } from '../../src/services/family/api';
import {
  familyWallPostMachine,
  selectCanRetryPost,
  selectPost,
  selectPostFailure,
  selectPostPhase,
} from '../../src/machines/family/wall-post';
import { defineModelTests, send, settle, type StepEnv } from './harness';
import { wallPost } from './family-wall-fixtures';

type Snapshot = Parameters<typeof selectPostPhase>[0];
const snap = (s: AnyMachineSnapshot) => s as unknown as Snapshot;

const failure = (status: number, code: string) => new FamilyFailureError({ status, code, message: '', fieldErrors: {} });
const OFFLINE = failure(0, 'network');
const SERVER = failure(500, 'server.error');
const MISSING = failure(404, 'not_found');
const EXPIRED = failure(401, 'auth.unauthenticated');
const POST = wallPost(4);

function emits({ event }: StepEnv): AnyEventObject[] {
  const error = (event as { error?: unknown }).error;
  return event.type.startsWith('xstate.error.actor.') && error === EXPIRED ? [{ type: 'session.expired' }] : [];
}

defineModelTests({
  name: 'family-wall-post',
  machine: familyWallPostMachine,
  oracle: {
    initial: 'loading',
    targets: {
      loading: {
        'xstate.done.actor.fetchWallPost': 'shown',
        'xstate.error.actor.fetchWallPost': ({ event }) => (event.error === EXPIRED ? 'expired' : 'failed'),
      },
      failed: { 'post.retry': ({ context, stay }) => (context.failure === 'missing' ? stay : 'loading') },
    },
  },
  traversal: {
    input: { token: 'tok', id: 4 },
    events: [{ type: 'post.retry' }],
    internal: [
      { type: 'xstate.done.actor.fetchWallPost', output: POST },
      { type: 'xstate.error.actor.fetchWallPost', error: OFFLINE },
      { type: 'xstate.error.actor.fetchWallPost', error: SERVER },
      { type: 'xstate.error.actor.fetchWallPost', error: MISSING },
      { type: 'xstate.error.actor.fetchWallPost', error: EXPIRED },
    ],
    limit: 2000,
  },
  createActor: ({ fakes, inspect, machine, path }) =>
    createActor(machine.provide({ actors: { fetchWallPost: fakes.promise() } }), {
      input: path.input as { token: string; id: number },
      inspect,
    }),
  states: {
    loading: (s, env) => {
      expect(selectPostPhase(snap(s))).toBe('loading');
      expect(s.hasTag('busy')).toBe(true);
      expect(env.fakes.inputOf('fetchWallPost')).toEqual({ token: 'tok', id: 4 });
    },
    shown: (s) => {
      expect(selectPostPhase(snap(s))).toBe('shown');
      expect(selectPost(snap(s))).toEqual(POST);
      expect(selectPostFailure(snap(s))).toBeNull();
    },
    failed: (s, env) => {
      expect(selectPostPhase(snap(s))).toBe('failed');
      const last = [...env.history].reverse().find((e) => e.type === 'xstate.error.actor.fetchWallPost') as { error?: unknown };
      const expected = last.error === MISSING ? 'missing' : last.error === OFFLINE ? 'offline' : 'error';
      expect(selectPostFailure(snap(s))).toBe(expected);
      expect(selectCanRetryPost(snap(s))).toBe(expected !== 'missing');
    },
    expired: (s) => {
      expect(selectPostPhase(snap(s))).toBe('expired');
      expect(s.status).toBe('done');
    },
  },
  events: {
    'post.retry': send,
    'xstate.done.actor.fetchWallPost': settle,
    'xstate.error.actor.fetchWallPost': settle,
  },
  emits,
});
