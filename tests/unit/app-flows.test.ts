// The assembled app: the root, its children and the HTTP hooks working together, driven the way the
// views and the router drive them. I/O actors are scripted; timers are fake.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { emit, fromPromise, setup, type EventObject } from 'xstate';
import type { Effect } from '../../src/machines/app/effects';
import { folderCountsMachine } from '../../src/machines/messages/folder-counts';
import { appActorsOf, createAppActor, httpSessionOf, type AppActor } from '../../src/machines/app/app';
import { closePage, openPage } from '../../src/machines/app/pages';
import { localeMachine } from '../../src/machines/app/locale';
import { sessionMachine } from '../../src/machines/session/session';
import { tokenMachine } from '../../src/machines/session/token';
import type { Credentials, SessionCookie, SignInAnswer } from '../../src/services/session/auth';
import { ACCESS_POLICY, type Locale, type SignedInUser } from '../../shared/contract';
import { ApiFailureError, createHttpClient, httpIn, toApiFailure, TOKENS_EXPIRED_MESSAGE } from '../../src/services/http/client';
import type { FolderCount } from '../../shared/messages-contract';
import type { TokenExpiry } from '../../shared/token-times';
import { TEACHER, TEACHER_MX } from '../fixtures/users';
import { ROUTE_RULES } from '../../src/views/route-table';

const T0 = Date.UTC(2026, 2, 2, 12, 0, 0);

const USER = TEACHER;
const TIMES: TokenExpiry = { tokenExpiresAt: T0 + 60_000, refreshExpiresAt: T0 + 600_000 };

interface Script {
  cookie: SessionCookie;
  login?: (credentials: Credentials) => SignInAnswer;
  policies?: () => string[];
  refresh?: () => TokenExpiry | Promise<TokenExpiry>;
  /** The choice the locale cookie keeps (none by default). */
  choice?: () => Locale | null;
  user?: SignedInUser;
}

const flush = async () => {
  for (let index = 0; index < 20; index += 1) await Promise.resolve();
};

function startApp(script: Script) {
  const calls: string[] = [];
  // Who signed in: a sign-in's answer and GET /user both carry the user and their policies.
  const signedIn = () => ({ user: script.user ?? USER, policies: (script.policies ?? (() => [ACCESS_POLICY]))() });
  const localeLoads: { locale: Locale; remember: boolean }[] = [];
  const scripted = <TOut, TIn>(name: string, run: (input: TIn) => TOut | Promise<TOut>) =>
    fromPromise<TOut, TIn>(async ({ input }) => {
      calls.push(name);
      return run(input);
    });
  const app = createAppActor({
    input: { routes: ROUTE_RULES },
    actors: {
      session: sessionMachine.provide({
        actors: {
          readSessionCookie: scripted('readSessionCookie', () => script.cookie),
          refreshToken: scripted('refreshToken', () => (script.refresh ?? (() => TIMES))()),
          login: scripted('login', (input: Credentials) => (script.login ?? (() => ({ times: TIMES, ...signedIn() })))(input)),
          fetchUser: scripted('fetchUser', signedIn),
          logout: scripted<void, unknown>('logout', () => undefined),
        },
      }),
      token: tokenMachine.provide({ actors: { refreshToken: scripted('token.refreshToken', () => (script.refresh ?? (() => TIMES))()) } }),
      // The sidebar counters load after login; their HTTP would drive the loading bar under test here.
      folderCounts: folderCountsMachine.provide({ actors: { fetchFolderCounts: fromPromise<FolderCount[]>(async () => []) } }),
      locale: localeMachine.provide({
        actors: {
          readLocaleChoice: scripted('readLocaleChoice', () => (script.choice ?? (() => null))()),
          loadLocale: scripted('loadLocale', (input: { locale: Locale; remember: boolean }) => {
            localeLoads.push(input);
            return input.locale;
          }),
        },
      }),
    },
  });
  const emitted: EventObject[] = [];
  app.on('*', (event) => emitted.push(event));
  app.start();
  return { app, actors: appActorsOf(app), calls, emitted, localeLoads };
}

const go = (app: AppActor, path: string, search = '') => appActorsOf(app).routeGuard.send({ type: 'route.change', path, search });

let running: ReturnType<typeof startApp> | null = null;
const start = (script: Script) => (running = startApp(script));

beforeEach(() => {
  vi.useFakeTimers({ now: T0 });
});
afterEach(() => {
  running?.app.stop();
  running = null;
  vi.useRealTimers();
});

describe('start-up', () => {
  it('without a session cookie: logged out without any request, then login with the page remembered', async () => {
    const { app, actors, calls, emitted } = start({ cookie: { kind: 'none' } });
    go(app, '/inbox/message/42');
    expect(actors.routeGuard.getSnapshot().value).toBe('waiting');
    await flush();
    expect([...calls].sort()).toEqual(['loadLocale', 'readLocaleChoice', 'readSessionCookie']);
    expect(actors.session.getSnapshot().value).toEqual({ loggedOut: 'idle' });
    expect(actors.session.getSnapshot().context.redirectTo).toBe('/inbox/message/42');
    expect(emitted).toEqual([{ type: 'navigate', to: '/login?redirect=%2Finbox%2Fmessage%2F42', replace: true }]);
  });

  it('with a session cookie: user and policies loaded in one call, token timed, role rules applied', async () => {
    const { app, actors, calls, emitted } = start({ cookie: { kind: 'active', times: TIMES } });
    await flush();
    const sessionCalls = calls.filter((call) => !['readLocaleChoice', 'loadLocale'].includes(call));
    expect(sessionCalls).toEqual(['readSessionCookie', 'fetchUser']);
    expect(actors.session.getSnapshot().value).toBe('loggedIn');
    expect(actors.token.getSnapshot().value).toBe('valid');
    expect(actors.token.getSnapshot().context.tokenExpiresAt).toBe(TIMES.tokenExpiresAt);
    // An admin-only address: the teacher is told, and lands home.
    go(app, '/settings/message-quota');
    expect(emitted).toEqual([
      { type: 'navigate', to: '/', replace: true },
      { type: 'toast', kind: 'warning', key: 'error.noAccess' },
    ]);
    go(app, '/');
    expect(emitted.at(-1)).toEqual({ type: 'navigate', to: '/inbox', replace: true });
    go(app, '/inbox');
    expect(actors.routeGuard.getSnapshot().value).toBe('allowed');
    expect(actors.routeGuard.getSnapshot().context.route).toBe('inbox');
  });

  it('without the access policy: logged out, told why, server session ended', async () => {
    const { actors, calls, emitted } = start({ cookie: { kind: 'active', times: TIMES }, policies: () => ['otra'] });
    await flush();
    expect(calls).toContain('logout');
    expect(actors.session.getSnapshot().value).toEqual({ loggedOut: 'idle' });
    expect(actors.token.getSnapshot().value).toBe('unknown');
    expect(emitted).toContainEqual({ type: 'toast', kind: 'error', key: 'login.errors.policyMissing' });
  });
});

describe('login', () => {
  it('signs in with one call, starts the token timer and goes to the remembered page', async () => {
    const { app, actors, calls, emitted } = start({ cookie: { kind: 'none' } });
    await flush();
    go(app, '/login', '?redirect=%2Fsent');
    expect(actors.routeGuard.getSnapshot().context.route).toBe('login');
    actors.session.send({ type: 'session.login', email: 'docente@sanandres.cl', password: 'Hermes.2026' });
    await flush();
    expect(actors.session.getSnapshot().value).toBe('loggedIn');
    expect(actors.session.getSnapshot().context.user).toEqual(USER);
    expect(calls.filter((call) => !['readLocaleChoice', 'loadLocale'].includes(call))).toEqual(['readSessionCookie', 'login']);
    expect(actors.token.getSnapshot().value).toBe('valid');
    expect(emitted).toEqual([{ type: 'navigate', to: '/sent' }]);
    go(app, '/sent');
    expect(actors.routeGuard.getSnapshot().context.route).toBe('sent');
  });

  it('ignores an unsafe remembered page', async () => {
    const { app, actors, emitted } = start({ cookie: { kind: 'none' } });
    await flush();
    go(app, '/login', '?redirect=%2F%2Fevil.example');
    actors.session.send({ type: 'session.login', email: 'docente@sanandres.cl', password: 'Hermes.2026' });
    await flush();
    expect(emitted).toEqual([{ type: 'navigate', to: '/' }]);
  });

  it('shows the server answer on the form', async () => {
    const { actors, calls } = start({
      cookie: { kind: 'none' },
      login: () => {
        throw new ApiFailureError({ status: 401, code: 'auth.invalid_credentials', message: 'x', fieldErrors: {} });
      },
    });
    await flush();
    actors.session.send({ type: 'session.login', email: '', password: '' });
    expect(actors.session.getSnapshot().context.fieldErrors).toEqual({
      email: 'login.errors.emailRequired',
      password: 'login.errors.passwordRequired',
    });
    actors.session.send({ type: 'session.login', email: 'docente@sanandres.cl', password: 'mala' });
    await flush();
    expect(calls.filter((call) => call === 'login')).toHaveLength(1);
    expect(actors.session.getSnapshot().context.loginError).toBe('login.errors.invalidCredentials');
  });
});

const unauthenticated = () => new Response(JSON.stringify({ message: 'x', code: 'auth.unauthenticated' }), { status: 401 });

describe('a 401 with a live refresh token', () => {
  it('a phone woken after the access token expired, before the timer fired: one refresh for every 401, each request sent again, the user stays', async () => {
    const renewed = { tokenExpiresAt: T0 + 130_000, refreshExpiresAt: T0 + 600_000 };
    const { app, actors, calls, emitted } = start({ cookie: { kind: 'active', times: TIMES }, refresh: () => renewed });
    await flush();
    go(app, '/inbox');
    // The tab slept 70 s: the clock moved, the refresh timer did not fire.
    vi.setSystemTime(T0 + 70_000);
    const sent: string[] = [];
    const fetch = vi.fn(async (input: RequestInfo | URL) => {
      sent.push(String(input));
      return actors.token.getSnapshot().context.tokenExpiresAt === renewed.tokenExpiresAt
        ? new Response('{"ok":true}', { status: 200, headers: { 'content-type': 'application/json' } })
        : unauthenticated();
    });
    const http = createHttpClient({ fetch, baseURL: '/api', session: httpSessionOf(app) });
    const answers = Promise.all(['/messages/info', '/messages', '/templates'].map((path) => http.request(path)));
    await vi.waitFor(() => expect(sent).toHaveLength(6));
    await expect(answers).resolves.toEqual([{ ok: true }, { ok: true }, { ok: true }]);
    await flush();
    expect(calls.filter((call) => call === 'token.refreshToken')).toHaveLength(1);
    expect(actors.token.getSnapshot().value).toBe('valid');
    expect(actors.token.getSnapshot().context.tokenExpiresAt).toBe(renewed.tokenExpiresAt);
    expect(actors.session.getSnapshot().value).toBe('loggedIn');
    expect(emitted).toEqual([]);
  });

  it('a 401 that comes while the timer’s refresh runs waits for it: no second refresh', async () => {
    let finish: () => void = () => undefined;
    const renewed = { tokenExpiresAt: T0 + 130_000, refreshExpiresAt: T0 + 600_000 };
    const { app, actors, calls } = start({
      cookie: { kind: 'active', times: TIMES },
      // The timer's refresh, held until the 401 has arrived.
      refresh: () => new Promise<TokenExpiry>((resolve) => (finish = () => resolve(renewed))),
    });
    await flush();
    go(app, '/inbox');
    vi.advanceTimersByTime(59_500);
    await flush();
    expect(actors.token.getSnapshot().value).toBe('refreshing');
    const fetch = vi.fn(async () =>
      actors.token.getSnapshot().matches('valid') ? new Response('{}', { status: 200 }) : unauthenticated(),
    );
    const request = createHttpClient({ fetch, baseURL: '/api', session: httpSessionOf(app) }).request('/messages');
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    await flush();
    expect(calls.filter((call) => call === 'token.refreshToken')).toHaveLength(1);
    finish();
    await request;
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(calls.filter((call) => call === 'token.refreshToken')).toHaveLength(1);
    expect(actors.token.getSnapshot().context.tokenExpiresAt).toBe(renewed.tokenExpiresAt);
    expect(actors.session.getSnapshot().value).toBe('loggedIn');
  });

  it('a 401 whose refresh fails ends the session once and sends the user to login for the current page', async () => {
    const { app, actors, calls, emitted } = start({
      cookie: { kind: 'active', times: TIMES },
      refresh: () => {
        throw new ApiFailureError({ status: 401, code: 'auth.refresh_expired', message: 'x', fieldErrors: {} });
      },
    });
    await flush();
    go(app, '/sent');
    vi.setSystemTime(T0 + 70_000);
    const fetch = vi.fn(async () => unauthenticated());
    const http = createHttpClient({ fetch, baseURL: '/api', session: httpSessionOf(app) });
    const failures = await Promise.all(
      ['/messages/info', '/messages'].map((path) => http.request(path).catch((caught: unknown) => caught)),
    );
    await flush();
    expect(failures.map((failure) => toApiFailure(failure).status)).toEqual([401, 401]);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(calls.filter((call) => call === 'token.refreshToken')).toHaveLength(1);
    expect(actors.session.getSnapshot().value).toBe('expired');
    expect(emitted).toEqual([
      { type: 'toast', kind: 'warning', key: 'session.expired' },
      { type: 'navigate', to: '/login?redirect=%2Fsent', replace: true },
    ]);
  });
});

describe('session end', () => {
  it('a 401 that stands after a good refresh expires the session and sends the user to login for the current page', async () => {
    const { app, actors, calls, emitted } = start({ cookie: { kind: 'active', times: TIMES } });
    await flush();
    go(app, '/sent');
    const fetch = vi.fn(async () => unauthenticated());
    const http = createHttpClient({ fetch, baseURL: '/api', session: httpSessionOf(app) });
    await http.request('/messages/info').catch(() => undefined);
    await flush();
    // Refreshed once and sent again once; refused again, the session is over.
    expect(calls.filter((call) => call === 'token.refreshToken')).toHaveLength(1);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(actors.session.getSnapshot().value).toBe('expired');
    expect(actors.token.getSnapshot().value).toBe('unknown');
    expect(emitted).toEqual([
      { type: 'toast', kind: 'warning', key: 'session.expired' },
      { type: 'navigate', to: '/login?redirect=%2Fsent', replace: true },
    ]);
    expect(actors.session.getSnapshot().context.redirectTo).toBe('/sent');
  });

  it("a call made in the app's system uses the app's client: its 401 ends the session too", async () => {
    const { app, actors } = start({ cookie: { kind: 'active', times: TIMES } });
    await flush();
    go(app, '/sent');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ message: 'x', code: 'auth.unauthenticated' }), { status: 401 })),
    );
    await httpIn(app.system)
      .request('/messages/info')
      .catch(() => undefined);
    vi.unstubAllGlobals();
    await flush();
    expect(actors.session.getSnapshot().value).toBe('expired');
  });

  it('both tokens expired: the request is aborted with the SPEC message and the session reset', async () => {
    const dead = { tokenExpiresAt: T0 - 2_000, refreshExpiresAt: T0 - 1_000 };
    const { app, actors, emitted } = start({ cookie: { kind: 'active', times: dead } });
    await flush();
    go(app, '/inbox');
    const fetch = vi.fn(async () => new Response('{}', { status: 200 }));
    const error = await createHttpClient({ fetch, baseURL: '/api', session: httpSessionOf(app) })
      .request('/channels')
      .catch((caught: unknown) => caught);
    await flush();
    expect((error as Error).message).toBe(TOKENS_EXPIRED_MESSAGE);
    expect(fetch).not.toHaveBeenCalled();
    expect(actors.session.getSnapshot().value).toBe('expired');
    // One toast: the SPEC's raw message; the session does not add its own.
    expect(emitted).toEqual([
      { type: 'toast', kind: 'error', key: 'session.aborted', message: TOKENS_EXPIRED_MESSAGE },
      { type: 'navigate', to: '/login?redirect=%2Finbox', replace: true },
    ]);
  });

  it('refreshes 500 ms before expiry, and a failed refresh expires the session', async () => {
    let refreshes = 0;
    const { actors, calls, emitted } = start({
      cookie: { kind: 'active', times: TIMES },
      refresh: () => {
        refreshes += 1;
        if (refreshes > 1) throw new ApiFailureError({ status: 401, code: 'auth.refresh_expired', message: 'x', fieldErrors: {} });
        return { tokenExpiresAt: T0 + 120_000, refreshExpiresAt: T0 + 600_000 };
      },
    });
    await flush();
    vi.advanceTimersByTime(59_499);
    await flush();
    expect(calls).not.toContain('token.refreshToken');
    vi.advanceTimersByTime(1);
    await flush();
    expect(calls.filter((call) => call === 'token.refreshToken')).toHaveLength(1);
    expect(actors.token.getSnapshot().context.tokenExpiresAt).toBe(T0 + 120_000);
    vi.advanceTimersByTime(60_000);
    await flush();
    expect(actors.session.getSnapshot().value).toBe('expired');
    expect(emitted).toEqual([{ type: 'toast', kind: 'warning', key: 'session.expired' }]);
  });

  it('logout ends the session and goes home, then to a plain login page', async () => {
    const { app, actors, calls, emitted } = start({ cookie: { kind: 'active', times: TIMES } });
    await flush();
    go(app, '/inbox');
    actors.session.send({ type: 'session.logout' });
    await flush();
    expect(calls.at(-1)).toBe('logout');
    expect(actors.session.getSnapshot().value).toEqual({ loggedOut: 'idle' });
    expect(actors.token.getSnapshot().value).toBe('unknown');
    // The page behind is hidden until the router follows the navigation.
    expect(actors.routeGuard.getSnapshot().value).toBe('redirecting');
    go(app, '/');
    expect(emitted).toEqual([
      { type: 'navigate', to: '/' },
      { type: 'toast', kind: 'success', key: 'session.loggedOut' },
      { type: 'navigate', to: '/login', replace: true },
    ]);
  });
});

describe('layout actors', () => {
  it('the sidebar closes after each navigation', async () => {
    const { app, actors } = start({ cookie: { kind: 'active', times: TIMES } });
    await flush();
    actors.sidebar.send({ type: 'sidebar.open' });
    expect(actors.sidebar.getSnapshot().value).toBe('open');
    go(app, '/sent');
    expect(actors.sidebar.getSnapshot().value).toBe('closed');
  });

  it('the loading bar follows the requests, after its throttle', async () => {
    const { app, actors } = start({ cookie: { kind: 'active', times: TIMES } });
    await flush();
    let answer: (response: Response) => void = () => undefined;
    const http = createHttpClient({
      fetch: () => new Promise<Response>((resolve) => (answer = resolve)),
      baseURL: '/api',
      session: httpSessionOf(app),
    });
    const request = http.request('/templates');
    expect(actors.loadingBar.getSnapshot().value).toBe('waiting');
    vi.advanceTimersByTime(200);
    expect(actors.loadingBar.getSnapshot().hasTag('visible')).toBe(true);
    answer(new Response('{}', { status: 500 }));
    await request.catch(() => undefined);
    expect(actors.loadingBar.getSnapshot().value).toBe('finishing');
    expect(actors.loadingBar.getSnapshot().context.failed).toBe(true);
    vi.advanceTimersByTime(500);
    expect(actors.loadingBar.getSnapshot().value).toBe('idle');
  });

  it('the locale follows the cookie and switches on request', async () => {
    const { actors, localeLoads } = start({ cookie: { kind: 'none' }, choice: () => 'es-MX' });
    await flush();
    expect(actors.locale.getSnapshot().context.locale).toBe('es-MX');
    actors.locale.send({ type: 'locale.change', locale: 'es-CL' });
    await flush();
    expect(actors.locale.getSnapshot().context.locale).toBe('es-CL');
    // Both are the user's choices: the cookie keeps each.
    expect(localeLoads).toEqual([
      { locale: 'es-MX', remember: true },
      { locale: 'es-CL', remember: true },
    ]);
  });

  it("a Mexican school's user who never chose reads es-MX once signed in, and the cookie is left alone", async () => {
    const { actors, localeLoads } = start({ cookie: { kind: 'active', times: TIMES }, user: TEACHER_MX });
    await flush();
    expect(actors.session.getSnapshot().value).toBe('loggedIn');
    expect(actors.locale.getSnapshot().context.locale).toBe('es-MX');
    expect(localeLoads).toEqual([
      { locale: 'es-CL', remember: false },
      { locale: 'es-MX', remember: false },
    ]);
  });

  it("the user's own choice beats the school's locale", async () => {
    const { actors, localeLoads } = start({ cookie: { kind: 'active', times: TIMES }, user: TEACHER_MX, choice: () => 'es-CL' });
    await flush();
    expect(actors.session.getSnapshot().value).toBe('loggedIn');
    expect(actors.locale.getSnapshot().context.locale).toBe('es-CL');
    expect(localeLoads).toEqual([{ locale: 'es-CL', remember: true }]);
  });
});

describe('page actors', () => {
  /** A screen's actor as the views open it: it emits a toast, the SPEC §7 counts event and a navigation. */
  const pageMachine = setup({
    types: { input: {} as { id: number }, context: {} as { id: number }, events: {} as { type: 'page.act' }, emitted: {} as Effect },
  }).createMachine({
    id: 'testPage',
    context: ({ input }) => ({ id: input.id }),
    initial: 'idle',
    states: {
      idle: {
        on: {
          'page.act': {
            target: 'done',
            actions: [
              emit({ type: 'toast', kind: 'success', key: 'messages.deleted' }),
              emit({ type: 'counts.changed' }),
              emit({ type: 'navigate', to: '/trash', replace: true }),
            ],
          },
        },
      },
      done: {},
    },
  });

  it('open as children of the root, in its system, with their input', async () => {
    const { app } = start({ cookie: { kind: 'none' } });
    await flush();
    const page = openPage(app, 'testPage-1', pageMachine, { id: 42 });
    expect(app.getSnapshot().children['testPage-1']).toBe(page);
    expect(page.system).toBe(app.system);
    expect(page.getSnapshot().context).toEqual({ id: 42 });
    closePage(app, 'testPage-1');
    expect(app.getSnapshot().children['testPage-1']).toBeUndefined();
    expect(page.getSnapshot().status).toBe('stopped');
  });

  it('their UI effects reach the edge through the root, and counts.changed reloads the sidebar counters', async () => {
    const { app, actors, emitted } = start({ cookie: { kind: 'none' } });
    await flush();
    const refreshes: string[] = [];
    app.system.inspect((event) => {
      if (event.type === '@xstate.event' && event.actorRef === actors.folderCounts) refreshes.push(event.event.type);
    });
    const page = openPage(app, 'testPage-2', pageMachine, { id: 7 });
    emitted.length = 0;
    page.send({ type: 'page.act' });
    await flush();
    expect(emitted).toEqual([
      { type: 'toast', kind: 'success', key: 'messages.deleted' },
      { type: 'navigate', to: '/trash', replace: true },
    ]);
    expect(refreshes).toEqual(['counts.refresh']);
  });

  it('a closed page is stopped with its relay, so nothing of it is heard any more', async () => {
    const { app } = start({ cookie: { kind: 'none' } });
    await flush();
    const page = openPage(app, 'testPage-3', pageMachine, { id: 1 });
    const relay = app.getSnapshot().children['testPage-3:effects'];
    expect(relay?.getSnapshot().status).toBe('active');
    closePage(app, 'testPage-3');
    expect(page.getSnapshot().status).toBe('stopped');
    expect(relay?.getSnapshot().status).toBe('stopped');
    expect(app.getSnapshot().children['testPage-3:effects']).toBeUndefined();
  });
});
