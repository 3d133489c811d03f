// Reception state written by several transactions at once: on PostgreSQL, workers record
// batches of outcomes while provider status reports and the guardian app's receipts arrive on other
// connections, over the same deliveries in different orders, for recipients with several channels and
// guardians in several messages. None may fail (a deadlock, 40P01, between two batches locking the same
// rows in opposite orders), and whatever the interleaving a recipient's state must end as the best of its
// deliveries and a guardian's device_misses as their last 3 device deliveries say: computed once more, one
// transaction at a time, nothing changes. On PGlite (one query at a time) the same batches check the end
// state.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SendResult } from '../../shared/compose-contract';
import { transactionRetrying, type Db } from '../../server/db/client';
import type { Logger } from '../../server/log';
import {
  applyReports,
  recordOutcomes,
  refreshDeviceMisses,
  refreshOwed,
  refreshRecipients,
  type AttemptOutcome,
  type DeliveryReport,
  type ReportStatus,
} from '../../server/reception/status';
import { composeInput } from '../fixtures/compose';
import { one, rows, send } from './support/compose';
import { startRecordingServer } from './support/recording';
import { Client } from './support/server';
import { appInUse } from './support/app-use';

let server: Awaited<ReturnType<typeof startRecordingServer>>;
let db: Db;
let admin: Client;
let guardians: number[] = [];

/** A small seeded PRNG: the same batches every run, so a failure can be run again as it was. */
function prng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** What the batches log: a conflict they had to retry shows here (locking in one order should leave none). */
const logged: string[] = [];
const logger: Logger = { error: (m) => void logged.push(m), info: (m) => void logged.push(m), debug: () => {} };

const pick = <T>(items: readonly T[], random: () => number): T => items[Math.floor(random() * items.length)]!;

interface Row {
  id: number;
  channel: string;
  recipient_id: number;
}

/** Sends one message to the guardians on every channel; the engine does not run, so all stay queued. */
async function sendToAll(): Promise<Row[]> {
  const res = await send(
    admin,
    composeInput({
      channels: ['e-mail', 'sms', 'whatsapp', 'app-mobile'],
      content: 'Simulacro de evacuación a las 10:00.',
      recipients: guardians.map((id) => ({ kind: 'guardian' as const, id })),
    }),
  );
  expect(res.status).toBe(201);
  const message = ((await res.json()) as { data: SendResult }).data.id;
  return rows<Row>(db, sql`select id, channel, recipient_id from deliveries where message_id = ${message} order by id`);
}

/** The first SQLSTATE in an error's cause chain (Drizzle wraps the driver's error). */
function sqlState(err: unknown): string {
  for (let e: unknown = err; typeof e === 'object' && e !== null; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return String(err);
}

const recipientStates = (ids: number[]) =>
  rows<{ id: number; status: string }>(
    db,
    sql`select id, status from message_recipients where id = any(${`{${ids.join(',')}}`}::int[]) order by id`,
  );
const deviceMisses = () =>
  rows<{ id: number; device_misses: number }>(
    db,
    sql`select id, device_misses from guardians where id = any(${`{${guardians.join(',')}}`}::int[]) order by id`,
  );

beforeAll(async () => {
  server = await startRecordingServer();
  db = server.db;
  admin = new Client(server.url);
  expect((await admin.login('administrador@sanandres.cl')).status).toBe(200);
  const school = (await one<{ id: number }>(db, sql`select institution_id as id from users where email = 'administrador@sanandres.cl'`)).id;
  const found = await rows<{ id: number }>(
    db,
    sql`select id from guardians where institution_id = ${school} and email is not null and phone is not null order by id limit 24`,
  );
  expect(found).toHaveLength(24);
  guardians = found.map((g) => Number(g.id));
  // Every channel reachable, the app too: four live deliveries per recipient.
  await db.execute(sql`update guardians set app_installed_at = now() where id = any(${`{${guardians.join(',')}}`}::int[])`);
  await appInUse(db, { guardianIds: guardians });
});

afterAll(async () => {
  await server?.close();
});

describe('receipts and recordings at once', () => {
  it('never fail, and leave every recipient and device status as its deliveries say', async () => {
    const random = prng(13);
    const messages = [await sendToAll(), await sendToAll(), await sendToAll()];
    const all = messages.flat();
    const recipients = [...new Set(all.map((d) => Number(d.recipient_id)))];
    expect(all).toHaveLength(3 * 24 * 4);

    // Workers record the hand-over of every delivery, in batches of 24 in no particular order.
    const outcomes: AttemptOutcome[][] = [];
    for (const batch of chunks(shuffled(all, random), 24)) {
      outcomes.push(
        batch.map((d) => {
          const status =
            d.channel === 'e-mail'
              ? pick(['received', 'received', 'failed'] as const, random)
              : pick(['sent', 'sent', 'failed'] as const, random);
          return { id: Number(d.id), generation: 0, status, error: status === 'failed' ? 'rejected' : null, provider_ref: null };
        }),
      );
    }
    // Meanwhile receipts arrive (a fast provider reports before the hand-over is recorded), overlapping
    // the recordings and each other, each in its own order.
    const reports: DeliveryReport[][] = [];
    for (let i = 0; i < 18; i++) {
      reports.push(
        shuffled(all, random)
          .slice(0, 40)
          .map((d) => {
            const status: ReportStatus = pick(['received', 'read', 'not_received', 'not_received', 'error'] as const, random);
            return {
              deliveryId: Number(d.id),
              generation: 0,
              status,
              at: new Date(),
              error: status === 'received' || status === 'read' ? null : 'undelivered',
            };
          }),
      );
    }
    const work = shuffled(
      [
        ...outcomes.map((batch) => () => recordOutcomes(db, batch, logger)),
        ...reports.map((batch) => () => applyReports(db, batch, logger)),
        // The engines' refreshes of the recipients their outcomes left owed, as several workers run them.
        ...Array.from({ length: 6 }, () => () => refreshOwed(db, logger)),
      ],
      random,
    );
    const settled = await Promise.allSettled(work.map((run) => run()));
    expect(settled.flatMap((s) => (s.status === 'rejected' ? [sqlState(s.reason)] : []))).toEqual([]);
    // Not even retried: the batches lock in one order, so none waits for another in a circle.
    expect(logged).toEqual([]);
    // What the last outcomes left owed, refreshed as the engine does after them.
    await refreshOwed(db, logger);
    expect(await rows(db, sql`select id from recipient_refreshes`)).toEqual([]);

    // Every delivery was worked: nothing is left queued.
    const queued = await rows(
      db,
      sql`select id from deliveries where id = any(${`{${all.map((d) => d.id).join(',')}}`}::int[]) and status = 'queued'`,
    );
    expect(queued).toEqual([]);

    // Computed again, one transaction at a time, from the deliveries as they ended: nothing moves.
    const states = await recipientStates(recipients);
    const misses = await deviceMisses();
    await db.transaction(async (tx) => {
      await refreshRecipients(tx, recipients);
      await refreshDeviceMisses(tx, guardians);
    });
    expect(await recipientStates(recipients)).toEqual(states);
    expect(await deviceMisses()).toEqual(misses);
    // And the batches did move them: the check is not of an untouched table.
    expect(new Set(states.map((s) => s.status)).size).toBeGreaterThan(2);
    expect(misses.some((m) => Number(m.device_misses) > 0)).toBe(true);
  });

  it('a recipient whose channels all end at the same instant ends as they say, not one step behind', async () => {
    const sent = await sendToAll();
    await recordOutcomes(
      db,
      sent.map((d) => ({ id: Number(d.id), generation: 0, status: 'sent', error: null, provider_ref: null })),
    );
    // Each channel's report in its own transaction, all at once: each sees the others still "sent"; the
    // engine's refresh of what the hand-over left owed runs among them.
    const settled = await Promise.allSettled([
      ...sent.map((d) =>
        applyReports(
          db,
          [{ deliveryId: Number(d.id), generation: 0, status: 'not_received', at: new Date(), error: 'undelivered' }],
          logger,
        ),
      ),
      refreshOwed(db, logger),
    ]);
    expect(settled.flatMap((s) => (s.status === 'rejected' ? [sqlState(s.reason)] : []))).toEqual([]);
    expect(logged).toEqual([]);
    const recipients = [...new Set(sent.map((d) => Number(d.recipient_id)))];
    expect((await recipientStates(recipients)).filter((r) => r.status !== 'not_received')).toEqual([]);
  });

  it('a transaction PostgreSQL ends as a deadlock victim runs again, up to 3 times, and says so', async () => {
    const deadlock = () => Object.assign(new Error('deadlock detected'), { code: '40P01' });
    logged.length = 0;
    let runs = 0;
    const value = await transactionRetrying(
      db,
      async () => {
        runs++;
        // Wrapped as Drizzle wraps the driver's error.
        if (runs === 1) throw new Error('Failed query', { cause: deadlock() });
        return 'hecho';
      },
      logger,
    );
    expect({ value, runs }).toEqual({ value: 'hecho', runs: 2 });
    expect(logged).toEqual([expect.stringContaining('40P01')]);

    runs = 0;
    await expect(
      transactionRetrying(db, async () => {
        runs++;
        throw deadlock();
      }),
    ).rejects.toThrow('deadlock detected');
    expect(runs).toBe(3);
    // Anything else is not retried.
    runs = 0;
    await expect(
      transactionRetrying(db, async () => {
        runs++;
        throw Object.assign(new Error('unique'), { code: '23505' });
      }),
    ).rejects.toThrow('unique');
    expect(runs).toBe(1);
  });
});

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
