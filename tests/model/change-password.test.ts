// «Cambiar contraseña» (passwords/change.ts, decision 0168): a dialog with the current password, the new one
// and its confirmation; the rule's chunk arrives beside the form (until then, or if it never does, only the
// server checks); what the form can tell is refused in place with the focus on the field; the server's reasons
// land on their fields; done, the dialog closes with a toast. It cannot be closed while the change is under way.
import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import {
  CHANGE_CONFIRMATION_ID,
  CHANGE_CURRENT_ID,
  CHANGE_PASSWORD_ID,
  changePasswordMachine,
  selectChangeConfirmationWrong,
  selectChangeFailure,
  selectCurrentMissing,
  selectCurrentRefusal,
  selectIsChanging,
  selectIsOpen,
  selectNewPasswordMissing,
  selectNewPasswordReason,
} from '../../src/machines/passwords/change';
import { failure } from './fixtures';
import { defineModelTests, send, settle, type StepEnv } from './harness';

type Snapshot = Parameters<typeof selectIsOpen>[0];
const snap = (s: AnyMachineSnapshot) => s as unknown as Snapshot;
interface Form {
  owner: unknown;
  current: string;
  password: string;
  confirmation: string;
  currentRefusal: string | null;
  passwordRefusal: string | null;
  submitted: boolean;
  failure: string | null;
}
const form = (s: AnyMachineSnapshot) => s.context as Form;

const OWNER = { name: 'Pedro Pablo Soto Vera', email: 'docente@liceoelqui.cl', school: 'Liceo Bicentenario Valle del Elqui' };
const SHORT = 'Demasiado corta (regla de la prueba).';
const tooShort = (password: string) => (password.length < 10 ? SHORT : null);
const RULE = { reasonFor: tooShort };
const GOOD = 'girasol tetera 42';
const WRONG_TEXT = 'La contraseña actual no es correcta.';
const WEAK_TEXT = 'Esa contraseña es fácil de adivinar. Agrega palabras poco comunes o combina palabras que no vayan juntas.';

const WRONG_CURRENT = failure(422, 'validation.failed', 'Los datos enviados no son válidos.', { current_password: [WRONG_TEXT] });
const WEAK = failure(422, 'validation.failed', 'Los datos enviados no son válidos.', { password: [WEAK_TEXT] });
const THROTTLED = failure(429, 'auth.throttled');
const OFFLINE = failure(0, 'network', 'Failed to fetch');

const OPEN = { open: { rule: 'loading', form: 'editing' } };
const ruleIn = (s: AnyMachineSnapshot) => s.matches({ open: { rule: 'loaded' } });

/** The field the form refuses before sending, by the test's reading of the dialog's rules, or null. */
function refusedField(s: AnyMachineSnapshot): 'current' | 'password' | 'confirmation' | null {
  const { current, password, confirmation } = form(s);
  if (current === '') return 'current';
  if (password === '' || (ruleIn(s) && tooShort(password) !== null)) return 'password';
  return password === confirmation ? null : 'confirmation';
}
const FOCUS = { current: CHANGE_CURRENT_ID, password: CHANGE_PASSWORD_ID, confirmation: CHANGE_CONFIRMATION_ID } as const;

function emits({ from, event }: StepEnv): AnyEventObject[] {
  if (event.type === 'password.submit' && from.matches({ open: { form: 'editing' } })) {
    const field = refusedField(from);
    return field ? [{ type: 'focus', target: FOCUS[field] }] : [];
  }
  if (event.type === 'xstate.error.actor.changePassword') {
    if (event.error === WRONG_CURRENT) return [{ type: 'focus', target: CHANGE_CURRENT_ID }];
    if (event.error === WEAK) return [{ type: 'focus', target: CHANGE_PASSWORD_ID }];
    return [];
  }
  if (event.type === 'xstate.done.actor.changePassword') return [{ type: 'toast', kind: 'success', key: 'passwords.change.done' }];
  return [];
}

const EMPTY = { current: '', password: '', confirmation: '', submitted: false, currentRefusal: null, passwordRefusal: null, failure: null };

defineModelTests({
  name: 'change-password',
  machine: changePasswordMachine,
  oracle: {
    initial: 'closed',
    targets: {
      closed: { 'password.open': OPEN },
      'open.rule.loading': {
        'xstate.done.actor.loadPasswordRule': 'open.rule.loaded',
        'xstate.error.actor.loadPasswordRule': 'open.rule.unavailable',
      },
      'open.form.editing': {
        'password.submit': ({ context, stay }) => {
          const ruled = JSON.stringify(stay).includes('"rule":"loaded"');
          const { current, password, confirmation } = context as Form;
          const ok = current !== '' && password !== '' && !(ruled && tooShort(password) !== null) && password === confirmation;
          return ok ? 'open.form.saving' : stay;
        },
        'password.close': 'closed',
      },
      'open.form.saving': { 'xstate.done.actor.changePassword': 'closed', 'xstate.error.actor.changePassword': 'open.form.editing' },
    },
  },
  traversal: {
    events: [
      { type: 'password.open', owner: OWNER },
      { type: 'password.close' },
      { type: 'password.change', field: 'current', value: '' },
      { type: 'password.change', field: 'current', value: 'Hermes.2026' },
      { type: 'password.change', field: 'password', value: 'corta' },
      { type: 'password.change', field: 'password', value: GOOD },
      { type: 'password.change', field: 'confirmation', value: GOOD },
      { type: 'password.submit' },
    ],
    internal: [
      { type: 'xstate.done.actor.loadPasswordRule', output: RULE },
      { type: 'xstate.error.actor.loadPasswordRule', error: new Error('Failed to fetch dynamically imported module') },
      { type: 'xstate.done.actor.changePassword', output: undefined },
      { type: 'xstate.error.actor.changePassword', error: WRONG_CURRENT },
      { type: 'xstate.error.actor.changePassword', error: WEAK },
      { type: 'xstate.error.actor.changePassword', error: THROTTLED },
      { type: 'xstate.error.actor.changePassword', error: OFFLINE },
    ],
    serializeState: (s) => {
      const c = form(s);
      return JSON.stringify([s.value, c.current, c.password, c.confirmation, c.submitted, c.currentRefusal, c.passwordRefusal, c.failure]);
    },
    limit: 50_000,
  },
  createActor: ({ fakes, inspect, machine }) =>
    createActor(machine.provide({ actors: { changePassword: fakes.promise(), loadPasswordRule: fakes.promise() } }), { inspect }),
  states: {
    closed: (s, env) => {
      expect(selectIsOpen(snap(s))).toBe(false);
      for (const id of ['changePassword', 'loadPasswordRule']) expect(env.fakes.isRunning(id), id).toBe(false);
      // Closed, nothing typed is kept: the next opening starts empty.
      expect(form(s)).toMatchObject(EMPTY);
    },
    open: (s, env) => {
      expect(selectIsOpen(snap(s))).toBe(true);
      expect(form(s).owner).toEqual(OWNER);
      if (env.event.type === 'password.open' && env.from.matches('closed')) {
        expect(form(s)).toMatchObject(EMPTY);
        expect(env.started).toEqual(['loadPasswordRule']);
      }
    },
    'open.rule': () => {},
    'open.rule.loading': (_s, env) => {
      expect(env.fakes.isRunning('loadPasswordRule')).toBe(true);
    },
    'open.rule.loaded': (s) => {
      const { password, passwordRefusal } = form(s);
      expect(selectNewPasswordReason(snap(s))).toBe(passwordRefusal ?? (password === '' ? null : tooShort(password)));
    },
    'open.rule.unavailable': (s) => {
      expect(selectNewPasswordReason(snap(s))).toBe(form(s).passwordRefusal);
    },
    'open.form': () => {},
    'open.form.editing': (s, env) => {
      expect(selectIsChanging(snap(s))).toBe(false);
      expect(env.fakes.isRunning('changePassword')).toBe(false);
      const c = form(s);
      if (env.event.type === 'password.change') {
        const field = env.event.field as 'current' | 'password' | 'confirmation';
        expect(c[field]).toBe(env.event.value);
        if (field === 'current') expect(c.currentRefusal).toBeNull();
        if (field === 'password') expect(c.passwordRefusal).toBeNull();
        expect(selectChangeFailure(snap(s))).toBeNull();
      }
      if (env.event.type === 'password.submit') {
        expect(selectCurrentMissing(snap(s))).toBe(c.current === '');
        expect(selectNewPasswordMissing(snap(s))).toBe(c.password === '');
        expect(selectChangeConfirmationWrong(snap(s))).toBe(c.password !== '' && c.password !== c.confirmation);
      }
      if (env.event.type === 'xstate.error.actor.changePassword') {
        // Nothing typed is lost; the server's words land on their field, anything else above the form.
        const before = form(env.from);
        expect([c.current, c.password, c.confirmation]).toEqual([before.current, before.password, before.confirmation]);
        const error = env.event.error;
        expect(selectCurrentRefusal(snap(s))).toBe(error === WRONG_CURRENT ? WRONG_TEXT : null);
        expect(c.passwordRefusal).toBe(error === WEAK ? WEAK_TEXT : null);
        expect(selectChangeFailure(snap(s))).toBe(error === THROTTLED ? 'throttled' : error === OFFLINE ? 'offline' : null);
      }
    },
    'open.form.saving': (s, env) => {
      expect(selectIsChanging(snap(s))).toBe(true);
      const c = form(s);
      expect(env.fakes.inputOf('changePassword')).toEqual({ current: c.current, password: c.password });
      expect(c.password).toBe(c.confirmation);
      expect(c.current).not.toBe('');
      // It cannot be closed, nor the form changed, while the change is under way.
      expect(s.can({ type: 'password.close' })).toBe(false);
      expect(s.can({ type: 'password.change', field: 'current', value: 'x' })).toBe(false);
    },
  },
  events: {
    'password.open': send,
    'password.close': send,
    'password.change': send,
    'password.submit': send,
    'xstate.done.actor.loadPasswordRule': settle,
    'xstate.error.actor.loadPasswordRule': settle,
    'xstate.done.actor.changePassword': settle,
    'xstate.error.actor.changePassword': settle,
  },
  emits,
});
