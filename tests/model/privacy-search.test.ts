// The search for the person a data request names (privacy/search.ts): typing a search worth asking waits
// for a pause, a shorter one clears the results without asking; a failure keeps the last results with
// Reintentar. Every transition on the real actor, against a hand-written oracle.
import { createActor, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import type { PrivacyMatch } from '../../shared/privacy-contract';
import { privacySearchMachine, type PrivacySearchSnapshot } from '../../src/machines/privacy/search';
import { defineModelTests, elapse, send, settle } from './harness';
import { failure } from './fixtures';

const ps = (snapshot: AnyMachineSnapshot) => snapshot as unknown as PrivacySearchSnapshot;
const FOUND: PrivacyMatch[] = [{ kind: 'apoderado', id: 7, name: 'Rosa Núñez Soto', dni: '12.345.678-5', hint: 'Pedro Núñez' }];

defineModelTests({
  name: 'privacy-search',
  machine: privacySearchMachine,
  oracle: {
    initial: 'idle',
    targets: {
      '*': { 'privacy.search': ({ event }) => (event.q.trim().length >= 2 ? 'typing' : 'idle') },
      typing: { 'xstate.after.debounce.privacySearch.typing': 'searching' },
      searching: { 'xstate.done.actor.searchPrivacyPeople': 'shown', 'xstate.error.actor.searchPrivacyPeople': 'failed' },
      failed: { 'privacy.retry': 'searching' },
    },
  },
  traversal: {
    input: {},
    events: [{ type: 'privacy.search', q: 'rosa nunez' }, { type: 'privacy.search', q: ' r ' }, { type: 'privacy.retry' }],
    internal: [
      { type: 'xstate.after.debounce.privacySearch.typing' },
      { type: 'xstate.done.actor.searchPrivacyPeople', output: FOUND },
      { type: 'xstate.done.actor.searchPrivacyPeople', output: [] },
      { type: 'xstate.error.actor.searchPrivacyPeople', error: failure(500, 'server.error') },
    ],
    serializeState: (s) => JSON.stringify([s.value, s.context.q, s.context.matches?.length ?? null]),
    limit: 2000,
  },
  createActor: ({ fakes, inspect, machine }) =>
    createActor(machine.provide({ actors: { searchPrivacyPeople: fakes.promise() } }), { input: {} as never, inspect }),
  states: {
    idle: (s, env) => {
      expect(env.fakes.isRunning('searchPrivacyPeople')).toBe(false);
      // Too short to name anyone: the results are gone, nothing asked.
      expect(ps(s).context.matches).toBeNull();
      if (env.event.type === 'privacy.search') expect(ps(s).context.q).toBe(env.event.q);
    },
    typing: (s, env) => {
      expect(env.fakes.isRunning('searchPrivacyPeople'), 'nothing asked while typing').toBe(false);
      expect(ps(s).context.matches).toBe(ps(env.from).context.matches);
      if (env.event.type === 'privacy.search') expect(ps(s).context.q).toBe(env.event.q);
    },
    searching: (s, env) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(env.fakes.inputOf('searchPrivacyPeople')).toEqual({ q: ps(s).context.q });
    },
    shown: (s, env) => {
      expect(s.hasTag('busy')).toBe(false);
      if (env.event.type === 'xstate.done.actor.searchPrivacyPeople') {
        expect(ps(s).context.matches).toEqual(env.event.output);
        expect(ps(s).context.answeredQ).toBe(ps(s).context.q);
      }
      expect(s.can({ type: 'privacy.retry' })).toBe(false);
    },
    failed: (s, env) => {
      expect(s.can({ type: 'privacy.retry' })).toBe(true);
      // The last results stay, said to be out of date.
      if (env.event.type === 'xstate.error.actor.searchPrivacyPeople') expect(ps(s).context.matches).toBe(ps(env.from).context.matches);
    },
  },
  events: {
    'privacy.search': send,
    'privacy.retry': send,
    'xstate.after.debounce.privacySearch.typing': elapse,
    'xstate.done.actor.searchPrivacyPeople': settle,
    'xstate.error.actor.searchPrivacyPeople': settle,
  },
  emits: () => [],
});
