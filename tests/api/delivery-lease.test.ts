// A worker's death costs its deliveries at most its lease (server/delivery/lease.ts): jobs left active by a
// dead worker are taken back and run by a live engine, once; a channel that never answers is cut at the
// attempt's deadline; a slow worker keeps its claim while it renews it, and a stalled one whose job was
// taken back sends again only under the same key. Short leases and deadlines here; the figures in
// production are lease.ts's constants.
import { readdir } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Outgoing, SendResult } from '../../server/delivery/channel';
import { QUEUES, stableUuid } from '../../server/delivery/engine';
import { createDelivery, type Delivery, type DeliveryOptions } from '../../server/delivery/setup';
import { createLogger } from '../../server/log';
import { AttachmentStore } from '../../server/storage/attachments';
import { composeInput } from '../fixtures/compose';
import { count, one, rows, send } from './support/compose';
import { startServer, testConfig, type Client, type TestServer } from './support/server';
import { eventually } from './support/wait';

const LEASE = { leaseMs: 2000, heartbeatMs: 400, reclaimEveryMs: 250 } satisfies DeliveryOptions['engine'];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Guardians of the admin's school with an e-mail address. */
const guardiansWithEmail = (server: TestServer, n: number) =>
  rows<{ id: number }>(
    server.db,
    sql`select g.id from guardians g join users u on u.institution_id = g.institution_id and u.email = 'administrador@sanandres.cl'
        where g.email is not null order by g.id limit ${n}`,
  );

async function sendEmail(admin: Client, guardianIds: number[], title: string): Promise<number> {
  const res = await send(
    admin,
    composeInput({ channels: ['e-mail'], recipients: guardianIds.map((id) => ({ kind: 'guardian', id })), title }),
  );
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: { id: number } }).data.id;
}

const pending = (server: TestServer, messageId: number) =>
  count(server.db, sql`select count(*)::int as n from deliveries where message_id = ${messageId} and status = 'queued'`);

/** The .eml files of these deliveries in the outbox, by name. */
async function outboxOf(server: TestServer, ids: readonly number[]): Promise<string[]> {
  const files = await readdir(server.outboxDir).catch(() => [] as string[]);
  return files.filter((f) => ids.some((id) => f.startsWith(`hermes-${id}-`) && f.endsWith('.eml'))).sort();
}

/**
 * Another engine (worker) on the server's database and outbox, as another process would be: it does not
 * take the active jobs at start as the only process on a PGlite database does. `prepare` runs before it starts.
 */
async function worker(
  server: TestServer,
  engine: DeliveryOptions['engine'],
  prepare: (delivery: Delivery) => void = () => {},
): Promise<Delivery> {
  const config = testConfig({ outboxDir: server.outboxDir, simFailureRate: 0, simDelayMs: 20, deliveryRetryDelayS: 1, deliveryRetries: 2 });
  const delivery = createDelivery({
    handle: server.handle,
    config,
    logger: createLogger('silent'),
    store: new AttachmentStore(server.attachmentsDir),
    engine: { sweepEveryMs: 1000, recoverActive: false, ...engine },
  });
  prepare(delivery);
  delivery.bindApp(async () => new Response(null, { status: 204 }));
  await delivery.start();
  return delivery;
}

/** Wraps a worker's e-mail channel: every call is noted; `hold` may keep a call waiting before it goes on. */
function spy(
  delivery: Delivery,
  calls: { key: string; by: string }[],
  by: string,
  hold: (message: Outgoing) => Promise<void> = async () => {},
) {
  const real = delivery.adapters['e-mail'];
  delivery.adapters['e-mail'] = {
    async send(message, signal): Promise<SendResult> {
      calls.push({ key: message.key, by });
      await hold(message);
      return real.send(message, signal);
    },
  };
}

describe('a dead worker', () => {
  let server: TestServer;
  let admin: Client;
  beforeAll(async () => {
    server = await startServer({ delivery: true, engine: LEASE });
    admin = server.client();
    expect((await admin.login('administrador@sanandres.cl')).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
  });

  /**
   * The message's deliveries get a new round whose jobs a worker claimed and then died holding: `active`,
   * claimed now, never renewed. In one statement each, so the live engine never sees them unclaimed.
   */
  async function roundClaimedByDeadWorker(messageId: number, retryCount = 0): Promise<number[]> {
    const ids = (
      await rows<{ id: number }>(
        server.db,
        sql`update deliveries set generation = generation + 1, status = 'queued', error = null, sent_at = null, delivered_at = null
            where message_id = ${messageId} returning id`,
      )
    ).map((r) => Number(r.id));
    for (const id of ids) {
      await server.db.execute(sql`
        insert into pgboss.job (id, name, data, state, retry_limit, retry_count, retry_delay, retry_backoff, expire_in, started_on)
        values (${stableUuid(`deliver:${id}:1`)}::uuid, ${QUEUES.deliver}, ${JSON.stringify({ id, generation: 1 })}::jsonb, 'active',
          2, ${retryCount}, 1, true, interval '900 seconds', now())`);
    }
    return ids;
  }

  it('its deliveries are sent again, once, within the lease and the next reclaim', async () => {
    const guardians = await guardiansWithEmail(server, 3);
    const id = await sendEmail(
      admin,
      guardians.map((g) => g.id),
      'Corte de agua',
    );
    await eventually(
      'primera ronda',
      () => pending(server, id),
      (n) => n === 0,
      20_000,
    );

    const ids = await roundClaimedByDeadWorker(id);
    const died = Date.now();
    // Still its claim: nobody takes it before the lease runs out.
    await sleep(LEASE.leaseMs / 2);
    expect(await pending(server, id)).toBe(ids.length);
    await eventually(
      'ronda retomada',
      () => pending(server, id),
      (n) => n === 0,
      LEASE.leaseMs + LEASE.reclaimEveryMs + 5_000,
    );
    const tookMs = Date.now() - died;
    expect(tookMs).toBeLessThan(LEASE.leaseMs + LEASE.reclaimEveryMs + 5_000);

    // Once: one file per delivery and round, every row received in round 1 after one attempt of it.
    expect(await outboxOf(server, ids)).toEqual(
      ids.flatMap((d) => [`hermes-${d}-0_hermes.local.eml`, `hermes-${d}-1_hermes.local.eml`]).sort(),
    );
    const done = await rows<{ status: string; generation: number; attempts: number }>(
      server.db,
      sql`select status, generation, attempts from deliveries where message_id = ${id}`,
    );
    expect(done.map((d) => [d.status, Number(d.generation), Number(d.attempts)])).toEqual(ids.map(() => ['received', 1, 2]));
  });

  it('a fan-out it was holding is done again within the lease', async () => {
    const guardians = await guardiansWithEmail(server, 2);
    const id = await sendEmail(
      admin,
      guardians.map((g) => g.id),
      'Reunión de apoderados',
    );
    await eventually(
      'primera ronda',
      () => pending(server, id),
      (n) => n === 0,
      20_000,
    );
    // A new round not yet fanned out, and the fan-out job claimed by a worker that died.
    const ids = (
      await rows<{ id: number }>(
        server.db,
        sql`update deliveries set generation = generation + 1, status = 'queued', error = null where message_id = ${id} returning id`,
      )
    ).map((r) => Number(r.id));
    await server.db.transaction(async (tx) => {
      await tx.execute(sql`update messages set fanned_out_at = null where id = ${id}`);
      await tx.execute(sql`
        update pgboss.job set state = 'active', started_on = now(), completed_on = null
        where name = ${QUEUES.fanout} and id = ${stableUuid(`fanout:${id}`)}::uuid`);
    });
    expect(await count(server.db, sql`select count(*)::int as n from pgboss.job where name = ${QUEUES.fanout} and state = 'active'`)).toBe(
      1,
    );
    await eventually(
      'reparto retomado',
      () => pending(server, id),
      (n) => n === 0,
      LEASE.leaseMs + LEASE.reclaimEveryMs + 5_000,
    );
    expect(await outboxOf(server, ids)).toEqual(
      ids.flatMap((d) => [`hermes-${d}-0_hermes.local.eml`, `hermes-${d}-1_hermes.local.eml`]).sort(),
    );
  });

  it('a delivery taken back after its last try is given up on, not tried again', async () => {
    const guardians = await guardiansWithEmail(server, 1);
    const id = await sendEmail(
      admin,
      guardians.map((g) => g.id),
      'Aviso',
    );
    await eventually(
      'primera ronda',
      () => pending(server, id),
      (n) => n === 0,
      20_000,
    );
    // The job already ran its retry limit (2) of times and a worker died holding it once more.
    const ids = await roundClaimedByDeadWorker(id, 2);
    await eventually(
      'abandonado',
      () => pending(server, id),
      (n) => n === 0,
      LEASE.leaseMs + LEASE.reclaimEveryMs + 5_000,
    );
    const row = await one<{ status: string; error: string }>(server.db, sql`select status, error from deliveries where id = ${ids[0]!}`);
    expect(row).toEqual({ status: 'failed', error: 'unreachable' });
    expect(await outboxOf(server, ids)).toEqual([`hermes-${ids[0]!}-0_hermes.local.eml`]);
  });
});

describe('the attempt deadline', () => {
  it('turns a channel that never answers into a transient error at the deadline', async () => {
    const deadlineMs = 1000;
    const server = await startServer({ delivery: true, engine: { attemptDeadlineMs: deadlineMs } });
    try {
      const admin = server.client();
      expect((await admin.login('administrador@sanandres.cl')).status).toBe(200);
      const signals: AbortSignal[] = [];
      server.delivery!.adapters['e-mail'] = {
        send(_message, signal) {
          if (signal) signals.push(signal);
          return new Promise<SendResult>(() => {});
        },
      };
      const guardians = await guardiansWithEmail(server, 1);
      const started = Date.now();
      const id = await sendEmail(
        admin,
        guardians.map((g) => g.id),
        'Sin respuesta',
      );
      const row = await eventually(
        'primer intento cortado',
        () =>
          one<{ status: string; error: string | null; attempts: number }>(
            server.db,
            sql`select status, error, attempts from deliveries where message_id = ${id}`,
          ),
        (d) => Number(d.attempts) >= 1,
        deadlineMs + 10_000,
      );
      // Transient: still queued for its retry, with the error of this attempt; the channel was told to stop.
      expect(row).toMatchObject({ status: 'queued', error: 'unreachable' });
      expect(Date.now() - started).toBeGreaterThanOrEqual(deadlineMs);
      expect(signals[0]?.aborted).toBe(true);
    } finally {
      await server.close();
    }
  });
});

describe('a slow or stalled worker', () => {
  let server: TestServer;
  let admin: Client;
  const extra: Delivery[] = [];
  beforeAll(async () => {
    server = await startServer({ delivery: true, engine: LEASE });
    admin = server.client();
    expect((await admin.login('administrador@sanandres.cl')).status).toBe(200);
    // The server's own worker stays out: the workers below are the ones under test.
    await server.delivery!.stop();
  });
  afterAll(async () => {
    for (const d of extra) await d.stop();
    await server?.close();
  });

  it('a stalled worker whose job was taken back sends again only under the same key', async () => {
    const calls: { key: string; by: string }[] = [];
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    // Stalled: never renews its claim (as if its event loop or its database connection hung).
    const stalled = await worker(server, { ...LEASE, heartbeatMs: 3600_000 }, (d) => spy(d, calls, 'stalled', () => released));
    extra.push(stalled);
    const [guardian] = await guardiansWithEmail(server, 1);
    const id = await sendEmail(admin, [guardian!.id], 'Retomado');
    await eventually(
      'primer intento',
      async () => calls.length,
      (n) => n === 1,
      20_000,
    );

    const live = await worker(server, LEASE, (d) => spy(d, calls, 'live'));
    extra.push(live);
    await eventually(
      'entregado por el otro',
      () => pending(server, id),
      (n) => n === 0,
      LEASE.leaseMs + LEASE.reclaimEveryMs + 5_000,
    );
    release();
    const delivery = await one<{ id: number; status: string; generation: number }>(
      server.db,
      sql`select id, status, generation from deliveries where message_id = ${id}`,
    );
    const key = `hermes-${delivery.id}-0`;
    // The stalled one finishes its send too: the same key, so the same outbox file (a provider dedupes it).
    await eventually(
      'el lento termina',
      () => count(server.db, sql`select count(*)::int as n from deliveries where id = ${delivery.id} and attempts >= 2`),
      (n) => n === 1,
      10_000,
    );
    expect(calls).toEqual([
      { key, by: 'stalled' },
      { key, by: 'live' },
    ]);
    expect(delivery).toMatchObject({ status: 'received', generation: 0 });
    expect(await outboxOf(server, [delivery.id])).toEqual([`${key}_hermes.local.eml`]);
    await stalled.stop();
    extra.splice(extra.indexOf(stalled), 1);
  });

  it('a slow worker that renews its claim keeps its job past the lease', async () => {
    const calls: { key: string; by: string }[] = [];
    // Two live workers (the one from the test above and another); whichever takes the job is slow, the
    // other is free and would take the job if it were taken back.
    const other = await worker(server, LEASE);
    extra.push(other);
    const slow = async (message: Outgoing) => {
      if (calls.filter((c) => c.key === message.key).length === 1) await sleep(3 * LEASE.leaseMs);
    };
    for (const [i, d] of extra.entries()) spy(d, calls, `w${i}`, slow);
    const [, guardian] = await guardiansWithEmail(server, 2);
    const id = await sendEmail(admin, [guardian!.id], 'Adjunto pesado');
    await eventually(
      'entregado',
      () => pending(server, id),
      (n) => n === 0,
      3 * LEASE.leaseMs + 10_000,
    );
    expect(calls).toHaveLength(1);
    expect(
      await count(
        server.db,
        sql`select count(*)::int as n from deliveries where message_id = ${id} and status = 'received' and attempts = 1`,
      ),
    ).toBe(1);
  });
});
