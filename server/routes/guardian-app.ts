// SCAFFOLD (issue 5, in progress): the guardian app API. Replaced by its real body.
import { Hono } from 'hono';
import type { Db } from '../db/client';
import type { AppEnv } from '../http/env';
import type { ChannelAdapter } from '../delivery/channel';

export interface GuardianAppOptions {
  /** Sends the sign-in code by SMS (the server's SMS adapter). */
  sms: ChannelAdapter;
}

export function guardianAppRoutes(_db: Db, _options: GuardianAppOptions): Hono<AppEnv> {
  return new Hono<AppEnv>();
}
