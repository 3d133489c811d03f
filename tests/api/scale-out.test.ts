// A school network on PostgreSQL as the README's "Running on several processes" describes it: two servers
// (HERMES_WORKERS=0) and two `npm run worker` processes, real processes over one database cloned from the
// seeded template. A send started on one server is worked by both workers; kill -9 of a worker mid-send, and
// of the server that took a send, still ends with every delivery done exactly once; 50 concurrent sends split
// across both servers never spend more SMS than the month's quota. PostgreSQL only: PGlite is one process's
// database.
//
// Which process did what is read from the database, not from the product: each process's connections
// carry an application_name (bench/support.ts startFleet), and triggers of this test's own database note
// who moved a delivery out of `queued` and who inserted a simulator message.
import { rmSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { exited, outboxDirOf, signalGroup, startFleet, type Fleet } from '../../bench/support';
import { QUEUES } from '../../server/delivery/engine';
import { RECLAIMED_WITHIN_MS } from '../../server/delivery/lease';
import { openDb, type Db, type DbHandle } from '../../server/db/client';
import type { RecipientPick } from '../../shared/compose-contract';
import { composeInput } from '../fixtures/compose';
import { count, one, rows, send } from './support/compose';
import { createDatabase, databaseUrl, dropDatabase, onPostgres, uniqueName } from './support/pg';
import { Client, makeDist } from './support/server';
import { makeTempDir } from './support/tmp';

const SENDER = 'administrador@sanandres.cl';
const QUOTA_MESSAGE = 'El saldo o la cuota del colegio no alcanza para este mensaje.';

/** Working what is left of a send on two busy cores, on top of the hand-over. */
const WORK_MARGIN_MS = 30_000;
/** A server killed between its commit and queuing the fan-out: the workers' 30-s sweep finds the message. */
const SWEEP_EVERY_MS = 30_000;

const emlFiles = async (dir: string) => (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.eml'));

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: no ocurrió en ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return Date.now() - started;
}

// Rows of this test's own database that say which process (application_name) did what.
const WITNESSES = sql.raw(`
  create table test_worked (delivery_id int not null, generation int not null, status text not null, by text not null);
  create function test_worked() returns trigger language plpgsql as $$
    begin insert into test_worked values (new.id, new.generation, new.status, current_setting('application_name')); return new; end $$;
  create trigger test_worked after update of status on deliveries for each row
    when (old.status = 'queued' and new.status <> 'queued') execute function test_worked();
  create table test_sim (reference text not null, by text not null);
  create function test_sim() returns trigger language plpgsql as $$
    begin insert into test_sim values (new.reference, current_setting('application_name')); return new; end $$;
  create trigger test_sim after insert on provider_sim_messages for each row execute function test_sim();
`);

describe.runIf(onPostgres)('two servers and two workers on one PostgreSQL', () => {
  let root = '';
  let dbName = '';
  let handle: DbHandle | undefined;
  let db: Db;
  let fleet: Fleet | undefined;
  let outbox = '';
  let picks: RecipientPick[] = [];
  let fleetStartedAt = 0;
  /** Workers started over the file (each sweeps once at its start, claimed or not). */
  let workerStarts = 2;

  beforeAll(async () => {
    root = makeTempDir('hermes-scale-out-');
    dbName = uniqueName('hermes_scale_out');
    await createDatabase(dbName, inject('hermesSeededTemplate'));
    handle = await openDb({ databaseUrl: databaseUrl(dbName) });
    db = handle.db;
    await db.execute(WITNESSES);
    // Room in the month's SMS quota and e-mail balance for the big sends (the quota race sets its own).
    await db.execute(sql`update institution_quotas set sms_monthly_limit = 1000000, email_balance = null`);
    const levels = await rows<{ id: number }>(
      db,
      sql`select l.id from levels l join users u on u.institution_id = l.institution_id where u.email = ${SENDER} order by l.id`,
    );
    picks = levels.map((l) => ({ kind: 'level', id: Number(l.id), audience: 'apoderados' }));
    fleetStartedAt = Date.now();
    const dataDir = path.join(root, 'data');
    outbox = outboxDirOf(dataDir);
    fleet = await startFleet({
      dataDir,
      databaseUrl: databaseUrl(dbName),
      servers: 2,
      workers: 2,
      env: {
        HERMES_DIST_DIR: makeDist(root),
        HERMES_SIM_FAILURE_RATE: '0',
        HERMES_SIM_DELAY_MS: '50',
        HERMES_DELIVERY_RETRY_DELAY: '1',
        SMS_PROVIDER_URL: '',
        WHATSAPP_PROVIDER_URL: '',
      },
    });
  }, 240_000);

  afterAll(async () => {
    fleet?.kill();
    await Promise.all([...(fleet?.servers ?? []), ...(fleet?.workers ?? [])].map((p) => exited(p.child)));
    await handle?.close();
    if (dbName) await dropDatabase(dbName);
    // The fleet's outbox and attachment dirs sit beside its data dir, inside root.
    rmSync(root, { recursive: true, force: true });
  });

  /** The error lines the fleet's processes logged, to say why an expectation failed. */
  const fleetErrors = () =>
    [...(fleet?.servers ?? []), ...(fleet?.workers ?? [])]
      .flatMap((p) => p.output().split('\n'))
      .filter((line) => /error|Error/.test(line))
      .slice(0, 20)
      .join('\n');

  async function login(server: number): Promise<Client> {
    const client = new Client(fleet!.servers[server]!.baseUrl);
    expect((await client.login(SENDER)).status).toBe(200);
    return client;
  }

  /** A message to every guardian of San Andrés on e-mail, SMS and the app. */
  async function bigSend(client: Client, title: string): Promise<{ id: number; deliveries: number }> {
    const res = await send(client, composeInput({ channels: ['e-mail', 'sms', 'app-mobile'], recipients: picks, title }));
    expect(res.status).toBe(201);
    return ((await res.json()) as { data: { id: number; deliveries: number } }).data;
  }

  /** Nothing queued, nothing handed to the simulator without its receipt (the app's wait for the guardian is not work). */
  const pending = (id: number) =>
    count(
      db,
      sql`select count(*)::int as n from deliveries where message_id = ${id}
            and (status = 'queued' or (status = 'sent' and channel <> 'app-mobile'))`,
    );
  const done = (id: number) => pending(id).then((n) => n === 0);

  /** Every delivery with an address ended once: one row per delivery, received (app: handed over), each channel's witness once. */
  async function expectExactlyOnce(id: number, heldByTheDead: ReadonlySet<number> = new Set()): Promise<void> {
    const byStatus = await rows<{ channel: string; status: string; n: number }>(
      db,
      sql`select channel, status, count(*)::int as n from deliveries where message_id = ${id} and address is not null group by 1, 2 order by 1, 2`,
    );
    expect(byStatus.map((r) => `${r.channel}:${r.status}`)).toEqual(['app-mobile:sent', 'e-mail:received', 'sms:received']);
    const moved = await one<{ rows: number; deliveries: number; twice: number; reachable: number }>(
      db,
      sql`select count(*)::int as rows, count(distinct w.delivery_id)::int as deliveries,
            (select count(*) from (select delivery_id from test_worked group by 1 having count(*) > 1) t)::int as twice,
            (select count(*) from deliveries where message_id = ${id} and address is not null)::int as reachable
          from test_worked w join deliveries d on d.id = w.delivery_id where d.message_id = ${id}`,
    );
    // Each delivery left `queued` exactly once, recorded by a worker.
    expect(moved).toEqual({ rows: moved.reachable, deliveries: moved.reachable, twice: 0, reachable: moved.reachable });

    // E-mail: one .eml per delivery, named after its key, none half-written.
    const emails = await rows<{ id: number; generation: number }>(
      db,
      sql`select id, generation from deliveries where message_id = ${id} and channel = 'e-mail' and address is not null`,
    );
    const files = new Set(await emlFiles(outbox));
    expect(emails.filter((d) => !files.has(`hermes-${d.id}-${d.generation}_hermes.local.eml`))).toEqual([]);

    // SMS: one simulator message per delivery (the simulator dedupes on the key; an insert it refused leaves no witness row).
    const sms = await one<{ deliveries: number; sim: number; witnessed: number }>(
      db,
      sql`select
            (select count(*) from deliveries where message_id = ${id} and channel = 'sms' and address is not null)::int as deliveries,
            (select count(*) from provider_sim_messages s join deliveries d on s.reference = 'hermes-' || d.id || '-' || d.generation
               where d.message_id = ${id})::int as sim,
            (select count(*) from test_sim t join deliveries d on t.reference = 'hermes-' || d.id || '-' || d.generation
               where d.message_id = ${id})::int as witnessed`,
    );
    expect(sms).toEqual({ deliveries: sms.deliveries, sim: sms.deliveries, witnessed: sms.deliveries });
    // Every hand-over was recorded by its worker (attempts, the provider's id), even where the receipt came
    // first. Only a job a killed worker held may lack it: the receipt of what it handed over arrived, so the
    // job run again found the delivery done.
    const unrecorded = await rows<{ id: number }>(
      db,
      sql`select d.id from deliveries d left join provider_sim_messages s on s.reference = 'hermes-' || d.id || '-' || d.generation
          where d.message_id = ${id} and d.address is not null
            and (d.attempts = 0 or (d.channel = 'sms' and d.provider_ref is distinct from s.id))`,
    );
    expect(
      unrecorded.map((r) => Number(r.id)).filter((d) => !heldByTheDead.has(d)),
      fleetErrors(),
    ).toEqual([]);

    const recipientsPending = await count(
      db,
      sql`select count(*)::int as n from message_recipients where message_id = ${id} and status = 'pending'`,
    );
    expect(recipientsPending).toBe(0);
  }

  it('works a send started on one server with both workers, each delivery once', { timeout: 180_000 }, async () => {
    const admin = await login(0);
    const sent = await bigSend(admin, 'Corte de agua en el colegio');
    expect(sent.deliveries).toBeGreaterThanOrEqual(2000);
    const ms = await waitFor('todas las entregas', () => done(sent.id), 120_000);
    console.log(`scale-out: ${sent.deliveries} entregas con 2 trabajadores en ${ms} ms`);
    await expectExactlyOnce(sent.id);

    const byProcess = await rows<{ by: string; n: number }>(
      db,
      sql`select w.by, count(*)::int as n from test_worked w join deliveries d on d.id = w.delivery_id where d.message_id = ${sent.id} group by 1 order by 1`,
    );
    console.log(`scale-out: por proceso ${byProcess.map((r) => `${r.by} ${r.n}`).join(', ')}`);
    // Only the workers record deliveries (the servers run none), and both took a real share.
    expect(byProcess.map((r) => r.by)).toEqual(['hermes-worker-0', 'hermes-worker-1']);
    for (const r of byProcess) expect(Number(r.n)).toBeGreaterThan(sent.deliveries / 10);
    const simBy = await rows<{ by: string }>(
      db,
      sql`select distinct t.by from test_sim t join deliveries d on t.reference = 'hermes-' || d.id || '-' || d.generation where d.message_id = ${sent.id} order by 1`,
    );
    expect(simBy.map((r) => r.by)).toEqual(['hermes-worker-0', 'hermes-worker-1']);
  });

  it('kill -9 of a worker mid-send: the other finishes every delivery exactly once within the promised time', {
    timeout: 300_000,
  }, async () => {
    const admin = await login(0);
    const sent = await bigSend(admin, 'Simulacro de evacuación');
    const t0 = Date.now();
    // Cut it down while both workers are busy with the fan-out's deliveries: a fifth done, and the victim
    // among those working (an idle worker polls every 2 s, and the other could do a fifth alone before).
    await waitFor(
      'primeras entregas de ambos trabajadores',
      async () => {
        const finished = await count(
          db,
          sql`select count(*)::int as n from deliveries where message_id = ${sent.id} and status <> 'queued'`,
        );
        const workers = await count(
          db,
          sql`select count(distinct w.by)::int as n from test_worked w join deliveries d on d.id = w.delivery_id where d.message_id = ${sent.id}`,
        );
        return finished >= sent.deliveries / 5 && workers === 2;
      },
      60_000,
    );
    const victim = fleet!.workers[0]!;
    signalGroup(victim.child, 'SIGKILL');
    await exited(victim.child);
    const killedAt = Date.now();
    const left = await pending(sent.id);
    // The dead worker's claimed jobs are among these (the live one's too).
    const active = await rows<{ id: number }>(
      db,
      sql`select (data->>'id')::int as id from pgboss.job where name = ${QUEUES.deliver} and state = 'active'`,
    );
    console.log(`scale-out: trabajador 0 muerto a los ${killedAt - t0} ms, ${left} entregas pendientes, ${active.length} trabajos activos`);
    // The kill landed mid-send, and the dead worker's claimed jobs are part of what is left.
    expect(left).toBeGreaterThan(0);

    // The engine's promise: a dead worker's jobs run again within its lease plus one look by a live process.
    const bound = RECLAIMED_WITHIN_MS + WORK_MARGIN_MS;
    const ms = await waitFor('todas las entregas tras el kill -9', () => done(sent.id), bound);
    console.log(`scale-out: todo entregado ${ms} ms después del kill -9 (cota ${bound} ms)`);
    await expectExactlyOnce(sent.id, new Set(active.map((r) => Number(r.id))));
    const byProcess = await rows<{ by: string }>(
      db,
      sql`select distinct w.by from test_worked w join deliveries d on d.id = w.delivery_id where d.message_id = ${sent.id} order by 1`,
    );
    expect(byProcess.map((r) => r.by)).toEqual(['hermes-worker-0', 'hermes-worker-1']);

    await fleet!.restartWorker(0);
    workerStarts += 1;
  });

  it('kill -9 of the server that took a send before it queued the fan-out: the workers and the other server finish it', {
    timeout: 300_000,
  }, async () => {
    const admin = await login(0);
    const title = 'Reunión de apoderados suspendida';
    // Hold pg-boss's job table so the server commits the send but cannot queue its fan-out; kill it there.
    const holder = new pg.Client({ connectionString: databaseUrl(dbName) });
    await holder.connect();
    let id = 0;
    try {
      await holder.query('begin');
      await holder.query('lock table pgboss.job in share mode');
      const request = send(admin, composeInput({ channels: ['e-mail', 'sms', 'app-mobile'], recipients: picks, title })).catch(() => null);
      await waitFor(
        'el envío confirmado',
        async () => {
          const found = await holder.query<{ id: number }>(`select id from messages where title = $1 and kind = 'sent'`, [title]);
          id = Number(found.rows[0]?.id ?? 0);
          return id > 0;
        },
        60_000,
      );
      const server = fleet!.servers[0]!;
      signalGroup(server.child, 'SIGKILL');
      await exited(server.child);
      expect(await request).toBeNull();
      const fanout = await holder.query(`select 1 from pgboss.job where name = $1 and (data->>'messageId')::int = $2`, [QUEUES.fanout, id]);
      // Nothing but the sweep knows this message is waiting for its fan-out.
      expect(fanout.rowCount).toBe(0);
    } finally {
      await holder.query('rollback').catch(() => {});
      await holder.end();
    }
    const killedAt = Date.now();
    const other = await login(1);
    const ms = await waitFor('todas las entregas sin el servidor', () => done(id), SWEEP_EVERY_MS + WORK_MARGIN_MS + 30_000);
    console.log(`scale-out: envío de un servidor muerto terminado ${Date.now() - killedAt} ms después (${ms} ms esperando)`);
    await expectExactlyOnce(id);
    // The other server answers for it: nothing queued or waiting for its receipt.
    const detail = (await (await other.get(`/api/messages/${id}`)).json()) as { data: { reception: { queued: number } | null } };
    expect(detail.data.reception?.queued).toBe(0);

    await fleet!.restartServer(0);
  });

  /** Both servers signed in, a course of 10+ students, the SMS one message to it costs, and the school's month. */
  async function smsRace() {
    const clients = [await login(0), await login(1)];
    const course = await one<{ id: number }>(
      db,
      sql`select c.id from courses c join users u on u.institution_id = c.institution_id
          where u.email = ${SENDER} and (select count(*) from students s where s.course_id = c.id) >= 10 order by c.id limit 1`,
    );
    const pick: RecipientPick = { kind: 'course', id: Number(course.id), audience: 'apoderados' };
    const estimate = await clients[0]!.post('/api/messages/estimate', composeInput({ channels: ['sms'], recipients: [pick] }));
    const perMessage = ((await estimate.json()) as { data: { sms: { total: number } } }).data.sms.total;
    expect(perMessage).toBeGreaterThan(0);
    const institution = await one<{ id: number; month: string }>(
      db,
      sql`select u.institution_id as id, to_char(now() at time zone i.timezone, 'YYYY-MM') as month
          from users u join institutions i on i.id = u.institution_id where u.email = ${SENDER}`,
    );
    return { clients, pick, perMessage, institution };
  }

  it('lets 50 concurrent sends split across both servers spend at most the month quota', { timeout: 120_000 }, async () => {
    const { clients, pick, perMessage, institution } = await smsRace();
    const used = async () =>
      Number(
        (
          await rows<{ segments: number }>(
            db,
            sql`select segments from sms_usage where institution_id = ${institution.id} and month = ${institution.month}`,
          )
        )[0]?.segments ?? 0,
      );
    // Room for exactly 7 more messages.
    const before = await used();
    await db.execute(
      sql`update institution_quotas set sms_monthly_limit = ${before + perMessage * 7} where institution_id = ${institution.id}`,
    );
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        send(clients[i % 2]!, composeInput({ channels: ['sms'], recipients: [pick], title: `Carrera ${i}` })),
      ),
    );
    const bodies = (await Promise.all(answers.map((r) => r.json()))) as { code?: string; message?: string }[];
    const created = answers.map((r, i) => ({ status: r.status, server: i % 2, body: bodies[i]! }));
    expect(created.filter((a) => a.status === 201)).toHaveLength(7);
    const refused = created.filter((a) => a.status === 409);
    expect(refused).toHaveLength(43);
    for (const a of refused) expect(a.body).toMatchObject({ code: 'compose.quota', message: QUOTA_MESSAGE });
    // The race really ran across both servers: each granted or refused its share of it.
    expect(new Set(created.map((a) => a.server))).toEqual(new Set([0, 1]));
    expect(await used()).toBe(before + perMessage * 7);
  });

  it('lets 50 concurrent sends across both servers, half marked emergency, keep the reserve for the emergencies', {
    timeout: 120_000,
  }, async () => {
    const { clients, pick, perMessage, institution } = await smsRace();
    // This month from nothing: room for 10 messages, 4 of them kept for emergencies (40 %).
    await db.execute(sql`update sms_usage set segments = 0 where institution_id = ${institution.id} and month = ${institution.month}`);
    await db.execute(
      sql`update institution_quotas set sms_monthly_limit = ${perMessage * 10}, sms_reserve_percent = 40 where institution_id = ${institution.id}`,
    );
    try {
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          send(clients[i % 2]!, composeInput({ channels: ['sms'], recipients: [pick], emergency: i % 4 < 2, title: `Reserva ${i}` })),
        ),
      );
      const created = answers.map((r, i) => ({ status: r.status, emergency: i % 4 < 2, server: i % 2 }));
      expect(created.every((a) => a.status === 201 || a.status === 409)).toBe(true);
      // 25 emergencies for 10 places: the limit is reached whatever the order, never passed.
      expect(created.filter((a) => a.status === 201)).toHaveLength(10);
      const normal = created.filter((a) => a.status === 201 && !a.emergency).length;
      expect(normal).toBeLessThanOrEqual(6);
      const segments = await rows<{ segments: number }>(
        db,
        sql`select segments from sms_usage where institution_id = ${institution.id} and month = ${institution.month}`,
      );
      expect(Number(segments[0]!.segments)).toBe(perMessage * 10);
      // Every refusal says why (a normal one: into the reserve or past
      // the limit; an emergency: past the limit).
      const bodies = (await Promise.all(answers.map((r) => r.json()))) as { errors?: { quota?: string[] } }[];
      created.forEach((a, i) => {
        if (a.status !== 409) return;
        const allowed = a.emergency ? ['sms.quota_exceeded'] : ['sms.quota_exceeded', 'sms.reserve_only_emergency'];
        expect(allowed).toContain(bodies[i]!.errors?.quota?.[0]);
      });
    } finally {
      await db.execute(sql`update institution_quotas set sms_reserve_percent = 0 where institution_id = ${institution.id}`);
    }
  });

  // Last: it counts the runs over the whole file. Only the workers sweep (servers with HERMES_WORKERS=0 run
  // no engine workers), and only the servers clean up hourly.
  it('runs the 30-s delivery sweep and the hourly clean-up once across processes, not once per process', async () => {
    const seconds = (Date.now() - fleetStartedAt) / 1000;
    const runs = Object.fromEntries(
      (await rows<{ name: string; runs: number }>(db, sql`select name, runs from periodic_runs`)).map((r) => [r.name, Number(r.runs)]),
    );
    // A claimed run comes at least a period after the last run of any process, so the file's time holds at
    // most this many; the workers' start runs come on top. Once per process would be about twice as many.
    const periods = Math.floor(seconds / (SWEEP_EVERY_MS / 1000));
    console.log(
      `scale-out: en ${Math.round(seconds)} s, barrido ${runs['delivery-sweep']} veces (${workerStarts} al arrancar), limpieza ${runs['hourly-clean-up']}`,
    );
    expect(runs['delivery-sweep']).toBeLessThanOrEqual(workerStarts + periods);
    // And it does run: a tick every 5 s claims a period within 5 s of its end.
    expect(runs['delivery-sweep']).toBeGreaterThanOrEqual(workerStarts + Math.floor(seconds / (SWEEP_EVERY_MS / 1000 + 10)) - 1);
    // Two servers and a restart within the hour: one clean-up.
    expect(runs['hourly-clean-up']).toBe(1);
  });
});
