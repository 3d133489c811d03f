// Hono environment shared by middleware and routes.
import type { Tenant } from './tenant';

export interface AuthContext {
  sessionId: number;
  userId: number;
  institutionId: number;
  /** Role codes of the user (`user_roles.code`), as of this request; `requireRole` checks them. */
  roles: readonly string[];
}

export interface AppEnv {
  Variables: {
    /** Set by `requireAuth`; absent on public routes. */
    auth: AuthContext;
    /** Query scoping for the signed-in user's school; set by `requireAuth`. */
    tenant: Tenant;
  };
}
