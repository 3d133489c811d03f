// /forgot-password (passwords/forgot.ts, decision 0167): the address checked as the server checks it, one ask,
// and the same answer whatever the address; a failure keeps what was typed and says which (no network, too
// many asks, anything else); «Enviar otro enlace» goes back to the form.
import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import {
  FORGOT_EMAIL_ID,
  forgotPasswordMachine,
  selectEmailProblem,
  selectForgotFailure,
  selectIsSending,
  selectIsSent,
} from '../../src/machines/passwords/forgot';
import { failure } from './fixtures';
import { defineModelTests, send, settle, type StepEnv } from './harness';

type Snapshot = Parameters<typeof selectIsSent>[0];
const snap = (s: AnyMachineSnapshot) => s as unknown as Snapshot;
const emailOf = (s: AnyMachineSnapshot) => (s.context as { email: string }).email;

const OFFLINE = failure(0, 'network', 'Failed to fetch');
const THROTTLED = failure(429, 'auth.throttled', 'Demasiadas solicitudes. Inténtalo de nuevo en 60 minutos.');
const SERVER = failure(500, 'server.error');

/** The three addresses this test types, and what the form says of each, written by hand. */
const TYPED = { '': 'required', 'no es correo': 'invalid', ' Utp@SanAndres.cl ': null } as const;
const problemOf = (email: string) => TYPED[email as keyof typeof TYPED];

const focusEmail = { type: 'focus', target: FORGOT_EMAIL_ID };

function emits({ from, event }: StepEnv): AnyEventObject[] {
  if (event.type === 'forgot.submit' && from.matches('editing') && problemOf(emailOf(from)) !== null) return [focusEmail];
  if (event.type === 'xstate.error.actor.askResetLink') return [focusEmail];
  if (event.type === 'forgot.again' && from.matches('sent')) return [focusEmail];
  return [];
}

defineModelTests({
  name: 'forgot-password',
  machine: forgotPasswordMachine,
  oracle: {
    initial: 'editing',
    targets: {
      // A valid address is sent; anything else is refused in place.
      editing: { 'forgot.submit': ({ context, stay }) => (problemOf(context.email) === null ? 'sending' : stay) },
      sending: { 'xstate.done.actor.askResetLink': 'sent', 'xstate.error.actor.askResetLink': 'editing' },
      sent: { 'forgot.again': 'editing' },
    },
  },
  traversal: {
    events: [
      { type: 'forgot.change', email: '' },
      { type: 'forgot.change', email: 'no es correo' },
      { type: 'forgot.change', email: ' Utp@SanAndres.cl ' },
      { type: 'forgot.submit' },
      { type: 'forgot.again' },
    ],
    internal: [
      { type: 'xstate.done.actor.askResetLink', output: undefined },
      { type: 'xstate.error.actor.askResetLink', error: OFFLINE },
      { type: 'xstate.error.actor.askResetLink', error: THROTTLED },
      { type: 'xstate.error.actor.askResetLink', error: SERVER },
    ],
    limit: 2000,
  },
  createActor: ({ fakes, inspect, machine }) => createActor(machine.provide({ actors: { askResetLink: fakes.promise() } }), { inspect }),
  states: {
    editing: (s, env) => {
      expect(selectIsSending(snap(s))).toBe(false);
      expect(env.fakes.isRunning('askResetLink')).toBe(false);
      expect(selectIsSent(snap(s))).toBe(false);
      const type = env.event.type;
      if (type === 'forgot.change') {
        expect(emailOf(s)).toBe(env.event.email);
        // Typing again puts away what was said of the previous try.
        expect({ problem: selectEmailProblem(snap(s)), failure: selectForgotFailure(snap(s)) }).toEqual({ problem: null, failure: null });
      }
      if (type === 'forgot.submit') expect(selectEmailProblem(snap(s))).toBe(problemOf(emailOf(s)));
      if (type === 'xstate.error.actor.askResetLink') {
        // Nothing typed is lost; the failure says which.
        expect(emailOf(s)).toBe(emailOf(env.from));
        const expected = env.event.error === OFFLINE ? 'offline' : env.event.error === THROTTLED ? 'throttled' : 'server';
        expect(selectForgotFailure(snap(s))).toBe(expected);
      }
    },
    sending: (s, env) => {
      expect(selectIsSending(snap(s))).toBe(true);
      expect(env.started).toEqual(env.from.matches('sending') ? [] : ['askResetLink']);
      // The address as the server looks it up: trimmed and lower-cased.
      expect(env.fakes.inputOf('askResetLink')).toEqual({ email: 'utp@sanandres.cl' });
      expect(selectForgotFailure(snap(s))).toBeNull();
      expect(s.can({ type: 'forgot.change', email: 'x' })).toBe(false);
    },
    sent: (s, env) => {
      expect(selectIsSent(snap(s))).toBe(true);
      expect(selectIsSending(snap(s))).toBe(false);
      expect(env.fakes.isRunning('askResetLink')).toBe(false);
      // The answer names the address as typed, whether or not it has an account.
      expect(emailOf(s)).toBe(' Utp@SanAndres.cl ');
    },
  },
  events: {
    'forgot.change': send,
    'forgot.submit': send,
    'forgot.again': send,
    'xstate.done.actor.askResetLink': settle,
    'xstate.error.actor.askResetLink': settle,
  },
  emits,
});
