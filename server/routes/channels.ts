// Channels: what the school contracted (`GET /channels`) and what the signed-in user may send through
// (`GET /communication-permission/user`). The rules live in server/compose/channels.ts.
import { Hono } from 'hono';
import { COMPOSE_API } from '../../shared/compose-contract';
import { schoolChannels, toChannels, toPermission, userChannels } from '../compose/channels';
import type { Db } from '../db/client';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/env';

/** Mounted at the API root (the two paths share no prefix), hence auth per route rather than `use('*')`. */
export function channelRoutes(db: Db): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireAuth(db);

  app.get(COMPOSE_API.channels, auth, async (c) => {
    return c.json({ data: toChannels(await schoolChannels(db, c.var.auth.institutionId)) });
  });

  app.get(COMPOSE_API.permissions, auth, async (c) => {
    return c.json({ data: toPermission(await userChannels(db, c.var.auth.userId)) });
  });

  return app;
}
