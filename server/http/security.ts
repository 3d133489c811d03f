// Middleware that applies to every response (API, SPA, assets, errors): security headers, the no-cache
// default, the CSRF check on unsafe /api calls (the cookie echoed in the header, and signed for this
// browser's session: server/auth/xsrf.ts), and handing out a valid CSRF cookie.
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { COOKIE, XSRF_HEADER } from '../../shared/contract';
import { findSessionRef } from '../auth/sessions';
import { safeEqual } from '../auth/tokens';
import type { Xsrf, XsrfBinding } from '../auth/xsrf';
import type { Db } from '../db/client';
import { responseSetsCookie, setXsrfCookie } from './cookies';
import type { AppEnv } from './env';
import { apiError, MESSAGES } from './errors';

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const securityHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  const h = c.res.headers;
  h.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  h.set('Referrer-Policy', 'no-referrer');
  h.set('X-Content-Type-Options', 'nosniff');
  h.set('X-Frame-Options', 'DENY');
  // SPEC §8: non-HTML responses carry no-cache; index.html too, so a deploy is picked up at once. An answer
  // that says otherwise keeps its own: hashed assets are immutable (server/http/static.ts).
  if (!h.has('Cache-Control')) h.set('Cache-Control', 'no-cache');
};

/**
 * The session this request's auth cookies belong to, which its CSRF token must be signed for: the one
 * `requireAuth` resolved, else looked up once per request (an expired access token, or only the refresh
 * cookie, still names its session).
 */
async function bindingOf(c: Context<AppEnv>, db: Db): Promise<XsrfBinding> {
  const auth = c.get('auth');
  if (auth) return { id: auth.sessionId, startedAt: auth.sessionStartedAt };
  let binding = c.get('xsrfBinding');
  if (binding === undefined) {
    const access = getCookie(c, COOKIE.session);
    const refresh = getCookie(c, COOKIE.refresh);
    binding = access || refresh ? await findSessionRef(db, { access, refresh }) : null;
    c.set('xsrfBinding', binding);
  }
  return binding;
}

/**
 * Gives the browser a CSRF cookie valid for its session on the first response it gets, whatever it asked
 * for, and replaces one that is not (planted, from an ended session, signed with an old secret) on API
 * answers and pages, so the SPA's next call carries a good one. Static assets only fill a missing cookie:
 * checking costs a session lookup. Routes that change the session (sign-in, refresh, logout) set their own.
 */
export function ensureXsrfCookie(db: Db, xsrf: Xsrf, trustProxy: boolean): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (responseSetsCookie(c.res, COOKIE.xsrf)) return;
    const token = getCookie(c, COOKIE.xsrf);
    const checked = c.req.path.startsWith('/api/') || c.res.headers.get('content-type')?.startsWith('text/html');
    if (token && !checked) return;
    const binding = await bindingOf(c, db);
    if (token && (await xsrf.verify(binding, token))) return;
    setXsrfCookie(c, await xsrf.issue(binding), trustProxy);
  };
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Unsafe /api calls must echo the CSRF cookie in X-XSRF-TOKEN (a cross-site page cannot read it), and the
 * token must be the server's, signed for the session the request's cookies name: a cookie written from a
 * sibling subdomain, or taken from another session, is refused like a missing one.
 */
export function csrfCheck(db: Db, xsrf: Xsrf): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    const cookie = getCookie(c, COOKIE.xsrf);
    const header = c.req.header(XSRF_HEADER);
    if (!cookie || !header || !safeEqual(cookie, header) || !(await xsrf.verify(await bindingOf(c, db), cookie))) {
      return apiError(c, 419, 'csrf.mismatch', MESSAGES.csrf);
    }
    return next();
  };
}
