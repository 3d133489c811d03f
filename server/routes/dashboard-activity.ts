// `GET /dashboard/users` (staff activity) and `GET /dashboard/summary` (the activity summary), for the admin
// roles only (shared/dashboard-contract.ts; rules and SQL in server/dashboard/activity.ts). Mounted on
// /dashboard beside the connectivity routes, which are another file's.
import { Hono } from 'hono';
import { ADMIN_ROLES } from '../../shared/codes';
import type { Db } from '../db/client';
import {
  ACTIVITY_MESSAGES,
  parseStaffActivityQuery,
  parseSummaryQuery,
  readActivitySummary,
  readStaffActivity,
} from '../dashboard/activity';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/env';
import { apiError, invalid } from '../http/errors';
import { requireRole } from '../http/roles';

export function dashboardActivityRoutes(db: Db): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('/users', requireAuth(db), requireRole(...ADMIN_ROLES).withMessage(ACTIVITY_MESSAGES.forbidden));
  app.use('/summary', requireAuth(db), requireRole(...ADMIN_ROLES).withMessage(ACTIVITY_MESSAGES.forbidden));
  app.get('/users', async (c) => {
    const query = parseStaffActivityQuery(c.req.query());
    if (!query.ok) return invalid(c, query.errors);
    const activity = await readStaffActivity(db, c.var.auth.institutionId, query.value);
    return activity ? c.json({ data: activity }) : apiError(c, 404, 'not_found', ACTIVITY_MESSAGES.positionNotFound);
  });
  app.get('/summary', async (c) => {
    const query = parseSummaryQuery(c.req.query());
    if (!query.ok) return invalid(c, query.errors);
    return c.json({ data: await readActivitySummary(db, c.var.auth.institutionId, query.value.year) });
  });
  return app;
}
