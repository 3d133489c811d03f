// Builds the delivery side of a server process from its settings: channel adapters, the built-in provider
// simulator (when SMS or WhatsApp has no real provider) and the queue engine. main.ts, worker.ts and the
// tests all go through here, so they run the same engine.
import { randomBytes } from 'node:crypto';
import type { Agent } from 'node:https';
import type { ServerConfig } from '../config';
import type { DbHandle } from '../db/client';
import type { Logger } from '../log';
import type { AttachmentStore } from '../storage/attachments';
import { vapidKeys } from '../push/keys';
import { createPushSender } from '../push/send';
import { installLinkUrl } from '../app-api/install-link';
import { removeGoneEndpoints } from '../push/subscriptions';
import { whatsappWindowOpenUntil } from '../inbound/window';
import { buildAdapters } from './adapters';
import type { WindowLookup } from './meta/send';
import type { Adapters } from './channel';
import { createEngine, type Engine, type EngineOptions } from './engine';
import { createProviderSimulator, type ProviderSimulator } from './simulator';

export interface Delivery {
  engine: Engine;
  adapters: Adapters;
  simulator: ProviderSimulator | null;
  /**
   * The app's own fetch, for the simulator's status reports (in-process: no port needed). Must be called
   * before `start`.
   */
  bindApp(fetch: (request: Request) => Response | Promise<Response>): void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface DeliveryOptions {
  handle: DbHandle;
  config: ServerConfig;
  logger: Logger;
  store: AttachmentStore;
  /**
   * Tests: fetch more often, sweep faster, shorter leases and deadlines; `recoverActive: false` for a second
   * engine on the same PGlite, which plays another process.
   */
  engine?: Partial<
    Pick<EngineOptions, 'sweepEveryMs' | 'attemptDeadlineMs' | 'leaseMs' | 'heartbeatMs' | 'reclaimEveryMs' | 'recoverActive'>
  >;
  random?: () => number;
  /** Tests: the agent that trusts the local push service's certificate. */
  pushAgent?: Agent;
  /** Whether a family's WhatsApp window is open, for Meta's and Twilio's adapters (server/delivery/meta/send.ts); by default the families' recorded messages (server/inbound/window.ts). */
  whatsappWindow?: WindowLookup;
}

export function createDelivery({
  handle,
  config,
  logger,
  store,
  engine: tuning,
  random,
  pushAgent,
  whatsappWindow,
}: DeliveryOptions): Delivery {
  if (!config.workers && handle.kind === 'pglite') {
    logger.info('HERMES_WORKERS=0 no aplica a la base embebida: este proceso atiende los envíos (use DATABASE_URL para separarlos).');
  }
  let appFetch: ((request: Request) => Response | Promise<Response>) | null = null;
  const simulated = [
    ...(config.smsProvider || config.twilio?.sms ? [] : (['sms'] as const)),
    ...(config.whatsappProvider || config.twilio?.whatsapp || config.metaWhatsapp ? [] : (['whatsapp'] as const)),
  ];
  const needsSimulator = simulated.length > 0;
  // A fresh token per process: the simulator is only ever called in-process, by this server's adapters.
  const token = randomBytes(24).toString('base64url');
  const simulator = needsSimulator
    ? createProviderSimulator({
        db: handle.db,
        token,
        failureRate: config.simFailureRate,
        delayMs: config.simDelayMs,
        webhookSecret: config.webhookSecret,
        outboxDir: config.outboxDir,
        publicUrl: config.publicUrl,
        channels: simulated,
        deliver: async (request) => {
          if (!appFetch) throw new Error('El simulador de proveedor no está conectado al servidor');
          return appFetch(request);
        },
        ...(random ? { random } : {}),
      })
    : null;
  const push = createPushSender({
    keys: vapidKeys(handle.db, config.vapid),
    subject: config.vapidSubject,
    gone: (endpoints) => removeGoneEndpoints(handle.db, endpoints),
    logger,
    ...(pushAgent ? { agent: pushAgent } : {}),
  });
  const built = buildAdapters(
    config,
    simulator ? { instance: simulator, token } : null,
    push,
    handle.db,
    whatsappWindow ?? ((phone) => whatsappWindowOpenUntil(handle.db, phone)),
  );
  const engine = createEngine({
    db: handle.db,
    queue: handle.queue,
    adapters: built.adapters,
    store,
    logger,
    retries: config.deliveryRetries,
    retryDelayS: config.deliveryRetryDelayS,
    concurrency: config.deliveryConcurrency,
    // The embedded database belongs to this process alone: nobody else could work its queue.
    workers: config.workers || handle.kind === 'pglite',
    recoverActive: handle.kind === 'pglite',
    installLinkUrl: config.installLink ? installLinkUrl(config.publicUrl) : null,
    ...tuning,
  });
  return {
    engine,
    adapters: built.adapters,
    simulator,
    bindApp: (fetch) => {
      appFetch = fetch;
    },
    async start() {
      // Tidying up must not keep the server down: a send retries it and reports what is wrong.
      await built.start().catch((err: unknown) => logger.error('Canales de envío: no se pudieron preparar; se reintenta al enviar', err));
      await engine.start();
      await simulator?.resumeReports();
    },
    async stop() {
      await simulator?.close();
      await engine.stop();
      await built.close();
    },
  };
}
