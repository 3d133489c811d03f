// Route guard (SPEC §2): decides, for every location the router reports, whether the page may render,
// must wait for the session check, or must redirect. The rules live in app/route-rules.ts (`decideRoute`);
// the machine only records the decision and emits its effects. The route table itself is the views'
// (views/route-table.ts, with each title; views/routes.tsx gives each its screen): the guard gets its access rules as input.
import { assertEvent, assign, emit, setup, type SnapshotFrom } from 'xstate';
import type { NavigateEvent, ToastEvent } from './effects';
import { decideRoute, mayEnter, type Location, type RouteDecision, type RouteRule, type SessionSummary } from './route-rules';

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

export type RouteGuardEvent = { type: 'route.change'; path: string; search: string } | ({ type: 'session.updated' } & SessionSummary);

export type RouteGuardEmitted =
  | NavigateEvent
  | ToastEvent
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

/**
 * Where a decision takes the guard and what it says on the way, the same for a new location (`route.change`)
 * and a new session (`session.updated`): each keeps what changed (`keep`) and tells what it must after.
 */
const decided = <
  const G extends 'isDecision' | 'redecidesTo',
  const K extends 'assignLocation' | 'assignSession',
  const T extends readonly 'emitRouteChanged'[],
>(
  guard: G,
  keep: K,
  tell: T,
) =>
  [
    {
      guard: { type: guard, params: { kind: 'login' } },
      target: '.redirecting',
      actions: ['emitRemember', 'emitNavigate', keep, 'clearRoute', ...tell],
    },
    {
      guard: { type: guard, params: { kind: 'redirect' } },
      target: '.redirecting',
      actions: ['emitNavigate', keep, 'clearRoute', ...tell],
    },
    {
      guard: { type: guard, params: { kind: 'denied' } },
      target: '.redirecting',
      actions: ['emitNavigate', 'toastDenied', keep, 'clearRoute', ...tell],
    },
    { guard: { type: guard, params: { kind: 'guest' } }, target: '.allowed', actions: ['emitRemember', 'assignRoute', keep, ...tell] },
  ] as const;

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
      const to = decision.kind === 'login' || decision.kind === 'redirect' || decision.kind === 'denied' ? decision.to : '/';
      return { type: 'navigate' as const, to, replace: true };
    }),
    /** "No tienes acceso a esa sección", as the user lands home instead. */
    toastDenied: emit({ type: 'toast', kind: 'warning', key: 'error.noAccess' }),
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
      ...decided('isDecision', 'assignLocation', ['emitRouteChanged']),
      { target: '.allowed', actions: ['assignRoute', 'assignLocation', 'emitRouteChanged'] },
    ],
    'session.updated': [
      { guard: { type: 'isDecision', params: { kind: 'wait' } }, target: '.waiting', actions: ['assignSession', 'clearRoute'] },
      ...decided('redecidesTo', 'assignSession', []),
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
export const selectIsNotFound = (snapshot: RouteGuardSnapshot): boolean => snapshot.matches('allowed') && snapshot.context.route === null;
/** Selector factory: whether the signed-in user may enter the route named `name` (false when logged out). */
export const selectMayEnter =
  (name: string) =>
  (snapshot: RouteGuardSnapshot): boolean => {
    const { routes, session } = snapshot.context;
    const route = routes.find((candidate) => candidate.name === name);
    return session.status === 'loggedIn' && route !== undefined && mayEnter(route, session);
  };
