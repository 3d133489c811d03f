// Middleware that applies to every response (API, SPA, assets, errors): security headers, the no-cache
// default, the CSRF double-submit check on unsafe /api calls, and handing out the CSRF cookie.
import type { MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { COOKIE, XSRF_HEADER } from '../../shared/contract';
import { safeEqual } from '../auth/tokens';
import { responseSetsCookie, setXsrfCookie } from './cookies';
import { apiError, MESSAGES } from './errors';

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
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
  // SPEC §8: non-HTML responses carry no-cache; index.html too, so a deploy is picked up at once.
  if (!h.has('Cache-Control')) h.set('Cache-Control', 'no-cache');
};

/** Gives the browser a CSRF cookie on the first response it gets, whatever it asked for. */
export function ensureXsrfCookie(trustProxy: boolean): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (!getCookie(c, COOKIE.xsrf) && !responseSetsCookie(c.res, COOKIE.xsrf)) setXsrfCookie(c, trustProxy);
  };
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Unsafe /api calls must echo the CSRF cookie in X-XSRF-TOKEN; a cross-site page cannot read it. */
export const csrfCheck: MiddlewareHandler = async (c, next) => {
  if (SAFE_METHODS.has(c.req.method)) return next();
  const cookie = getCookie(c, COOKIE.xsrf);
  const header = c.req.header(XSRF_HEADER);
  if (!cookie || !header || !safeEqual(cookie, header)) return apiError(c, 419, 'csrf.mismatch', MESSAGES.csrf);
  return next();
};
