// "Lista de llamados" (dashboard/call-list.ts): it asks for the course's list over the last COVERAGE_MESSAGES
// messages (or the N the print view starts with, when within 1–20); another N asks again at once, even
// while a request runs, with the last list kept on screen; N outside 1–20, not whole, or the one shown
// changes nothing; a failure offers Reintentar, a 404 (another school's course) is not found for good; the CSV link always names the N shown.
import { createActor, fromPromise, waitFor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { describe, expect, it } from 'vitest';
import {
  CALL_LIST_PAGE_ROWS,
  callListMachine,
  pagesOf,
  selectCsvUrl,
  selectPrintPages,
  selectList,
  selectListFailed,
  selectListLoading,
  selectListNotFound,
  selectMessages,
  type CallListSnapshot,
} from '../../src/machines/dashboard/call-list';
import { defineModelTests, send, settle, type Oracle, type StepEnv } from './harness';
import { failure } from './fixtures';
import { callList } from '../fixtures/dashboard';

const snap = (s: AnyMachineSnapshot) => s as unknown as CallListSnapshot;
const COURSE = 12;

const EVENTS: AnyEventObject[] = [
  { type: 'callList.messages', messages: 5 },
  { type: 'callList.messages', messages: 3 },
  { type: 'callList.messages', messages: 20 },
  { type: 'callList.messages', messages: 0 },
  { type: 'callList.messages', messages: 21 },
  { type: 'callList.messages', messages: 2.5 },
  { type: 'callList.retry' },
];
/** Another school's course: the server answers 404. */
const NOT_THE_SCHOOLS = failure(404, 'not_found', 'No encontrado');
const INTERNAL: AnyEventObject[] = [
  ...[3, 5, 20].map((n) => ({ type: 'xstate.done.actor.fetchCallList', output: callList(COURSE, n) })),
  { type: 'xstate.error.actor.fetchCallList', error: failure(500, 'server.error') },
  { type: 'xstate.error.actor.fetchCallList', error: NOT_THE_SCHOOLS },
];

/** An N the contract takes: a whole number of last messages, 1 to 20. */
const isTakenN = (n: number) => Number.isInteger(n) && n >= 1 && n <= 20;

/** N after a step (the oracle). */
function messagesAfter(env: StepEnv, start: number): number {
  if (env.event.type === 'xstate.init') return start;
  const before = env.from.context.messages as number;
  if (env.event.type !== 'callList.messages') return before;
  const n = env.event.messages as number;
  return isTakenN(n) ? n : before;
}

// The header: the list loads, shows, or fails (Reintentar), another school's course for good (no retry).
// A taken N other than the one shown asks again from wherever the list is, restarting a request still
// out; any other N changes nothing.
const ORACLE: Oracle<typeof callListMachine> = {
  initial: 'loading',
  targets: {
    '*': {
      'callList.messages': ({ event, context, stay }) =>
        isTakenN(event.messages) && event.messages !== context.messages ? 'loading' : stay,
    },
    loading: {
      'xstate.done.actor.fetchCallList': 'shown',
      'xstate.error.actor.fetchCallList': ({ event }) => (event.error === NOT_THE_SCHOOLS ? 'notFound' : 'failed'),
    },
    failed: { 'callList.retry': 'loading' },
  },
};

const spec = (start: number) => ({
  loading: (snapshot: AnyMachineSnapshot, env: StepEnv) => {
    expect(selectListLoading(snap(snapshot))).toBe(true);
    expect(selectMessages(snap(snapshot))).toBe(messagesAfter(env, start));
    // The request running asks for what is shown.
    expect(env.fakes.inputOf('fetchCallList')).toEqual({ courseId: COURSE, messages: selectMessages(snap(snapshot)) });
    // A new N asks again at once; anything else starts no request.
    const asks =
      env.event.type === 'xstate.init' ||
      env.event.type === 'callList.retry' ||
      selectMessages(snap(snapshot)) !== env.from.context.messages;
    expect(env.fakes.calls.at(-1)?.input).toEqual({ courseId: COURSE, messages: selectMessages(snap(snapshot)) });
    if (!asks) expect(env.event.type).toBe('callList.messages');
    // Each entry asks once (a new N while a request is out restarts it); nothing else starts one.
    const entered = !env.from.matches('loading') || selectMessages(snap(snapshot)) !== env.from.context.messages;
    if (env.event.type !== 'xstate.init') expect(env.started, 'requests started').toEqual(entered ? ['fetchCallList'] : []);
    expect(selectList(snap(snapshot))).toBe(env.event.type === 'xstate.init' ? null : env.from.context.list);
    expect(selectCsvUrl(snap(snapshot))).toBe(
      `/api/dashboard/connectivity/courses/${COURSE}/call-list?messages=${selectMessages(snap(snapshot))}&format=csv`,
    );
  },
  shown: (snapshot: AnyMachineSnapshot, env: StepEnv) => {
    expect(selectListLoading(snap(snapshot))).toBe(false);
    expect(selectListFailed(snap(snapshot))).toBe(false);
    expect(env.fakes.isRunning('fetchCallList')).toBe(false);
    expect(selectMessages(snap(snapshot))).toBe(messagesAfter(env, start));
    expect(selectList(snap(snapshot))?.messages).toBe(selectMessages(snap(snapshot)));
  },
  notFound: (snapshot: AnyMachineSnapshot, env: StepEnv) => {
    expect(selectListNotFound(snap(snapshot))).toBe(true);
    if (env.event.type === 'xstate.error.actor.fetchCallList') expect(env.event.error, 'only a 404 is not found').toBe(NOT_THE_SCHOOLS);
    expect(selectListFailed(snap(snapshot))).toBe(false);
    expect(env.fakes.isRunning('fetchCallList')).toBe(false);
    // Nothing will change another school's course: no retry.
    expect(snapshot.can({ type: 'callList.retry' })).toBe(false);
  },
  failed: (snapshot: AnyMachineSnapshot, env: StepEnv) => {
    expect(selectListFailed(snap(snapshot))).toBe(true);
    expect(selectListNotFound(snap(snapshot))).toBe(false);
    expect(env.fakes.isRunning('fetchCallList')).toBe(false);
    expect(snapshot.can({ type: 'callList.retry' })).toBe(true);
    expect(selectList(snap(snapshot))).toBe(env.from.context.list);
  },
});

const traversal = (input: object) => ({
  events: EVENTS,
  internal: INTERNAL,
  // The server answers the N asked.
  filterEvents: (s: AnyMachineSnapshot, event: AnyEventObject) =>
    event.type !== 'xstate.done.actor.fetchCallList' || (event.output as { messages: number }).messages === s.context.messages,
  serializeState: (s: AnyMachineSnapshot) => JSON.stringify([s.value, s.context.messages, s.context.list?.messages ?? null]),
  limit: 5_000,
  input,
});

const EVENT_HANDLERS = {
  'callList.messages': send,
  'callList.retry': send,
  'xstate.done.actor.fetchCallList': settle,
  'xstate.error.actor.fetchCallList': settle,
};

defineModelTests({
  name: 'call-list',
  machine: callListMachine,
  oracle: ORACLE,
  traversal: traversal({ courseId: COURSE }),
  createActor: ({ fakes, path, inspect, machine }) =>
    createActor(machine.provide({ actors: { fetchCallList: fakes.promise() } }), { input: path.input as never, inspect }),
  states: spec(3),
  events: EVENT_HANDLERS,
  emits: () => [],
});

// The print view starts with its `?messages=`: 20 is taken, 0 (or none) is the default 3.
defineModelTests({
  name: 'call-list-print-start',
  machine: callListMachine,
  oracle: ORACLE,
  traversal: { ...traversal({ courseId: COURSE, messages: 20 }), limit: 5_000 },
  createActor: ({ fakes, path, inspect, machine }) =>
    createActor(machine.provide({ actors: { fetchCallList: fakes.promise() } }), { input: path.input as never, inspect }),
  states: spec(20),
  events: EVENT_HANDLERS,
  emits: () => [],
});
defineModelTests({
  name: 'call-list-bad-start',
  machine: callListMachine,
  oracle: ORACLE,
  traversal: { ...traversal({ courseId: COURSE, messages: 0 }), limit: 5_000 },
  createActor: ({ fakes, path, inspect, machine }) =>
    createActor(machine.provide({ actors: { fetchCallList: fakes.promise() } }), { input: path.input as never, inspect }),
  states: spec(3),
  events: EVENT_HANDLERS,
  emits: () => [],
});

describe('call list: printed pages', () => {
  it('cuts the rows into pages of CALL_LIST_PAGE_ROWS, the last one what is left; none for no rows', () => {
    const rows = Array.from({ length: 2 * CALL_LIST_PAGE_ROWS + 3 }, (_, i) => i);
    expect(pagesOf(rows).map((page) => page.length)).toEqual([CALL_LIST_PAGE_ROWS, CALL_LIST_PAGE_ROWS, 3]);
    expect(pagesOf(rows).flat()).toEqual(rows);
    expect(pagesOf(rows.slice(0, CALL_LIST_PAGE_ROWS))).toHaveLength(1);
    expect(pagesOf([])).toEqual([]);
  });

  it('gives the print view its pages through a selector, the same array while the list is the same', async () => {
    const list = callList(COURSE, 3);
    const actor = createActor(callListMachine.provide({ actors: { fetchCallList: fromPromise(async () => list) } }), {
      input: { courseId: COURSE },
    }).start();
    expect(selectPrintPages(actor.getSnapshot())).toEqual([]);
    await waitFor(actor, (s) => s.matches('shown'));
    const pages = selectPrintPages(actor.getSnapshot());
    expect(pages).toEqual([list.rows]);
    expect(selectPrintPages(actor.getSnapshot())).toBe(pages);
    actor.stop();
  });
});
