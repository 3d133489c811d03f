// SCAFFOLD (issue 5, in progress): status webhook of the SMS / WhatsApp providers. Replaced by its real body.
import { Hono } from 'hono';
import type { Db } from '../db/client';
import type { AppEnv } from '../http/env';

export function providerWebhookRoutes(_db: Db, _options: { secret: string }): Hono<AppEnv> {
  return new Hono<AppEnv>();
}
