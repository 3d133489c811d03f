// Session (SPEC §4): start-up cookie check, login, logout and expiry. Talks to other actors only by
// emitting events (`token.set`, `token.clear`, `navigate`, `toast`); the app root forwards them.
import { assertEvent, assign, emit, setup, type SnapshotFrom } from 'xstate';
import {
  fetchUser,
  login,
  logout,
  readSessionCookie,
  refreshToken,
  type Credentials,
  type SessionCookie,
} from '../../services/session/auth';
import { ACCESS_POLICY, type SignedIn, type SignedInUser } from '../../../shared/contract';
import { resolveRedirect } from './redirect-rules';
import type { TokenExpiry } from '../../../shared/token-times';
import type { NavigateEvent, ToastEvent } from '../app/effects';
import { loginFailureFor, validateCredentials, type FieldErrors, type LoginErrorKey, type LoginField, type ResetReason } from './rules';

interface SessionContext {
  user: SignedInUser | null;
  /** null while signed out; they come with the user (the sign-in's answer, or `GET /user` at start-up). */
  policies: string[] | null;
  /** The page wanted before login; validated only when used. */
  redirectTo: string | null;
  loginError: LoginErrorKey | null;
  fieldErrors: FieldErrors;
}

type SessionEvent =
  | { type: 'session.login'; email: string; password: string }
  | { type: 'session.edit'; field: LoginField }
  | { type: 'session.logout' }
  | { type: 'session.remember'; path: string | null }
  | { type: 'session.unauthorized' }
  | { type: 'session.reset'; reason: ResetReason };

export type TokenSetEvent = { type: 'token.set' } & TokenExpiry;

type SessionEmitted = NavigateEvent | ToastEvent | TokenSetEvent | { type: 'token.clear' };

/** The times a usable cookie carries (the guard already checked that it has some). */
function timesOf(cookie: SessionCookie): TokenExpiry {
  return 'times' in cookie ? cookie.times : { tokenExpiresAt: 0, refreshExpiresAt: 0 };
}

const credentialsFrom = ({ event }: { event: SessionEvent }): Credentials => {
  assertEvent(event, 'session.login');
  return { email: event.email.trim(), password: event.password };
};

/** A login form sent while logged out or after expiry: checked here, then signed in or its errors shown. */
const submitLogin = [
  { guard: 'isLoginFormValid', target: '#session.loggedOut.signingIn', actions: 'clearLoginErrors' },
  { actions: 'assignFieldErrors' },
] as const;

/** The end of a logout the user asked for, whatever the server answered. */
const loggedOutByUser = {
  target: '#session.loggedOut',
  actions: ['clearUser', 'emitTokenClear', 'navigateHome', { type: 'toast', params: { kind: 'success', key: 'session.loggedOut' } }],
} as const;

const sessionSetup = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    emitted: {} as SessionEmitted,
  },
  actors: { readSessionCookie, refreshToken, login, fetchUser, logout },
  actions: {
    assignSignedIn: assign((_, params: SignedIn) => ({ user: params.user, policies: params.policies })),
    clearUser: assign({ user: null, policies: null }),
    assignRedirect: assign(({ event }) => {
      assertEvent(event, 'session.remember');
      return { redirectTo: event.path };
    }),
    clearRedirect: assign({ redirectTo: null }),
    clearLoginErrors: assign({ loginError: null, fieldErrors: {} }),
    assignFieldErrors: assign(({ event }) => {
      assertEvent(event, 'session.login');
      return { loginError: null, fieldErrors: validateCredentials(event) };
    }),
    clearFieldError: assign(({ context, event }) => {
      assertEvent(event, 'session.edit');
      const { [event.field]: _cleared, ...rest } = context.fieldErrors;
      return { fieldErrors: rest, loginError: null };
    }),
    assignLoginFailure: assign((_, params: { error: unknown }) => loginFailureFor(params.error)),
    assignLoginError: assign((_, params: { loginError: LoginErrorKey }) => ({ loginError: params.loginError })),
    emitTokenSet: emit((_, params: TokenExpiry) => ({ type: 'token.set' as const, ...params })),
    emitTokenClear: emit({ type: 'token.clear' }),
    navigateAfterLogin: emit(({ context }) => ({ type: 'navigate' as const, to: resolveRedirect(context.redirectTo) })),
    navigateHome: emit({ type: 'navigate', to: '/' }),
    toast: emit((_, params: Omit<ToastEvent, 'type'>) => ({ type: 'toast' as const, ...params })),
  },
  guards: {
    isLoginFormValid: ({ event }) => {
      assertEvent(event, 'session.login');
      return Object.keys(validateCredentials(event)).length === 0;
    },
    hasActiveCookie: (_, params: { cookie: SessionCookie }) => params.cookie.kind === 'active',
    hasRefreshableCookie: (_, params: { cookie: SessionCookie }) => params.cookie.kind === 'refreshable',
    hasAccessPolicy: (_, params: { policies: string[] }) => params.policies.includes(ACCESS_POLICY),
    isTokensExpiredReset: ({ event }) => {
      assertEvent(event, 'session.reset');
      return event.reason === 'tokensExpired';
    },
  },
});

export const sessionMachine = sessionSetup.createMachine({
  id: 'session',
  initial: 'checking',
  context: { user: null, policies: null, redirectTo: null, loginError: null, fieldErrors: {} },
  on: {
    'session.remember': { actions: 'assignRedirect' },
    'session.edit': { actions: 'clearFieldError' },
  },
  states: {
    checking: {
      initial: 'readingCookie',
      states: {
        readingCookie: {
          invoke: {
            id: 'readSessionCookie',
            src: 'readSessionCookie',
            onDone: [
              {
                guard: { type: 'hasActiveCookie', params: ({ event }) => ({ cookie: event.output }) },
                target: 'loadingUser',
                actions: { type: 'emitTokenSet', params: ({ event }) => timesOf(event.output) },
              },
              {
                guard: { type: 'hasRefreshableCookie', params: ({ event }) => ({ cookie: event.output }) },
                target: 'refreshing',
              },
              // No cookie, or both tokens long gone: logged out without any request.
              { target: '#session.loggedOut' },
            ],
            onError: { target: '#session.loggedOut' },
          },
        },
        // Access token expired but the refresh token is alive: refresh first or GET /user would 401.
        refreshing: {
          invoke: {
            id: 'refreshToken',
            src: 'refreshToken',
            onDone: { target: 'loadingUser', actions: { type: 'emitTokenSet', params: ({ event }) => event.output } },
            onError: { target: '#session.loggedOut' },
          },
        },
        // The user and their policies in one call. A failure quietly logs out; without the access policy the
        // server session is ended too, with a toast.
        loadingUser: {
          invoke: {
            id: 'fetchUser',
            src: 'fetchUser',
            onDone: [
              {
                guard: { type: 'hasAccessPolicy', params: ({ event }) => ({ policies: event.output.policies }) },
                target: '#session.loggedIn',
                actions: { type: 'assignSignedIn', params: ({ event }) => event.output },
              },
              {
                target: '#session.loggedOut.revoking',
                actions: { type: 'toast', params: { kind: 'error', key: 'login.errors.policyMissing' } },
              },
            ],
            onError: { target: '#session.loggedOut', actions: 'emitTokenClear' },
          },
        },
      },
    },
    loggedOut: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'session.login': submitLogin,
          },
        },
        signingIn: {
          initial: 'authenticating',
          states: {
            authenticating: {
              invoke: {
                id: 'login',
                src: 'login',
                input: credentialsFrom,
                // The answer says who signed in: in at once, to the page they wanted.
                onDone: [
                  {
                    guard: { type: 'hasAccessPolicy', params: ({ event }) => ({ policies: event.output.policies }) },
                    target: '#session.loggedIn',
                    actions: [
                      { type: 'emitTokenSet', params: ({ event }) => event.output.times },
                      { type: 'assignSignedIn', params: ({ event }) => event.output },
                      'navigateAfterLogin',
                      'clearRedirect',
                    ],
                  },
                  // The server refuses such a sign-in (403); an answer without the policy still opened a session: end it.
                  {
                    target: '#session.loggedOut.revoking',
                    actions: { type: 'assignLoginError', params: { loginError: 'login.errors.policyMissing' } },
                  },
                ],
                onError: {
                  target: '#session.loggedOut.idle',
                  actions: { type: 'assignLoginFailure', params: ({ event }) => ({ error: event.error }) },
                },
              },
            },
          },
        },
        // The server session exists but may not be used: end it there too, quietly.
        revoking: {
          entry: 'emitTokenClear',
          invoke: {
            id: 'logout',
            src: 'logout',
            onDone: { target: 'idle' },
            onError: { target: 'idle' },
          },
        },
      },
    },
    loggedIn: {
      on: {
        'session.logout': { target: 'loggingOut' },
        'session.unauthorized': {
          target: 'expired',
          actions: { type: 'toast', params: { kind: 'warning', key: 'session.expired' } },
        },
        'session.reset': [
          { guard: 'isTokensExpiredReset', target: 'expired' },
          { target: 'expired', actions: { type: 'toast', params: { kind: 'warning', key: 'session.expired' } } },
        ],
      },
    },
    loggingOut: {
      invoke: {
        id: 'logout',
        src: 'logout',
        onDone: loggedOutByUser,
        // The user asked to leave: the local session ends even if the server call fails.
        onError: loggedOutByUser,
      },
    },
    // Logged out by the server (a 401 that a refresh did not cure) or by the token actor. The route guard sends the user to
    // /login?redirect=<current page>, because it is the one that knows the current location.
    expired: {
      entry: ['clearUser', 'emitTokenClear'],
      on: {
        'session.login': submitLogin,
      },
    },
  },
});

export type SessionSnapshot = SnapshotFrom<typeof sessionMachine>;
