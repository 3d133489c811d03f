// /reset-password/:token (passwords/reset.ts, decision 0167): the link checked first (who it is for, or why it
// no longer works); the rule's chunk arrives beside the form, and while it has not (or never does) only the
// server's check holds; a password the rule refuses, or a confirmation that differs, is refused in place; the
// server's reason lands on the field; a link that died meanwhile says so; done, the page goes to /login.
import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import {
  RESET_CONFIRMATION_ID,
  RESET_PASSWORD_ID,
  resetPasswordMachine,
  selectCheckFailed,
  selectConfirmationWrong,
  selectIsSaving,
  selectLinkProblem,
  selectOwnerEmail,
  selectPasswordMissing,
  selectPasswordReason,
  selectResetFailure,
} from '../../src/machines/passwords/reset';
import { failure } from './fixtures';
import { defineModelTests, send, settle, type StepEnv } from './harness';

type Snapshot = Parameters<typeof selectIsSaving>[0];
const snap = (s: AnyMachineSnapshot) => s as unknown as Snapshot;
interface Form {
  password: string;
  confirmation: string;
  refusal: string | null;
}
const form = (s: AnyMachineSnapshot) => s.context as Form;

const TOKEN = 'tok_abc';
const OWNER = { name: 'Claudia Andrea Sepúlveda Rojas', email: 'utp@sanandres.cl', school: 'Colegio San Andrés de Ñuñoa' };
const SHORT = 'Demasiado corta (regla de la prueba).';
/** The rule as this test provides it: fewer than 10 characters is refused. */
const tooShort = (password: string) => (password.length < 10 ? SHORT : null);
const RULE = { reasonFor: tooShort };
const GOOD = 'girasol tetera 42';
const COMMON = 'Esa contraseña es muy común y fácil de adivinar. Elige otra, por ejemplo una frase de varias palabras.';

const INVALID = failure(404, 'password_reset.invalid');
const EXPIRED = failure(410, 'password_reset.expired');
const USED = failure(410, 'password_reset.used');
const OFFLINE = failure(0, 'network', 'Failed to fetch');
const REFUSED = failure(422, 'validation.failed', 'Los datos enviados no son válidos.', { password: [COMMON] });
const SERVER = failure(500, 'server.error');

const problemOf = (error: unknown) => (error === INVALID ? 'invalid' : error === EXPIRED ? 'expired' : error === USED ? 'used' : null);
const ruleIn = (s: AnyMachineSnapshot) => s.matches({ ready: { rule: 'loaded' } });
/** What the form refuses before sending, by the test's reading of the screen's rules. */
function refusedField(s: AnyMachineSnapshot): 'password' | 'confirmation' | null {
  const { password, confirmation } = form(s);
  if (password === '' || (ruleIn(s) && tooShort(password) !== null)) return 'password';
  return password === confirmation ? null : 'confirmation';
}

const READY = { ready: { rule: 'loading', form: 'editing' } };

function emits({ from, event }: StepEnv): AnyEventObject[] {
  if (event.type === 'reset.submit' && from.matches({ ready: { form: 'editing' } })) {
    const field = refusedField(from);
    if (field === 'password') return [{ type: 'focus', target: RESET_PASSWORD_ID }];
    if (field === 'confirmation') return [{ type: 'focus', target: RESET_CONFIRMATION_ID }];
    return [];
  }
  if (event.type === 'xstate.error.actor.resetPassword' && event.error === REFUSED) return [{ type: 'focus', target: RESET_PASSWORD_ID }];
  if (event.type === 'xstate.done.actor.resetPassword')
    return [
      { type: 'toast', kind: 'success', key: 'passwords.reset.done' },
      { type: 'navigate', to: '/login', replace: true },
    ];
  return [];
}

defineModelTests({
  name: 'reset-password',
  machine: resetPasswordMachine,
  oracle: {
    initial: 'checking',
    targets: {
      checking: {
        'xstate.done.actor.checkResetLink': READY,
        'xstate.error.actor.checkResetLink': ({ event }) => (problemOf(event.error) ? 'unusable' : 'checkFailed'),
      },
      checkFailed: { 'reset.retry': 'checking' },
      'ready.rule.loading': {
        'xstate.done.actor.loadPasswordRule': 'ready.rule.loaded',
        'xstate.error.actor.loadPasswordRule': 'ready.rule.unavailable',
      },
      'ready.form.editing': {
        'reset.submit': ({ context, stay }) => {
          // The context alone cannot say whether the rule arrived: read it from the value before the step.
          const ruled = typeof stay === 'object' && JSON.stringify(stay).includes('"rule":"loaded"');
          const { password, confirmation } = context as Form;
          const ok = password !== '' && !(ruled && tooShort(password) !== null) && password === confirmation;
          return ok ? 'ready.form.saving' : stay;
        },
      },
      'ready.form.saving': {
        'xstate.done.actor.resetPassword': 'done',
        'xstate.error.actor.resetPassword': ({ event }) => (problemOf(event.error) ? 'unusable' : 'ready.form.editing'),
      },
    },
  },
  traversal: {
    events: [
      { type: 'reset.change', field: 'password', value: '' },
      { type: 'reset.change', field: 'password', value: 'corta' },
      { type: 'reset.change', field: 'password', value: GOOD },
      { type: 'reset.change', field: 'confirmation', value: GOOD },
      { type: 'reset.change', field: 'confirmation', value: 'otra cosa distinta' },
      { type: 'reset.submit' },
      { type: 'reset.retry' },
    ],
    internal: [
      { type: 'xstate.done.actor.checkResetLink', output: OWNER },
      { type: 'xstate.error.actor.checkResetLink', error: INVALID },
      { type: 'xstate.error.actor.checkResetLink', error: EXPIRED },
      { type: 'xstate.error.actor.checkResetLink', error: USED },
      { type: 'xstate.error.actor.checkResetLink', error: OFFLINE },
      { type: 'xstate.done.actor.loadPasswordRule', output: RULE },
      { type: 'xstate.error.actor.loadPasswordRule', error: new Error('Failed to fetch dynamically imported module') },
      { type: 'xstate.done.actor.resetPassword', output: undefined },
      { type: 'xstate.error.actor.resetPassword', error: REFUSED },
      { type: 'xstate.error.actor.resetPassword', error: USED },
      { type: 'xstate.error.actor.resetPassword', error: OFFLINE },
      { type: 'xstate.error.actor.resetPassword', error: SERVER },
    ],
    serializeState: (s) => {
      const c = s.context as Form & { submitted: boolean; failure: string | null; problem: string | null; rule: unknown };
      return JSON.stringify([s.value, c.password, c.confirmation, c.submitted, c.refusal, c.failure, c.problem, c.rule !== null, s.status]);
    },
    input: { token: TOKEN },
    limit: 20_000,
  },
  createActor: ({ fakes, inspect, machine }) =>
    createActor(
      machine.provide({ actors: { checkResetLink: fakes.promise(), loadPasswordRule: fakes.promise(), resetPassword: fakes.promise() } }),
      { input: { token: TOKEN }, inspect },
    ),
  states: {
    checking: (s, env) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(env.fakes.inputOf('checkResetLink')).toEqual({ token: TOKEN });
      expect(env.started).toEqual(env.from.matches('checking') && env.event.type !== 'xstate.init' ? [] : ['checkResetLink']);
      expect(env.fakes.isRunning('loadPasswordRule')).toBe(false);
    },
    checkFailed: (s, env) => {
      expect(selectCheckFailed(snap(s))).toBe(true);
      expect(env.fakes.isRunning('checkResetLink')).toBe(false);
    },
    unusable: (s, env) => {
      // What the last answer said of the link.
      const last = [...env.history].reverse().find((e) => e.type.startsWith('xstate.error.actor.')) as { error?: unknown } | undefined;
      expect(selectLinkProblem(snap(s))).toBe(problemOf(last?.error));
      expect(s.can({ type: 'reset.submit' })).toBe(false);
      for (const id of ['checkResetLink', 'resetPassword', 'loadPasswordRule']) expect(env.fakes.isRunning(id), id).toBe(false);
    },
    ready: (s) => {
      expect(selectOwnerEmail(snap(s))).toBe(OWNER.email);
    },
    'ready.rule': () => {},
    'ready.rule.loading': (_s, env) => {
      expect(env.fakes.isRunning('loadPasswordRule')).toBe(true);
    },
    'ready.rule.loaded': (s) => {
      // The rule's reason shows while typing (the server's, when it answered, first).
      const { password, refusal } = form(s);
      expect(selectPasswordReason(snap(s))).toBe(refusal ?? (password === '' ? null : tooShort(password)));
    },
    'ready.rule.unavailable': (s) => {
      // Without the rule only the server's reason is shown.
      expect(selectPasswordReason(snap(s))).toBe(form(s).refusal);
    },
    'ready.form': () => {},
    'ready.form.editing': (s, env) => {
      expect(selectIsSaving(snap(s))).toBe(false);
      expect(env.fakes.isRunning('resetPassword')).toBe(false);
      const c = form(s);
      if (env.event.type === 'reset.change') {
        expect(c[env.event.field as 'password' | 'confirmation']).toBe(env.event.value);
        if (env.event.field === 'password') expect(c.refusal).toBeNull();
        expect(selectResetFailure(snap(s))).toBeNull();
      }
      if (env.event.type === 'reset.submit') {
        expect(selectPasswordMissing(snap(s))).toBe(c.password === '');
        expect(selectConfirmationWrong(snap(s))).toBe(c.password !== '' && c.password !== c.confirmation);
      }
      if (env.event.type === 'xstate.error.actor.resetPassword') {
        expect({ password: c.password, confirmation: c.confirmation }).toEqual({
          password: form(env.from).password,
          confirmation: form(env.from).confirmation,
        });
        if (env.event.error === REFUSED)
          expect({ refusal: c.refusal, reason: selectPasswordReason(snap(s)) }).toEqual({ refusal: COMMON, reason: COMMON });
        else {
          // Each answer replaces what the previous one said of the password.
          expect(c.refusal).toBeNull();
          expect(selectResetFailure(snap(s))).toBe(env.event.error === OFFLINE ? 'offline' : 'server');
        }
      }
    },
    'ready.form.saving': (s, env) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(env.fakes.inputOf('resetPassword')).toEqual({ token: TOKEN, password: form(s).password });
      expect(form(s).password).toBe(form(s).confirmation);
      expect(s.can({ type: 'reset.change', field: 'password', value: 'x' })).toBe(false);
    },
    done: (s) => {
      expect(s.status).toBe('done');
    },
  },
  events: {
    'reset.change': send,
    'reset.submit': send,
    'reset.retry': send,
    'xstate.done.actor.checkResetLink': settle,
    'xstate.error.actor.checkResetLink': settle,
    'xstate.done.actor.loadPasswordRule': settle,
    'xstate.error.actor.loadPasswordRule': settle,
    'xstate.done.actor.resetPassword': settle,
    'xstate.error.actor.resetPassword': settle,
  },
  emits,
});
