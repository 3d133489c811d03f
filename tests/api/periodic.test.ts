// Periodic jobs run once per period across every process on the database (server/db/periodic.ts): the
// 30-s delivery sweep and the hourly clean-up used to run once per process, so four processes swept four
// times as often, at once. Here two "processes" are two connections pools on one PostgreSQL database (on
// PGlite, which one process owns, two timers on its one handle).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimRun, startPeriodic, TICKS_PER_PERIOD } from '../../server/db/periodic';
import type { Db } from '../../server/db/client';
import { createDelivery } from '../../server/delivery/setup';
import { createLogger } from '../../server/log';
import { AttachmentStore } from '../../server/storage/attachments';
import { one } from './support/compose';
import { openSharedCopy, testConfig } from './support/server';

const logger = createLogger('silent');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('periodic jobs across processes', () => {
  let shared: Awaited<ReturnType<typeof openSharedCopy>>;
  /** The two processes' databases. */
  let dbs: [Db, Db];

  beforeAll(async () => {
    shared = await openSharedCopy();
    dbs = shared.dbs;
  });
  afterAll(async () => {
    await shared?.dispose();
  });

  const runsOf = async (name: string) =>
    Number(
      (await one<{ runs: number | null }>(dbs[0], sql`select (select runs from periodic_runs where name = ${name}) as runs`)).runs ?? 0,
    );

  it('a period is claimed once; the next only when the period has passed', async () => {
    expect(await claimRun(dbs[0], 'claim-once', 60_000)).toBe(true);
    expect(await claimRun(dbs[1], 'claim-once', 60_000)).toBe(false);
    expect(await claimRun(dbs[0], 'claim-once', 60_000)).toBe(false);
    await dbs[0].execute(sql`update periodic_runs set ran_at = ran_at - interval '61 seconds' where name = 'claim-once'`);
    expect(await claimRun(dbs[1], 'claim-once', 60_000)).toBe(true);
    expect(await runsOf('claim-once')).toBe(2);
  });

  it('of 20 processes claiming at the same moment, exactly one wins, the first time and later', async () => {
    const race = () => Promise.all(Array.from({ length: 20 }, (_, i) => claimRun(dbs[i % 2]!, 'claim-race', 60_000)));
    expect((await race()).filter(Boolean)).toHaveLength(1);
    await dbs[0].execute(sql`update periodic_runs set ran_at = ran_at - interval '61 seconds' where name = 'claim-race'`);
    expect((await race()).filter(Boolean)).toHaveLength(1);
    expect(await runsOf('claim-race')).toBe(2);
  });

  it('two processes ticking the same job run it once per period between them, not once each', async () => {
    const everyMs = 400;
    const ran: number[] = [0, 0];
    const timers = dbs.map((db, i) =>
      startPeriodic({ db, logger, name: 'two-timers', label: 'prueba', everyMs, run: async () => void ran[i]!++ }),
    );
    const started = Date.now();
    await sleep(2000);
    for (const t of timers) t.stop();
    const elapsed = Date.now() - started;
    const total = ran[0]! + ran[1]!;
    // Every run was claimed, and claims are at least a period apart: at most one per period (plus the
    // first at start). Each timer alone ticks TICKS_PER_PERIOD times a period, so per-process runs would
    // be twice this or more.
    expect(total).toBe(await runsOf('two-timers'));
    expect(total).toBeLessThanOrEqual(Math.floor(elapsed / everyMs) + 1);
    // And the job did run on time: a run at most one tick after each period ended (slack for a busy CI).
    expect(total).toBeGreaterThanOrEqual(Math.floor(elapsed / (everyMs * (1 + 2 / TICKS_PER_PERIOD))));
  });

  it('a job that runs at start runs as the process starts, claimed or not, and its period starts then', async () => {
    await claimRun(dbs[1], 'at-start', 60_000);
    let calls = 0;
    const timer = startPeriodic({
      db: dbs[0],
      logger,
      name: 'at-start',
      label: 'prueba',
      everyMs: 60_000,
      atStart: true,
      run: async () => void calls++,
    });
    await sleep(300);
    timer.stop();
    expect(calls).toBe(1);
    expect(await runsOf('at-start')).toBe(2);
    // Another process ticking now finds the period taken by that start.
    expect(await claimRun(dbs[1], 'at-start', 60_000)).toBe(false);
  });

  it('a job that fails is logged, not thrown, and the next period runs it again', async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const timer = startPeriodic({
      db: dbs[0],
      logger: { ...logger, error: (_: string, err?: unknown) => void errors.push(err) },
      name: 'failing',
      label: 'prueba',
      everyMs: 300,
      run: async () => {
        calls++;
        throw new Error('falla de prueba');
      },
    });
    await sleep(800);
    timer.stop();
    expect(calls).toBeGreaterThanOrEqual(2);
    expect(errors.length).toBe(calls);
  });

  it("two delivery engines on one database share the sweep's period", async () => {
    const { copy } = shared;
    const config = testConfig({ attachmentsDir: copy.attachmentsDir, outboxDir: `${copy.root}/outbox` });
    const store = new AttachmentStore(config.attachmentsDir);
    const engines = shared.handles.map((handle) => createDelivery({ handle, config, logger, store, engine: { sweepEveryMs: 500 } }));
    const started = Date.now();
    for (const d of engines) {
      d.bindApp(() => new Response(null, { status: 204 }));
      await d.start();
    }
    await sleep(2000);
    for (const d of engines) await d.stop();
    // Each engine sweeps once as it starts (a restart catches up at once); after that, once per period.
    const runs = await runsOf('delivery-sweep');
    expect(runs).toBeGreaterThanOrEqual(3);
    expect(runs).toBeLessThanOrEqual(Math.floor((Date.now() - started) / 500) + 2);
  });
});
