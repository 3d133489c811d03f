// SCAFFOLD (issue 5, in progress): reception status view and "retry failed". Replaced by its real body.
// Mounted inside messageRoutes (server/routes/messages.ts), whose requireAuth covers it.
import { Hono } from 'hono';
import type { Db } from '../db/client';
import type { DeliveryEngine } from '../delivery/engine-contract';
import type { AppEnv } from '../http/env';

export function receptionRoutes(_db: Db, _engine: DeliveryEngine): Hono<AppEnv> {
  return new Hono<AppEnv>();
}
