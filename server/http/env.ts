// Hono environment shared by middleware and routes.
import type { XsrfBinding } from '../auth/xsrf';
import type { Tenant } from './tenant';

interface AuthContext {
  sessionId: number;
  /** When the session began (epoch ms): with the id, what its CSRF token is bound to. */
  sessionStartedAt: number;
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
    /** The session this request's auth cookies name, once the CSRF middleware looked it up (null: none). */
    xsrfBinding: XsrfBinding | undefined;
    /** The caller's address (server/http/client-ip.ts), set for every request: the audit log records it. */
    ip: string;
  };
}
