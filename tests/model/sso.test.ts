// The login page's single sign-on section (session/sso.ts): it asks once which providers are on and
// offers exactly those; a failed question offers none (the password form is all there is); the refusal
// a provider's sign-in came back with is read from the address (`?sso=<code>`), an unknown code is none.
import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { expect, it } from 'vitest';
import {
  selectHasGoogle,
  selectHasMicrosoft,
  selectHasOther,
  selectSsoRefusal,
  ssoMachine,
  ssoStartHref,
} from '../../src/machines/session/sso';
import { defineModelTests, settle } from './harness';
import { failure } from './fixtures';

type Snapshot = Parameters<typeof selectSsoRefusal>[0];
const snap = (s: AnyMachineSnapshot) => s as unknown as Snapshot;

const INTERNAL: AnyEventObject[] = [
  { type: 'xstate.done.actor.fetchSsoProviders', output: ['google'] },
  { type: 'xstate.done.actor.fetchSsoProviders', output: ['microsoft', 'other'] },
  { type: 'xstate.error.actor.fetchSsoProviders', error: failure(500, 'server.error') },
];

/** The refusal each variant's address carries, in the test's words. */
const REFUSALS: Record<string, string | null> = {
  '': null,
  'sso=domain': 'domain',
  'sso=nope': null,
  'email=x&sso=unverified': 'unverified',
};

/** The address of the path under way (the step's env does not carry the input). */
let visited = '';

defineModelTests({
  name: 'sso',
  machine: ssoMachine,
  oracle: {
    initial: 'loading',
    targets: {
      loading: { 'xstate.done.actor.fetchSsoProviders': 'ready', 'xstate.error.actor.fetchSsoProviders': 'ready' },
    },
  },
  traversal: {
    events: [],
    internal: INTERNAL,
    serializeState: (s) => JSON.stringify([s.value, s.context]),
    limit: 20,
    input: { search: 'sso=domain' },
  },
  variants: Object.keys(REFUSALS).map((search) => ({ name: `address «${search}»`, traversal: { input: { search } } })),
  createActor: ({ fakes, path, inspect, machine }) => {
    visited = (path.input as { search: string }).search;
    return createActor(machine.provide({ actors: { fetchSsoProviders: fakes.promise() } }), { input: path.input as never, inspect });
  },
  states: {
    loading: (snapshot, env) => {
      expect(env.fakes.isRunning('fetchSsoProviders')).toBe(true);
      expect([selectHasGoogle, selectHasMicrosoft, selectHasOther].map((s) => s(snap(snapshot)))).toEqual([false, false, false]);
      expect(selectSsoRefusal(snap(snapshot))).toBe(REFUSALS[visited]);
    },
    ready: (snapshot, env) => {
      expect(env.fakes.isRunning('fetchSsoProviders')).toBe(false);
      const answered = env.event.type === 'xstate.done.actor.fetchSsoProviders' ? (env.event.output as string[]) : [];
      expect(selectHasGoogle(snap(snapshot))).toBe(answered.includes('google'));
      expect(selectHasMicrosoft(snap(snapshot))).toBe(answered.includes('microsoft'));
      expect(selectHasOther(snap(snapshot))).toBe(answered.includes('other'));
      expect(selectSsoRefusal(snap(snapshot))).toBe(REFUSALS[visited]);
    },
  },
  events: {
    'xstate.done.actor.fetchSsoProviders': settle,
    'xstate.error.actor.fetchSsoProviders': settle,
  },
  emits: () => [],
});

it('links each button to the server’s start, with the e-mail typed so far (trimmed) when there is one', () => {
  expect(ssoStartHref('google', '')).toBe('/api/sso/start?provider=google');
  expect(ssoStartHref('microsoft', ' ana@colegio.cl ')).toBe('/api/sso/start?provider=microsoft&email=ana%40colegio.cl');
});
