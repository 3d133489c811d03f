// The families' inbox (family/inbox.ts): the first page, then «Ver más» while there are pages left; empty
// and failed (offline and a foreign child said apart) with their refresh and retry; a page that fails keeps
// the rows shown; a 401 anywhere ends the screen and tells `session.expired`, exactly once. Another child
// asks again at once; typing waits for a pause (the rows shown stay meanwhile), each key restarting it; an
// empty answer to a narrowed inbox (a child or words) is «no results».
import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import type { FamilyInboxPage, FamilyMessageSummary } from '../../shared/family-contract';
import { FamilyFailureError } from '../../src/services/family/api';
import {
  familyInboxMachine,
  selectCanLoadMore,
  selectInboxFailure,
  selectInboxItems,
  selectInboxPhase,
  selectIsLoadingMore,
  selectIsSearching,
  selectMoreFailure,
  selectSearch,
  selectUnreadCount,
} from '../../src/machines/family/inbox';
import { defineModelTests, elapse, send, settle, type StepEnv } from './harness';

type Snapshot = Parameters<typeof selectInboxPhase>[0];
const snap = (s: AnyMachineSnapshot) => s as unknown as Snapshot;

const failure = (status: number, code: string) => new FamilyFailureError({ status, code, message: '', fieldErrors: {} });
const OFFLINE = failure(0, 'network');
const SERVER = failure(500, 'server.error');
const EXPIRED = failure(401, 'auth.unauthenticated');
const MISSING = failure(404, 'not_found');

const row = (id: number, read: boolean): FamilyMessageSummary => ({
  id,
  title: `Mensaje ${id}`,
  snippet: 'Texto',
  sender_name: 'Marta Díaz',
  school_name: 'Colegio San Andrés de Ñuñoa',
  sent_at: `2026-11-${String(30 - id).padStart(2, '0')}T12:00:00.000Z`,
  read,
  allow_replies: id % 2 === 0,
  student_names: 'Tomás Soto',
});
/** `unread`: the server's count over every page of the inbox, not only these rows. */
const page = (current: number, last: number, data: FamilyMessageSummary[], unread: number): FamilyInboxPage => ({
  data,
  meta: { current_page: current, last_page: last, per_page: 20, total: data.length, unread },
  links: { first: '/api/app/messages?page=1', last: `/api/app/messages?page=${last}`, prev: null, next: null },
});
/** Rows 1 and 3 of the two pages are unread: the badge says 2 from the first page on. */
const FIRST = page(1, 2, [row(1, false), row(2, true)], 2);
/** The second page repeats row 2 (a message arrived meanwhile and shifted the pages). */
const SECOND = page(2, 2, [row(2, true), row(3, false)], 2);
const ONLY = page(1, 1, [row(1, true)], 0);
const EMPTY = page(1, 1, [], 0);

const idsOf = (s: AnyMachineSnapshot) => selectInboxItems(snap(s)).map((item) => item.id);

const WAIT = 'xstate.after.searchDelay.familyInbox.waiting';

/** The child and words the inbox should be asking for, from the events of the path (the input's child: none). */
function narrowing(history: readonly AnyEventObject[]): { student: number | null; q: string } {
  let student: number | null = null;
  let q = '';
  for (const event of history) {
    if (event.type === 'inbox.child') student = event.student as number | null;
    if (event.type === 'inbox.search') q = event.q as string;
  }
  return { student, q: q.trim() };
}

function emits({ event }: StepEnv): AnyEventObject[] {
  const error = (event as { error?: unknown }).error;
  return event.type.startsWith('xstate.error.actor.') && error === EXPIRED ? [{ type: 'session.expired' }] : [];
}

defineModelTests({
  name: 'family-inbox',
  machine: familyInboxMachine,
  oracle: {
    initial: 'loading',
    targets: {
      '*': {
        // A tap on another child asks at once; the same child again changes nothing.
        'inbox.child': ({ event, context, stay }) => (event.student !== context.student ? 'loading' : stay),
        // Typing: wait for the pause, whatever was shown.
        'inbox.search': 'waiting',
      },
      waiting: { [WAIT]: 'loading' },
      loading: {
        'xstate.done.actor.fetchFirstPage': ({ event }) => (event.output.data.length > 0 ? 'loaded' : 'empty'),
        'xstate.error.actor.fetchFirstPage': ({ event }) => (event.error === EXPIRED ? 'expired' : 'failed'),
      },
      loaded: {
        'inbox.more': ({ context, stay }) => (context.page < context.lastPage ? 'loadingMore' : stay),
        'inbox.refresh': 'loading',
      },
      loadingMore: {
        'xstate.done.actor.fetchNextPage': 'loaded',
        'xstate.error.actor.fetchNextPage': ({ event }) => (event.error === EXPIRED ? 'expired' : 'loaded'),
      },
      empty: { 'inbox.refresh': 'loading' },
      failed: { 'inbox.retry': 'loading' },
    },
  },
  traversal: {
    input: { token: 'tok', student: null },
    events: [
      { type: 'inbox.more' },
      { type: 'inbox.refresh' },
      { type: 'inbox.retry' },
      { type: 'inbox.child', student: 5 },
      { type: 'inbox.child', student: null },
      { type: 'inbox.search', q: ' reunión ' },
      { type: 'inbox.search', q: '' },
    ],
    internal: [
      { type: 'xstate.done.actor.fetchFirstPage', output: FIRST },
      { type: 'xstate.done.actor.fetchFirstPage', output: ONLY },
      { type: 'xstate.done.actor.fetchFirstPage', output: EMPTY },
      { type: 'xstate.error.actor.fetchFirstPage', error: OFFLINE },
      { type: 'xstate.error.actor.fetchFirstPage', error: SERVER },
      { type: 'xstate.error.actor.fetchFirstPage', error: EXPIRED },
      { type: 'xstate.error.actor.fetchFirstPage', error: MISSING },
      { type: WAIT },
      { type: 'xstate.done.actor.fetchNextPage', output: SECOND },
      { type: 'xstate.error.actor.fetchNextPage', error: OFFLINE },
      { type: 'xstate.error.actor.fetchNextPage', error: EXPIRED },
    ],
    // The rows and pages, not which answer brought them: bounds the graph without losing a mode.
    serializeState: (s) =>
      JSON.stringify([
        s.value,
        s.context.student,
        s.context.q,
        s.context.items.length,
        s.context.page,
        s.context.failure,
        s.context.moreFailure,
      ]),
    limit: 20000,
  },
  createActor: ({ fakes, inspect, machine, path }) =>
    createActor(machine.provide({ actors: { fetchInboxPage: fakes.promise() } }), {
      input: path.input as { token: string; student: number | null },
      inspect,
    }),
  states: {
    loading: (s, env) => {
      expect(selectInboxPhase(snap(s))).toBe('loading');
      expect(s.hasTag('busy')).toBe(true);
      expect(env.fakes.inputOf('fetchFirstPage')).toEqual({ token: 'tok', page: 1, ...narrowing(env.history) });
    },
    waiting: (s, env) => {
      // The rows of the last answer stay while typing; with none yet, it reads as loading.
      expect(selectInboxPhase(snap(s))).toBe(idsOf(s).length > 0 ? 'loaded' : 'loading');
      expect(selectIsSearching(snap(s))).toBe(true);
      expect(selectCanLoadMore(snap(s))).toBe(false);
      const typed = [...env.history].reverse().find((e) => e.type === 'inbox.search') as AnyEventObject;
      expect(selectSearch(snap(s))).toBe(typed.q);
    },
    loaded: (s, env) => {
      expect(selectInboxPhase(snap(s))).toBe('loaded');
      if (env.event.type === 'xstate.done.actor.fetchFirstPage') {
        expect(idsOf(s)).toEqual(env.event.output === FIRST ? [1, 2] : [1]);
        expect(selectCanLoadMore(snap(s))).toBe(env.event.output === FIRST);
        // The whole inbox's unread, one of them on a page not loaded yet.
        expect(selectUnreadCount(snap(s))).toBe(env.event.output === FIRST ? 2 : 0);
      }
      if (env.event.type === 'xstate.done.actor.fetchNextPage') {
        // Row 2 once, newest first as the server gave them; one page left: none.
        expect(idsOf(s)).toEqual([1, 2, 3]);
        expect(selectUnreadCount(snap(s))).toBe(2);
        expect(selectCanLoadMore(snap(s))).toBe(false);
        expect(selectMoreFailure(snap(s))).toBeNull();
      }
      if (env.event.type === 'xstate.error.actor.fetchNextPage') {
        expect(idsOf(s)).toEqual([1, 2]);
        expect(selectMoreFailure(snap(s))).toBe('offline');
        expect(selectCanLoadMore(snap(s))).toBe(true);
      }
    },
    loadingMore: (s, env) => {
      expect(selectIsLoadingMore(snap(s))).toBe(true);
      expect(env.fakes.inputOf('fetchNextPage')).toEqual({ token: 'tok', page: 2, ...narrowing(env.history) });
      expect(idsOf(s)).toEqual([1, 2]);
    },
    empty: (s, env) => {
      const { student, q } = narrowing(env.history);
      expect(selectInboxPhase(snap(s))).toBe(student !== null || q !== '' ? 'noResults' : 'empty');
      expect(idsOf(s)).toEqual([]);
    },
    failed: (s, env) => {
      expect(selectInboxPhase(snap(s))).toBe('failed');
      // What the last failed load said, whatever was tried since that changed nothing.
      const last = [...env.history].reverse().find((e) => e.type === 'xstate.error.actor.fetchFirstPage') as
        | { error?: unknown }
        | undefined;
      expect(selectInboxFailure(snap(s))).toBe(last?.error === OFFLINE ? 'offline' : last?.error === MISSING ? 'missing' : 'error');
    },
    expired: (s) => {
      expect(selectInboxPhase(snap(s))).toBe('expired');
      expect(s.status).toBe('done');
    },
  },
  events: {
    'inbox.more': send,
    'inbox.refresh': send,
    'inbox.retry': send,
    'inbox.child': send,
    'inbox.search': send,
    [WAIT]: elapse,
    'xstate.done.actor.fetchFirstPage': settle,
    'xstate.error.actor.fetchFirstPage': settle,
    'xstate.done.actor.fetchNextPage': settle,
    'xstate.error.actor.fetchNextPage': settle,
  },
  emits,
});
