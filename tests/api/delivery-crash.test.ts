// Kill -9 the real server (a separate `node --import tsx server/main.ts` process on its own PGlite copy) in
// the middle of a fan-out to every guardian of a school, start it again on the same files, and check that
// every delivery completed exactly once: one queue job per delivery, one .eml per e-mail delivery, one simulator message
// per SMS delivery, every row received, nothing left behind. Then the same through a real SMTP server,
// which sees what the outbox hides: how many e-mails the killed server had handed over without recording
// it, received again after the restart.
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEND_STUDENTS } from '../../bench/send';
import { exited, outboxDirOf, signalGroup, startServer, startSmtpSink, stopServer } from '../../bench/support';
import { generateSeed } from '../../server/seed/generate';
import { writeSeed } from '../../server/seed/write';
import type { RecipientPick } from '../../shared/compose-contract';
import { openDb } from '../../server/db/client';
import { DEFAULT_CONFIG } from '../../server/config';
import { SMTP_POOL, tempFileName, THIS_WRITER } from '../../server/delivery/email';
import { RECORD_GROUP } from '../../server/delivery/engine';
import { composeInput } from '../fixtures/compose';
import { count, one, rows, send } from './support/compose';
import { Client, makeDist } from './support/server';
import { pgliteOnly } from './support/pg';
import { makeTempDir } from './support/tmp';

/** The server's settings in this test (over the bench's temp data dir ones): no simulated failures, no real providers. */
const serverEnv = (distDir: string): NodeJS.ProcessEnv => ({
  HERMES_DIST_DIR: distDir,
  HERMES_SIM_FAILURE_RATE: '0',
  HERMES_SIM_DELAY_MS: '50',
  HERMES_DELIVERY_RETRY_DELAY: '1',
  SMS_PROVIDER_URL: '',
  WHATSAPP_PROVIDER_URL: '',
});

const emlFiles = async (dir: string) => (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.eml'));

/** Polls the message's progress until nothing is queued or waiting for a receipt. */
async function waitDelivered(server: Awaited<ReturnType<typeof startServer>>, client: Client, messageId: number): Promise<void> {
  await waitFor(
    'todas las entregas',
    async () => {
      if (server.child.exitCode !== null || server.child.signalCode !== null) throw new Error(`el servidor terminó:\n${server.output()}`);
      // A busy server may drop an idle keep-alive socket just as the next poll reuses it: ask again.
      const detail = await client.get(`/api/messages/${messageId}`).catch(() => null);
      if (!detail) return false;
      const body = (await detail.json()) as { data: { reception: { queued: number; sent: number } | null } };
      const progress = body.data.reception;
      return progress !== null && progress.queued === 0 && progress.sent === 0;
    },
    300_000,
  );
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`${what}: no ocurrió a tiempo`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const SUITE = 'kill -9 in the middle of a 5,000-guardian fan-out';

describe.skipIf(pgliteOnly(SUITE))(SUITE, () => {
  let root = '';
  let distDir = '';
  const children: ChildProcess[] = [];
  let picks: RecipientPick[] = [];

  // Initdb, migrations and a 4,300-student seed: ~12 s alone, 35 s measured on two busy cores, close to the
  // project's 60 s hook limit; the test's own time limit is generous, so is this one.
  beforeAll(async () => {
    root = makeTempDir('hermes-crash-');
    distDir = makeDist(root);
    // San Andrés at 4,300 students (the bench's send size): every level's guardians are ≥ 5,000 people.
    const handle = await openDb({ dataDir: path.join(root, 'pglite'), databaseUrl: '' });
    try {
      await handle.migrate();
      await writeSeed(handle.db, generateSeed({ students: SEND_STUDENTS }));
      const levels = await rows<{ id: number }>(
        handle.db,
        sql`select l.id from levels l join users u on u.institution_id = l.institution_id where u.email = 'administrador@sanandres.cl' order by l.id`,
      );
      picks = levels.map((l) => ({ kind: 'level', id: l.id, audience: 'apoderados' }));
      // Room in the month's SMS quota for all of them.
      await handle.db.execute(sql`update institution_quotas set sms_monthly_limit = 1000000`);
    } finally {
      await handle.close();
    }
  }, 300_000);
  afterAll(() => {
    for (const child of children) signalGroup(child, 'SIGKILL');
    rmSync(root, { recursive: true, force: true });
  });

  it('completes every delivery exactly once after a restart', { timeout: 600_000 }, async () => {
    const dataDir = path.join(root, 'pglite');
    const outbox = outboxDirOf(dataDir);
    const first = await startServer(dataDir, serverEnv(distDir));
    children.push(first.child);
    const admin = new Client(first.baseUrl);
    expect((await admin.login('administrador@sanandres.cl')).status).toBe(200);
    const res = await send(admin, composeInput({ channels: ['e-mail', 'sms'], recipients: picks, title: 'Corte de agua' }));
    expect(res.status).toBe(201);
    const sent = ((await res.json()) as { data: { id: number; recipients: number; deliveries: number } }).data;
    const t0 = Date.now();
    expect(sent.recipients).toBeGreaterThanOrEqual(5000);

    // Cut it down while the queue is working through the fan-out.
    await waitFor('primeros correos', async () => (await emlFiles(outbox)).length >= 500, 120_000);
    signalGroup(first.child, 'SIGKILL');
    await exited(first.child);
    const atKill = (await emlFiles(outbox)).length;
    const leftovers = (await readdir(outbox)).filter((f) => f.endsWith('.tmp'));
    // The kill lands between a write and its rename only now and then; one such file, named for the killed
    // process, makes every run check that the next start removes what a dead writer left.
    const planted = tempFileName('hermes-0-0_hermes.local.eml', { ...THIS_WRITER, pid: first.child.pid! });
    await writeFile(path.join(outbox, planted), 'From: …\n');
    console.log(`crash: ${atKill} correos escritos al matar el proceso, ${leftovers.length} a medio escribir (${Date.now() - t0} ms)`);

    const second = await startServer(dataDir, serverEnv(distDir));
    children.push(second.child);
    const admin2 = new Client(second.baseUrl);
    expect((await admin2.login('administrador@sanandres.cl')).status).toBe(200);
    // Done when nothing is queued or waiting for a receipt (the API's progress of the message).
    await waitDelivered(second, admin2, sent.id);
    console.log(`crash: todo entregado tras el reinicio (${Date.now() - t0} ms)`);
    await stopServer(second.child);

    const handle = await openDb({ dataDir: path.join(root, 'pglite'), databaseUrl: '' });
    try {
      const db = handle.db;
      const reachable = await count(
        db,
        sql`select count(*)::int as n from deliveries where message_id = ${sent.id} and address is not null`,
      );
      const byStatus = await rows<{ channel: string; status: string; n: number }>(
        db,
        sql`select channel, status, count(*)::int as n from deliveries where message_id = ${sent.id} and address is not null group by 1, 2`,
      );
      // Every delivery that had an address was received; none is left queued, in flight or failed.
      expect(byStatus.every((r) => r.status === 'received')).toBe(true);
      expect(byStatus.reduce((sum, r) => sum + Number(r.n), 0)).toBe(reachable);

      // One queue job per delivery (stable ids: queuing again after the restart inserted nothing).
      const jobs = await count(
        db,
        sql`select count(*)::int as n from (select id from pgboss.job where name = 'hermes-deliver' union all select id from pgboss.archive where name = 'hermes-deliver') j`,
      );
      expect(jobs).toBe(reachable);

      // E-mail: exactly one .eml per delivery, named after its key.
      const emails = await rows<{ id: number }>(
        db,
        sql`select id from deliveries where message_id = ${sent.id} and channel = 'e-mail' and address is not null`,
      );
      const files = await emlFiles(outbox);
      expect(files.length).toBe(emails.length);
      expect(new Set(files)).toEqual(new Set(emails.map((d) => `hermes-${d.id}-0_hermes.local.eml`)));
      expect((await readdir(outbox)).filter((f) => f.endsWith('.tmp'))).toEqual([]);

      // SMS: one simulator message per delivery, reported, and the delivery quotes its id.
      const sms = await one<{ deliveries: number; sim: number; matched: number; owed: number }>(
        db,
        sql`select
              (select count(*) from deliveries where message_id = ${sent.id} and channel = 'sms' and address is not null)::int as deliveries,
              (select count(*) from provider_sim_messages)::int as sim,
              (select count(*) from deliveries d join provider_sim_messages s on s.reference = 'hermes-' || d.id || '-' || d.generation and s.id = d.provider_ref
                 where d.message_id = ${sent.id})::int as matched,
              (select count(*) from provider_sim_messages where reported_at is null)::int as owed`,
      );
      expect(sms.sim).toBe(sms.deliveries);
      expect(sms.matched).toBe(sms.deliveries);
      expect(sms.owed).toBe(0);

      // The crash really landed mid-way, and what was in flight was handed over again with the same key.
      expect(atKill).toBeLessThan(emails.length);
      const recipientsPending = await count(
        db,
        sql`select count(*)::int as n from message_recipients where message_id = ${sent.id} and status = 'pending'`,
      );
      expect(recipientsPending).toBe(0);
    } finally {
      await handle.close();
    }
  });

  /**
   * Sent again after the restart: only what the SMTP server had accepted and the killed server had not yet
   * recorded. Those are the messages on the pool's connections whose answer was still on its way (one per
   * connection) and the answers received but not yet committed: the group of the commit in flight and the
   * one gathering behind it, which goes to its commit once it holds RECORD_GROUP (so fewer than that while
   * the database keeps up). The whole concurrency (every e-mail in flight, as when a batch was recorded
   * only once all of it was done) is over the bound.
   */
  const RESENT_BOUND = SMTP_POOL.maxConnections + RECORD_GROUP + (RECORD_GROUP - 1);

  it('a kill -9 mid-send hands over again only the e-mails whose acceptance was not recorded', { timeout: 600_000 }, async () => {
    expect(RESENT_BOUND).toBeLessThan(DEFAULT_CONFIG.deliveryConcurrency);
    const dataDir = path.join(root, 'pglite');
    const smtp = await startSmtpSink();
    try {
      const env = { ...serverEnv(distDir), SMTP_URL: smtp.url };
      const first = await startServer(dataDir, env);
      children.push(first.child);
      const admin = new Client(first.baseUrl);
      expect((await admin.login('administrador@sanandres.cl')).status).toBe(200);
      const res = await send(admin, composeInput({ channels: ['e-mail'], recipients: picks, title: 'Corte de luz' }));
      expect(res.status).toBe(201);
      const sent = ((await res.json()) as { data: { id: number } }).data;

      await waitFor('primeros correos', async () => smtp.ids.length >= 1000, 120_000);
      signalGroup(first.child, 'SIGKILL');
      await exited(first.child);
      const atKill = smtp.ids.length;

      const second = await startServer(dataDir, env);
      children.push(second.child);
      const admin2 = new Client(second.baseUrl);
      expect((await admin2.login('administrador@sanandres.cl')).status).toBe(200);
      await waitDelivered(second, admin2, sent.id);
      await stopServer(second.child);

      const handle = await openDb({ dataDir, databaseUrl: '' });
      let keys: string[];
      try {
        keys = (
          await rows<{ id: number; generation: number }>(
            handle.db,
            sql`select id, generation from deliveries where message_id = ${sent.id} and address is not null and status = 'received'`,
          )
        ).map((d) => `<hermes-${d.id}-${d.generation}@hermes.local>`);
        expect(
          await count(handle.db, sql`select count(*)::int as n from deliveries where message_id = ${sent.id} and address is not null`),
        ).toBe(keys.length);
      } finally {
        await handle.close();
      }
      const unique = new Set(smtp.ids);
      const resent = smtp.ids.length - unique.size;
      console.log(`crash SMTP: ${atKill} correos aceptados al matar el proceso, ${resent} recibidos dos veces`);
      // Every delivery arrived, under its own Message-ID …
      expect(unique).toEqual(new Set(keys));
      expect(atKill).toBeLessThan(keys.length);
      // … and only a handful twice.
      expect(resent).toBeLessThanOrEqual(RESENT_BOUND);
    } finally {
      await smtp.close();
    }
  });
});
