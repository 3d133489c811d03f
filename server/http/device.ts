// `requireDevice`: lets through a signed-in user whose `users.device` is the given one, or answers 403
// `news.device` (SPEC §1: the news wall is for users whose device is latam). It goes after `requireAuth`;
// the device is read per request (one indexed row), so a change applies at once, like roles.
import { eq } from 'drizzle-orm';
import type { MiddlewareHandler } from 'hono';
import { NEWS_TEXTS } from '../../shared/news-contract';
import type { Queryable } from '../db/client';
import { users } from '../db/schema/auth';
import type { AppEnv } from './env';
import { apiError } from './errors';

export function requireDevice(db: Queryable, device: 'latam'): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const auth = c.get('auth');
    if (!auth) throw new Error(`requireDevice sin requireAuth en ${c.req.method} ${c.req.path}`);
    const [row] = await db.select({ device: users.device }).from(users).where(eq(users.id, auth.userId));
    if (row?.device !== device) return apiError(c, 403, 'news.device', NEWS_TEXTS.device);
    await next();
  };
}
