// SMS / WhatsApp over real HTTP: the provider adapter talking to the built-in simulator on its own socket,
// the simulator posting signed status reports to the real server's webhook, which moves the `deliveries`
// rows a compose send wrote. Failing providers are tiny servers that answer 500, hang, or are gone.
import { type DeliveryPool, deliveryPool, type PooledDelivery } from './support/delivery-pool';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { deliveryKey, type Outgoing } from '../../server/delivery/channel';
import { createProviderAdapter, SIGNATURE_HEADER, signReport } from '../../server/delivery/provider';
import { createProviderSimulator, type ProviderSimulatorOptions } from '../../server/delivery/simulator';
import { composeInput } from '../fixtures/compose';
import { count, one, send } from './support/compose';
import { listen, startServer, type TestServer } from './support/server';

const TOKEN = 'sim-token';
const SECRET = 'test-webhook-secret';

let server: TestServer;
/** SMS / WhatsApp deliveries of one sent message, handed out one per test. */
let pool: DeliveryPool;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  server = await startServer({ config: { webhookSecret: SECRET } });
  const admin = server.client();
  expect((await admin.login('administrador@sanandres.cl')).status).toBe(200);
  const course = await one<{ id: number }>(
    server.db,
    sql`select c.id from courses c join users u on u.institution_id = c.institution_id
        where u.email = 'administrador@sanandres.cl'
          and (select count(*) from students s where s.course_id = c.id) >= 10 order by c.id limit 1`,
  );
  const body = composeInput({
    title: 'Corte de agua',
    content: 'Mañana no hay clases.',
    channels: ['sms', 'whatsapp'],
    recipients: [{ kind: 'course', id: course.id, audience: 'apoderados' }],
  });
  const res = await send(admin, body);
  expect(res.status).toBe(201);
  const { id } = ((await res.json()) as { data: { id: number } }).data;
  pool = await deliveryPool(server.db, id);
  // Enough rows for every test below.
  expect(pool.left('sms')).toBeGreaterThanOrEqual(12);
  expect(pool.left('whatsapp')).toBeGreaterThanOrEqual(2);
});

afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

afterAll(async () => {
  await server?.close();
});

const take = (channel: 'sms' | 'whatsapp' = 'sms') => pool.take(channel);

const outgoing = (row: PooledDelivery, channel: 'sms' | 'whatsapp' = 'sms', address = row.address): Outgoing => ({
  deliveryId: row.id,
  key: deliveryKey(row.id, row.generation),
  channel,
  address,
  messageId: row.message_id,
  title: row.title,
  text: row.content,
  senderName: 'Administrador',
  institutionName: 'Colegio San Andrés',
  attachments: [],
});

const callbackUrl = (channel: 'sms' | 'whatsapp' = 'sms') => `${server.url}/api/webhooks/provider/${channel}`;

/** A simulator on its own socket, reporting to the real server over HTTP. */
async function startSimulator(overrides: Partial<ProviderSimulatorOptions> = {}) {
  const simulator = createProviderSimulator({
    db: server.db,
    token: TOKEN,
    failureRate: 0,
    delayMs: 10,
    webhookSecret: SECRET,
    deliver: (request) => fetch(request),
    random: () => 0.9,
    ...overrides,
  });
  const http = await listen(simulator.routes);
  const stop = async () => {
    await http.close();
    await simulator.close();
  };
  cleanups.push(stop);
  const adapter = (channel: 'sms' | 'whatsapp' = 'sms', token = TOKEN) =>
    createProviderAdapter({ channel, url: http.url, token, callbackUrl: callbackUrl(channel), timeoutMs: 2000 });
  return { simulator, url: http.url, adapter, stop };
}

/** A provider that answers every request with `handler`. */
async function fakeProvider(handler: (c: import('hono').Context) => Response | Promise<Response>) {
  const app = new Hono();
  app.all('*', handler);
  const http = await listen(app);
  cleanups.push(http.close);
  return http.url;
}

const delivery = (id: number) =>
  one<{
    status: string;
    error: string | null;
    delivered_at: string | null;
    read_at: string | null;
    sent_at: string | null;
    recipient: string;
  }>(
    server.db,
    sql`select d.status, d.error, d.delivered_at, d.read_at, d.sent_at, r.status as recipient
        from deliveries d join message_recipients r on r.id = d.recipient_id where d.id = ${id}`,
  );

const simRow = (reference: string) =>
  one<{ id: string; channel: string; to: string; body: string; status: string; callback_url: string; reported_at: string | null }>(
    server.db,
    sql`select * from provider_sim_messages where reference = ${reference}`,
  );

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 5000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting; last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function postReport(channel: string, payload: unknown, signature?: string) {
  const body = JSON.stringify(payload);
  return fetch(`${server.url}/api/webhooks/provider/${channel}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', [SIGNATURE_HEADER]: signature ?? signReport(body, SECRET) },
    body,
  });
}

describe('adapter ↔ simulator', () => {
  it('hands an SMS over, and the signed delivery report marks it received', async () => {
    const { adapter } = await startSimulator();
    const row = take();
    const result = await adapter().send(outgoing(row));
    expect(result).toEqual({ ok: true, status: 'sent', providerRef: expect.stringMatching(/^sim-/) });

    const stored = await simRow(deliveryKey(row.id, row.generation));
    expect(stored).toMatchObject({ channel: 'sms', to: row.address, body: row.content, callback_url: callbackUrl() });
    expect(result.ok && result.providerRef).toBe(stored.id);

    const done = await until(
      () => delivery(row.id),
      (d) => d.status === 'received',
    );
    expect(done.delivered_at).not.toBeNull();
    expect(done.error).toBeNull();
    expect(done.recipient).toBe('received');
    const reported = await until(
      () => simRow(deliveryKey(row.id, row.generation)),
      (s) => s.reported_at !== null,
    );
    expect(reported.status).toBe('delivered');
  });

  it('answers a repeated reference with the first message and stores it once', async () => {
    const { adapter } = await startSimulator({ delayMs: 60_000 });
    const row = take();
    const first = await adapter().send(outgoing(row));
    const again = await adapter().send(outgoing(row));
    expect(first.ok).toBe(true);
    expect(again).toEqual(first);
    const reference = deliveryKey(row.id, row.generation);
    expect(await count(server.db, sql`select count(*)::int as n from provider_sim_messages where reference = ${reference}`)).toBe(1);
  });

  it('writes each accepted message to the outbox as text, once, where a demo reads the SMS it would get', async () => {
    const outboxDir = mkdtempSync(path.join(tmpdir(), 'hermes-sim-outbox-'));
    cleanups.push(async () => rmSync(outboxDir, { recursive: true, force: true }));
    const { adapter } = await startSimulator({ delayMs: 60_000, outboxDir });
    const row = take();
    await adapter().send(outgoing(row));
    // A repeated reference is not written again.
    await adapter().send(outgoing(row));
    const reference = deliveryKey(row.id, row.generation);
    const { id } = await one<{ id: string }>(server.db, sql`select id from provider_sim_messages where reference = ${reference}`);
    expect(readdirSync(path.join(outboxDir, 'sim'))).toEqual([`${id}.txt`]);
    const text = readFileSync(path.join(outboxDir, 'sim', `${id}.txt`), 'utf8');
    expect(text).toBe(`Canal: sms\nPara: ${row.address}\nReferencia: ${reference}\n\n${row.content}\n`);
  });

  it('puts the title on the first line of a WhatsApp message, and reports it read', async () => {
    // random 0: delivered (0 < failure rate 0 is false), then read (0 < 0.5).
    const { adapter } = await startSimulator({ random: () => 0 });
    const row = take('whatsapp');
    const result = await adapter('whatsapp').send(outgoing(row, 'whatsapp'));
    expect(result.ok).toBe(true);
    const stored = await simRow(deliveryKey(row.id, row.generation));
    expect(stored.body).toBe(`${row.title}\n${row.content}`);
    expect(stored.channel).toBe('whatsapp');

    const done = await until(
      () => delivery(row.id),
      (d) => d.status === 'read',
    );
    expect(done.read_at).not.toBeNull();
    expect(done.delivered_at).not.toBeNull();
    expect(done.recipient).toBe('read');
  });

  it('is reachable in-process through its fetch, by its public address or a bare origin', async () => {
    const { simulator } = await startSimulator({ delayMs: 60_000 });
    for (const url of ['http://localhost:3000/sim/provider', 'http://simulator.internal']) {
      const row = take();
      const adapter = createProviderAdapter({ channel: 'sms', url, token: TOKEN, callbackUrl: callbackUrl(), fetch: simulator.fetch });
      const result = await adapter.send(outgoing(row));
      expect(result.ok).toBe(true);
      expect(result.ok && result.providerRef).toBe((await simRow(deliveryKey(row.id, row.generation))).id);
    }
  });

  it('fails invalid and landline numbers permanently without calling the provider', async () => {
    const { adapter } = await startSimulator();
    const row = take();
    expect(await adapter().send(outgoing(row, 'sms', '12345'))).toEqual({ ok: false, kind: 'permanent', error: 'invalid_number' });
    expect(await adapter().send(outgoing(row, 'sms', '+56 2 2123 4567'))).toEqual({ ok: false, kind: 'permanent', error: 'not_mobile' });
    const reference = deliveryKey(row.id, row.generation);
    expect(await count(server.db, sql`select count(*)::int as n from provider_sim_messages where reference = ${reference}`)).toBe(0);
  });

  it('refuses a bad token, a bad number and a bad body at the simulator itself', async () => {
    const { url, adapter } = await startSimulator();
    const post = (body: object, token = TOKEN) =>
      fetch(`${url}/messages`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    const valid = { channel: 'sms', to: '+56987654321', body: 'Hola', reference: 'direct-1', callback_url: callbackUrl() };

    const unauthorized = await post(valid, 'wrong');
    expect(unauthorized.status).toBe(401);
    expect(((await unauthorized.json()) as { code: string }).code).toBe('unauthorized');
    expect(await adapter('sms', 'wrong').send(outgoing(take()))).toEqual({ ok: false, kind: 'transient', error: 'provider_auth' });

    for (const [body, code] of [
      [{ ...valid, to: '+56 9 8765 432' }, 'invalid_number'],
      [{ ...valid, to: 42 }, 'invalid_number'],
      [{ ...valid, to: '+56 2 2123 4567' }, 'not_mobile'],
      [{ ...valid, channel: 'fax' }, 'invalid_request'],
      [{ ...valid, body: '  ' }, 'invalid_request'],
      [{ ...valid, reference: '' }, 'invalid_request'],
      [{ ...valid, callback_url: 'ftp://example.com' }, 'invalid_request'],
    ] as const) {
      const res = await post(body);
      expect(res.status).toBe(422);
      expect(((await res.json()) as { code: string }).code).toBe(code);
    }
    expect(await count(server.db, sql`select count(*)::int as n from provider_sim_messages where reference = 'direct-1'`)).toBe(0);
  });
});

describe('adapter against failing providers', () => {
  const adapterFor = (url: string, timeoutMs = 2000) =>
    createProviderAdapter({ channel: 'sms', url, token: TOKEN, callbackUrl: callbackUrl(), timeoutMs });
  const message = () =>
    outgoing({ id: 1, generation: 0, address: '+56987654321', message_id: 1, recipient_id: 1, title: 'T', content: 'Hola' });

  it('treats 5xx and 429 as transient', async () => {
    for (const status of [500, 503, 429]) {
      const url = await fakeProvider((c) => c.json({ code: 'busy' }, status as 500));
      expect(await adapterFor(url).send(message())).toEqual({ ok: false, kind: 'transient', error: 'unreachable' });
    }
  });

  it('treats a 2xx without an id as transient (the reference makes the re-send safe)', async () => {
    const url = await fakeProvider((c) => c.text('ok'));
    expect(await adapterFor(url).send(message())).toEqual({ ok: false, kind: 'transient', error: 'unreachable' });
  });

  it('treats number refusals and other 4xx as permanent', async () => {
    const notMobile = await fakeProvider((c) => c.json({ code: 'not_mobile', message: 'x' }, 422));
    expect(await adapterFor(notMobile).send(message())).toEqual({ ok: false, kind: 'permanent', error: 'not_mobile' });
    const invalidNumber = await fakeProvider((c) => c.json({ code: 'invalid_number' }, 400));
    expect(await adapterFor(invalidNumber).send(message())).toEqual({ ok: false, kind: 'permanent', error: 'invalid_number' });
    const other = await fakeProvider((c) => c.json({ code: 'content_blocked' }, 422));
    expect(await adapterFor(other).send(message())).toEqual({ ok: false, kind: 'permanent', error: 'rejected' });
  });

  it('treats a closed port as transient', async () => {
    const url = await fakeProvider((c) => c.text('unused'));
    await cleanups.pop()!();
    expect(await adapterFor(url).send(message())).toEqual({ ok: false, kind: 'transient', error: 'unreachable' });
  });

  it('gives up on a provider that never answers after the timeout, as transient', async () => {
    const sockets = new Set<import('node:net').Socket>();
    const hanging: Server = createServer(() => {});
    hanging.on('connection', (socket) => sockets.add(socket));
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          for (const socket of sockets) socket.destroy();
          hanging.close(() => resolve());
        }),
    );
    const { port } = hanging.address() as AddressInfo;
    const started = Date.now();
    expect(await adapterFor(`http://127.0.0.1:${port}`, 150).send(message())).toEqual({
      ok: false,
      kind: 'transient',
      error: 'unreachable',
    });
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('status webhook', () => {
  it('refuses a bad or missing signature with 401 and changes nothing', async () => {
    const row = take();
    const report = { id: 'x', reference: deliveryKey(row.id, row.generation), status: 'delivered', at: new Date().toISOString() };
    const forged = await postReport('sms', report, signReport(JSON.stringify(report), 'other-secret'));
    expect(forged.status).toBe(401);
    expect(((await forged.json()) as { message: string }).message).toBe('La firma del reporte no es válida.');
    const unsigned = await fetch(callbackUrl(), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(report),
    });
    expect(unsigned.status).toBe(401);
    expect((await delivery(row.id)).status).toBe('queued');

    // The same report, signed, applies.
    const signed = await postReport('sms', report);
    expect(signed.status).toBe(200);
    expect(await signed.json()).toEqual({ data: { applied: 1 } });
    expect((await delivery(row.id)).status).toBe('received');
  });

  it('ignores unknown references, other rounds and other channels, and applies the furthest of a batch', async () => {
    const row = take();
    const at = new Date().toISOString();
    const ignored = await postReport('sms', [
      { reference: 'not-ours', status: 'delivered', at },
      { reference: 'hermes-99999999999-0', status: 'delivered', at },
      { reference: deliveryKey(row.id, row.generation + 1), status: 'delivered', at },
      { reference: deliveryKey(row.id, row.generation), status: 'sent', at },
    ]);
    expect(await ignored.json()).toEqual({ data: { applied: 0 } });
    const otherChannel = await postReport('whatsapp', { reference: deliveryKey(row.id, row.generation), status: 'delivered', at });
    expect(await otherChannel.json()).toEqual({ data: { applied: 0 } });
    expect((await delivery(row.id)).status).toBe('queued');

    const batch = await postReport('sms', [
      { reference: deliveryKey(row.id, row.generation), status: 'read', at },
      { reference: deliveryKey(row.id, row.generation), status: 'delivered', at },
    ]);
    expect(await batch.json()).toEqual({ data: { applied: 1 } });
    expect((await delivery(row.id)).status).toBe('read');

    // A late "delivered" never undoes "read".
    const late = await postReport('sms', { reference: deliveryKey(row.id, row.generation), status: 'delivered', at });
    expect(await late.json()).toEqual({ data: { applied: 0 } });
    expect((await delivery(row.id)).status).toBe('read');
  });

  it('answers 422 to a body that is not a report and 404 to an unknown channel', async () => {
    expect((await postReport('sms', 'hola')).status).toBe(422);
    expect((await postReport('sms', [])).status).toBe(422);
    expect((await postReport('fax', { reference: 'hermes-1-0', status: 'delivered' })).status).toBe(404);
  });
});

describe('simulated outcomes', () => {
  it('reports undelivered at failure rate 1, which the webhook records as not received', async () => {
    const { adapter, simulator } = await startSimulator();
    simulator.setFailureRate(1);
    const row = take();
    expect((await adapter().send(outgoing(row))).ok).toBe(true);
    const done = await until(
      () => delivery(row.id),
      (d) => d.status === 'not_received',
    );
    expect(done.error).toBe('undelivered');
    expect(done.recipient).not.toBe('received');
  });

  it('always fails numbers ending in 0000, as a reception error', async () => {
    const { adapter } = await startSimulator();
    const row = take();
    expect((await adapter().send(outgoing(row, 'sms', '+56 9 8765 0000'))).ok).toBe(true);
    expect((await simRow(deliveryKey(row.id, row.generation))).to).toBe('+56987650000');
    const done = await until(
      () => delivery(row.id),
      (d) => d.status === 'error',
    );
    expect(done.error).toBe('rejected');
  });
});

describe('reports owed across a restart', () => {
  it('sends, after a restart, a report the callback refused before', async () => {
    // The first instance cannot reach the webhook: it retries, gives up, and the report stays owed.
    let attempts = 0;
    const first = await startSimulator({
      deliver: async () => {
        attempts += 1;
        return new Response('down', { status: 503 });
      },
    });
    const row = take();
    expect((await first.adapter().send(outgoing(row))).ok).toBe(true);
    const reference = deliveryKey(row.id, row.generation);
    await until(
      () => Promise.resolve(attempts),
      (n) => n === 4,
    );
    await first.stop();
    const owed = await simRow(reference);
    expect(owed).toMatchObject({ status: 'delivered', reported_at: null });
    expect((await delivery(row.id)).status).toBe('queued');

    const second = await startSimulator();
    await second.simulator.resumeReports();
    await until(
      () => delivery(row.id),
      (d) => d.status === 'received',
    );
    expect(
      (
        await until(
          () => simRow(reference),
          (s) => s.reported_at !== null,
        )
      ).status,
    ).toBe('delivered');
  });

  it('sends, after a restart, the report of a message accepted before it', async () => {
    const first = await startSimulator({ delayMs: 200 });
    const row = take();
    expect((await first.adapter().send(outgoing(row))).ok).toBe(true);
    await first.stop();
    const reference = deliveryKey(row.id, row.generation);
    expect((await simRow(reference)).status).toBe('accepted');

    const second = await startSimulator();
    await second.simulator.resumeReports();
    await until(
      () => delivery(row.id),
      (d) => d.status === 'received',
    );
    expect(
      (
        await until(
          () => simRow(reference),
          (s) => s.reported_at !== null,
        )
      ).status,
    ).toBe('delivered');
  });
});
