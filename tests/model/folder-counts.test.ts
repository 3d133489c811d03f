import { createActor, fromCallback, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import {
  COUNTS_POLL_MS,
  folderCountsMachine,
  selectCountsFailed,
  selectHasCounts,
  selectIsLoadingCounts,
  selectTotal,
  selectUnreads,
  type FolderCountsSnapshot,
} from '../../src/machines/messages/folder-counts';
import type { FolderCount } from '../../shared/messages-contract';
import { defineModelTests, elapse, send, settle, type StepEnv } from './harness';
import { failure } from './fixtures';

const fc = (snapshot: AnyMachineSnapshot) => snapshot as unknown as FolderCountsSnapshot;

const COUNTS: FolderCount[] = [
  { type: 'received', unreads: 3, total: 12 },
  { type: 'sent', unreads: 0, total: 40 },
  { type: 'scheduled', unreads: 0, total: 2 },
  { type: 'draft', unreads: 0, total: 1 },
];
const LOGGED_IN = { type: 'session.updated', status: 'loggedIn', roles: ['colegio-profesor'], device: 'latam' };
const LOGGED_OUT = { type: 'session.updated', status: 'loggedOut', roles: [], device: null };
const EXPIRED = { type: 'session.updated', status: 'expired', roles: [], device: null };

const selectInboxUnreads = selectUnreads('received');
const selectInboxTotal = selectTotal('received');
const selectSentTotal = selectTotal('sent');

/** Loaded counts read as primitives; none before a load or after a logout. */
function expectCounts(snapshot: AnyMachineSnapshot) {
  const loaded = snapshot.context.counts.length > 0;
  expect(selectHasCounts(fc(snapshot))).toBe(loaded);
  expect(selectInboxUnreads(fc(snapshot))).toBe(loaded ? 3 : 0);
  expect(selectInboxTotal(fc(snapshot))).toBe(loaded ? 12 : 0);
  expect(selectSentTotal(fc(snapshot))).toBe(loaded ? 40 : 0);
}

/** The tab was hidden and this event shows it again. */
const becameVisible = (env: { from: AnyMachineSnapshot; event: { type: string } }) =>
  !env.from.context.visible && (env.event as unknown as { visible: boolean }).visible;

defineModelTests({
  name: 'folder-counts',
  machine: folderCountsMachine,
  // The header and SPEC §7, §8: counts while signed in, reloaded when told, polled while the tab is seen.
  oracle: {
    initial: 'idle',
    targets: {
      // Counts belong to one user: any session but a signed-in one takes them away.
      '*': { 'session.updated': ({ event, stay }) => (event.status === 'loggedIn' ? stay : 'idle') },
      idle: { 'session.updated': ({ event, stay }) => (event.status === 'loggedIn' ? 'loading' : stay) },
      // A refresh meanwhile asks again in place (the `loading` invariants see the new request).
      loading: { 'xstate.done.actor.fetchFolderCounts': 'loaded', 'xstate.error.actor.fetchFolderCounts': 'failed' },
      loaded: {
        // Every minute, while the tab is seen; a hidden tab asks for nothing.
        'xstate.after.poll.folderCounts.loaded': ({ context, stay }) => (context.visible ? 'loading' : stay),
        'counts.refresh': 'loading',
        // Back to a hidden tab: fresh numbers now.
        'counts.visibility': ({ event, context, stay }) => (event.visible && !context.visible ? 'loading' : stay),
      },
      // Silent: retried at the next refresh or poll.
      failed: {
        'xstate.after.poll.folderCounts.failed': ({ context, stay }) => (context.visible ? 'loading' : stay),
        'counts.refresh': 'loading',
      },
    },
  },
  traversal: {
    input: { isVisible: () => true },
    events: [
      LOGGED_IN,
      LOGGED_OUT,
      EXPIRED,
      { type: 'counts.refresh' },
      { type: 'counts.visibility', visible: false },
      { type: 'counts.visibility', visible: true },
    ],
    internal: [
      { type: 'xstate.done.actor.fetchFolderCounts', output: COUNTS },
      { type: 'xstate.error.actor.fetchFolderCounts', error: failure(500, 'server.error') },
      { type: 'xstate.after.poll.folderCounts.loaded' },
      { type: 'xstate.after.poll.folderCounts.failed' },
    ],
    limit: 1000,
  },
  createActor: ({ fakes, machine }) =>
    createActor(
      machine.provide({
        actors: {
          fetchFolderCounts: fakes.promise(),
          // Visibility arrives as `counts.visibility` events from the model.
          visibilityChanges: fromCallback(() => undefined),
        },
      }),
      { input: { isVisible: () => true } },
    ),
  states: {
    idle: (snapshot, env) => {
      expect(snapshot.context.counts).toEqual([]);
      expectCounts(snapshot);
      expect(env.fakes.isRunning('fetchFolderCounts')).toBe(false);
    },
    loading: (snapshot, env) => {
      expect(selectIsLoadingCounts(fc(snapshot))).toBe(true);
      expect(env.fakes.isRunning('fetchFolderCounts')).toBe(true);
      // A poll only fires into a load while visible.
      if (env.event.type.startsWith('xstate.after.poll')) expect(snapshot.context.visible).toBe(true);
      if (env.event.type === 'counts.visibility' && env.from.matches('loaded')) expect(becameVisible(env)).toBe(true);
      // One request per entry; a refresh while one is out asks again, anything else lets it run.
      const asks = !env.from.matches('loading') || env.event.type === 'counts.refresh';
      if (env.event.type !== 'xstate.init') expect(env.started, 'requests started').toEqual(asks ? ['fetchFolderCounts'] : []);
      expectCounts(snapshot);
    },
    loaded: (snapshot, env) => {
      expect(snapshot.context.counts).toEqual(COUNTS);
      expectCounts(snapshot);
      expect(env.fakes.isRunning('fetchFolderCounts')).toBe(false);
      if (env.event.type.startsWith('xstate.after.poll')) expect(snapshot.context.visible).toBe(false);
      // Coming back to a hidden tab reloads at once: it may not stay on old numbers.
      if (env.event.type === 'counts.visibility' && env.from.matches('loaded')) expect(becameVisible(env)).toBe(false);
      expect(COUNTS_POLL_MS).toBe(60_000);
    },
    failed: (snapshot, env) => {
      expect(selectCountsFailed(fc(snapshot))).toBe(true);
      expectCounts(snapshot);
      expect(env.fakes.isRunning('fetchFolderCounts')).toBe(false);
    },
  },
  events: {
    'session.updated': send,
    // From the app root, which turns every actor's `counts.changed` into this (tests/unit/app-flows.test.ts).
    'counts.refresh': send,
    'counts.visibility': send,
    'xstate.done.actor.fetchFolderCounts': settle,
    'xstate.error.actor.fetchFolderCounts': settle,
    'xstate.after.poll.folderCounts.loaded': elapse,
    'xstate.after.poll.folderCounts.failed': elapse,
  },
  // Counts are silent: no toasts, nothing emitted (SPEC §8).
  emits: (env: StepEnv) => {
    void env;
    return [];
  },
});
