// `GET /quota`: the school's SMS quota of this month and its e-mail / WhatsApp balances
// (server/quota/balance.ts), for every signed-in user (compose reads it). `GET/PATCH /quota/settings` and
// `GET /quota/usage` are the settings screen's, for the admin roles only (server/quota/).
import { auditActorOf } from '../http/audit-actor';
import { Hono } from 'hono';
import { ADMIN_ROLES } from '../../shared/codes';
import { readQuota } from '../quota/balance';
import type { Db } from '../db/client';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/env';
import { invalid, readJson } from '../http/errors';
import { requireRole } from '../http/roles';
import { parseQuotaSettingsInput, QUOTA_MESSAGES, readQuotaSettings, updateQuotaSettings } from '../quota/settings';
import { parseUsageQuery, readQuotaUsage } from '../quota/usage';

export function quotaRoutes(db: Db): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('*', requireAuth(db));
  app.get('/', async (c) => c.json({ data: await readQuota(db, c.var.auth.institutionId) }));

  const admin = requireRole(...ADMIN_ROLES).withMessage(QUOTA_MESSAGES.forbidden);
  app.get('/settings', admin, async (c) => c.json({ data: await readQuotaSettings(db, c.var.auth.institutionId) }));
  app.patch('/settings', admin, async (c) => {
    const input = parseQuotaSettingsInput(await readJson(c));
    if (!input.ok) return invalid(c, input.errors);
    const outcome = await updateQuotaSettings(db, c.var.auth.institutionId, input.value, auditActorOf(c));
    return outcome.ok ? c.json({ data: outcome.settings }) : invalid(c, outcome.errors);
  });
  app.get('/usage', admin, async (c) => {
    const query = parseUsageQuery(c.req.query());
    if (!query.ok) return invalid(c, query.errors);
    return c.json({ data: await readQuotaUsage(db, c.var.auth.institutionId, query.value) });
  });
  return app;
}
