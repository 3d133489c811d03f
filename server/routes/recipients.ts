// The recipient picker's data (`GET /recipients`): the school's levels, courses, electives, students with
// their guardians, cargos and colleagues; and those levels and groups alone (`GET /recipients/courses`).
// Built by server/recipients/directory.ts.
import { Hono } from 'hono';
import { etag } from 'hono/etag';
import { loadRecipientGroups, loadRecipients } from '../recipients/directory';
import type { Db } from '../db/client';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/env';

export function recipientRoutes(db: Db): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  // The picker's data is large and changes rarely: an ETag lets the browser revalidate it with a 304.
  app.get('/', requireAuth(db), etag(), async (c) => {
    const data = await loadRecipients(db, c.var.auth.institutionId);
    c.header('Cache-Control', 'private, no-cache');
    return c.json({ data });
  });

  app.get('/courses', requireAuth(db), etag(), async (c) => {
    const data = await loadRecipientGroups(db, c.var.auth.institutionId);
    c.header('Cache-Control', 'private, no-cache');
    return c.json({ data });
  });

  return app;
}
