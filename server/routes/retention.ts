// Per-school retention (shared/retention-contract.ts): `GET /retention` (periods and what the next sweep
// removes, and when) and `PUT /retention` (all the periods at once), for the admin roles of the signed-in
// user's own school. Rules in server/retention/settings.ts.
import { Hono } from 'hono';
import { ADMIN_ROLES } from '../../shared/codes';
import { auditActorOf } from '../http/audit-actor';
import type { Db } from '../db/client';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/env';
import { invalid, readJson } from '../http/errors';
import { requireRole } from '../http/roles';
import { changeRetention, schoolRetention } from '../retention/settings';

const FORBIDDEN = 'Solo la dirección y los administradores del colegio pueden ver y cambiar cuánto tiempo se guardan los datos.';

export function retentionRoutes(db: Db): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const guard = [requireAuth(db), requireRole(...ADMIN_ROLES).withMessage(FORBIDDEN)] as const;

  app.get('/', ...guard, async (c) => c.json({ data: await schoolRetention(db, c.var.auth.institutionId) }));

  app.put('/', ...guard, async (c) => {
    const change = await changeRetention(db, auditActorOf(c), c.var.auth.institutionId, await readJson(c));
    return change.ok ? c.json({ data: change.settings }) : invalid(c, change.errors);
  });

  return app;
}
