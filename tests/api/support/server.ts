// Starts the real server (createApp + @hono/node-server on 127.0.0.1, random port) on a private copy of the
// seeded database, plus a tiny cookie-keeping HTTP client that speaks to it like the SPA does.
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { sql } from 'drizzle-orm';
import { inject } from 'vitest';
import { DEMO_PASSWORD } from '../../../shared/demo';
import { COOKIE, XSRF_HEADER } from '../../../shared/contract';
import { createApp } from '../../../server/app';
import type { InboundHandler } from '../../../server/inbound/contract';
import { DEFAULT_CONFIG, type ServerConfig } from '../../../server/config';
import { openDb, type Db, type DbHandle } from '../../../server/db/client';
import { createDelivery, type Delivery, type DeliveryOptions } from '../../../server/delivery/setup';
import { keepSocketsAlive } from '../../../server/http/keep-alive';
import { createLogger } from '../../../server/log';
import { AttachmentStore } from '../../../server/storage/attachments';
import { rowsOf } from '../../../server/db/sql';
import { createDatabase, databaseUrl, dropDatabase, onPostgres, uniqueName } from './pg';
import { makeTempDir } from './tmp';

export const INDEX_HTML = '<!doctype html><html lang="es"><head><title>Hermes</title></head><body><div id="app"></div></body></html>';
export const ASSET_JS = 'console.log("hermes");\n';

/** A private, writable copy of the seeded database: a PGlite dir, or a PostgreSQL database (support/pg.ts). */
export async function openSeededCopy(): Promise<{
  handle: DbHandle;
  root: string;
  /** This copy's attachment files (the seeded ones plus whatever the test uploads). */
  attachmentsDir: string;
  dispose(): Promise<void>;
}> {
  const root = makeTempDir('hermes-test-');
  const attachmentsDir = path.join(root, 'attachments');
  cpSync(inject('hermesSeededAttachmentsDir'), attachmentsDir, { recursive: true });
  const template = inject('hermesSeededTemplate');
  if (template) {
    const name = uniqueName('hermes_test');
    await createDatabase(name, template);
    const handle = await openDb({ databaseUrl: databaseUrl(name) });
    return {
      handle,
      root,
      attachmentsDir,
      dispose: async () => {
        await handle.close();
        await dropDatabase(name);
        rmSync(root, { recursive: true, force: true });
      },
    };
  }
  const dataDir = path.join(root, 'pglite');
  cpSync(inject('hermesSeededDataDir'), dataDir, { recursive: true });
  // databaseUrl '' keeps the tests on PGlite even when DATABASE_URL is set in the shell.
  const handle = await openDb({ dataDir, databaseUrl: '' });
  return {
    handle,
    root,
    attachmentsDir,
    dispose: async () => {
      await handle.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** A fake Vite build: index.html and one asset. */
export function makeDist(root: string): string {
  const dist = path.join(root, 'dist');
  mkdirSync(path.join(dist, 'assets'), { recursive: true });
  writeFileSync(path.join(dist, 'index.html'), INDEX_HTML);
  writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), ASSET_JS);
  return dist;
}

export const testConfig = (overrides: Partial<ServerConfig> = {}): ServerConfig => ({
  ...DEFAULT_CONFIG,
  log: 'silent',
  ...overrides,
});

/** Serves an app over a real socket; `close` also drops keep-alive connections so nothing lingers. */
export async function listen(app: { fetch: (req: Request) => Response | Promise<Response> }) {
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  keepSocketsAlive(server);
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ('closeAllConnections' in server) server.closeAllConnections();
      }),
  };
}

export interface TestServer {
  url: string;
  db: Db;
  /** With `delivery: true`: the running engine, adapters and simulator. */
  delivery: Delivery | null;
  /** This server's .eml outbox (e-mail without SMTP_URL). */
  outboxDir: string;
  attachmentsDir: string;
  handle: DbHandle;
  distDir: string;
  client(): Client;
  /** Another app (other settings, other dist) on the same database, also listening. */
  sibling(options: {
    config?: Partial<ServerConfig>;
    distDir?: string;
    db?: Db;
  }): Promise<{ url: string; client(): Client; close(): Promise<void> }>;
  close(): Promise<void>;
}

/** Delivery settings for tests: no simulated failures unless asked, quick reports and retries. */
const TEST_DELIVERY: Partial<ServerConfig> = { simFailureRate: 0, simDelayMs: 20, deliveryRetryDelayS: 1, deliveryRetries: 2 };

export async function startServer(
  options: {
    config?: Partial<ServerConfig>;
    /** Run the delivery engine (queue workers, simulator). */
    delivery?: boolean;
    /** Its tuning (leases, deadlines) over the tests' default quick sweep. */
    engine?: DeliveryOptions['engine'];
    /** Trusts a local push service's certificate (tests/fixtures/push-service.ts). */
    pushAgent?: DeliveryOptions['pushAgent'];
    /** Whether a family's WhatsApp window is open (Meta's adapter). */
    whatsappWindow?: DeliveryOptions['whatsappWindow'];
    /** Takes families' messages from the providers' webhooks. */
    onInbound?: InboundHandler;
  } = {},
): Promise<TestServer> {
  const copy = await openSeededCopy();
  const distDir = makeDist(copy.root);
  const outboxDir = path.join(copy.root, 'outbox');
  const config = testConfig({
    attachmentsDir: copy.attachmentsDir,
    outboxDir,
    ...(options.delivery ? TEST_DELIVERY : {}),
    ...options.config,
  });
  const store = new AttachmentStore(config.attachmentsDir);
  const delivery = options.delivery
    ? createDelivery({
        handle: copy.handle,
        config,
        logger: createLogger(config.log),
        store,
        engine: { sweepEveryMs: 1000, ...options.engine },
        ...(options.pushAgent ? { pushAgent: options.pushAgent } : {}),
        ...(options.whatsappWindow ? { whatsappWindow: options.whatsappWindow } : {}),
      })
    : null;
  const app = createApp({
    db: copy.handle.db,
    distDir,
    config,
    store,
    ...(delivery ? { delivery } : {}),
    ...(options.onInbound ? { onInbound: options.onInbound } : {}),
  });
  if (delivery) {
    delivery.bindApp(app.fetch);
    await delivery.start();
  }
  const main = await listen(app);
  const siblings: (() => Promise<void>)[] = [];
  return {
    url: main.url,
    db: copy.handle.db,
    delivery,
    outboxDir,
    attachmentsDir: copy.attachmentsDir,
    handle: copy.handle,
    distDir,
    client: () => new Client(main.url),
    sibling: async (o) => {
      const other = createApp({
        db: o.db ?? copy.handle.db,
        distDir: o.distDir ?? distDir,
        config: testConfig({ attachmentsDir: copy.attachmentsDir, outboxDir: path.join(copy.root, 'outbox'), ...o.config }),
      });
      const s = await listen(other);
      siblings.push(s.close);
      return { url: s.url, client: () => new Client(s.url), close: s.close };
    },
    close: async () => {
      await Promise.all(siblings.map((close) => close()));
      await main.close();
      await delivery?.stop();
      await copy.dispose();
    },
  };
}

export interface SetCookie {
  name: string;
  value: string;
  /** Lowercased attribute names → values ('' for flags). */
  attrs: Record<string, string>;
}

export function parseSetCookie(header: string): SetCookie {
  const [pair, ...rest] = header.split(';');
  const eq = pair!.indexOf('=');
  const attrs: Record<string, string> = {};
  for (const part of rest) {
    const [k, ...v] = part.trim().split('=');
    attrs[k!.toLowerCase()] = v.join('=');
  }
  return { name: pair!.slice(0, eq).trim(), value: decodeURIComponent(pair!.slice(eq + 1).trim()), attrs };
}

export function setCookies(res: Response): Map<string, SetCookie> {
  return new Map(res.headers.getSetCookie().map((h) => [parseSetCookie(h).name, parseSetCookie(h)]));
}

/** Keeps cookies like a browser (no expiry timers: tests control time through short TTLs). */
export class Client {
  readonly jar = new Map<string, string>();

  constructor(readonly base: string) {}

  async fetch(pathname: string, init: RequestInit & { csrf?: boolean } = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (!headers.has('Accept')) headers.set('Accept', 'application/json');
    if (this.jar.size > 0) headers.set('Cookie', [...this.jar].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; '));
    const method = (init.method ?? 'GET').toUpperCase();
    const xsrf = this.jar.get(COOKIE.xsrf);
    if (init.csrf !== false && method !== 'GET' && xsrf && !headers.has(XSRF_HEADER)) headers.set(XSRF_HEADER, xsrf);
    const res = await fetch(this.base + pathname, { ...init, headers, redirect: 'manual' });
    for (const c of setCookies(res).values()) {
      if (c.attrs['max-age'] === '0' || c.value === '') this.jar.delete(c.name);
      else this.jar.set(c.name, c.value);
    }
    return res;
  }

  get(pathname: string, init: RequestInit = {}) {
    return this.fetch(pathname, { ...init, method: 'GET' });
  }

  post(pathname: string, body?: unknown, init: RequestInit & { csrf?: boolean } = {}) {
    return this.fetch(pathname, {
      ...init,
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(init.headers as Record<string, string> | undefined) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  /** The SPA's sign-in: fetch the CSRF cookie, then POST the credentials. */
  async login(email: string, password = DEMO_PASSWORD): Promise<Response> {
    if (!this.jar.has(COOKIE.xsrf)) await this.get('/api/csrf-cookie');
    return this.post('/api/login', { email, password });
  }
}

/** A signed-in client per demo e-mail, signed in at its first use (`server` is read then, so after beforeAll). */
export function signedIn(server: () => TestServer): (email: string) => Promise<Client> {
  const clients = new Map<string, Client>();
  return async (email) => {
    let client = clients.get(email);
    if (!client) {
      client = server().client();
      const res = await client.login(email);
      if (res.status !== 200) throw new Error(`${email} no pudo iniciar sesión: ${res.status}`);
      clients.set(email, client);
    }
    return client;
  };
}

/**
 * A seeded copy as two processes see it: on PostgreSQL two connection pools on its database; on PGlite,
 * which one process owns, its one handle twice (two apps on it still keep nothing in common in memory).
 */
export async function openSharedCopy(): Promise<{
  copy: Awaited<ReturnType<typeof openSeededCopy>>;
  dbs: [Db, Db];
  /** The same two, as handles (for what opens its own queue, like a delivery engine). */
  handles: [DbHandle, DbHandle];
  dispose(): Promise<void>;
}> {
  const copy = await openSeededCopy();
  let other: DbHandle | null = null;
  if (onPostgres) {
    const [row] = rowsOf<{ name: string }>(await copy.handle.db.execute(sql`select current_database() as name`));
    other = await openDb({ databaseUrl: databaseUrl(row!.name) });
  }
  return {
    copy,
    dbs: [copy.handle.db, other?.db ?? copy.handle.db],
    handles: [copy.handle, other ?? copy.handle],
    dispose: async () => {
      await other?.close();
      await copy.dispose();
    },
  };
}
