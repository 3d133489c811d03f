// Staff single sign-on (shared/sso-contract.ts): the school's provider settings for its administrators,
// the providers the login page offers, and the two browser routes of the flow, leaving for the provider
// and coming back, which end on a signed-in page or on /login with the refusal's code. Rules and SQL:
// server/sso/.
import { Hono, type Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { STAFF_ADMIN_ROLES } from '../../shared/codes';
import { COOKIE } from '../../shared/contract';
import { SSO_PROVIDERS, SSO_REFUSAL_PARAM, type SsoProvider, type SsoRefusal } from '../../shared/sso-contract';
import { openSession, recordFailedSignIn } from '../auth/login';
import { hit, rateLimits } from '../auth/rate-limit';
import type { Xsrf } from '../auth/xsrf';
import type { ServerConfig } from '../config';
import type { Db } from '../db/client';
import { requireAuth } from '../http/auth';
import { clientIp } from '../http/client-ip';
import { setAuthCookies, setSsoStateCookie, setXsrfCookie, takeSsoStateCookie } from '../http/cookies';
import type { AppEnv } from '../http/env';
import { invalid, readJson } from '../http/errors';
import { requireRole } from '../http/roles';
import { begin, finish } from '../sso/flow';
import { enabledProviders, readSettings, writeSettings, type SsoScope } from '../sso/settings';
import { SSO_MESSAGES } from '../sso/texts';

const scopeOf = (c: Context<AppEnv>): SsoScope => ({ userId: c.var.auth.userId, institutionId: c.var.auth.institutionId, ip: c.var.ip });
const isProvider = (value: unknown): value is SsoProvider => (SSO_PROVIDERS as readonly unknown[]).includes(value);
// Loose, as the login's: only a hint to pick the school and prefill the provider's form.
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function ssoRoutes(db: Db, config: ServerConfig, xsrf: Xsrf): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const admin = [requireAuth(db), requireRole(...STAFF_ADMIN_ROLES).withMessage(SSO_MESSAGES.forbidden)] as const;
  const { ssoIp } = rateLimits(config);

  /** Back to the login page, which says why. */
  const refused = (c: Context<AppEnv>, why: SsoRefusal) => c.redirect(`/login?${SSO_REFUSAL_PARAM}=${why}`, 302);
  /** Counts the request against the IP's limit: true when over it. */
  const throttled = async (c: Context<AppEnv>) => (await hit(db, ssoIp, clientIp(c, config.trustProxy), new Date())) > 0;

  app.get('/settings', ...admin, async (c) => c.json({ data: await readSettings(db, scopeOf(c), config.publicUrl) }));

  app.put('/settings', ...admin, async (c) => {
    const saved = await writeSettings(db, scopeOf(c), await readJson(c), config.publicUrl);
    return saved.kind === 'invalid' ? invalid(c, saved.errors) : c.json({ data: saved.settings });
  });

  // Open to anyone: which buttons the login page shows, never which schools.
  app.get('/providers', async (c) => c.json({ data: await enabledProviders(db) }));

  app.get('/start', async (c) => {
    if (await throttled(c)) return refused(c, 'throttled');
    const provider = c.req.query('provider');
    if (!isProvider(provider)) return refused(c, 'unavailable');
    const email = c.req.query('email')?.trim().toLowerCase() ?? '';
    const started = await begin(db, config.publicUrl, provider, email.length <= 254 && EMAIL_RE.test(email) ? email : null);
    if (started.kind === 'refused') return refused(c, started.why);
    setSsoStateCookie(c, started.state, config.trustProxy);
    return c.redirect(started.url, 302);
  });

  app.get('/callback', async (c) => {
    const cookieState = takeSsoStateCookie(c, config.trustProxy);
    if (await throttled(c)) return refused(c, 'throttled');
    const finished = await finish(db, config.publicUrl, new URL(c.req.url).search, cookieState);
    if (finished.kind === 'refused') {
      await recordFailedSignIn(db, { institutionId: finished.institutionId ?? null, ip: c.var.ip }, null, finished.why, 'sso');
      return refused(c, finished.why);
    }
    const outcome = await openSession(db, config, finished.userId, {
      method: 'sso',
      ip: clientIp(c, config.trustProxy),
      userAgent: c.req.header('user-agent') ?? null,
      previous: { access: getCookie(c, COOKIE.session), refresh: getCookie(c, COOKIE.refresh) },
    });
    if (outcome.kind === 'policy_missing') return refused(c, 'no_access');
    // The same cookies as `POST /login`: the app opens signed in from them (its session-cookie check).
    setAuthCookies(c, outcome.tokens, config, config.trustProxy);
    setXsrfCookie(c, await xsrf.issue(outcome.tokens.session), config.trustProxy);
    return c.redirect('/', 302);
  });

  return app;
}
