// Loading bar (SPEC §4): shown only when requests outlast a 200 ms throttle, grows for 5000 ms (then
// holds), stays full for 500 ms after the last request ends, and turns to the failed style on errors.
import { assign, setup, type SnapshotFrom } from 'xstate';

export interface LoadingBarContext {
  /** Requests in flight. */
  pending: number;
  /** A request of the current run failed: the view shows the failed style. */
  failed: boolean;
}

export type LoadingBarEvent = { type: 'loading.start' } | { type: 'loading.finish' } | { type: 'loading.fail' };

export const LOADING_BAR_TIMING = { throttle: 200, run: 5000, hide: 500 } as const;

/**
 * A request failed, while waiting or running alike: the failed style, and the last one ends the run
 * (shown full, even when it came before the throttle).
 */
const FAIL = [
  { guard: 'isLastPending', target: 'finishing', actions: ['removePending', 'markFailed'] },
  { actions: ['removePending', 'markFailed'] },
] as const;

export const loadingBarMachine = setup({
  types: {
    context: {} as LoadingBarContext,
    events: {} as LoadingBarEvent,
  },
  actions: {
    startRun: assign({ pending: 1, failed: false }),
    addPending: assign({ pending: ({ context }) => context.pending + 1 }),
    removePending: assign({ pending: ({ context }) => Math.max(0, context.pending - 1) }),
    markFailed: assign({ failed: true }),
  },
  guards: {
    isLastPending: ({ context }) => context.pending <= 1,
  },
  delays: LOADING_BAR_TIMING,
}).createMachine({
  id: 'loadingBar',
  initial: 'idle',
  context: { pending: 0, failed: false },
  states: {
    idle: {
      on: { 'loading.start': { target: 'waiting', actions: 'startRun' } },
    },
    // Hidden: quick requests never show the bar.
    waiting: {
      after: { throttle: { target: 'running' } },
      on: {
        'loading.start': { actions: 'addPending' },
        'loading.finish': [{ guard: 'isLastPending', target: 'idle', actions: 'removePending' }, { actions: 'removePending' }],
        'loading.fail': FAIL,
      },
    },
    running: {
      tags: ['visible'],
      initial: 'growing',
      states: {
        // The view animates the width towards ~90 % over `run` ms…
        growing: { after: { run: { target: 'stalled' } } },
        // …and then holds it there until the requests end.
        stalled: {},
      },
      on: {
        'loading.start': { actions: 'addPending' },
        'loading.finish': [{ guard: 'isLastPending', target: 'finishing', actions: 'removePending' }, { actions: 'removePending' }],
        'loading.fail': FAIL,
      },
    },
    // Full width, then hidden after `hide` ms.
    finishing: {
      tags: ['visible'],
      after: { hide: { target: 'idle' } },
      on: { 'loading.start': { target: 'running', actions: 'startRun' } },
    },
  },
});

export type LoadingBarSnapshot = SnapshotFrom<typeof loadingBarMachine>;
export type LoadingBarPhase = 'idle' | 'waiting' | 'growing' | 'stalled' | 'finishing';

export const selectIsLoadingBarVisible = (snapshot: LoadingBarSnapshot): boolean => snapshot.hasTag('visible');
export const selectIsLoadingBarFailed = (snapshot: LoadingBarSnapshot): boolean => snapshot.context.failed;
export const selectLoadingBarPhase = (snapshot: LoadingBarSnapshot): LoadingBarPhase => {
  if (snapshot.matches({ running: 'growing' })) return 'growing';
  if (snapshot.matches({ running: 'stalled' })) return 'stalled';
  if (snapshot.matches('waiting')) return 'waiting';
  if (snapshot.matches('finishing')) return 'finishing';
  return 'idle';
};
