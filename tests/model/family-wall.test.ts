// The school's wall in the families' app (family/wall.ts): the first page, then «Ver más» while pages are
// left (a post already shown is not repeated); empty and failed (offline said apart) with refresh and retry;
// a page that fails keeps the posts shown; a 401 anywhere ends the screen and tells `session.expired`.
import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import type { NewsPost } from '../../shared/news-contract';
import { FamilyFailureError } from '../../src/services/family/api';
import type { FamilyWallPage } from '../../src/services/family/wall';
import {
  familyWallMachine,
  selectCanLoadMorePosts,
  selectIsLoadingMorePosts,
  selectWallFailure,
  selectWallMoreFailure,
  selectWallPhase,
  selectWallPosts,
} from '../../src/machines/family/wall';
import { defineModelTests, send, settle, type StepEnv } from './harness';
import { wallPost } from './family-wall-fixtures';

type Snapshot = Parameters<typeof selectWallPhase>[0];
const snap = (s: AnyMachineSnapshot) => s as unknown as Snapshot;

const failure = (status: number, code: string) => new FamilyFailureError({ status, code, message: '', fieldErrors: {} });
const OFFLINE = failure(0, 'network');
const SERVER = failure(500, 'server.error');
const EXPIRED = failure(401, 'auth.unauthenticated');

const page = (current: number, last: number, data: NewsPost[]): FamilyWallPage => ({
  data,
  meta: { current_page: current, last_page: last, per_page: 20, total: data.length },
  links: { first: '/api/app/wall?page=1', last: `/api/app/wall?page=${last}`, prev: null, next: null },
});
const FIRST = page(1, 2, [wallPost(1), wallPost(2)]);
/** The second page repeats post 2 (one published meanwhile shifted the pages). */
const SECOND = page(2, 2, [wallPost(2), wallPost(3)]);
const ONLY = page(1, 1, [wallPost(1)]);
const EMPTY = page(1, 1, []);

const idsOf = (s: AnyMachineSnapshot) => selectWallPosts(snap(s)).map((post) => post.id);

function emits({ event }: StepEnv): AnyEventObject[] {
  const error = (event as { error?: unknown }).error;
  return event.type.startsWith('xstate.error.actor.') && error === EXPIRED ? [{ type: 'session.expired' }] : [];
}

defineModelTests({
  name: 'family-wall',
  machine: familyWallMachine,
  oracle: {
    initial: 'loading',
    targets: {
      loading: {
        'xstate.done.actor.fetchFirstPage': ({ event }) => (event.output.data.length > 0 ? 'loaded' : 'empty'),
        'xstate.error.actor.fetchFirstPage': ({ event }) => (event.error === EXPIRED ? 'expired' : 'failed'),
      },
      loaded: {
        'wall.more': ({ context, stay }) => (context.page < context.lastPage ? 'loadingMore' : stay),
        'wall.refresh': 'loading',
      },
      loadingMore: {
        'xstate.done.actor.fetchNextPage': 'loaded',
        'xstate.error.actor.fetchNextPage': ({ event }) => (event.error === EXPIRED ? 'expired' : 'loaded'),
      },
      empty: { 'wall.refresh': 'loading' },
      failed: { 'wall.retry': 'loading' },
    },
  },
  traversal: {
    input: { token: 'tok' },
    events: [{ type: 'wall.more' }, { type: 'wall.refresh' }, { type: 'wall.retry' }],
    internal: [
      { type: 'xstate.done.actor.fetchFirstPage', output: FIRST },
      { type: 'xstate.done.actor.fetchFirstPage', output: ONLY },
      { type: 'xstate.done.actor.fetchFirstPage', output: EMPTY },
      { type: 'xstate.error.actor.fetchFirstPage', error: OFFLINE },
      { type: 'xstate.error.actor.fetchFirstPage', error: SERVER },
      { type: 'xstate.error.actor.fetchFirstPage', error: EXPIRED },
      { type: 'xstate.done.actor.fetchNextPage', output: SECOND },
      { type: 'xstate.error.actor.fetchNextPage', error: OFFLINE },
      { type: 'xstate.error.actor.fetchNextPage', error: EXPIRED },
    ],
    limit: 5000,
  },
  createActor: ({ fakes, inspect, machine, path }) =>
    createActor(machine.provide({ actors: { fetchWallPage: fakes.promise() } }), { input: path.input as { token: string }, inspect }),
  states: {
    loading: (s, env) => {
      expect(selectWallPhase(snap(s))).toBe('loading');
      expect(s.hasTag('busy')).toBe(true);
      expect(env.fakes.inputOf('fetchFirstPage')).toEqual({ token: 'tok', page: 1 });
    },
    loaded: (s, env) => {
      expect(selectWallPhase(snap(s))).toBe('loaded');
      if (env.event.type === 'xstate.done.actor.fetchFirstPage') {
        expect(idsOf(s)).toEqual(env.event.output === FIRST ? [1, 2] : [1]);
        expect(selectCanLoadMorePosts(snap(s))).toBe(env.event.output === FIRST);
        expect(selectWallFailure(snap(s))).toBeNull();
      }
      if (env.event.type === 'xstate.done.actor.fetchNextPage') {
        // Post 2 once, in the server's order; no page left.
        expect(idsOf(s)).toEqual([1, 2, 3]);
        expect(selectCanLoadMorePosts(snap(s))).toBe(false);
        expect(selectWallMoreFailure(snap(s))).toBeNull();
      }
      if (env.event.type === 'xstate.error.actor.fetchNextPage') {
        expect(idsOf(s)).toEqual([1, 2]);
        expect(selectWallMoreFailure(snap(s))).toBe('offline');
        expect(selectCanLoadMorePosts(snap(s))).toBe(true);
      }
    },
    loadingMore: (s, env) => {
      expect(selectIsLoadingMorePosts(snap(s))).toBe(true);
      expect(env.fakes.inputOf('fetchNextPage')).toEqual({ token: 'tok', page: 2 });
      expect(idsOf(s)).toEqual([1, 2]);
    },
    empty: (s) => {
      expect(selectWallPhase(snap(s))).toBe('empty');
      expect(idsOf(s)).toEqual([]);
    },
    failed: (s, env) => {
      expect(selectWallPhase(snap(s))).toBe('failed');
      const last = [...env.history].reverse().find((e) => e.type === 'xstate.error.actor.fetchFirstPage') as
        | { error?: unknown }
        | undefined;
      expect(selectWallFailure(snap(s))).toBe(last?.error === OFFLINE ? 'offline' : 'error');
    },
    expired: (s) => {
      expect(selectWallPhase(snap(s))).toBe('expired');
      expect(s.status).toBe('done');
    },
  },
  events: {
    'wall.more': send,
    'wall.refresh': send,
    'wall.retry': send,
    'xstate.done.actor.fetchFirstPage': settle,
    'xstate.error.actor.fetchFirstPage': settle,
    'xstate.done.actor.fetchNextPage': settle,
    'xstate.error.actor.fetchNextPage': settle,
  },
  emits,
});
