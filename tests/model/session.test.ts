import { createActor, type AnyMachineSnapshot, type AnyEventObject } from 'xstate';
import { expect } from 'vitest';
import { sessionMachine, type SessionSnapshot } from '../../src/machines/session/session';
import {
  selectEmailError,
  selectIsLoggedIn,
  selectIsLoggingOut,
  selectIsSubmitting,
  selectLoginError,
  selectPasswordError,
  selectSessionStatus,
  selectUser,
} from '../../src/machines/session/selectors';
import { USER_FIELD_MISSING } from '../../src/services/session/auth';
import { ACCESS_POLICY } from '../../shared/contract';
import { defineModelTests, send, settle, T0, type StepEnv } from './harness';
import { failure, fakedSessionMachine, TIMES } from './fixtures';
import { TEACHER } from '../fixtures/users';

const ses = (snapshot: AnyMachineSnapshot) => snapshot as unknown as SessionSnapshot;

const VALID = { type: 'session.login', email: '  docente@sanandres.cl ', password: 'Hermes.2026' };
const EMPTY = { type: 'session.login', email: ' ', password: '' };
const BAD_EMAIL = { type: 'session.login', email: 'docente', password: 'x' };

/** The form message for each login failure (SPEC §8 error texts, es-CL.json keys). */
const LOGIN_FAILURES: Array<[Error, string | null, Record<string, string>]> = [
  [failure(401, 'auth.invalid_credentials'), 'login.errors.invalidCredentials', {}],
  [failure(403, 'auth.policy_missing'), 'login.errors.policyMissing', {}],
  [failure(429, 'auth.throttled'), 'login.errors.throttled', {}],
  [failure(0, 'network', 'Failed to fetch'), 'login.errors.network', {}],
  [failure(500, 'server.error'), 'login.errors.server', {}],
  [failure(422, 'validation.failed', 'invalid', { email: ['El correo no es válido.'] }), null, { email: 'login.errors.emailInvalid' }],
];

/** The login form's own checks, in short: an e-mail address (something@something) and a password. */
const formIsSendable = ({ email, password }: { email: string; password: string }) => /^\S+@\S+$/.test(email.trim()) && password !== '';

const USER_MISSING = failure(200, 'response.invalid', USER_FIELD_MISSING);
const OFFLINE = failure(0, 'network', 'Failed to fetch');
const SERVER_ERROR = failure(500, 'server.error');

const RUNNING_IDS = ['readSessionCookie', 'refreshToken', 'login', 'fetchUser', 'logout'];

/** Who signed in, as a sign-in's answer and GET /user carry it: with the access policy, and without. */
const ALLOWED = { user: TEACHER, policies: [ACCESS_POLICY, 'hermes-enviar-sms'] };
const NOT_ALLOWED = { user: TEACHER, policies: ['hermes-enviar-sms'] };
const mayEnter = (output: { policies: string[] }) => output.policies.includes(ACCESS_POLICY);

/** Exactly the named I/O actor runs (or none): leaving a state must cancel its call. */
function expectRunning(env: StepEnv, id: string | null) {
  for (const other of RUNNING_IDS) expect(env.fakes.isRunning(other), `${other} running`).toBe(other === id);
}

const navigateAfterLogin = (from: AnyMachineSnapshot): AnyEventObject => ({
  type: 'navigate',
  // Only a safe remembered page is honoured (SPEC §5); anything else goes home.
  to: from.context.redirectTo === '/sent' ? '/sent' : '/',
});

function emits({ from, to, event }: StepEnv): AnyEventObject[] {
  const tokenClear = { type: 'token.clear' };
  switch (event.type) {
    case 'xstate.done.actor.readSessionCookie': {
      const cookie = event.output as { kind: string; times?: unknown };
      return cookie.kind === 'active' ? [{ type: 'token.set', ...(cookie.times as object) }] : [];
    }
    case 'xstate.done.actor.refreshToken':
      return [{ type: 'token.set', ...(event.output as object) }];
    // In at once with the answer's times, to the remembered page; without the access policy, its session ended.
    case 'xstate.done.actor.login': {
      const output = event.output as typeof ALLOWED & { times: object };
      return mayEnter(output) ? [{ type: 'token.set', ...output.times }, navigateAfterLogin(from)] : [tokenClear];
    }
    case 'xstate.done.actor.fetchUser':
      return mayEnter(event.output as typeof ALLOWED)
        ? []
        : [{ type: 'toast', kind: 'error', key: 'login.errors.policyMissing' }, tokenClear];
    case 'xstate.error.actor.fetchUser':
      return [tokenClear];
    case 'xstate.done.actor.logout':
    case 'xstate.error.actor.logout':
      return from.matches('loggingOut')
        ? [tokenClear, { type: 'navigate', to: '/' }, { type: 'toast', kind: 'success', key: 'session.loggedOut' }]
        : [];
    case 'session.unauthorized':
      return from.matches('loggedIn') ? [{ type: 'toast', kind: 'warning', key: 'session.expired' }, tokenClear] : [];
    case 'session.reset':
      if (!from.matches('loggedIn')) return [];
      // The token actor already showed SPEC §8's abort message for this reason.
      return event.reason === 'tokensExpired' ? [tokenClear] : [{ type: 'toast', kind: 'warning', key: 'session.expired' }, tokenClear];
    default:
      void to;
      return [];
  }
}

defineModelTests({
  name: 'session',
  machine: sessionMachine,
  // SPEC §4 and the machine's header: the start-up check, login, logout and expiry, as a user lives them.
  oracle: {
    initial: 'checking.readingCookie',
    targets: {
      // Start-up: a live session cookie loads the user; one whose access token ran out is refreshed
      // first; none (or both tokens long gone, or unreadable) is logged out without a request.
      'checking.readingCookie': {
        'xstate.done.actor.readSessionCookie': ({ event }) =>
          event.output.kind === 'active'
            ? 'checking.loadingUser'
            : event.output.kind === 'refreshable'
              ? 'checking.refreshing'
              : 'loggedOut.idle',
        'xstate.error.actor.readSessionCookie': 'loggedOut.idle',
      },
      'checking.refreshing': {
        'xstate.done.actor.refreshToken': 'checking.loadingUser',
        'xstate.error.actor.refreshToken': 'loggedOut.idle',
      },
      // The user comes with their policies: without the access policy the server session is ended too; a
      // start-up that cannot load them quietly logs out.
      'checking.loadingUser': {
        'xstate.done.actor.fetchUser': ({ event }) => (mayEnter(event.output) ? 'loggedIn' : 'loggedOut.revoking'),
        'xstate.error.actor.fetchUser': 'loggedOut.idle',
      },
      // Only a filled form with an e-mail address goes to the server; otherwise its errors show in place.
      'loggedOut.idle': { 'session.login': ({ event, stay }) => (formIsSendable(event) ? 'loggedOut.signingIn.authenticating' : stay) },
      // The sign-in's answer says who signed in: in at once, or (without the access policy) its session ended.
      'loggedOut.signingIn.authenticating': {
        'xstate.done.actor.login': ({ event }) => (mayEnter(event.output) ? 'loggedIn' : 'loggedOut.revoking'),
        'xstate.error.actor.login': 'loggedOut.idle',
      },
      'loggedOut.revoking': { 'xstate.done.actor.logout': 'loggedOut.idle', 'xstate.error.actor.logout': 'loggedOut.idle' },
      // A 401 or the token actor's reset ends the session as expired; logging out asks the server first.
      loggedIn: { 'session.logout': 'loggingOut', 'session.unauthorized': 'expired', 'session.reset': 'expired' },
      // The user asked to leave: out, whatever the server answered.
      loggingOut: { 'xstate.done.actor.logout': 'loggedOut.idle', 'xstate.error.actor.logout': 'loggedOut.idle' },
      expired: { 'session.login': ({ event, stay }) => (formIsSendable(event) ? 'loggedOut.signingIn.authenticating' : stay) },
    },
  },
  traversal: {
    events: [
      VALID,
      EMPTY,
      BAD_EMAIL,
      { type: 'session.edit', field: 'email' },
      { type: 'session.edit', field: 'password' },
      { type: 'session.logout' },
      { type: 'session.remember', path: '/sent' },
      { type: 'session.remember', path: '//evil.example' },
      { type: 'session.unauthorized' },
      { type: 'session.reset', reason: 'tokensExpired' },
      { type: 'session.reset', reason: 'refreshFailed' },
    ],
    internal: [
      { type: 'xstate.done.actor.readSessionCookie', output: { kind: 'none' } },
      { type: 'xstate.done.actor.readSessionCookie', output: { kind: 'expired' } },
      { type: 'xstate.done.actor.readSessionCookie', output: { kind: 'refreshable', times: { ...TIMES, tokenExpiresAt: T0 - 1000 } } },
      { type: 'xstate.done.actor.readSessionCookie', output: { kind: 'active', times: TIMES } },
      { type: 'xstate.error.actor.readSessionCookie', error: new Error('cookies unavailable') },
      { type: 'xstate.done.actor.refreshToken', output: TIMES },
      { type: 'xstate.error.actor.refreshToken', error: failure(401, 'auth.refresh_expired') },
      { type: 'xstate.done.actor.login', output: { times: TIMES, ...ALLOWED } },
      { type: 'xstate.done.actor.login', output: { times: TIMES, ...NOT_ALLOWED } },
      ...LOGIN_FAILURES.map(([error]) => ({ type: 'xstate.error.actor.login', error })),
      { type: 'xstate.done.actor.fetchUser', output: ALLOWED },
      { type: 'xstate.done.actor.fetchUser', output: NOT_ALLOWED },
      { type: 'xstate.error.actor.fetchUser', error: USER_MISSING },
      { type: 'xstate.error.actor.fetchUser', error: OFFLINE },
      { type: 'xstate.error.actor.fetchUser', error: SERVER_ERROR },
      { type: 'xstate.done.actor.logout', output: undefined },
      { type: 'xstate.error.actor.logout', error: OFFLINE },
    ],
    // A page is remembered once, before anything else happens to it; enough to see each target used.
    filterEvents: (snapshot, event) => event.type !== 'session.remember' || snapshot.context.redirectTo === null,
    // Which message is shown does not change what can happen next: one vertex per kind of context.
    serializeState: (snapshot) =>
      JSON.stringify([
        snapshot.value,
        snapshot.context.redirectTo,
        snapshot.context.loginError !== null,
        Object.keys(snapshot.context.fieldErrors).sort(),
      ]),
    limit: 20_000,
  },
  createActor: ({ fakes, machine }) => createActor(fakedSessionMachine(fakes, machine)),
  states: {
    checking: (snapshot) => {
      expect(selectSessionStatus(ses(snapshot))).toBe('checking');
      expect(selectIsLoggedIn(ses(snapshot))).toBe(false);
    },
    'checking.readingCookie': (snapshot, env) => {
      expect(selectUser(ses(snapshot))).toBeNull();
      expectRunning(env, 'readSessionCookie');
    },
    'checking.refreshing': (snapshot, env) => {
      expect(selectUser(ses(snapshot))).toBeNull();
      expectRunning(env, 'refreshToken');
    },
    'checking.loadingUser': (snapshot, env) => {
      expect(selectUser(ses(snapshot))).toBeNull();
      expectRunning(env, 'fetchUser');
    },
    loggedOut: (snapshot) => {
      expect(selectSessionStatus(ses(snapshot))).toBe('loggedOut');
      expect(selectIsLoggedIn(ses(snapshot))).toBe(false);
    },
    'loggedOut.idle': (snapshot, env) => {
      expect(selectIsSubmitting(ses(snapshot))).toBe(false);
      expect(snapshot.context.user).toBeNull();
      expect(snapshot.context.policies).toBeNull();
      expectRunning(env, null);
      if (env.event.type === 'session.login' && env.event !== VALID) {
        // Refused before any request, with one message per field.
        expect(selectLoginError(ses(snapshot))).toBeNull();
        if (env.event === EMPTY) {
          expect(selectEmailError(ses(snapshot))).toBe('login.errors.emailRequired');
          expect(selectPasswordError(ses(snapshot))).toBe('login.errors.passwordRequired');
        } else {
          expect(selectEmailError(ses(snapshot))).toBe('login.errors.emailInvalid');
          expect(selectPasswordError(ses(snapshot))).toBeNull();
        }
      }
      if (env.event.type === 'xstate.error.actor.login') {
        const [, loginError, fieldErrors] = LOGIN_FAILURES.find(([error]) => error === env.event.error) ?? [];
        expect(selectLoginError(ses(snapshot))).toBe(loginError);
        expect(snapshot.context.fieldErrors).toEqual(fieldErrors);
      }
      if (env.event.type === 'session.edit') {
        expect(snapshot.context.fieldErrors[env.event.field as 'email' | 'password']).toBeUndefined();
        expect(selectLoginError(ses(snapshot))).toBeNull();
      }
    },
    'loggedOut.signingIn': (snapshot) => {
      expect(selectIsSubmitting(ses(snapshot))).toBe(true);
      expect(selectLoginError(ses(snapshot))).toBeNull();
      expect(snapshot.context.fieldErrors).toEqual({});
    },
    'loggedOut.signingIn.authenticating': (snapshot, env) => {
      expectRunning(env, 'login');
      // Only a form that passed the checks is sent, e-mail trimmed.
      expect(env.fakes.inputOf('login')).toEqual({ email: 'docente@sanandres.cl', password: 'Hermes.2026' });
      expect(snapshot.context.user).toBeNull();
    },
    'loggedOut.revoking': (snapshot, env) => {
      expectRunning(env, 'logout');
      expect(selectIsSubmitting(ses(snapshot))).toBe(true);
      expect(snapshot.context.user).toBeNull();
      if (env.from.matches({ loggedOut: 'signingIn' })) expect(selectLoginError(ses(snapshot))).toBe('login.errors.policyMissing');
    },
    loggedIn: (snapshot, env) => {
      expect(selectSessionStatus(ses(snapshot))).toBe('loggedIn');
      expect(selectUser(ses(snapshot))).toEqual(TEACHER);
      // The policies came with the user, the access policy among them.
      expect(snapshot.context.policies).toEqual(ALLOWED.policies);
      // The remembered page is used once.
      if (env.from.matches({ loggedOut: 'signingIn' })) expect(snapshot.context.redirectTo).toBeNull();
      expectRunning(env, null);
    },
    loggingOut: (snapshot, env) => {
      expect(selectIsLoggingOut(ses(snapshot))).toBe(true);
      expect(selectIsLoggedIn(ses(snapshot))).toBe(true);
      expectRunning(env, 'logout');
    },
    expired: (snapshot, env) => {
      expect(selectSessionStatus(ses(snapshot))).toBe('expired');
      expect(snapshot.context.user).toBeNull();
      expect(snapshot.context.policies).toBeNull();
      expectRunning(env, null);
    },
  },
  events: {
    'session.login': send,
    'session.edit': send,
    'session.logout': send,
    'session.remember': send,
    'session.unauthorized': send,
    'session.reset': send,
    'xstate.done.actor.readSessionCookie': settle,
    'xstate.error.actor.readSessionCookie': settle,
    'xstate.done.actor.refreshToken': settle,
    'xstate.error.actor.refreshToken': settle,
    'xstate.done.actor.login': settle,
    'xstate.error.actor.login': settle,
    'xstate.done.actor.fetchUser': settle,
    'xstate.error.actor.fetchUser': settle,
    'xstate.done.actor.logout': settle,
    'xstate.error.actor.logout': settle,
  },
  emits,
});
