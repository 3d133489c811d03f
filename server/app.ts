// Builds the Hono app. No listening and no environment reads here, so tests can run it in-process or
// behind a real socket with their own database and settings.
//
// Routes are one file per resource under server/routes/, mounted below under /api. A handler only parses
// its input (server/http/params.ts, readJson) and answers (server/http/errors.ts); rules and SQL live in a
// domain module (server/compose, server/messages, server/delivery, server/storage…) that knows nothing of
// HTTP and returns an outcome the handler maps to a status. Signed-in routes start with `requireAuth(db)`;
// role-restricted ones add `requireRole(...ADMIN_ROLES)` (server/http/roles.ts, lists from shared/codes.ts).
// Everything is scoped to the user's school, and an id that is not theirs answers 404, never 403.
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { ServerConfig } from './config';
import type { Db } from './db/client';
import type { AppEnv } from './http/env';
import { clientIp } from './http/client-ip';
import { compressAnswers } from './http/compress';
import { apiError, MESSAGES, notFound } from './http/errors';
import { serverSecret } from './auth/secret';
import { createXsrf } from './auth/xsrf';
import { csrfCheck, ensureXsrfCookie, securityHeaders } from './http/security';
import { serveDist } from './http/static';
import { refuseBadText } from './http/text-guard';
import { createLogger, type Logger } from './log';
import { attachmentRoutes } from './routes/attachments';
import { auditRoutes } from './routes/audit';
import { channelRoutes } from './routes/channels';
import { courseRoutes } from './routes/courses';
import { dashboardConnectivityRoutes } from './routes/dashboard-connectivity';
import { messageRoutes } from './routes/messages';
import { newsCategoryRoutes } from './routes/news-categories';
import { newsRoutes } from './routes/news';
import { quotaRoutes } from './routes/quota';
import { dashboardActivityRoutes } from './routes/dashboard-activity';
import { rankingRoutes } from './routes/ranking';
import { recipientListRoutes } from './routes/recipient-lists';
import { recipientRoutes } from './routes/recipients';
import { passwordRoutes } from './routes/passwords';
import { sessionRoutes } from './routes/session';
import { setupRoutes } from './routes/setup';
import { schoolRoutes } from './routes/school';
import { retentionRoutes } from './routes/retention';
import { setupGate, setupState } from './setup/state';
import { signatureRoutes } from './routes/signatures';
import { invitationRoutes } from './routes/invitations';
import { ssoRoutes } from './routes/sso';
import { staffRoutes } from './routes/staff';
import { rosterRoutes } from './routes/roster';
import { peopleRoutes } from './routes/people';
import { privacyRoutes } from './routes/privacy';
import { privacyRequestRoutes } from './routes/privacy-requests';
import { accountMailer, type AccountMailer } from './staff/mail';
import { templateRoutes } from './routes/templates';
import { AttachmentStore } from './storage/attachments';
import type { Adapters } from './delivery/channel';
import type { DeliveryEngine } from './delivery/engine-contract';
import type { ProviderSimulator } from './delivery/simulator';
import { guardianAppRoutes } from './routes/guardian-app';
import { providerWebhookRoutes } from './routes/provider-webhook';
import { createInboundHandler } from './inbound/handler';
import { noticeSender } from './delivery/notice';
import { createOptOutHandler } from './opt-outs/handler';
import { metaWebhookRoutes } from './routes/meta-webhook';
import { twilioWebhookRoutes } from './routes/twilio-webhook';
import type { InboundHandler } from './inbound/contract';

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
  /** Account e-mails (invitations); by default through SMTP_URL or the outbox, as the e-mail channel sends. */
  mailer?: AccountMailer;
  /** Takes what families write through a provider's webhook; by default the inbound domain (server/inbound/handler.ts). */
  onInbound?: InboundHandler;
}

/** Records messages, delivers nothing: the engine of an app built without `delivery`. */
const NO_ENGINE: DeliveryEngine = {
  messageSent: async () => {},
  messageScheduled: async () => {},
  deliveriesQueued: async () => {},
};

/** Paths authenticated by a bearer token or a signature instead of cookies, so CSRF does not apply. */
const NO_CSRF = /^\/api\/(app|webhooks)\//;

/** A path as the log may keep it: an invitation link's token is a password until used (decision 0007). */
const loggedPath = (path: string): string => path.replace(/^(\/(?:api\/)?invitations?\/)[^/]+/, '$1…');

/** JSON bodies of this API are small; uploads have their own 22 MB limit on their route. */
const API_BODY_LIMIT = 1024 * 1024;

export function createApp({
  db,
  distDir,
  config,
  logger = createLogger(config.log),
  store = new AttachmentStore(config.attachmentsDir),
  delivery,
  mailer = accountMailer(config, logger),
  onInbound,
}: CreateAppOptions): Hono<AppEnv> {
  const engine = delivery?.engine ?? NO_ENGINE;
  // A family's opt-out word is answered through the same adapters the deliveries go by (a notice, not a delivery).
  const optOut = createOptOutHandler(db, { confirm: noticeSender(delivery?.adapters ?? null, logger), logger });
  const inbound = onInbound ?? createInboundHandler(db, { store, logger, optOut });
  const app = new Hono<AppEnv>();
  // CSRF tokens signed with HERMES_SECRET or the database's secret, read at the first request that needs it.
  const xsrf = createXsrf(serverSecret(db, config.secret));
  const csrf = csrfCheck(db, xsrf);
  // Until the install has a school, /setup is the only page (server/setup/state.ts).
  const setup = setupState(db);

  app.use('*', securityHeaders);
  app.use('*', async (c, next) => {
    c.set('ip', clientIp(c, config.trustProxy));
    await next();
  });
  app.use('*', ensureXsrfCookie(db, xsrf, config.trustProxy));
  app.use('*', async (c, next) => {
    const started = performance.now();
    await next();
    logger.debug(`${c.req.method} ${loggedPath(c.req.path)} ${c.res.status} ${(performance.now() - started).toFixed(1)} ms`);
  });

  // Inside the security headers and the CSRF cookie, which only add headers to the answer it sends.
  app.use('/api/*', compressAnswers);

  const jsonBodyLimit = bodyLimit({
    maxSize: API_BODY_LIMIT,
    onError: (c) => {
      // The rest of the body is never read, so this connection cannot carry another request: say so, or
      // the client reuses it and its next request fails as the server drops it.
      c.header('Connection', 'close');
      return apiError(c, 413, 'validation.failed', MESSAGES.tooLarge, { body: [MESSAGES.tooLarge] });
    },
  });
  const isUpload = (c: Context) =>
    (c.req.method === 'POST' && (c.req.path === '/api/attachments' || c.req.path === '/api/roster/imports')) ||
    (c.req.method === 'PUT' && c.req.path === '/api/school/logo');
  // Uploads have their own limits on their routes (server/routes/attachments.ts, school.ts, roster.ts).
  app.use('/api/*', (c, next) => (isUpload(c) ? next() : jsonBodyLimit(c, next)));
  app.use('/api/*', (c, next) => (NO_CSRF.test(c.req.path) ? next() : csrf(c, next)));
  // Once, before any route reads its input. An upload is checked on its route, after its size limit:
  // reading it here would read a body of any size. Meta's webhook cleans what it hands on itself: a 422
  // for a family's stray control character would have Meta post it again for days.
  // The same for what a gateway brings from families (server/delivery/provider-inbound.ts).
  const cleansOwnText = (c: Context) =>
    isUpload(c) || c.req.path.startsWith('/api/webhooks/meta/') || /^\/api\/webhooks\/(provider|twilio)\/[^/]+\/incoming$/.test(c.req.path);
  app.use('/api/*', async (c, next) => {
    if (!cleansOwnText(c)) return refuseBadText(c, next);
    // Read all the same (within the JSON limit; Hono keeps the bytes for the route): a route that answers
    // before reading, as a 404 for a channel it does not serve, would leave the body in the connection, and
    // the client's next request on it would fail.
    if (!isUpload(c) && c.req.raw.body) await c.req.arrayBuffer().catch(() => undefined);
    return next();
  });

  const api = new Hono<AppEnv>();
  api.get('/health', (c) => c.json({ data: { ok: true } }));
  api.route('/', sessionRoutes(db, config, xsrf));
  api.route('/staff', staffRoutes(db, mailer));
  api.route('/roster', rosterRoutes(db, logger));
  api.route('/people', peopleRoutes(db));
  api.route('/audit', auditRoutes(db));
  // A person's data (access); the erasure routes are mounted at the same prefix.
  api.route('/privacy', privacyRoutes(db, store));
  api.route('/privacy', privacyRequestRoutes(db, { store, outboxDir: config.outboxDir }));
  api.route('/invitations', invitationRoutes(db, config, xsrf));
  api.route('/', passwordRoutes(db, config, logger));
  api.route('/setup', setupRoutes(db, config, xsrf, setup));
  api.route('/sso', ssoRoutes(db, config, xsrf));
  api.route('/courses', courseRoutes(db));
  api.route('/', channelRoutes(db));
  api.route('/recipients', recipientRoutes(db));
  api.route('/recipient-lists', recipientListRoutes(db));
  api.route('/institutions-signatures', signatureRoutes(db));
  api.route('/templates', templateRoutes(db));
  api.route('/quota', quotaRoutes(db));
  api.route('/school', schoolRoutes(db));
  api.route('/retention', retentionRoutes(db));
  // Before /dashboard: its own admin check and 403 text answer for the connectivity routes.
  api.route('/dashboard/connectivity', dashboardConnectivityRoutes(db));
  api.route('/dashboard', dashboardActivityRoutes(db));
  api.route('/ranking', rankingRoutes(db));
  // Also /messages/drafts, estimate, send, schedule and /:id/reception (mounted inside, under its requireAuth).
  api.route('/messages', messageRoutes(db, store, engine));
  api.route('/attachments', attachmentRoutes(db, store));
  // The news wall: device latam only, managers for changes (server/routes/news*.ts).
  api.route('/news', newsRoutes(db, store, config));
  api.route('/news-categories', newsCategoryRoutes(db));
  api.route(
    '/webhooks/provider',
    providerWebhookRoutes(db, {
      secret: config.webhookSecret,
      logger,
      onInbound: inbound,
      credentials: {
        sms: { url: config.smsProvider?.url ?? null, token: config.smsProvider?.token ?? '' },
        whatsapp: { url: config.whatsappProvider?.url ?? null, token: config.whatsappProvider?.token ?? '' },
      },
    }),
  );
  if (config.metaWhatsapp)
    api.route('/webhooks/meta/whatsapp', metaWebhookRoutes(db, { config: config.metaWhatsapp, onInbound: inbound, logger }));
  if (config.twilio) {
    api.route(
      '/webhooks/twilio',
      twilioWebhookRoutes(db, { settings: config.twilio, publicUrl: config.publicUrl, onInbound: inbound, logger }),
    );
  }
  if (delivery) api.route('/app', guardianAppRoutes(db, { sms: delivery.adapters.sms, config, store }));
  api.all('*', notFound);
  app.route('/api', api);

  // The built-in SMS / WhatsApp provider (when no real one is configured), as a provider would expose it.
  if (delivery?.simulator) app.route('/sim/provider', delivery.simulator.routes);

  app.get('*', setupGate(setup), serveDist(distDir));
  app.notFound(notFound);

  app.onError((err, c) => {
    logger.error(`${c.req.method} ${loggedPath(c.req.path)} falló`, err);
    return apiError(c, 500, 'server.error', MESSAGES.server);
  });

  return app;
}
