// message_recipients.reached_at (migration 0013), the roll-up the connectivity dashboard's "cobertura
// efectiva" reads instead of one deliveries lookup per recipient: it must always equal the raw computation
// over the recipient's deliveries (the earliest delivered_at / read_at of those received or read) through
// the delivery engine's own writers — the send, the hand-over (recordOutcomes), receipts (applyReports:
// received, read, not received, a late "delivered" after "read"), failures and "Reintentar fallidos".
// The engine does not run (recording server, as tests/api/reception.test.ts): the test calls its writers.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SendResult } from '../../shared/compose-contract';
import type { Db } from '../../server/db/client';
import {
  applyReports,
  recordOutcomes,
  refreshOwed,
  refreshRecipients,
  rollUpReachedAt,
  type AttemptOutcome,
} from '../../server/reception/status';
import { composeInput } from '../fixtures/compose';
import { one, rows, send } from './support/compose';
import { startRecordingServer } from './support/recording';
import { Client } from './support/server';

let server: Awaited<ReturnType<typeof startRecordingServer>>;
let db: Db;
let admin: Client;
let messageId = 0;

interface Delivery {
  id: number;
  recipient_id: number;
  channel: string;
  status: string;
  generation: number;
}

const deliveries = () =>
  rows<Delivery>(db, sql`select id, recipient_id, channel, status, generation from deliveries where message_id = ${messageId} order by id`);

/** Each recipient's stored roll-up beside the raw computation; they must be equal row by row. */
async function compare(): Promise<{ stored: (string | null)[]; raw: (string | null)[] }> {
  const got = await rows<{ stored: string | null; raw: string | null }>(
    db,
    sql`select r.reached_at::text as stored,
          (select min(least(d.delivered_at, d.read_at)) from deliveries d
           where d.recipient_id = r.id and d.status in ('received', 'read'))::text as raw
        from message_recipients r where r.message_id = ${messageId} order by r.id`,
  );
  return { stored: got.map((r) => r.stored), raw: got.map((r) => r.raw) };
}

async function expectAgrees(reachedAtLeast: number): Promise<void> {
  const { stored, raw } = await compare();
  expect(stored).toEqual(raw);
  expect(stored.filter((v) => v !== null).length).toBeGreaterThanOrEqual(reachedAtLeast);
}

beforeAll(async () => {
  server = await startRecordingServer();
  db = server.db;
  admin = new Client(server.url);
  expect((await admin.login('administrador@sanandres.cl')).status).toBe(200);
  const school = (await one<{ id: number }>(db, sql`select institution_id as id from users where email = 'administrador@sanandres.cl'`)).id;
  const course = (
    await one<{ id: number }>(
      db,
      sql`select c.id from courses c where c.institution_id = ${school}
          and (select count(*) from students s where s.course_id = c.id) >= 6 order by c.id limit 1`,
    )
  ).id;
  const res = await send(
    admin,
    composeInput({
      channels: ['e-mail', 'sms'],
      content: 'Reunión el jueves.',
      recipients: [{ kind: 'course', id: course, audience: 'apoderados' }],
    }),
  );
  expect(res.status).toBe(201);
  messageId = ((await res.json()) as { data: SendResult }).data.id;
  const recipients = await rows<{ id: number }>(db, sql`select id from message_recipients where message_id = ${messageId}`);
  await refreshRecipients(
    db,
    recipients.map((r) => Number(r.id)),
  );
});

afterAll(async () => {
  await server?.close();
});

/** The engine's hand-over: outcomes recorded, then the recipients they left owed refreshed. */
async function handOver(on: Db, outcomes: AttemptOutcome[]): Promise<void> {
  await recordOutcomes(on, outcomes);
  await refreshOwed(on);
}

describe('message_recipients.reached_at', () => {
  it('agrees with the deliveries after the send, hand-over, receipts, failures and a retry', async () => {
    // Sent: nothing reached yet.
    await expectAgrees(0);
    const all = (await deliveries()).filter((d) => d.status === 'queued');
    expect(all.length).toBeGreaterThanOrEqual(8);
    const [mail1, mail2, mail3, ...rest] = all.filter((d) => d.channel === 'e-mail');
    const [sms1, sms2, sms3, sms4] = all.filter((d) => d.channel === 'sms');
    expect([mail1, mail2, mail3, sms1, sms2, sms3, sms4].every(Boolean)).toBe(true);

    // Hand-over: e-mail is received at once (SMTP 250), SMS sent; one e-mail and one SMS fail for good.
    await handOver(db, [
      { id: mail1!.id, generation: 0, status: 'received', error: null, provider_ref: null },
      { id: mail2!.id, generation: 0, status: 'failed', error: 'rejected', provider_ref: null },
      { id: sms1!.id, generation: 0, status: 'sent', error: null, provider_ref: 'p1' },
      { id: sms2!.id, generation: 0, status: 'sent', error: null, provider_ref: 'p2' },
      { id: sms3!.id, generation: 0, status: 'failed', error: 'not_mobile', provider_ref: null },
      ...rest.map((d) => ({ id: d.id, generation: 0, status: 'sent' as const, error: null, provider_ref: null })),
    ]);
    await expectAgrees(1);

    // Receipts: an SMS delivered, another not; a read reported before its "delivered" (the earlier time wins).
    const now = Date.now();
    const t = (minutes: number) => new Date(now - minutes * 60_000);
    await applyReports(db, [
      { deliveryId: sms1!.id, status: 'received', at: t(50) },
      { deliveryId: sms2!.id, status: 'not_received', at: t(49), error: 'undelivered' },
      { deliveryId: sms4!.id, status: 'read', at: t(40) },
    ]);
    await applyReports(db, [{ deliveryId: sms4!.id, status: 'received', at: t(45) }]);
    // Each guardian's e-mail and SMS are one recipient: the first (e-mail, then SMS) and the fourth.
    await expectAgrees(2);
    const sms4Reached = await one<{ v: Date | string }>(
      db,
      sql`select reached_at as v from message_recipients where id = ${sms4!.recipient_id}`,
    );
    expect(new Date(sms4Reached.v).toISOString()).toBe(t(40).toISOString());

    // "Reintentar fallidos": the failed e-mail and SMS queue again (new round), then arrive.
    const retried = await admin.post(`/api/messages/${messageId}/reception/retry`);
    expect(retried.status).toBe(200);
    await expectAgrees(2);
    const again = (await deliveries()).filter((d) => d.status === 'queued');
    expect(again.map((d) => d.id)).toEqual(expect.arrayContaining([mail2!.id, sms2!.id]));
    await handOver(
      db,
      again.map((d) => ({
        id: d.id,
        generation: d.generation,
        status: d.channel === 'e-mail' ? 'received' : 'sent',
        error: null,
        provider_ref: null,
      })),
    );
    await applyReports(
      db,
      again
        .filter((d) => d.channel === 'sms')
        .map((d) => ({ deliveryId: d.id, status: 'received' as const, at: t(5), generation: d.generation })),
    );
    await expectAgrees(3);

    // The bulk writer (seed, bench history, fixtures) computes the same thing: recomputing changes nothing.
    const before = await compare();
    await rollUpReachedAt(db, [messageId]);
    expect(await compare()).toEqual(before);
  });
});
