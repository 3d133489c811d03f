// The school's own settings (shared/school-contract.ts): `GET /school` and `PATCH /school`, for the admin
// roles. Always the signed-in user's own school, so there is no id to be foreign. Rules in
// server/schools/settings.ts.
import { Hono } from 'hono';
import { ADMIN_ROLES } from '../../shared/codes';
import type { Db } from '../db/client';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/env';
import { invalid, notFound, readJson } from '../http/errors';
import { requireRole } from '../http/roles';
import { changeSchoolSettings, schoolSettings } from '../schools/settings';

const FORBIDDEN = 'Solo la dirección y los administradores del colegio pueden ver y cambiar su configuración.';

export function schoolRoutes(db: Db): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const guard = [requireAuth(db), requireRole(...ADMIN_ROLES).withMessage(FORBIDDEN)] as const;

  app.get('/', ...guard, async (c) => {
    const settings = await schoolSettings(db, c.var.auth.institutionId);
    return settings ? c.json({ data: settings }) : notFound(c);
  });

  app.patch('/', ...guard, async (c) => {
    const change = await changeSchoolSettings(db, c.var.auth.institutionId, await readJson(c));
    if (change.ok) return c.json({ data: change.settings });
    return 'errors' in change ? invalid(c, change.errors) : notFound(c);
  });

  return app;
}
