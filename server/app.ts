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
import type { Adapters } from './delivery/channel';
import type { DeliveryEngine } from './delivery/engine-contract';
import type { ProviderSimulator } from './delivery/simulator';
import { guardianAppRoutes } from './routes/guardian-app';
import { providerWebhookRoutes } from './routes/provider-webhook';

export interface CreateAppOptions {
  db: Db;
  /** The Vite build (index.html + assets). */
  distDir: string;
  config: ServerConfig;
  logger?: Logger;
  /** The attachment files; by default the directory of `config.attachmentsDir`. */
  store?: AttachmentStore;
  /**
   * The delivery engine, the channel adapters and the built-in provider simulator (server/delivery/setup.ts).
   * Without it messages are recorded but nothing is delivered: only tests of other areas build such an app.
   */
  delivery?: { engine: DeliveryEngine; adapters: Adapters; simulator: ProviderSimulator | null };
}

/** Records messages, delivers nothing: the engine of an app built without `delivery`. */
const NO_ENGINE: DeliveryEngine = {
  messageSent: async () => {},
  messageScheduled: async () => {},
  deliveriesQueued: async () => {},
};

/** Paths authenticated by a bearer token or a signature instead of cookies, so CSRF does not apply. */
const NO_CSRF = /^\/api\/(app|webhooks)\//;

/** JSON bodies of this API are small; uploads have their own 22 MB limit on their route. */
const API_BODY_LIMIT = 1024 * 1024;

export function createApp({
  db,
  distDir,
  config,
  logger = createLogger(config.log),
  store = new AttachmentStore(config.attachmentsDir),
  delivery,
}: CreateAppOptions): Hono<AppEnv> {
  const engine = delivery?.engine ?? NO_ENGINE;
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
  app.use('/api/*', (c, next) => (NO_CSRF.test(c.req.path) ? next() : csrfCheck(c, next)));

  const api = new Hono<AppEnv>();
  api.get('/health', (c) => c.json({ data: { ok: true } }));
  api.route('/', sessionRoutes(db, config));
  api.route('/courses', courseRoutes(db));
  api.route('/', composeReadRoutes(db));
  api.route('/messages', messageRoutes(db, store, engine));
  api.route('/attachments', attachmentRoutes(db, store));
  api.route('/quota', quotaRoutes(db));
  api.route('/webhooks/provider', providerWebhookRoutes(db, { secret: config.webhookSecret }));
  if (delivery) api.route('/app', guardianAppRoutes(db, { sms: delivery.adapters.sms }));
  api.all('*', notFound);
  app.route('/api', api);

  // The built-in SMS / WhatsApp provider (when no real one is configured), as a provider would expose it.
  if (delivery?.simulator) app.route('/sim/provider', delivery.simulator.routes);

  app.get('*', serveDist(distDir));
  app.notFound(notFound);

  app.onError((err, c) => {
    logger.error(`${c.req.method} ${c.req.path} falló`, err);
    return apiError(c, 500, 'server.error', MESSAGES.server);
  });

  return app;
}
