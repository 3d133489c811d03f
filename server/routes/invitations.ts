// The invitation page's calls (shared/staff-contract.ts), open without a session: who a link invites, and
// accepting it with a password, which signs the person in as `POST /login` does. A link no one was sent is a
// 404; a link expired, used or revoked is a 410 that says which, in Spanish. Rules: server/staff/invitations.ts.
import { Hono, type Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { COOKIE } from '../../shared/contract';
import { openSession } from '../auth/login';
import type { Xsrf } from '../auth/xsrf';
import type { ServerConfig } from '../config';
import type { Db } from '../db/client';
import { clientIp } from '../http/client-ip';
import type { AppEnv } from '../http/env';
import { apiError, invalid, MESSAGES, readJson } from '../http/errors';
import { acceptInvitation, readInvitation, type UnusableLink } from '../staff/invitations';
import { STAFF_MESSAGES } from '../staff/texts';
import { answerSignIn } from './session';

/** Why a link cannot be used, answered. */
function unusable(c: Context<AppEnv>, why: UnusableLink): Response {
  switch (why) {
    case 'unknown':
      return apiError(c, 404, 'not_found', STAFF_MESSAGES.invitationUnknown);
    case 'expired':
      return apiError(c, 410, 'invitation.expired', STAFF_MESSAGES.invitationExpired);
    case 'used':
      return apiError(c, 410, 'invitation.used', STAFF_MESSAGES.invitationUsed);
    case 'revoked':
      return apiError(c, 410, 'invitation.revoked', STAFF_MESSAGES.invitationRevoked);
  }
}

export function invitationRoutes(db: Db, config: ServerConfig, xsrf: Xsrf): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get('/:token', async (c) => {
    const found = await readInvitation(db, c.req.param('token'));
    return found.kind === 'ok' ? c.json({ data: found.info }) : unusable(c, found.kind);
  });

  app.post('/:token/accept', async (c) => {
    const accepted = await acceptInvitation(db, c.req.param('token'), await readJson(c));
    if (accepted.kind === 'invalid') return invalid(c, accepted.errors);
    if (accepted.kind !== 'accepted') return unusable(c, accepted.kind);
    const outcome = await openSession(db, config, accepted.userId, {
      method: 'invitation',
      ip: clientIp(c, config.trustProxy),
      userAgent: c.req.header('user-agent') ?? null,
      previous: { access: getCookie(c, COOKIE.session), refresh: getCookie(c, COOKIE.refresh) },
    });
    if (outcome.kind === 'policy_missing') return apiError(c, 403, 'auth.policy_missing', MESSAGES.policyMissing);
    return answerSignIn(c, { db, config, xsrf }, outcome);
  });

  return app;
}
