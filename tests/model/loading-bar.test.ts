import { createActor, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import {
  LOADING_BAR_TIMING,
  loadingBarMachine,
  selectIsLoadingBarFailed,
  selectIsLoadingBarVisible,
  selectLoadingBarPhase,
  type LoadingBarSnapshot,
} from '../../src/machines/app/loading-bar';
import { defineModelTests, elapse, send, type StepEnv } from './harness';

const bar = (snapshot: AnyMachineSnapshot) => snapshot as unknown as LoadingBarSnapshot;

/** A failure turns the failed style on; only a new run (from idle or finishing) turns it off. */
function expectFailedFlag(snapshot: AnyMachineSnapshot, env: StepEnv) {
  if (env.event.type === 'loading.fail' && !env.from.matches('idle') && !env.from.matches('finishing')) {
    expect(selectIsLoadingBarFailed(bar(snapshot))).toBe(true);
  }
  if (env.event.type === 'loading.start' && (env.from.matches('idle') || env.from.matches('finishing'))) {
    expect(selectIsLoadingBarFailed(bar(snapshot))).toBe(false);
  }
}

defineModelTests({
  name: 'loading-bar',
  machine: loadingBarMachine,
  // SPEC §4: hidden for the first 200 ms, then growing for 5 s and holding; full for 500 ms once the last
  // request ends; a failure shows even when it came quickly.
  oracle: {
    initial: 'idle',
    targets: {
      idle: { 'loading.start': 'waiting' },
      waiting: {
        'xstate.after.throttle.loadingBar.waiting': 'running.growing',
        // The last request ended within the throttle: the bar was never seen, and is not now.
        'loading.finish': ({ context, stay }) => (context.pending === 1 ? 'idle' : stay),
        'loading.fail': ({ context, stay }) => (context.pending === 1 ? 'finishing' : stay),
      },
      running: {
        'loading.finish': ({ context, stay }) => (context.pending === 1 ? 'finishing' : stay),
        'loading.fail': ({ context, stay }) => (context.pending === 1 ? 'finishing' : stay),
      },
      'running.growing': { 'xstate.after.run.loadingBar.running.growing': 'running.stalled' },
      finishing: {
        'xstate.after.hide.loadingBar.finishing': 'idle',
        // Still on screen: a new request makes it grow again, without a new throttle.
        'loading.start': 'running.growing',
      },
    },
  },
  traversal: {
    events: [{ type: 'loading.start' }, { type: 'loading.finish' }, { type: 'loading.fail' }],
    internal: [
      { type: 'xstate.after.throttle.loadingBar.waiting' },
      { type: 'xstate.after.run.loadingBar.running.growing' },
      { type: 'xstate.after.hide.loadingBar.finishing' },
    ],
    // Two requests in flight are enough to tell "last one" from "not the last one".
    filterEvents: (snapshot, event) => !(event.type === 'loading.start' && snapshot.context.pending >= 2),
    limit: 500,
  },
  createActor: ({ machine }) => createActor(machine),
  states: {
    idle: (snapshot) => {
      expect(selectIsLoadingBarVisible(bar(snapshot))).toBe(false);
      expect(selectLoadingBarPhase(bar(snapshot))).toBe('idle');
      expect(snapshot.context.pending).toBe(0);
    },
    // The throttle: requests are in flight but nothing shows yet.
    waiting: (snapshot, env) => {
      expect(selectIsLoadingBarVisible(bar(snapshot))).toBe(false);
      expect(selectLoadingBarPhase(bar(snapshot))).toBe('waiting');
      expect(snapshot.context.pending).toBeGreaterThan(0);
      expectFailedFlag(snapshot, env);
    },
    running: (snapshot, env) => {
      expect(selectIsLoadingBarVisible(bar(snapshot))).toBe(true);
      expect(snapshot.context.pending).toBeGreaterThan(0);
      expectFailedFlag(snapshot, env);
    },
    'running.growing': (snapshot) => expect(selectLoadingBarPhase(bar(snapshot))).toBe('growing'),
    'running.stalled': (snapshot) => expect(selectLoadingBarPhase(bar(snapshot))).toBe('stalled'),
    finishing: (snapshot, env) => {
      expect(selectIsLoadingBarVisible(bar(snapshot))).toBe(true);
      expect(selectLoadingBarPhase(bar(snapshot))).toBe('finishing');
      expect(snapshot.context.pending).toBe(0);
      expectFailedFlag(snapshot, env);
    },
  },
  events: {
    'loading.start': send,
    'loading.finish': send,
    'loading.fail': send,
    'xstate.after.throttle.loadingBar.waiting': (env) => {
      expect(LOADING_BAR_TIMING.throttle).toBe(200);
      elapse(env);
    },
    'xstate.after.run.loadingBar.running.growing': (env) => {
      expect(LOADING_BAR_TIMING.run).toBe(5000);
      elapse(env);
    },
    'xstate.after.hide.loadingBar.finishing': (env) => {
      expect(LOADING_BAR_TIMING.hide).toBe(500);
      elapse(env);
    },
  },
  emits: () => [],
});
