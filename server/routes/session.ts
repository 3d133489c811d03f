// Session API (contract.ts): login, token refresh, logout, the signed-in user and their policies, and the
// CSRF cookie hand-out. Each change of session issues a CSRF token for what follows (server/auth/xsrf.ts).
import { Hono, type Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { COOKIE, type SignedIn, type TokenTimes } from '../../shared/contract';
import { signIn, signOut } from '../auth/login';
import { rotateSession, type IssuedTokens } from '../auth/sessions';
import { rateLimits } from '../auth/rate-limit';
import { loadSignedInUser, policyNames } from '../auth/users';
import type { Xsrf, XsrfBinding } from '../auth/xsrf';
import type { ServerConfig } from '../config';
import type { Db } from '../db/client';
import { requireAuth } from '../http/auth';
import { clientIp } from '../http/client-ip';
import { clearAuthCookies, setAuthCookies, setXsrfCookie } from '../http/cookies';
import type { AppEnv } from '../http/env';
import { apiError, MESSAGES } from '../http/errors';
import { type FieldErrors, hasFieldErrors } from '../http/field-errors';

// Deliberately loose: the server only needs "looks like an address"; the real check is the lookup.
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

interface LoginInput {
  email: string;
  password: string;
}

function validateLogin(body: unknown): { input: LoginInput } | { errors: FieldErrors } {
  const { email, password } = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const errors: FieldErrors = {};
  if (typeof email !== 'string' || email.trim() === '') errors.email = ['El correo electrónico es obligatorio.'];
  else if (email.length > 254 || !EMAIL_RE.test(email.trim())) errors.email = ['El correo electrónico no es válido.'];
  if (typeof password !== 'string' || password === '') errors.password = ['La contraseña es obligatoria.'];
  else if (password.length > 1024) errors.password = ['La contraseña no puede superar los 1024 caracteres.'];
  if (hasFieldErrors(errors)) return { errors };
  return { input: { email: (email as string).trim().toLowerCase(), password: password as string } };
}

/** The user and their policies, as `GET /user` and a sign-in answer them; null when the user is gone. */
async function signedInAnswer(db: Db, userId: number): Promise<SignedIn | null> {
  const [user, policies] = await Promise.all([loadSignedInUser(db, userId), policyNames(db, userId)]);
  return user ? { user, policies } : null;
}

function tokenTimes(tokens: IssuedTokens): TokenTimes {
  return { token_expires_at: tokens.accessExpiresAt.getTime(), refresh_expires_at: tokens.refreshExpiresAt.getTime() };
}

/**
 * The answer of a sign-in (`POST /login`, an accepted invitation): the session's cookies, a CSRF token for
 * it, and who signed in.
 */
export async function answerSignIn(
  c: Context,
  { db, config, xsrf }: { db: Db; config: ServerConfig; xsrf: Xsrf },
  { userId, tokens }: { userId: number; tokens: IssuedTokens },
): Promise<Response> {
  setAuthCookies(c, tokens, config, config.trustProxy);
  // A token for the new session: the one from before sign-in (or from the replaced session) is worthless now.
  setXsrfCookie(c, await xsrf.issue(tokens.session), config.trustProxy);
  // Who signed in comes with the answer: on a phone's network each further trip before the first screen costs.
  const signedIn = await signedInAnswer(db, userId);
  if (!signedIn) return apiError(c, 401, 'auth.unauthenticated', MESSAGES.unauthenticated);
  return c.json({ data: tokenTimes(tokens), ...signedIn });
}

export function sessionRoutes(db: Db, config: ServerConfig, xsrf: Xsrf): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const { login: loginLimit } = rateLimits(config);
  const newXsrfToken = async (c: Context, binding: XsrfBinding) => setXsrfCookie(c, await xsrf.issue(binding), config.trustProxy);

  app.post('/login', async (c) => {
    const body: unknown = await c.req.json().catch(() => null);
    const parsed = validateLogin(body);
    if ('errors' in parsed) return apiError(c, 422, 'validation.failed', MESSAGES.validation, parsed.errors);
    const { email, password } = parsed.input;

    const outcome = await signIn(db, loginLimit, config, {
      email,
      password,
      ip: clientIp(c, config.trustProxy),
      userAgent: c.req.header('user-agent') ?? null,
      previous: { access: getCookie(c, COOKIE.session), refresh: getCookie(c, COOKIE.refresh) },
    });
    if (outcome.kind === 'throttled') {
      c.header('Retry-After', String(outcome.waitS));
      return apiError(c, 429, 'auth.throttled', MESSAGES.throttled(outcome.waitS));
    }
    if (outcome.kind === 'invalid_credentials') return apiError(c, 401, 'auth.invalid_credentials', MESSAGES.invalidCredentials);
    if (outcome.kind === 'policy_missing') return apiError(c, 403, 'auth.policy_missing', MESSAGES.policyMissing);
    return answerSignIn(c, { db, config, xsrf }, outcome);
  });

  app.post('/token/refresh', async (c) => {
    const refresh = getCookie(c, COOKIE.refresh);
    const tokens = refresh ? await rotateSession(db, refresh, config) : null;
    if (!tokens) {
      clearAuthCookies(c, config.trustProxy);
      await newXsrfToken(c, null);
      return apiError(c, 401, 'auth.refresh_expired', MESSAGES.refreshExpired);
    }
    setAuthCookies(c, tokens, config, config.trustProxy);
    await newXsrfToken(c, tokens.session);
    return c.json({ data: tokenTimes(tokens) });
  });

  // GET per SPEC §7; it only ends the caller's own session, so a cross-site GET can at worst sign them out.
  app.get('/logout', async (c) => {
    await signOut(db, { access: getCookie(c, COOKIE.session), refresh: getCookie(c, COOKIE.refresh) }, c.var.ip);
    clearAuthCookies(c, config.trustProxy);
    // Signed out: a token for the next sign-in, bound to nothing but itself.
    await newXsrfToken(c, null);
    return c.json({ data: { ok: true } });
  });

  // ensureXsrfCookie (server/http/security.ts) sets the token on this answer when the browser has none or
  // one not valid for its session; the route exists so the SPA can ask for just that.
  app.get('/csrf-cookie', (c) => c.body(null, 204));

  app.get('/user', requireAuth(db), async (c) => {
    const signedIn = await signedInAnswer(db, c.var.auth.userId);
    if (!signedIn) return apiError(c, 401, 'auth.unauthenticated', MESSAGES.unauthenticated);
    return c.json(signedIn);
  });

  app.get('/institution-policies', requireAuth(db), async (c) => {
    return c.json({ data: await policyNames(db, c.var.auth.userId) });
  });

  return app;
}
