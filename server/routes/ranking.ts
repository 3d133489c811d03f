// `GET /ranking/courses` and `GET /ranking/users`, for the admin roles only (shared/dashboard-contract.ts;
// rules and SQL in server/dashboard/ranking.ts).
import { Hono } from 'hono';
import { ADMIN_ROLES } from '../../shared/codes';
import type { Db } from '../db/client';
import { ACTIVITY_MESSAGES } from '../dashboard/activity';
import { parseCourseRankingQuery, parseUserRankingQuery, readCourseRanking, readUserRanking } from '../dashboard/ranking';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/env';
import { invalid } from '../http/errors';
import { requireRole } from '../http/roles';

export function rankingRoutes(db: Db): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('*', requireAuth(db), requireRole(...ADMIN_ROLES).withMessage(ACTIVITY_MESSAGES.forbidden));
  app.get('/courses', async (c) => {
    const query = parseCourseRankingQuery(c.req.query());
    if (!query.ok) return invalid(c, query.errors);
    return c.json({ data: await readCourseRanking(db, c.var.auth.institutionId, query.value) });
  });
  app.get('/users', async (c) => {
    const query = parseUserRankingQuery(c.req.query());
    if (!query.ok) return invalid(c, query.errors);
    return c.json({ data: await readUserRanking(db, c.var.auth.institutionId, query.value) });
  });
  return app;
}
