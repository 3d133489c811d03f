// The auth cookies of the contract. The tokens are HttpOnly; the expiry times and the CSRF token are
// readable on purpose (the SPA's token machine and ofetch read them). Secure only over https, so the demo
// also works on plain http://localhost.
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
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

/** The single sign-on state cookie: only the sign-on routes read it, for the minutes a provider may take. */
const SSO_STATE_COOKIE = 'hermes_sso_state';
const SSO_COOKIE_PATH = '/api/sso';

/**
 * Binds a sign-in sent to a provider to this browser: the provider's answer must come back to the browser
 * that left (Lax: sent on the provider's top-level redirect back).
 */
export function setSsoStateCookie(c: Context, state: string, trustProxy: boolean): void {
  setCookie(c, SSO_STATE_COOKIE, state, { ...base(c, trustProxy), path: SSO_COOKIE_PATH, httpOnly: true, maxAge: 600 });
}

export function takeSsoStateCookie(c: Context, trustProxy: boolean): string | null {
  const value = getCookie(c, SSO_STATE_COOKIE) ?? null;
  deleteCookie(c, SSO_STATE_COOKIE, { ...base(c, trustProxy), path: SSO_COOKIE_PATH });
  return value;
}
