import { createActor, fromCallback, type AnyActorRef, type AnyMachineSnapshot, type AnyEventObject } from 'xstate';
import { expect } from 'vitest';
import {
  selectCheckFailed,
  selectChecking,
  selectConfigured,
  selectFailure,
  selectFieldError,
  selectSubmitting,
  SESSION_SYSTEM_ID,
  setupMachine,
  type SetupSnapshot,
} from '../../src/machines/setup/setup';
import { ACCESS_POLICY } from '../../shared/contract';
import { TEACHER } from '../fixtures/users';
import { failure, TIMES } from './fixtures';
import { defineModelTests, send, settle, type StepEnv } from './harness';

const snap = (snapshot: AnyMachineSnapshot) => snapshot as unknown as SetupSnapshot;

/** What the session stand-in heard: the administrator's sign-in, once setup succeeded. */
const heard: AnyEventObject[] = [];
const session = createActor(fromCallback<AnyEventObject>(({ receive }) => receive((event) => heard.push(event))));
session.start();

/**
 * In the app the root keeps the session under its systemId, in the system every page's actor runs in; here
 * the stand-in is registered in the tested actor's own system the way XState registers a `systemId` (its
 * `_set`, which the public types leave out).
 */
function withSession(actor: AnyActorRef): void {
  (actor.system as unknown as { _set(key: string, ref: AnyActorRef): void })._set(SESSION_SYSTEM_ID, session);
}

const CODE = { type: 'setup.change', field: 'code', value: 'ABCD-EFGH-JKMN' };
const MEXICO = { type: 'setup.change', field: 'school.country', value: 'MX' };
const CHILE = { type: 'setup.change', field: 'school.country', value: 'CL' };
const ZONE = { type: 'setup.change', field: 'school.timezone', value: 'America/Punta_Arenas' };
const EMAIL = { type: 'setup.change', field: 'admin.email', value: 'marcela@losaromos.cl' };
const PASSWORD = { type: 'setup.change', field: 'admin.password', value: 'pizarra verde en el patio' };

const REFUSED = failure(422, 'validation.failed', 'invalid', {
  'admin.password': ['La contraseña debe tener al menos 10 caracteres.'],
  code: ['El código de configuración no es correcto.'],
});
/** A 422 naming nothing the form has: said as the server's failure, beside the button. */
const REFUSED_ELSEWHERE = failure(422, 'validation.failed', 'invalid', { body: ['La solicitud es demasiado grande.'] });
const DONE = failure(410, 'setup.done');
const THROTTLED = failure(429, 'auth.throttled');
const OFFLINE = failure(0, 'network', 'Failed to fetch');
const BROKEN = failure(500, 'server.error');

/** The form as typed so far, by the test's own account: a Chilean school until the country changes. */
function typed(history: readonly AnyEventObject[]): Record<string, string> {
  const values: Record<string, string> = {
    code: '',
    'school.name': '',
    'school.country': 'CL',
    'school.timezone': 'America/Santiago',
    'school.locale': 'es-CL',
    'school.homeUrl': '',
    'admin.name': '',
    'admin.email': '',
    'admin.password': '',
  };
  // Only the form takes what is typed: not while asking, nor while it is being sent, nor after.
  let phase: 'asking' | 'form' | 'sending' | 'failedCheck' | 'over' = 'asking';
  for (const event of history) {
    if (event.type === 'xstate.done.actor.fetchSetupStatus') phase = event.output === true ? 'form' : 'over';
    if (event.type === 'xstate.error.actor.fetchSetupStatus') phase = 'failedCheck';
    if (event.type === 'setup.retry' && phase === 'failedCheck') phase = 'asking';
    if (event.type === 'setup.submit' && phase === 'form') phase = 'sending';
    if (event.type === 'xstate.done.actor.submitSetup') phase = 'over';
    if (event.type === 'xstate.error.actor.submitSetup') phase = event.error === DONE ? 'over' : 'form';
    if (event.type !== 'setup.change' || phase !== 'form') continue;
    values[event.field] = event.value;
    // The country brings its capital's zone and its Spanish.
    if (event.field === 'school.country' && event.value === 'MX')
      Object.assign(values, { 'school.timezone': 'America/Mexico_City', 'school.locale': 'es-MX' });
    if (event.field === 'school.country' && event.value === 'CL')
      Object.assign(values, { 'school.timezone': 'America/Santiago', 'school.locale': 'es-CL' });
  }
  return values;
}

/** The failure the page says beside the button, for a submit that named no field. */
function sentenceFor(error: unknown): string | null {
  if (error === REFUSED) return null;
  if (error === THROTTLED) return 'throttled';
  if (error === OFFLINE) return 'network';
  return 'server';
}

function emits({ event }: StepEnv): AnyEventObject[] {
  if (event.type === 'xstate.done.actor.submitSetup') return [{ type: 'toast', kind: 'success', key: 'setup.done' }];
  // The first field of the form (in its order) that the server refused gets the focus.
  if (event.type === 'xstate.error.actor.submitSetup' && event.error === REFUSED) return [{ type: 'focus', target: 'setup-code' }];
  return [];
}

defineModelTests({
  name: 'setup',
  machine: setupMachine,
  // The machine's header and decision 0169: ask, then the form; a refusal back to the form, a finished
  // setup elsewhere to "ya está configurado", success out of the page.
  oracle: {
    initial: 'checking',
    targets: {
      checking: {
        'xstate.done.actor.fetchSetupStatus': ({ event }) => (event.output === true ? 'editing' : 'configured'),
        'xstate.error.actor.fetchSetupStatus': 'checkFailed',
      },
      checkFailed: { 'setup.retry': 'checking' },
      editing: { 'setup.submit': 'submitting' },
      submitting: {
        'xstate.done.actor.submitSetup': 'finished',
        'xstate.error.actor.submitSetup': ({ event }) => (event.error === DONE ? 'configured' : 'editing'),
      },
    },
  },
  traversal: {
    events: [CODE, MEXICO, CHILE, ZONE, EMAIL, PASSWORD, { type: 'setup.submit' }, { type: 'setup.retry' }],
    internal: [
      { type: 'xstate.done.actor.fetchSetupStatus', output: true },
      { type: 'xstate.done.actor.fetchSetupStatus', output: false },
      { type: 'xstate.error.actor.fetchSetupStatus', error: OFFLINE },
      { type: 'xstate.done.actor.submitSetup', output: { times: TIMES, user: TEACHER, policies: [ACCESS_POLICY] } },
      ...[REFUSED, REFUSED_ELSEWHERE, DONE, THROTTLED, OFFLINE, BROKEN].map((error) => ({ type: 'xstate.error.actor.submitSetup', error })),
    ],
    // What is typed does not change what can happen next: one vertex per state and kind of problem.
    serializeState: (snapshot) =>
      JSON.stringify([
        snapshot.value,
        Object.keys(snapshot.context.errors).sort(),
        snapshot.context.failure,
        snapshot.context.values['school.country'],
        // So that some path signs in with an e-mail and a password typed.
        snapshot.context.values['admin.email'] !== '' && snapshot.context.values['admin.password'] !== '',
      ]),
    limit: 5_000,
  },
  createActor: ({ fakes, machine }) => {
    heard.length = 0;
    const actor = createActor(machine.provide({ actors: { fetchSetupStatus: fakes.promise(), submitSetup: fakes.promise() } }));
    withSession(actor);
    return actor;
  },
  states: {
    checking: (snapshot, env) => {
      expect(selectChecking(snap(snapshot))).toBe(true);
      expect(snapshot.hasTag('busy')).toBe(true);
      expect(env.fakes.isRunning('fetchSetupStatus')).toBe(true);
    },
    checkFailed: (snapshot, env) => {
      expect(selectCheckFailed(snap(snapshot))).toBe(true);
      expect(env.fakes.isRunning('fetchSetupStatus')).toBe(false);
    },
    editing: (snapshot, env) => {
      expect(snapshot.hasTag('busy')).toBe(false);
      expect(env.fakes.isRunning('submitSetup')).toBe(false);
      // Nothing typed is lost, whatever the server answered.
      expect(snapshot.context.values).toEqual(typed(env.history));
      if (env.event.type === 'xstate.error.actor.submitSetup') {
        expect(selectFailure(snap(snapshot))).toBe(sentenceFor(env.event.error));
        const refused = env.event.error === REFUSED;
        expect(selectFieldError(snap(snapshot), 'code')).toBe(refused ? 'El código de configuración no es correcto.' : null);
        expect(selectFieldError(snap(snapshot), 'admin.password')).toBe(
          refused ? 'La contraseña debe tener al menos 10 caracteres.' : null,
        );
      }
      // Typing in a field clears its error and the failure beside the button.
      if (env.event.type === 'setup.change') {
        expect(snapshot.context.errors).not.toHaveProperty(String(env.event.field));
        expect(selectFailure(snap(snapshot))).toBeNull();
      }
    },
    submitting: (snapshot, env) => {
      expect(selectSubmitting(snap(snapshot))).toBe(true);
      const values = typed(env.history);
      // The form as the contract has it, with no problem of the last try left on it.
      expect(env.fakes.inputOf('submitSetup')).toEqual({
        code: values.code,
        school: {
          name: values['school.name'],
          country: values['school.country'],
          timezone: values['school.timezone'],
          locale: values['school.locale'],
          homeUrl: values['school.homeUrl'],
        },
        admin: { name: values['admin.name'], email: values['admin.email'], password: values['admin.password'] },
      });
      expect(snapshot.context.errors).toEqual({});
      expect(selectFailure(snap(snapshot))).toBeNull();
    },
    configured: (snapshot, env) => {
      expect(selectConfigured(snap(snapshot))).toBe(true);
      expect(env.fakes.isRunning('submitSetup')).toBe(false);
      expect(heard).toEqual([]);
    },
    // Signed in with what the administrator typed, as the login form would: the session takes them in.
    finished: (snapshot, env) => {
      expect(snapshot.hasTag('busy')).toBe(false);
      expect(env.fakes.isRunning('submitSetup')).toBe(false);
      const values = typed(env.history);
      expect(heard).toEqual([{ type: 'session.login', email: values['admin.email'], password: values['admin.password'] }]);
    },
  },
  events: {
    'setup.change': send,
    'setup.submit': send,
    'setup.retry': send,
    'xstate.done.actor.fetchSetupStatus': settle,
    'xstate.error.actor.fetchSetupStatus': settle,
    'xstate.done.actor.submitSetup': settle,
    'xstate.error.actor.submitSetup': settle,
  },
  emits,
});
