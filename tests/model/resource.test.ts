import { createActor, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import {
  nextCursorOf,
  resourceMachine,
  selectHasFailed,
  selectHasNextPage,
  selectIsAppending,
  selectIsLoaded,
  selectIsLoading,
  selectItemCount,
  type Page,
  type ResourceSnapshot,
} from '../../src/machines/resource';
import { ApiFailureError } from '../../src/services/http';
import { defineModelTests, send, settle, type StepEnv } from './harness';

type Item = { id: number };
const res = (snapshot: AnyMachineSnapshot) => snapshot as unknown as ResourceSnapshot<Item>;

const NEXT_URL = '/api/recipient-lists?page=2';
const PAGE_1: Page<Item> = { data: [{ id: 1 }, { id: 2 }], meta: { current_page: 1, last_page: 2, total: 3 }, links: { next: NEXT_URL } };
const PAGE_2: Page<Item> = { data: [{ id: 3 }], meta: { current_page: 2, last_page: 2, total: 3 }, links: { next: null } };
/** An unpaged list (`{ data }` only): one page, nothing to append. */
const ONLY_PAGE: Page<Item> = { data: [{ id: 9 }], meta: {}, links: {} };
const serverDown = new ApiFailureError({ status: 500, code: 'server.error', message: 'boom', fieldErrors: {} });

/** The cursor the running fetch must have been given: none for a first page, the next link otherwise. */
function expectFetchFor(env: StepEnv, snapshot: AnyMachineSnapshot, appending: boolean) {
  const cursor = appending ? nextCursorOf(snapshot.context.meta, snapshot.context.links) : null;
  expect(env.fakes.inputOf('fetchPage')).toEqual({ cursor });
  if (appending) expect(cursor).toBe(NEXT_URL);
}

defineModelTests({
  name: 'resource',
  machine: resourceMachine,
  traversal: {
    events: [
      { type: 'resource.load' },
      { type: 'resource.reload' },
      { type: 'resource.reset' },
      { type: 'resource.append' },
      { type: 'resource.retry' },
    ],
    internal: [
      { type: 'xstate.done.actor.fetchPage', output: PAGE_1 },
      { type: 'xstate.done.actor.fetchPage', output: ONLY_PAGE },
      { type: 'xstate.done.actor.fetchPage', output: PAGE_2 },
      { type: 'xstate.error.actor.fetchPage', error: serverDown },
    ],
    // First pages answer a first-page request; page 2 answers the append. Keeps the lists finite.
    filterEvents: (snapshot, event) =>
      event.type !== 'xstate.done.actor.fetchPage' ||
      (snapshot.matches('appending') === ((event as { output?: unknown }).output === PAGE_2)),
    limit: 1000,
  },
  createActor: ({ fakes }) => createActor(resourceMachine.provide({ actors: { fetchPage: fakes.promise() } })),
  states: {
    idle: (snapshot, env) => {
      expect(selectItemCount(res(snapshot))).toBe(0);
      expect(env.fakes.isRunning('fetchPage')).toBe(false);
    },
    loading: (snapshot, env) => {
      expect(selectIsLoading(res(snapshot))).toBe(true);
      // A (re)load starts from an empty list.
      expect(selectItemCount(res(snapshot))).toBe(0);
      expectFetchFor(env, snapshot, false);
    },
    loaded: (snapshot, env) => {
      expect(selectIsLoaded(res(snapshot))).toBe(true);
      expect(selectItemCount(res(snapshot))).toBeGreaterThan(0);
      expect(env.fakes.isRunning('fetchPage')).toBe(false);
      if (env.event.type === 'xstate.done.actor.fetchPage' && env.from.matches('appending')) {
        // Appended, not replaced, and the page links now say there is nothing more.
        expect(snapshot.context.items).toEqual([...PAGE_1.data, ...PAGE_2.data]);
        expect(selectHasNextPage(res(snapshot))).toBe(false);
      }
    },
    appending: (snapshot, env) => {
      expect(selectIsAppending(res(snapshot))).toBe(true);
      expect(selectItemCount(res(snapshot))).toBeGreaterThan(0);
      expectFetchFor(env, snapshot, true);
    },
    failed: (snapshot, env) => {
      expect(selectHasFailed(res(snapshot))).toBe(true);
      expect(env.fakes.isRunning('fetchPage')).toBe(false);
    },
  },
  events: {
    'resource.load': send,
    'resource.reload': send,
    'resource.reset': send,
    'resource.append': send,
    'resource.retry': send,
    'xstate.done.actor.fetchPage': settle,
    'xstate.error.actor.fetchPage': settle,
  },
  // List failures are silent (SPEC §8): the loader never emits anything, toasts included.
  emits: () => [],
});
