// The single sign-on settings screen (settings/sso.ts): loads the school's provider, edits it, saves it
// with one PUT; the secret is never shown and goes up only when a new one is typed; a 422 puts the
// server's Spanish messages on their fields (an edit clears its own); any other failure keeps the form and
// says so; a save toasts.
import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import type { SsoSettings } from '../../shared/sso-contract';
import { selectFailed, selectHasSecret, selectSaving, settingsSsoMachine, type SettingsSsoContext } from '../../src/machines/settings/sso';
import { failure } from './fixtures';
import { defineModelTests, send, settle, type StepEnv } from './harness';

const ctx = (snapshot: AnyMachineSnapshot) => snapshot.context as SettingsSsoContext;
const snap = (snapshot: AnyMachineSnapshot) => snapshot as Parameters<typeof selectSaving>[0];

const STORED: SsoSettings = {
  provider: 'google',
  issuer: 'https://accounts.google.com',
  client_id: 'abc.apps.googleusercontent.com',
  has_secret: true,
  domain: 'sanandres.cl',
  enabled: true,
  redirect_uri: 'https://hermes.example/api/sso/callback',
};
const EMPTY: SsoSettings = { ...STORED, issuer: '', client_id: '', has_secret: false, domain: '', enabled: false };
const REFUSED = failure(422, 'validation.failed', 'Los datos enviados no son válidos.', {
  domain: ['El dominio no es válido: escribe solo la parte después de la @, por ejemplo colegio.cl.'],
});
const SERVER_FAILED = failure(500, 'server.error');

function running(env: StepEnv, id: string | null) {
  for (const other of ['fetchSsoSettings', 'saveSsoSettings']) expect(env.fakes.isRunning(other), other).toBe(other === id);
}

defineModelTests({
  name: 'settings-sso',
  machine: settingsSsoMachine,
  oracle: {
    initial: 'loading',
    targets: {
      loading: { 'xstate.done.actor.fetchSsoSettings': 'editing', 'xstate.error.actor.fetchSsoSettings': 'loadFailed' },
      loadFailed: { 'sso.retry': 'loading' },
      editing: { 'sso.save': 'saving' },
      saving: { 'xstate.done.actor.saveSsoSettings': 'editing', 'xstate.error.actor.saveSsoSettings': 'editing' },
    },
  },
  traversal: {
    events: [
      { type: 'sso.edit', field: 'domain', value: 'no es dominio' },
      { type: 'sso.edit', field: 'client_secret', value: 'nuevo-secreto' },
      { type: 'sso.provider', provider: 'microsoft' },
      { type: 'sso.toggle', enabled: false },
      { type: 'sso.save' },
      { type: 'sso.retry' },
    ],
    internal: [
      { type: 'xstate.done.actor.fetchSsoSettings', output: STORED },
      { type: 'xstate.done.actor.fetchSsoSettings', output: EMPTY },
      { type: 'xstate.error.actor.fetchSsoSettings', error: SERVER_FAILED },
      { type: 'xstate.done.actor.saveSsoSettings', output: STORED },
      { type: 'xstate.error.actor.saveSsoSettings', error: REFUSED },
      { type: 'xstate.error.actor.saveSsoSettings', error: SERVER_FAILED },
    ],
    serializeState: (s) => JSON.stringify([s.value, s.context]),
    limit: 5000,
  },
  createActor: ({ fakes, inspect, machine }) =>
    createActor(machine.provide({ actors: { fetchSsoSettings: fakes.promise(), saveSsoSettings: fakes.promise() } }), { inspect }),
  states: {
    loading: (_snapshot, env) => running(env, 'fetchSsoSettings'),
    loadFailed: (_snapshot, env) => running(env, null),
    editing: (snapshot, env) => {
      running(env, null);
      expect(selectSaving(snap(snapshot))).toBe(false);
      const { event } = env;
      const c = ctx(snapshot);
      // Loaded or saved: the form is the server's answer, the secret field empty.
      if (event.type === 'xstate.done.actor.fetchSsoSettings' || event.type === 'xstate.done.actor.saveSsoSettings') {
        const answer = event.output as SsoSettings;
        expect(c.form).toEqual({
          provider: answer.provider,
          issuer: answer.issuer,
          client_id: answer.client_id,
          client_secret: '',
          domain: answer.domain,
          enabled: answer.enabled,
        });
        expect(c.errors).toEqual({});
        expect(selectHasSecret(snap(snapshot))).toBe(answer.has_secret);
      }
      if (event.type === 'xstate.error.actor.saveSsoSettings') {
        const refused = event.error === REFUSED;
        expect(c.errors).toEqual(
          refused ? { domain: 'El dominio no es válido: escribe solo la parte después de la @, por ejemplo colegio.cl.' } : {},
        );
        expect(selectFailed(snap(snapshot))).toBe(!refused);
        // Everything typed stays.
        expect(c.form).toEqual(ctx(env.from).form);
      }
      if (event.type === 'sso.edit') {
        expect(c.form[event.field as 'domain']).toBe(event.value);
        expect(c.errors[event.field as 'domain']).toBeUndefined();
      }
      if (event.type === 'sso.provider') expect(c.form.provider).toBe(event.provider);
      if (event.type === 'sso.toggle') expect(c.form.enabled).toBe(event.enabled);
    },
    saving: (snapshot, env) => {
      running(env, 'saveSsoSettings');
      expect(selectSaving(snap(snapshot))).toBe(true);
      expect(selectFailed(snap(snapshot))).toBe(false);
      const form = ctx(snapshot).form;
      // The secret goes up only when one was typed.
      const { client_secret, ...rest } = form;
      expect(env.fakes.inputOf('saveSsoSettings')).toEqual(client_secret === '' ? rest : { ...rest, client_secret });
    },
  },
  events: {
    'sso.edit': send,
    'sso.provider': send,
    'sso.toggle': send,
    'sso.save': send,
    'sso.retry': send,
    'xstate.done.actor.fetchSsoSettings': settle,
    'xstate.error.actor.fetchSsoSettings': settle,
    'xstate.done.actor.saveSsoSettings': settle,
    'xstate.error.actor.saveSsoSettings': settle,
  },
  emits: (env: StepEnv): AnyEventObject[] =>
    env.event.type === 'xstate.done.actor.saveSsoSettings' ? [{ type: 'toast', kind: 'success', key: 'ssoSettings.toast.saved' }] : [],
});
