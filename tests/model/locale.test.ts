import { createActor, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import { localeMachine, selectIsLocaleLoading, selectLocale, type LocaleContext, type LocaleSnapshot } from '../../src/machines/app/locale';
import { defineModelTests, send, settle, type StepEnv } from './harness';

const loc = (snapshot: AnyMachineSnapshot) => snapshot as unknown as LocaleSnapshot;
const ctx = (snapshot: AnyMachineSnapshot) => snapshot.context as LocaleContext;

defineModelTests({
  name: 'locale',
  machine: localeMachine,
  // SPEC §1 and docs/decisions/0022-the-users-language-choice-wins.md: the user's choice, else their school's,
  // else es-CL.
  oracle: {
    initial: 'starting',
    targets: {
      // The cookie read (or unreadable), or a language picked meanwhile: load what the user should read.
      starting: {
        'xstate.done.actor.readLocaleChoice': 'loading',
        'xstate.error.actor.readLocaleChoice': 'loading',
        'locale.change': 'loading',
      },
      // A newer choice or school restarts the load in place (the `loading` invariants say with what).
      loading: { 'xstate.done.actor.loadLocale': 'ready', 'xstate.error.actor.loadLocale': 'ready' },
      ready: {
        // Picking the language in use loads nothing.
        'locale.change': ({ event, context, stay }) => (event.locale === context.locale ? stay : 'loading'),
        // A school's language applies to a user who never chose, when it is not the one in use; signing
        // out (no school) keeps the texts in use.
        'locale.institution': ({ event, context, stay }) =>
          context.choice === null && event.locale !== null && event.locale !== context.locale ? 'loading' : stay,
      },
    },
  },
  traversal: {
    events: [
      { type: 'locale.change', locale: 'es-MX' },
      { type: 'locale.change', locale: 'es-CL' },
      { type: 'locale.institution', locale: 'es-MX' },
      { type: 'locale.institution', locale: 'es-CL' },
      { type: 'locale.institution', locale: null },
    ],
    internal: [
      // The cookie: nothing chosen yet, or a choice of either locale.
      { type: 'xstate.done.actor.readLocaleChoice', output: null },
      { type: 'xstate.done.actor.readLocaleChoice', output: 'es-MX' },
      { type: 'xstate.done.actor.readLocaleChoice', output: 'es-CL' },
      { type: 'xstate.error.actor.readLocaleChoice', error: new Error('cookies blocked') },
      { type: 'xstate.done.actor.loadLocale', output: 'es-CL' },
      { type: 'xstate.done.actor.loadLocale', output: 'es-MX' },
      { type: 'xstate.error.actor.loadLocale', error: new Error('Failed to fetch dynamically imported module') },
    ],
    // The loader answers with the locale it was asked for.
    filterEvents: (snapshot, event) =>
      event.type !== 'xstate.done.actor.loadLocale' || (event as { output?: unknown }).output === ctx(snapshot).requested,
    input: {},
    limit: 400,
  },
  createActor: ({ fakes, machine }) =>
    createActor(machine.provide({ actors: { readLocaleChoice: fakes.promise(), loadLocale: fakes.promise() } }), { input: {} }),
  states: {
    starting: (snapshot, env) => {
      expect(selectIsLocaleLoading(loc(snapshot))).toBe(true);
      expect(env.fakes.isRunning('readLocaleChoice')).toBe(true);
      expect(env.fakes.isRunning('loadLocale')).toBe(false);
      expect(selectLocale(loc(snapshot))).toBe('es-CL');
      // The cookie is read once, at start-up; what arrives meanwhile does not start it again.
      expect(env.started).toEqual(env.event.type === 'xstate.init' ? ['readLocaleChoice'] : []);
    },
    loading: (snapshot, env) => {
      const context = ctx(snapshot);
      expect(selectIsLocaleLoading(loc(snapshot))).toBe(true);
      expect(env.fakes.isRunning('readLocaleChoice')).toBe(false);
      // A choice is loaded and remembered; the school's locale is loaded, never written to the cookie.
      if (context.choice !== null) expect(context.requested).toBe(context.choice);
      else if (context.institution !== null) expect(context.requested).toBe(context.institution);
      else if (env.event.type === 'xstate.done.actor.readLocaleChoice' || env.event.type === 'xstate.error.actor.readLocaleChoice')
        expect(context.requested).toBe('es-CL');
      expect(env.fakes.inputOf('loadLocale')).toEqual({ locale: context.requested, remember: context.choice !== null });
      // A load starts on entering, and again only when what it asks for changes (a newer choice or school).
      const before = ctx(env.from);
      const askedBefore = env.from.matches('loading') ? { locale: before.requested, remember: before.choice !== null } : null;
      const asked = env.fakes.inputOf('loadLocale');
      expect(env.started, 'loads started').toEqual(JSON.stringify(askedBefore) === JSON.stringify(asked) ? [] : ['loadLocale']);
    },
    ready: (snapshot, env) => {
      const context = ctx(snapshot);
      expect(selectIsLocaleLoading(loc(snapshot))).toBe(false);
      expect(env.fakes.isRunning('loadLocale')).toBe(false);
      expect(context.requested).toBeNull();
      if (env.event.type === 'xstate.done.actor.loadLocale') expect(selectLocale(loc(snapshot))).toBe(env.event.output);
      // A failed load keeps the texts that were in use.
      if (env.event.type === 'xstate.error.actor.loadLocale') expect(selectLocale(loc(snapshot))).toBe(ctx(env.from).locale);
      // Told the school's locale while showing another, with no choice of the user's: it would be loading.
      if (env.event.type === 'locale.institution' && env.event.locale !== null && context.choice === null)
        expect(selectLocale(loc(snapshot))).toBe(env.event.locale);
      // A choice always beats the school: the school's locale never replaces a chosen one.
      if (env.event.type === 'locale.institution' && context.choice !== null)
        expect(selectLocale(loc(snapshot))).toBe(ctx(env.from).locale);
    },
  },
  events: {
    'locale.change': send,
    'locale.institution': send,
    'xstate.done.actor.readLocaleChoice': settle,
    'xstate.error.actor.readLocaleChoice': settle,
    'xstate.done.actor.loadLocale': settle,
    'xstate.error.actor.loadLocale': settle,
  },
  emits: ({ event }: StepEnv) =>
    event.type === 'xstate.error.actor.loadLocale' ? [{ type: 'toast', kind: 'error', key: 'error.request' }] : [],
});
