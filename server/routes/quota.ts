// `GET /quota`: the school's SMS quota of this month and its e-mail / WhatsApp balances
// (server/compose/quota.ts).
import { Hono } from 'hono';
import { readQuota } from '../compose/quota';
import type { Db } from '../db/client';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/env';

export function quotaRoutes(db: Db): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('*', requireAuth(db));
  app.get('/', async (c) => c.json({ data: await readQuota(db, c.var.auth.institutionId) }));
  return app;
}
