// The access policy of SPEC §2 and §6 as pure functions: which route a path is, who may enter it, and
// what happens to a visit (wait, show, go to login, redirect). The route guard (app/route-guard.ts) decides
// with them; the sidebar offers only what `mayEnter` allows.
import { hasAnyRole, type RoleCode } from '../../../shared/codes';
import { loginPathFor } from '../session/redirect-rules';
import type { SessionStatus } from '../session/rules';

type RouteAccess = 'login' | 'guest';

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
  | { kind: 'redirect'; to: string }
  /** Signed in, but the route's roles or device keep this user out: home, and they are told why. */
  | { kind: 'denied'; to: string };

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
  if (!mayEnter(route, session)) return { kind: 'denied', to: '/' };
  if (route.redirect) return { kind: 'redirect', to: route.redirect };
  if (route.browse) {
    const mayBrowse = hasAnyRole(session.roles, route.browse.roles) || (queryValue(location.search, route.browse.query) ?? '') !== '';
    if (!mayBrowse) return { kind: 'redirect', to: route.browse.otherwise };
  }
  return { kind: 'allow', route: route.name, params };
}
