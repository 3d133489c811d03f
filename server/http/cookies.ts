// The auth cookies of the contract. The tokens are HttpOnly; the expiry times and the CSRF token are
// readable on purpose (the SPA's token machine and ofetch read them). Secure only over https, so the demo
// also works on plain http://localhost.
import type { Context } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import type { CookieOptions } from 'hono/utils/cookie';
import { COOKIE } from '../../shared/contract';
import type { IssuedTokens, Lifetimes } from '../auth/sessions';

function isHttps(c: Context, trustProxy: boolean): boolean {
  if (new URL(c.req.url).protocol === 'https:') return true;
  return trustProxy && c.req.header('x-forwarded-proto')?.split(',')[0]?.trim() === 'https';
}

function base(c: Context, trustProxy: boolean): CookieOptions {
  return { path: '/', sameSite: 'Lax', secure: isHttps(c, trustProxy) };
}

export function setAuthCookies(c: Context, tokens: IssuedTokens, lifetimes: Lifetimes, trustProxy: boolean): void {
  const opts = base(c, trustProxy);
  setCookie(c, COOKIE.session, tokens.access, { ...opts, httpOnly: true, maxAge: lifetimes.tokenTtlS });
  setCookie(c, COOKIE.refresh, tokens.refresh, { ...opts, httpOnly: true, maxAge: lifetimes.refreshTtlS });
  // The readable expiry cookies outlive the access token so the SPA can tell "expired, refresh now" apart
  // from "signed out".
  setCookie(c, COOKIE.tokenExpiration, String(tokens.accessExpiresAt.getTime()), { ...opts, maxAge: lifetimes.refreshTtlS });
  setCookie(c, COOKIE.refreshExpiration, String(tokens.refreshExpiresAt.getTime()), { ...opts, maxAge: lifetimes.refreshTtlS });
}

export function clearAuthCookies(c: Context, trustProxy: boolean): void {
  const opts = base(c, trustProxy);
  for (const name of [COOKIE.session, COOKIE.refresh, COOKIE.tokenExpiration, COOKIE.refreshExpiration]) {
    deleteCookie(c, name, opts);
  }
}

/**
 * Sets the readable CSRF token (server/auth/xsrf.ts makes it, signed for the browser's session). Lives as
 * long as the browser session; sign-in, refresh and logout replace it.
 */
export function setXsrfCookie(c: Context, token: string, trustProxy: boolean): void {
  setCookie(c, COOKIE.xsrf, token, base(c, trustProxy));
}

export function responseSetsCookie(res: Response, name: string): boolean {
  return res.headers.getSetCookie().some((v) => v.startsWith(`${name}=`));
}
