// The people list (people/people.ts): the search waits for a pause in typing, the kind, standing and page
// ask at once; each choice goes in the address (replaced), and an address changed by the browser is read
// back; a failure keeps the last page with Reintentar. Every transition on the real actor, against a
// hand-written oracle and the addresses this test writes itself.
import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import { peopleMachine, type PeopleSnapshot } from '../../src/machines/people/people';
import { defineModelTests, elapse, send, settle, type StepEnv } from './harness';
import { failure } from './fixtures';
import { GUARDIAN_RECORD, peoplePage, personRecord, summaryOf } from '../fixtures/people';

const pe = (snapshot: AnyMachineSnapshot) => snapshot as unknown as PeopleSnapshot;
type Query = { q: string; kind: string | null; status: string; page: number };

/** Three pages of students and guardians, and a search that finds nobody. */
const THREE_PAGES = peoplePage([summaryOf(personRecord()), summaryOf(GUARDIAN_RECORD)], 1, 3);
const NOBODY = peoplePage([]);
const INPUT = { search: 'status=all&page=2' };

/** The address as the screen writes it: only what differs from «matriculados», page 1, no search. */
function addressOf(query: Query): string {
  const parts: string[] = [];
  if (query.q.trim()) parts.push(`q=${encodeURIComponent(query.q).replace(/%20/g, '+')}`);
  if (query.kind) parts.push(`kind=${query.kind}`);
  if (query.status !== 'enrolled') parts.push(`status=${query.status}`);
  if (query.page > 1) parts.push(`page=${query.page}`);
  return parts.length ? `/settings/people?${parts.join('&')}` : '/settings/people';
}

/** What an address says, in this test's words (unknown values are the defaults). */
function readAddress(search: string): Query {
  const params = new URLSearchParams(search);
  const page = Number(params.get('page'));
  const kind = params.get('kind');
  const status = params.get('status');
  return {
    q: params.get('q') ?? '',
    kind: kind === 'estudiante' || kind === 'apoderado' ? kind : null,
    status: status === 'withdrawn' || status === 'all' ? status : 'enrolled',
    page: Number.isInteger(page) && page > 0 ? page : 1,
  };
}

const queryOf = (s: AnyMachineSnapshot): Query => pe(s).context.query;
const lastPage = (s: AnyMachineSnapshot): number => pe(s).context.answer?.meta.last_page ?? 1;
const same = (a: Query, b: Query) => JSON.stringify(a) === JSON.stringify(b);

/** The query after a choice, by the screen's rules: a new search or filter starts at page 1. */
function chosen(from: Query, event: AnyEventObject): Query {
  if (event.type === 'people.search') return { ...from, q: event.q, page: 1 };
  if (event.type === 'people.kind') return { ...from, kind: event.kind, page: 1 };
  if (event.type === 'people.status') return { ...from, status: event.status, page: 1 };
  if (event.type === 'people.page') return { ...from, page: event.page };
  return from;
}

const takesPage = (s: AnyMachineSnapshot, page: number) => page >= 1 && page <= lastPage(s) && page !== queryOf(s).page;

function emits({ from, event }: StepEnv): AnyEventObject[] {
  const query = queryOf(from);
  const moved =
    event.type === 'people.search' ||
    (event.type === 'people.kind' && event.kind !== query.kind) ||
    (event.type === 'people.status' && event.status !== query.status) ||
    (event.type === 'people.page' && takesPage(from, event.page as number));
  return moved ? [{ type: 'navigate', to: addressOf(chosen(query, event)), replace: true }] : [];
}

defineModelTests({
  name: 'people',
  machine: peopleMachine,
  // The header: typing waits, choices ask at once, an address that says something else asks for it.
  oracle: {
    initial: 'loading',
    targets: {
      '*': {
        'people.search': 'typing',
        'people.kind': ({ context, event, stay }) => (event.kind !== context.query.kind ? 'loading' : stay),
        'people.status': ({ context, event, stay }) => (event.status !== context.query.status ? 'loading' : stay),
        'people.page': ({ context, event, stay }) => {
          const last = context.answer?.meta.last_page ?? 1;
          return event.page >= 1 && event.page <= last && event.page !== context.query.page ? 'loading' : stay;
        },
        'people.address': ({ context, event, stay }) => (same(readAddress(event.search), context.query) ? stay : 'loading'),
      },
      typing: { 'xstate.after.debounce.people.typing': 'loading' },
      loading: { 'xstate.done.actor.fetchPeople': 'shown', 'xstate.error.actor.fetchPeople': 'failed' },
      failed: { 'people.retry': 'loading' },
    },
  },
  traversal: {
    input: INPUT,
    events: [
      { type: 'people.search', q: 'nunez' },
      { type: 'people.kind', kind: 'estudiante' },
      { type: 'people.kind', kind: null },
      { type: 'people.status', status: 'withdrawn' },
      { type: 'people.status', status: 'all' },
      { type: 'people.page', page: 1 },
      { type: 'people.page', page: 3 },
      { type: 'people.page', page: 4 },
      { type: 'people.address', search: 'q=rosa&kind=apoderado' },
      { type: 'people.address', search: 'status=all&page=2' },
      { type: 'people.retry' },
    ],
    internal: [
      { type: 'xstate.after.debounce.people.typing' },
      { type: 'xstate.done.actor.fetchPeople', output: THREE_PAGES },
      { type: 'xstate.done.actor.fetchPeople', output: NOBODY },
      { type: 'xstate.error.actor.fetchPeople', error: failure(500, 'server.error') },
    ],
    serializeState: (s) => JSON.stringify([s.value, s.context.query, s.context.answer?.meta.last_page ?? null]),
    limit: 5000,
  },
  createActor: ({ fakes, inspect, machine }) =>
    createActor(machine.provide({ actors: { fetchPeople: fakes.promise() } }), { input: INPUT as never, inspect }),
  states: {
    loading: (s, env) => {
      expect(s.hasTag('busy')).toBe(true);
      // The page asked is the query as chosen (or as the address says).
      expect(env.fakes.inputOf('fetchPeople')).toEqual(queryOf(s));
      if (env.event.type === 'xstate.init') expect(queryOf(s)).toEqual({ q: '', kind: null, status: 'all', page: 2 });
      if (env.event.type === 'people.address') expect(queryOf(s)).toEqual(readAddress(env.event.search as string));
      // A choice taken changes the query; one refused (a page beyond the last) leaves it.
      if (['people.kind', 'people.status', 'people.page'].includes(env.event.type))
        expect(queryOf(s)).toEqual(emits(env).length > 0 ? chosen(queryOf(env.from), env.event) : queryOf(env.from));
    },
    typing: (s, env) => {
      expect(env.fakes.isRunning('fetchPeople'), 'nothing asked while typing').toBe(false);
      if (env.event.type === 'people.search') expect(queryOf(s)).toEqual(chosen(queryOf(env.from), env.event));
      // The last page stays on screen meanwhile.
      expect(pe(s).context.answer).toBe(pe(env.from).context.answer);
    },
    shown: (s, env) => {
      expect(env.fakes.isRunning('fetchPeople')).toBe(false);
      if (env.event.type === 'xstate.done.actor.fetchPeople') expect(pe(s).context.answer).toEqual(env.event.output);
      expect(s.can({ type: 'people.retry' })).toBe(false);
    },
    failed: (s, env) => {
      expect(s.can({ type: 'people.retry' })).toBe(true);
      // The last page stays, said to be out of date.
      if (env.event.type === 'xstate.error.actor.fetchPeople') expect(pe(s).context.answer).toBe(pe(env.from).context.answer);
    },
  },
  events: {
    'people.search': send,
    'people.kind': send,
    'people.status': send,
    'people.page': send,
    'people.address': send,
    'people.retry': send,
    'xstate.after.debounce.people.typing': elapse,
    'xstate.done.actor.fetchPeople': settle,
    'xstate.error.actor.fetchPeople': settle,
  },
  emits,
});
