// Route guard (SPEC §2): decides, for every location the router reports, whether the page may render,
// must wait for the session check, or must redirect. The rules live in the pure `decideRoute`; the
// machine only records the decision and emits its effects. The route table itself is the views'
// (views/routes.tsx, with each screen and title): the guard gets its access rules as input.
import { assertEvent, assign, emit, setup, type SnapshotFrom } from 'xstate';
import { hasAnyRole, type RoleCode } from '../../shared/codes';
import { loginPathFor } from '../services/redirect';
import type { SessionStatus } from './session-rules';
import type { NavigateEvent } from './effects';

export type RouteAccess = 'login' | 'guest';

/** A route as the guard sees it: where it is and who may enter. */
export interface RouteRule {
  name: string;
  /** wouter pattern; a trailing slash also matches (`/inbox/`). */
  path: string;
  access: RouteAccess;
  /** When set, a user with none of these roles is sent to `/` (SPEC §2). */
  roles?: readonly RoleCode[];
  /** When set, the user's device must match (the news wall is for `latam`). */
  device?: string;
  /** Where this route sends the user right away, once access is granted. */
  redirect?: string;
  /**
   * Where this route sends the user unless one of `roles` or a non-empty `query` parameter says they
   * may browse it (SPEC §2 `check-newsfeed-role`: /mural goes to /mural/news).
   */
  browse?: { roles: readonly RoleCode[]; query: string; otherwise: string };
}

export interface RouteMatch {
  route: RouteRule;
  params: Record<string, string>;
}

function segmentsOf(path: string): string[] {
  return path.split('/').filter((segment) => segment !== '');
}

function matchPattern(pattern: string, path: string): Record<string, string> | null {
  const wanted = segmentsOf(pattern);
  const actual = segmentsOf(path);
  const params: Record<string, string> = {};
  if (actual.length > wanted.length) return null;
  for (const [index, part] of wanted.entries()) {
    const value = actual[index];
    if (part.startsWith(':')) {
      const optional = part.endsWith('?');
      const name = part.slice(1, optional ? -1 : undefined);
      if (value === undefined) {
        if (optional) continue;
        return null;
      }
      try {
        params[name] = decodeURIComponent(value);
      } catch {
        return null;
      }
    } else if (value?.toLowerCase() !== part.toLowerCase()) {
      // Case-insensitive like wouter's matcher (regexparam, flag i): otherwise `/Inbox` would render
      // the inbox while the guard took it for an unknown page and let it through.
      return null;
    }
  }
  return params;
}

/** The route of a path (wouter-style patterns, `:id?` optional, a trailing slash allowed); null = 404. */
export function matchRoute(routes: readonly RouteRule[], path: string): RouteMatch | null {
  const pathname = path.split(/[?#]/, 1)[0] ?? '';
  if (!pathname.startsWith('/')) return null;
  for (const route of routes) {
    const params = matchPattern(route.path, pathname);
    if (params) return { route, params };
  }
  return null;
}

export interface SessionSummary {
  status: SessionStatus;
  roles: string[];
  device: string | null;
}

export interface Location {
  path: string;
  search: string;
}

export type RouteDecision =
  | { kind: 'wait' }
  | { kind: 'allow'; route: string | null; params: Record<string, string> }
  /** A guest page (login) for a visitor: allowed, and its `redirect` query is remembered. */
  | { kind: 'guest'; route: string; params: Record<string, string>; remember: string | null }
  /** Needs a session: remember the page and go to login. */
  | { kind: 'login'; to: string; remember: string }
  | { kind: 'redirect'; to: string };

function queryValue(search: string, key: string): string | null {
  return new URLSearchParams(search.startsWith('?') ? search.slice(1) : search).get(key);
}

/** Whether a signed-in user passes a route's role and device rules (the sidebar offers only those). */
export function mayEnter(route: RouteRule, session: Pick<SessionSummary, 'roles' | 'device'>): boolean {
  if (route.roles && !hasAnyRole(session.roles, route.roles)) return false;
  return !route.device || session.device === route.device;
}

/** The whole access policy of SPEC §2 and §6 as one pure function. */
export function decideRoute(routes: readonly RouteRule[], location: Location | null, session: SessionSummary): RouteDecision {
  if (location === null) return { kind: 'wait' };
  const match = matchRoute(routes, location.path);
  if (match === null) return { kind: 'allow', route: null, params: {} };
  const { route, params } = match;
  if (session.status === 'checking') return { kind: 'wait' };
  const loggedIn = session.status === 'loggedIn';
  if (route.access === 'guest') {
    if (loggedIn) return { kind: 'redirect', to: '/' };
    return { kind: 'guest', route: route.name, params, remember: queryValue(location.search, 'redirect') };
  }
  if (!loggedIn) {
    const wanted = location.path + location.search;
    return { kind: 'login', to: loginPathFor(wanted), remember: wanted };
  }
  if (!mayEnter(route, session)) return { kind: 'redirect', to: '/' };
  if (route.redirect) return { kind: 'redirect', to: route.redirect };
  if (route.browse) {
    const mayBrowse = hasAnyRole(session.roles, route.browse.roles) || (queryValue(location.search, route.browse.query) ?? '') !== '';
    if (!mayBrowse) return { kind: 'redirect', to: route.browse.otherwise };
  }
  return { kind: 'allow', route: route.name, params };
}

export interface RouteGuardInput {
  routes: readonly RouteRule[];
}

export interface RouteGuardContext {
  routes: readonly RouteRule[];
  location: Location | null;
  session: SessionSummary;
  /** The route being shown (null: unknown path, the 404 page); meaningful in `allowed`. */
  route: string | null;
  params: Record<string, string>;
}

export type RouteGuardEvent =
  | { type: 'route.change'; path: string; search: string }
  | ({ type: 'session.updated' } & SessionSummary);

export type RouteGuardEmitted =
  | NavigateEvent
  | { type: 'session.remember'; path: string | null }
  | { type: 'route.changed'; path: string };

type DecisionKind = RouteDecision['kind'];

/** The location and session a decision is made for: the event's when it brings one, else the stored. */
function inputsOf(context: RouteGuardContext, event: RouteGuardEvent): [Location | null, SessionSummary] {
  if (event.type === 'route.change') return [{ path: event.path, search: event.search }, context.session];
  return [context.location, { status: event.status, roles: event.roles, device: event.device }];
}

const decisionOf = (context: RouteGuardContext, event: RouteGuardEvent): RouteDecision =>
  decideRoute(context.routes, ...inputsOf(context, event));

export const routeGuardMachine = setup({
  types: {
    input: {} as RouteGuardInput,
    context: {} as RouteGuardContext,
    events: {} as RouteGuardEvent,
    emitted: {} as RouteGuardEmitted,
  },
  actions: {
    assignLocation: assign(({ event }) => {
      assertEvent(event, 'route.change');
      return { location: { path: event.path, search: event.search } };
    }),
    assignSession: assign(({ event }) => {
      assertEvent(event, 'session.updated');
      return { session: { status: event.status, roles: event.roles, device: event.device } };
    }),
    assignRoute: assign(({ context, event }) => {
      const decision = decisionOf(context, event);
      return decision.kind === 'allow' || decision.kind === 'guest'
        ? { route: decision.route, params: decision.params }
        : { route: null, params: {} };
    }),
    clearRoute: assign({ route: null, params: {} }),
    emitRouteChanged: emit(({ event }) => {
      assertEvent(event, 'route.change');
      return { type: 'route.changed' as const, path: event.path };
    }),
    emitRemember: emit(({ context, event }) => {
      const decision = decisionOf(context, event);
      const path = decision.kind === 'login' || decision.kind === 'guest' ? decision.remember : null;
      return { type: 'session.remember' as const, path };
    }),
    emitNavigate: emit(({ context, event }) => {
      const decision = decisionOf(context, event);
      const to = decision.kind === 'login' || decision.kind === 'redirect' ? decision.to : '/';
      return { type: 'navigate' as const, to, replace: true };
    }),
  },
  guards: {
    isDecision: ({ context, event }, params: { kind: DecisionKind }) => decisionOf(context, event).kind === params.kind,
    isViewable: ({ context, event }) => ['allow', 'guest'].includes(decisionOf(context, event).kind),
    /**
     * Only a finished session check or an expiry re-decides the current page. A logout or a login
     * navigates by itself; re-deciding then would race that navigation.
     */
    redecidesTo: ({ context, event }, params: { kind: DecisionKind }) => {
      assertEvent(event, 'session.updated');
      const redecide = (context.session.status === 'checking' && event.status !== 'checking') || event.status === 'expired';
      return redecide && decisionOf(context, event).kind === params.kind;
    },
  },
}).createMachine({
  id: 'routeGuard',
  initial: 'waiting',
  context: ({ input }) => ({
    routes: input.routes,
    location: null,
    session: { status: 'checking', roles: [], device: null },
    route: null,
    params: {},
  }),
  on: {
    'route.change': [
      {
        guard: { type: 'isDecision', params: { kind: 'wait' } },
        target: '.waiting',
        actions: ['assignLocation', 'clearRoute', 'emitRouteChanged'],
      },
      {
        guard: { type: 'isDecision', params: { kind: 'login' } },
        target: '.redirecting',
        actions: ['emitRemember', 'emitNavigate', 'assignLocation', 'clearRoute', 'emitRouteChanged'],
      },
      {
        guard: { type: 'isDecision', params: { kind: 'redirect' } },
        target: '.redirecting',
        actions: ['emitNavigate', 'assignLocation', 'clearRoute', 'emitRouteChanged'],
      },
      {
        guard: { type: 'isDecision', params: { kind: 'guest' } },
        target: '.allowed',
        actions: ['emitRemember', 'assignRoute', 'assignLocation', 'emitRouteChanged'],
      },
      { target: '.allowed', actions: ['assignRoute', 'assignLocation', 'emitRouteChanged'] },
    ],
    'session.updated': [
      {
        guard: { type: 'isDecision', params: { kind: 'wait' } },
        target: '.waiting',
        actions: ['assignSession', 'clearRoute'],
      },
      {
        guard: { type: 'redecidesTo', params: { kind: 'login' } },
        target: '.redirecting',
        actions: ['emitRemember', 'emitNavigate', 'assignSession', 'clearRoute'],
      },
      {
        guard: { type: 'redecidesTo', params: { kind: 'redirect' } },
        target: '.redirecting',
        actions: ['emitNavigate', 'assignSession', 'clearRoute'],
      },
      {
        guard: { type: 'redecidesTo', params: { kind: 'guest' } },
        target: '.allowed',
        actions: ['emitRemember', 'assignRoute', 'assignSession'],
      },
      { guard: 'isViewable', target: '.allowed', actions: ['assignRoute', 'assignSession'] },
      // A login or logout in progress: the session navigates by itself (its `navigate` is already
      // out), so only hide the page until the router reports the new location.
      { target: '.redirecting', actions: ['assignSession', 'clearRoute'] },
    ],
  },
  states: {
    // The session is still being checked (or no location yet): the view shows a loading state.
    waiting: {},
    allowed: {},
    // A navigation is under way (emitted here, or by the session); the router will report where to.
    redirecting: {},
  },
});

export type RouteGuardSnapshot = SnapshotFrom<typeof routeGuardMachine>;

export const selectIsRouteWaiting = (snapshot: RouteGuardSnapshot): boolean => snapshot.matches('waiting');
export const selectIsRouteAllowed = (snapshot: RouteGuardSnapshot): boolean => snapshot.matches('allowed');
export const selectIsRedirecting = (snapshot: RouteGuardSnapshot): boolean => snapshot.matches('redirecting');
/** null on a 404 and while not `allowed`. */
export const selectRouteName = (snapshot: RouteGuardSnapshot): string | null =>
  snapshot.matches('allowed') ? snapshot.context.route : null;
export const selectIsNotFound = (snapshot: RouteGuardSnapshot): boolean =>
  snapshot.matches('allowed') && snapshot.context.route === null;
export const selectRouteParam =
  (name: string) =>
  (snapshot: RouteGuardSnapshot): string | null =>
    snapshot.context.params[name] ?? null;
/** Selector factory: whether the signed-in user may enter the route named `name` (false when logged out). */
export const selectMayEnter =
  (name: string) =>
  (snapshot: RouteGuardSnapshot): boolean => {
    const { routes, session } = snapshot.context;
    const route = routes.find((candidate) => candidate.name === name);
    return session.status === 'loggedIn' && route !== undefined && mayEnter(route, session);
  };
