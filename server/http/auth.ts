// `requireAuth`: resolves the access-token cookie to a live session, or answers 401. Downstream handlers
// get `c.var.auth` and a `c.var.tenant` scoped to the user's school.
import type { MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { COOKIE } from '../../shared/contract';
import { deleteSessionById, findActiveSession } from '../auth/sessions';
import type { Db } from '../db/client';
import type { AppEnv } from './env';
import { apiError, MESSAGES } from './errors';
import { Tenant } from './tenant';

export function requireAuth(db: Db): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = getCookie(c, COOKIE.session);
    const session = token ? await findActiveSession(db, token) : null;
    if (!session) return apiError(c, 401, 'auth.unauthenticated', MESSAGES.unauthenticated);
    if (!session.hasAccess) {
      // SPEC §6: without hermes-acceder-sistema the user is signed out, also when it is revoked mid-session.
      await deleteSessionById(db, session.sessionId);
      return apiError(c, 401, 'auth.unauthenticated', MESSAGES.unauthenticated);
    }
    const { sessionId, sessionStartedAt, userId, institutionId, roles } = session;
    c.set('auth', { sessionId, sessionStartedAt, userId, institutionId, roles });
    c.set('tenant', new Tenant(session.institutionId));
    await next();
  };
}
