import { createActor, type AnyMachineSnapshot, type AnyEventObject } from 'xstate';
import { expect } from 'vitest';
import { NEWSFEED_ROLES } from '../../shared/codes';
import { ROUTE_RULES as ROUTES } from '../../src/views/route-table';
import {
  routeGuardMachine,
  selectIsNotFound,
  selectIsRedirecting,
  selectIsRouteAllowed,
  selectIsRouteWaiting,
  selectMayEnter,
  selectRouteName,
  type RouteGuardSnapshot,
} from '../../src/machines/app/route-guard';
import { decideRoute, type Location, type SessionSummary } from '../../src/machines/app/route-rules';
import { defineModelTests, send, type StepEnv } from './harness';

const guard = (snapshot: AnyMachineSnapshot) => snapshot as unknown as RouteGuardSnapshot;

const LOCATIONS: Location[] = [
  { path: '/inbox', search: '' },
  { path: '/inbox/message/42', search: '' },
  { path: '/login', search: '?redirect=%2Fsent' },
  { path: '/', search: '' },
  { path: '/dashboard/users', search: '' },
  { path: '/settings/message-quota', search: '' },
  { path: '/mural', search: '' },
  { path: '/mural', search: '?newsfeed=1' },
  { path: '/no-such-page', search: '' },
];

const SESSIONS: SessionSummary[] = [
  { status: 'loggedOut', roles: [], device: null },
  { status: 'loggedIn', roles: ['docente'], device: 'cl' },
  { status: 'loggedIn', roles: ['colegio-administrador'], device: 'latam' },
  { status: 'loggedIn', roles: ['corp-utp'], device: 'latam' },
  { status: 'expired', roles: [], device: null },
];

const sessionOf = (event: AnyEventObject): SessionSummary => {
  const { status, roles, device } = event as AnyEventObject & SessionSummary;
  return { status, roles, device };
};

/**
 * The location and session the guard decides with are the last ones reported, in the test's own account of
 * the events so far (the oracle reads them from the context, so a decision that forgot one would agree).
 */
function expectRemembers(snapshot: AnyMachineSnapshot, env: StepEnv) {
  const { location, session } = snapshot.context as RouteGuardSnapshot['context'];
  const lastOf = (type: string) => env.history.filter((event) => event.type === type).at(-1);
  const moved = lastOf('route.change') as (AnyEventObject & Location) | undefined;
  const updated = lastOf('session.updated');
  expect(location, 'the last location reported').toEqual(moved ? { path: moved.path, search: moved.search } : null);
  expect(session, 'the last session reported').toEqual(updated ? sessionOf(updated) : { status: 'checking', roles: [], device: null });
}

/**
 * What the sidebar offers (`selectMayEnter`), written apart from `mayEnter`: a signed-in user who has one of the
 * route's roles, on its device, for every route; nothing while logged out or checking, nor for an unknown name.
 */
function expectOffers(snapshot: AnyMachineSnapshot) {
  const { session } = snapshot.context as RouteGuardSnapshot['context'];
  for (const route of ROUTES) {
    const byRole = !route.roles || session.roles.some((role) => (route.roles as readonly string[]).includes(role));
    const byDevice = !route.device || session.device === route.device;
    expect(selectMayEnter(route.name)(guard(snapshot)), `offers ${route.name}`).toBe(session.status === 'loggedIn' && byRole && byDevice);
  }
  expect(selectMayEnter('noSuchRoute')(guard(snapshot))).toBe(false);
}

/**
 * Written apart from `decideRoute`: what may be on screen for this session. A page is shown only if
 * it is a 404, a guest page without a session, or a page whose every rule the signed-in user passes.
 */
function expectMayView(snapshot: AnyMachineSnapshot) {
  const { location, session, route: name } = snapshot.context as RouteGuardSnapshot['context'];
  if (name === null) {
    expect(ROUTES.some((route) => route.path === location?.path)).toBe(false);
    return;
  }
  const route = ROUTES.find((candidate) => candidate.name === name);
  expect(route).toBeDefined();
  if (!route) return;
  if (route.access === 'guest') {
    expect(session.status).not.toBe('loggedIn');
    return;
  }
  expect(session.status).toBe('loggedIn');
  if (route.roles) expect(session.roles.some((role) => (route.roles as readonly string[]).includes(role))).toBe(true);
  if (route.device) expect(session.device).toBe(route.device);
  expect(route.redirect).toBeUndefined();
  if (route.name === 'mural') {
    const newsfeed = new URLSearchParams(location?.search ?? '').get('newsfeed');
    expect(session.roles.some((role) => (NEWSFEED_ROLES as readonly string[]).includes(role)) || !!newsfeed).toBe(true);
  }
}

/** SPEC §6: the roles that administer a school (dashboard, settings). */
const ADMINISTERS = ['colegio-administrador', 'colegio-director', 'colegio-utp', 'corp-utp'];
/** SPEC §2, §6: the roles that manage the news wall (others browse it only with a `newsfeed` query). */
const MANAGES_NEWS = ['colegio-administrador', 'colegio-director', 'colegio-utp'];

/**
 * What a visit to one of this test's locations comes to (SPEC §2, §6), written apart from `decideRoute`:
 * wait for the session check, show the page, or leave it (to the login, home, or another page).
 */
function visitOf(location: Location | null, session: SessionSummary): 'waiting' | 'allowed' | 'redirecting' {
  if (location === null) return 'waiting';
  // An unknown address is the 404 page, at once, for anyone.
  if (location.path === '/no-such-page') return 'allowed';
  if (session.status === 'checking') return 'waiting';
  const signedIn = session.status === 'loggedIn';
  // The login page is for visitors; someone signed in goes home.
  if (location.path === '/login') return signedIn ? 'redirecting' : 'allowed';
  // Every other page needs a session: without one, to the login with the page remembered.
  if (!signedIn) return 'redirecting';
  const has = (roles: string[]) => session.roles.some((role) => roles.includes(role));
  switch (location.path) {
    case '/inbox':
    case '/inbox/message/42':
      return 'allowed';
    // The root is the inbox.
    case '/':
      return 'redirecting';
    case '/dashboard/users':
    case '/settings/message-quota':
      return has(ADMINISTERS) ? 'allowed' : 'redirecting';
    // The wall is for latam; its desk for those who manage it or come with a `newsfeed` query, others to /mural/news.
    case '/mural':
      return session.device === 'latam' && (has(MANAGES_NEWS) || new URLSearchParams(location.search).get('newsfeed'))
        ? 'allowed'
        : 'redirecting';
    default:
      throw new Error(`visitOf: say what a visit to ${location.path} is`);
  }
}

function effectsOf(decision: ReturnType<typeof decideRoute>): AnyEventObject[] {
  switch (decision.kind) {
    case 'login':
      return [
        { type: 'session.remember', path: decision.remember },
        { type: 'navigate', to: decision.to, replace: true },
      ];
    case 'redirect':
      return [{ type: 'navigate', to: decision.to, replace: true }];
    // Kept out by role or device: home, and told so.
    case 'denied':
      return [
        { type: 'navigate', to: '/', replace: true },
        { type: 'toast', kind: 'warning', key: 'error.noAccess' },
      ];
    case 'guest':
      return [{ type: 'session.remember', path: decision.remember }];
    default:
      return [];
  }
}

function emits({ from, event }: StepEnv): AnyEventObject[] {
  const context = from.context as RouteGuardSnapshot['context'];
  if (event.type === 'route.change') {
    const location = { path: event.path as string, search: event.search as string };
    return [...effectsOf(decideRoute(ROUTES, location, context.session)), { type: 'route.changed', path: location.path }];
  }
  if (event.type === 'session.updated') {
    const session = sessionOf(event);
    // Only the end of the start-up check, or an expiry, re-decides the page on screen.
    const redecides = (context.session.status === 'checking' && session.status !== 'checking') || session.status === 'expired';
    return redecides ? effectsOf(decideRoute(ROUTES, context.location, session)) : [];
  }
  return [];
}

defineModelTests({
  name: 'route-guard',
  machine: routeGuardMachine,
  oracle: {
    initial: 'waiting',
    targets: {
      '*': {
        'route.change': ({ event, context }) => visitOf({ path: event.path, search: event.search }, context.session),
        // The page on screen for the new session. (Only the end of the start-up check or an expiry
        // navigates; during a login or logout the page is hidden until the router reports where to.)
        'session.updated': ({ event, context }) => visitOf(context.location, sessionOf(event)),
      },
    },
  },
  traversal: {
    events: [
      ...LOCATIONS.map((location) => ({ type: 'route.change', ...location })),
      ...SESSIONS.map((session) => ({ type: 'session.updated', ...session })),
    ],
    input: { routes: ROUTES },
    limit: 5000,
  },
  createActor: ({ machine }) => createActor(machine, { input: { routes: ROUTES } }),
  states: {
    waiting: (snapshot, env) => {
      expectRemembers(snapshot, env);
      expect(selectIsRouteWaiting(guard(snapshot))).toBe(true);
      expect(selectRouteName(guard(snapshot))).toBeNull();
      const { location, session } = snapshot.context as RouteGuardSnapshot['context'];
      // Waiting means: nothing reported yet, or a known page while the session is being checked.
      expect(location === null || session.status === 'checking').toBe(true);
      expectOffers(snapshot);
    },
    allowed: (snapshot, env) => {
      expectRemembers(snapshot, env);
      expect(selectIsRouteAllowed(guard(snapshot))).toBe(true);
      expect(selectIsNotFound(guard(snapshot))).toBe(snapshot.context.route === null);
      expectMayView(snapshot);
      // The page shown is the one the checks above allow (none on a 404).
      expect(selectRouteName(guard(snapshot))).toBe(snapshot.context.route);
      expectOffers(snapshot);
    },
    redirecting: (snapshot, env) => {
      expectRemembers(snapshot, env);
      expect(selectIsRedirecting(guard(snapshot))).toBe(true);
      expect(selectRouteName(guard(snapshot))).toBeNull();
      expectOffers(snapshot);
    },
  },
  events: {
    'route.change': send,
    'session.updated': send,
  },
  emits,
});
