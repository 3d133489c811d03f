// The first start (shared/setup-contract.ts): `GET /setup` says whether the install still needs its first
// school; `POST /setup` creates it with its administrator (server/setup/setup.ts) and signs them in as a
// login does. Signed out by nature; CSRF applies as to every POST (the page fetches its cookie first).
import { Hono } from 'hono';
import type { SignedIn, TokenTimes } from '../../shared/contract';
import type { SetupStatus } from '../../shared/setup-contract';
import { rateLimits } from '../auth/rate-limit';
import { loadSignedInUser, policyNames } from '../auth/users';
import type { Xsrf } from '../auth/xsrf';
import type { ServerConfig } from '../config';
import type { Db } from '../db/client';
import { clientIp } from '../http/client-ip';
import { setAuthCookies, setXsrfCookie } from '../http/cookies';
import type { AppEnv } from '../http/env';
import { apiError, invalid, MESSAGES, readJson } from '../http/errors';
import { openSetupSession } from '../setup/session';
import { runSetup } from '../setup/setup';
import type { SetupState } from '../setup/state';

const SETUP_DONE = 'Hermes ya está configurado: inicia sesión con tu cuenta.';
const throttled = (seconds: number) =>
  `Demasiados códigos de configuración incorrectos. Inténtalo de nuevo en ${seconds} ${seconds === 1 ? 'segundo' : 'segundos'}.`;

export function setupRoutes(db: Db, config: ServerConfig, xsrf: Xsrf, state: SetupState): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const { setupCodeIp } = rateLimits(config);

  app.get('/', async (c) => {
    const data: SetupStatus = { needed: await state.needed() };
    return c.json({ data });
  });

  app.post('/', async (c) => {
    const ip = clientIp(c, config.trustProxy);
    const outcome = await runSetup(db, setupCodeIp, await readJson(c), ip);
    if (outcome.kind === 'done') return apiError(c, 410, 'setup.done', SETUP_DONE);
    if (outcome.kind === 'throttled') {
      c.header('Retry-After', String(outcome.waitS));
      return apiError(c, 429, 'auth.throttled', throttled(outcome.waitS));
    }
    if (outcome.kind === 'invalid') return invalid(c, outcome.errors);
    const tokens = await openSetupSession(db, config, outcome, { userAgent: c.req.header('user-agent') ?? null, ip });
    setAuthCookies(c, tokens, config, config.trustProxy);
    setXsrfCookie(c, await xsrf.issue(tokens.session), config.trustProxy);
    const [user, policies] = await Promise.all([loadSignedInUser(db, outcome.userId), policyNames(db, outcome.userId)]);
    if (!user) return apiError(c, 500, 'server.error', MESSAGES.server);
    const data: TokenTimes = { token_expires_at: tokens.accessExpiresAt.getTime(), refresh_expires_at: tokens.refreshExpiresAt.getTime() };
    const signedIn: SignedIn = { user, policies };
    return c.json({ data, ...signedIn });
  });

  return app;
}
