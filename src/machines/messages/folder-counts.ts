// The folder counters of the sidebar (SPEC §1, §3 "Message counts per folder", §7 `GET /messages/info`),
// app-lifetime (systemId `folderCounts`). Loads only while the session is logged in (the root forwards
// `session.updated`), reloads on `counts.refresh` (the root sends it when an actor emits `counts.changed`,
// SPEC §7 `update-info-message-counts`, after a send, delete, restore, purge or read) and polls every
// minute while the page is visible.
// List failures are silent (SPEC §8): `failed` retries on the next refresh or poll.
import { assertEvent, assign, fromCallback, setup, type EventObject, type SnapshotFrom } from 'xstate';
import { fetchFolderCounts } from '../../services/messages/folder-info';
import type { FolderCount } from '../../../shared/messages-contract';
import type { SessionStatus } from '../session/rules';

export const COUNTS_POLL_MS = 60_000;

type CountType = FolderCount['type'];

export interface FolderCountsInput {
  /** Whether the page is visible now; `document.visibilityState === 'visible'` in the browser. */
  isVisible?: () => boolean;
}

export interface FolderCountsContext {
  counts: FolderCount[];
  /** Polling only happens while the page is visible. */
  visible: boolean;
}

export type FolderCountsEvent =
  | { type: 'session.updated'; status: SessionStatus; roles: string[]; device: string | null }
  | { type: 'counts.refresh' }
  | { type: 'counts.visibility'; visible: boolean };

const documentIsVisible = () => typeof document === 'undefined' || document.visibilityState === 'visible';

/** Reports page visibility changes as `counts.visibility`. */
const visibilityChanges = fromCallback<EventObject, void, FolderCountsEvent>(({ sendBack }) => {
  if (typeof document === 'undefined') return undefined;
  const onChange = () => sendBack({ type: 'counts.visibility', visible: document.visibilityState === 'visible' });
  document.addEventListener('visibilitychange', onChange);
  return () => document.removeEventListener('visibilitychange', onChange);
});

/**
 * The poll's tick, the same after a load and after a failure: a visible tab asks again; a hidden one
 * asks nothing, and the timer just runs again from where it is (`from`).
 */
const pollFrom = <T extends 'loaded' | 'failed'>(from: T) =>
  [
    { guard: 'isVisible', target: 'loading' },
    { target: from, reenter: true },
  ] as const;

export const folderCountsMachine = setup({
  types: {
    input: {} as FolderCountsInput,
    context: {} as FolderCountsContext,
    events: {} as FolderCountsEvent,
  },
  actors: { fetchFolderCounts, visibilityChanges },
  actions: {
    assignCounts: assign((_, counts: FolderCount[]) => ({ counts })),
    clearCounts: assign({ counts: [] }),
    assignVisibility: assign({
      visible: ({ event }) => {
        assertEvent(event, 'counts.visibility');
        return event.visible;
      },
    }),
  },
  guards: {
    isLoggedIn: ({ event }) => {
      assertEvent(event, 'session.updated');
      return event.status === 'loggedIn';
    },
    isLoggedOut: ({ event }) => {
      assertEvent(event, 'session.updated');
      return event.status !== 'loggedIn';
    },
    isVisible: ({ context }) => context.visible,
    isBecomingVisible: ({ context, event }) => {
      assertEvent(event, 'counts.visibility');
      return event.visible && !context.visible;
    },
  },
  delays: {
    poll: COUNTS_POLL_MS,
  },
}).createMachine({
  id: 'folderCounts',
  initial: 'idle',
  context: ({ input }) => ({ counts: [], visible: (input?.isVisible ?? documentIsVisible)() }),
  invoke: { id: 'visibilityChanges', src: 'visibilityChanges' },
  on: {
    // Counts belong to one user: they go as soon as the session does.
    'session.updated': { guard: 'isLoggedOut', target: '.idle', actions: 'clearCounts' },
    'counts.visibility': { actions: 'assignVisibility' },
  },
  states: {
    idle: {
      on: {
        'session.updated': { guard: 'isLoggedIn', target: 'loading' },
      },
    },
    loading: {
      invoke: {
        id: 'fetchFolderCounts',
        src: 'fetchFolderCounts',
        onDone: { target: 'loaded', actions: { type: 'assignCounts', params: ({ event }) => event.output } },
        onError: { target: 'failed' },
      },
      on: {
        // Something changed after this request left: ask again.
        'counts.refresh': { target: 'loading', reenter: true },
      },
    },
    loaded: {
      after: { poll: pollFrom('loaded') },
      on: {
        'counts.refresh': { target: 'loading' },
        // Back to the tab after a while: show fresh numbers now, not at the next tick.
        'counts.visibility': [
          { guard: 'isBecomingVisible', target: 'loading', actions: 'assignVisibility' },
          { actions: 'assignVisibility' },
        ],
      },
    },
    failed: {
      after: { poll: pollFrom('failed') },
      on: {
        'counts.refresh': { target: 'loading' },
      },
    },
  },
});

export type FolderCountsSnapshot = SnapshotFrom<typeof folderCountsMachine>;

const countOf = (snapshot: FolderCountsSnapshot, type: CountType) => snapshot.context.counts.find((count) => count.type === type);

/** Selector factories: define once per folder outside the component (`const selectInboxUnreads = selectUnreads('received')`). */
export const selectUnreads =
  (type: CountType) =>
  (snapshot: FolderCountsSnapshot): number =>
    countOf(snapshot, type)?.unreads ?? 0;
export const selectTotal =
  (type: CountType) =>
  (snapshot: FolderCountsSnapshot): number =>
    countOf(snapshot, type)?.total ?? 0;
export const selectHasCounts = (snapshot: FolderCountsSnapshot): boolean => snapshot.context.counts.length > 0;
export const selectIsLoadingCounts = (snapshot: FolderCountsSnapshot): boolean => snapshot.matches('loading');
export const selectCountsFailed = (snapshot: FolderCountsSnapshot): boolean => snapshot.matches('failed');
