// The families' app's root (family/session.ts): the session kept on the device or none; the phone checked
// lightly before a paid SMS («Enviar código»), the code of six digits, signed in; a refused code or too many
// tries said in the server's own words, offline said apart; a wrong code typed again from the start;
// «Enviar otro código», «Cambiar número»; «Cerrar sesión» and a 401 elsewhere both sign the device out;
// «No es mi teléfono», having ended every session on the server, goes straight back to sign-in.
import { createActor, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import type { FamilySession } from '../../shared/family-contract';
import { FamilyFailureError } from '../../src/services/family/api';
import {
  familySessionMachine,
  selectCodeProblem,
  selectFailureKind,
  selectFailureMessage,
  selectIsBusy,
  selectLocale,
  selectPhoneProblem,
  selectScreen,
  selectToken,
} from '../../src/machines/family/session';
import { defineModelTests, send, settle } from './harness';

type Snapshot = Parameters<typeof selectScreen>[0];
const snap = (s: AnyMachineSnapshot) => s as unknown as Snapshot;
const ctx = (s: AnyMachineSnapshot) => s.context as { phone: string; code: string };

const failure = (status: number, code: string, message = '', fieldErrors: Record<string, string[]> = {}) =>
  new FamilyFailureError({ status, code, message, fieldErrors });
const OFFLINE = failure(0, 'network');
const WRONG = failure(401, 'auth.invalid_credentials', 'El código no es válido o venció. Solicita uno nuevo.');
const THROTTLED = failure(429, 'auth.throttled', 'Demasiadas solicitudes de código. Inténtalo de nuevo en 10 minutos.');
const SERVER = failure(500, 'server.error');

const session = (token: string, locale: 'es-CL' | 'es-MX'): FamilySession => ({
  token,
  expires_at: '2027-03-01T12:00:00.000Z',
  guardian: {
    id: 7,
    name: 'Ana Soto',
    school: { name: 'Colegio San Andrés de Ñuñoa', locale },
    schools: [{ name: 'Colegio San Andrés de Ñuñoa', locale }],
  },
});
const KEPT = session('kept-token', 'es-MX');
const FRESH = session('fresh-token', 'es-CL');

/** The phones and codes this test types, and what the form says of each, written by hand. */
const PHONES = { '': 'required', llámame: 'invalid', '+56 9 1234-5678': null } as const;
const CODES = { '': 'required', '123': 'incomplete', '123 456': null } as const;
const phoneProblemOf = (phone: string) => PHONES[phone as keyof typeof PHONES];
const codeProblemOf = (code: string) => CODES[code as keyof typeof CODES];

/** What the screen says of a failure, in this test's words. */
function said(error: unknown): { kind: string | null; message: string } {
  if (error === OFFLINE) return { kind: 'offline', message: '' };
  if (error === SERVER) return { kind: 'error', message: '' };
  return { kind: 'server', message: (error as Error).message };
}

defineModelTests({
  name: 'family-session',
  machine: familySessionMachine,
  oracle: {
    initial: 'restoring',
    targets: {
      restoring: {
        'xstate.done.actor.restoreSession': ({ event }) => (event.output === null ? 'signedOut.phone' : 'signedIn'),
        'xstate.error.actor.restoreSession': 'signedOut.phone',
      },
      'signedOut.phone': {
        'code.request': ({ context, stay }) => (phoneProblemOf(context.phone) === null ? 'signedOut.requesting' : stay),
      },
      'signedOut.requesting': { 'xstate.done.actor.askCode': 'signedOut.code', 'xstate.error.actor.askCode': 'signedOut.phone' },
      'signedOut.code': {
        'code.submit': ({ context, stay }) => (codeProblemOf(context.code) === null ? 'signedOut.verifying' : stay),
        'code.resend': 'signedOut.requesting',
        'phone.edit': 'signedOut.phone',
      },
      'signedOut.verifying': { 'xstate.done.actor.signIn': 'signedIn', 'xstate.error.actor.signIn': 'signedOut.code' },
      signedIn: { 'session.signOut': 'signingOut', 'session.expired': 'signingOut', 'session.ended': 'signedOut.phone' },
      signingOut: { 'xstate.done.actor.signOut': 'signedOut.phone', 'xstate.error.actor.signOut': 'signedOut.phone' },
    },
  },
  traversal: {
    input: { preferredLocale: 'es-CL' },
    events: [
      ...Object.keys(PHONES).map((phone) => ({ type: 'phone.change', phone })),
      { type: 'code.request' },
      ...Object.keys(CODES).map((code) => ({ type: 'code.change', code })),
      { type: 'code.submit' },
      { type: 'code.resend' },
      { type: 'phone.edit' },
      { type: 'session.signOut' },
      { type: 'session.expired' },
      { type: 'session.ended' },
    ],
    internal: [
      { type: 'xstate.done.actor.restoreSession', output: null },
      { type: 'xstate.done.actor.restoreSession', output: KEPT },
      { type: 'xstate.error.actor.restoreSession', error: new Error('storage') },
      { type: 'xstate.done.actor.askCode', output: undefined },
      { type: 'xstate.error.actor.askCode', error: OFFLINE },
      { type: 'xstate.error.actor.askCode', error: THROTTLED },
      { type: 'xstate.done.actor.signIn', output: FRESH },
      { type: 'xstate.error.actor.signIn', error: WRONG },
      { type: 'xstate.error.actor.signIn', error: SERVER },
      { type: 'xstate.done.actor.signOut', output: undefined },
      { type: 'xstate.error.actor.signOut', error: new Error('crash') },
    ],
    limit: 20000,
  },
  createActor: ({ fakes, inspect, machine, path }) =>
    createActor(
      machine.provide({
        actors: { restoreSession: fakes.promise(), askCode: fakes.promise(), signIn: fakes.promise(), signOut: fakes.promise() },
      }),
      { input: path.input as { preferredLocale: 'es-CL' }, inspect },
    ),
  states: {
    restoring: (s) => {
      expect(selectScreen(snap(s))).toBe('restoring');
      expect(selectIsBusy(snap(s))).toBe(true);
      expect(selectLocale(snap(s))).toBe('es-CL');
    },
    signedOut: (s, env) => {
      expect(selectToken(snap(s))).toBeNull();
      // Before sign-in, the browser's locale.
      expect(selectLocale(snap(s))).toBe('es-CL');
      // Signed out, or every session of the phone ended by «No es mi teléfono» (its own call, not signOut's).
      if (
        env.event.type.startsWith('xstate.done.actor.signOut') ||
        env.event.type.startsWith('xstate.error.actor.signOut') ||
        (env.event.type === 'session.ended' && env.from.matches('signedIn'))
      ) {
        expect(selectFailureKind(snap(s))).toBeNull();
        expect(ctx(s).code).toBe('');
      }
    },
    'signedOut.phone': (s, env) => {
      expect(selectScreen(snap(s))).toBe('phone');
      expect(selectIsBusy(snap(s))).toBe(false);
      if (env.event.type === 'phone.change') {
        expect(ctx(s).phone).toBe(env.event.phone);
        expect({ problem: selectPhoneProblem(snap(s)), failure: selectFailureKind(snap(s)) }).toEqual({ problem: null, failure: null });
      }
      if (env.event.type === 'code.request') expect(selectPhoneProblem(snap(s))).toBe(phoneProblemOf(ctx(s).phone));
      if (env.event.type === 'xstate.error.actor.askCode') {
        expect({ kind: selectFailureKind(snap(s)), message: selectFailureMessage(snap(s)) }).toEqual(said(env.event.error));
        // What was typed stays.
        expect(ctx(s).phone).toBe(ctx(env.from).phone);
      }
    },
    'signedOut.requesting': (s, env) => {
      expect(selectIsBusy(snap(s))).toBe(true);
      expect(selectScreen(snap(s))).toBe('phone');
      // Separators dropped, as the server reads it.
      expect(env.fakes.inputOf('askCode')).toEqual({ phone: '+56912345678' });
      expect(selectFailureKind(snap(s))).toBeNull();
    },
    'signedOut.code': (s, env) => {
      expect(selectScreen(snap(s))).toBe('code');
      expect(selectIsBusy(snap(s))).toBe(false);
      if (env.event.type === 'xstate.done.actor.askCode') expect(ctx(s).code).toBe('');
      if (env.event.type === 'code.change') expect(ctx(s).code).toBe(env.event.code);
      if (env.event.type === 'code.submit') expect(selectCodeProblem(snap(s))).toBe(codeProblemOf(ctx(s).code));
      if (env.event.type === 'xstate.error.actor.signIn') {
        // A refused code is typed again from the start, and the server's sentence is shown.
        expect(ctx(s).code).toBe('');
        expect({ kind: selectFailureKind(snap(s)), message: selectFailureMessage(snap(s)) }).toEqual(said(env.event.error));
      }
    },
    'signedOut.verifying': (s, env) => {
      expect(selectIsBusy(snap(s))).toBe(true);
      expect(selectScreen(snap(s))).toBe('code');
      expect(env.fakes.inputOf('signIn')).toEqual({ phone: '+56912345678', code: '123456' });
    },
    signedIn: (s, env) => {
      expect(selectScreen(snap(s))).toBe('signedIn');
      expect(selectIsBusy(snap(s))).toBe(false);
      const kept = env.history.some((e) => e.type === 'xstate.done.actor.signIn') ? FRESH : KEPT;
      expect(selectToken(snap(s))).toBe(kept.token);
      // The school's locale once signed in.
      expect(selectLocale(snap(s))).toBe(kept.guardian.school.locale);
    },
    signingOut: (s, env) => {
      expect(selectIsBusy(snap(s))).toBe(true);
      expect(selectScreen(snap(s))).toBe('signedIn');
      expect(env.fakes.inputOf('signOut')).toEqual({ token: selectToken(snap(env.from)) });
    },
  },
  events: {
    'phone.change': send,
    'phone.edit': send,
    'code.request': send,
    'code.change': send,
    'code.submit': send,
    'code.resend': send,
    'session.signOut': send,
    'session.expired': send,
    'session.ended': send,
    'xstate.done.actor.restoreSession': settle,
    'xstate.error.actor.restoreSession': settle,
    'xstate.done.actor.askCode': settle,
    'xstate.error.actor.askCode': settle,
    'xstate.done.actor.signIn': settle,
    'xstate.error.actor.signIn': settle,
    'xstate.done.actor.signOut': settle,
    'xstate.error.actor.signOut': settle,
  },
  emits: () => [],
});
