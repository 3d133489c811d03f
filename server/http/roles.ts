// `requireRole`: lets through a signed-in user holding at least one of the given roles, or answers 403
// `auth.forbidden`. It goes after `requireAuth` (which answers 401 first and loads the roles with the
// session, so this check runs no query). Role lists come from shared/codes.ts (ADMIN_ROLES, NEWSFEED_ROLES…),
// the same lists the SPA's route guards use.
//
//   app.use('*', requireAuth(db), requireRole(...ADMIN_ROLES));
//   app.patch('/:id', requireRole(...ADMIN_ROLES).withMessage('No tienes permiso para modificar …'), handler);
import type { MiddlewareHandler } from 'hono';
import { hasAnyRole, type RoleCode } from '../../shared/codes';
import type { AppEnv } from './env';
import { apiError, MESSAGES } from './errors';

export interface RoleGuard extends MiddlewareHandler<AppEnv> {
  /** The same check, answering `message` (what the user may not do, in Spanish) instead of the generic text. */
  withMessage(message: string): MiddlewareHandler<AppEnv>;
}

export function requireRole(...roles: RoleCode[]): RoleGuard {
  if (roles.length === 0) throw new Error('requireRole: indica al menos un rol');
  const guard =
    (message: string): MiddlewareHandler<AppEnv> =>
    async (c, next) => {
      // Without requireAuth in front there are no roles to check: a wiring mistake, not a user's fault.
      const auth = c.get('auth');
      if (!auth) throw new Error(`requireRole sin requireAuth en ${c.req.method} ${c.req.path}`);
      if (!hasAnyRole(auth.roles, roles)) return apiError(c, 403, 'auth.forbidden', message);
      await next();
    };
  return Object.assign(guard(MESSAGES.forbidden), { withMessage: guard });
}
