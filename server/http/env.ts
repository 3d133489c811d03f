// Hono environment shared by middleware and routes.
import type { Tenant } from './tenant';

export interface AuthContext {
  sessionId: number;
  userId: number;
  institutionId: number;
}

export interface AppEnv {
  Variables: {
    /** Set by `requireAuth`; absent on public routes. */
    auth: AuthContext;
    /** Query scoping for the signed-in user's school; set by `requireAuth`. */
    tenant: Tenant;
  };
}
