import { createActor, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import { localeMachine, selectIsLocaleLoading, selectLocale, type LocaleSnapshot } from '../../src/machines/locale';
import { defineModelTests, send, settle } from './harness';

const loc = (snapshot: AnyMachineSnapshot) => snapshot as unknown as LocaleSnapshot;

defineModelTests({
  name: 'locale',
  machine: localeMachine,
  traversal: {
    events: [
      { type: 'locale.change', locale: 'es-MX' },
      { type: 'locale.change', locale: 'es-CL' },
    ],
    internal: [
      { type: 'xstate.done.actor.loadLocale', output: 'es-CL' },
      { type: 'xstate.done.actor.loadLocale', output: 'es-MX' },
      { type: 'xstate.error.actor.loadLocale', error: new Error('Failed to fetch dynamically imported module') },
    ],
    // The loader answers with the locale it was asked for; at start-up the cookie may say either.
    filterEvents: (snapshot, event) =>
      event.type !== 'xstate.done.actor.loadLocale' ||
      snapshot.context.requested === null ||
      (event as { output?: unknown }).output === snapshot.context.requested,
    input: {},
    limit: 200,
  },
  createActor: ({ fakes }) => createActor(localeMachine.provide({ actors: { loadLocale: fakes.promise() } }), { input: {} }),
  states: {
    loading: (snapshot, env) => {
      expect(selectIsLocaleLoading(loc(snapshot))).toBe(true);
      // null at start-up: the loader reads the cookie.
      expect(env.fakes.inputOf('loadLocale')).toEqual({ locale: snapshot.context.requested });
    },
    ready: (snapshot, env) => {
      expect(selectIsLocaleLoading(loc(snapshot))).toBe(false);
      expect(env.fakes.isRunning('loadLocale')).toBe(false);
      expect(snapshot.context.requested).toBeNull();
      if (env.event.type === 'xstate.done.actor.loadLocale') expect(selectLocale(loc(snapshot))).toBe(env.event.output);
      // A failed load keeps the texts that were in use.
      if (env.event.type === 'xstate.error.actor.loadLocale') expect(selectLocale(loc(snapshot))).toBe(env.from.context.locale);
    },
  },
  events: {
    'locale.change': send,
    'xstate.done.actor.loadLocale': settle,
    'xstate.error.actor.loadLocale': settle,
  },
  emits: ({ event }) =>
    event.type === 'xstate.error.actor.loadLocale' ? [{ type: 'toast', kind: 'error', key: 'error.request' }] : [],
});
