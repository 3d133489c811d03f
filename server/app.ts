// Builds the Hono app. No listening and no environment reads here, so tests can run it in-process or
// behind a real socket with their own database and settings.
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { ServerConfig } from './config';
import type { Db } from './db/client';
import type { AppEnv } from './http/env';
import { apiError, MESSAGES, notFound } from './http/errors';
import { csrfCheck, ensureXsrfCookie, securityHeaders } from './http/security';
import { serveDist } from './http/static';
import { createLogger, type Logger } from './log';
import { composeReadRoutes } from './routes/compose-read';
import { courseRoutes } from './routes/courses';
import { quotaRoutes } from './routes/compose';
import { attachmentRoutes, messageRoutes } from './routes/messages';
import { AttachmentStore } from './storage/attachments';
import { sessionRoutes } from './routes/session';

export interface CreateAppOptions {
  db: Db;
  /** The Vite build (index.html + assets). */
  distDir: string;
  config: ServerConfig;
  logger?: Logger;
  /** The attachment files; by default the directory of `config.attachmentsDir`. */
  store?: AttachmentStore;
}

/** JSON bodies of this API are small; uploads have their own 22 MB limit on their route. */
const API_BODY_LIMIT = 1024 * 1024;

export function createApp({
  db,
  distDir,
  config,
  logger = createLogger(config.log),
  store = new AttachmentStore(config.attachmentsDir),
}: CreateAppOptions): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.use('*', securityHeaders);
  app.use('*', ensureXsrfCookie(config.trustProxy));
  app.use('*', async (c, next) => {
    const started = performance.now();
    await next();
    logger.debug(`${c.req.method} ${c.req.path} ${c.res.status} ${(performance.now() - started).toFixed(1)} ms`);
  });

  const jsonBodyLimit = bodyLimit({
    maxSize: API_BODY_LIMIT,
    onError: (c) => apiError(c, 413, 'validation.failed', MESSAGES.tooLarge, { body: [MESSAGES.tooLarge] }),
  });
  // Uploads have their own 22 MB limit on their route (server/routes/messages.ts).
  app.use('/api/*', (c, next) =>
    c.req.method === 'POST' && c.req.path === '/api/attachments' ? next() : jsonBodyLimit(c, next),
  );
  app.use('/api/*', csrfCheck);

  const api = new Hono<AppEnv>();
  api.get('/health', (c) => c.json({ data: { ok: true } }));
  api.route('/', sessionRoutes(db, config));
  api.route('/courses', courseRoutes(db));
  api.route('/', composeReadRoutes(db));
  api.route('/messages', messageRoutes(db, store));
  api.route('/attachments', attachmentRoutes(db, store));
  api.route('/quota', quotaRoutes(db));
  api.all('*', notFound);
  app.route('/api', api);

  app.get('*', serveDist(distDir));
  app.notFound(notFound);

  app.onError((err, c) => {
    logger.error(`${c.req.method} ${c.req.path} falló`, err);
    return apiError(c, 500, 'server.error', MESSAGES.server);
  });

  return app;
}
