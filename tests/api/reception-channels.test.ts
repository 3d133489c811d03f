// Reception status by channel ("who missed the SMS"): a message sent by e-mail + SMS where the
// e-mails arrived and some SMS did not. A recipient's state is the best of their channels, so the
// "No recibidos" of the whole message is empty while its SMS summary says 3; with `channel=sms` the
// filters, their counts and the list are that channel's deliveries, and they agree with the summary's
// figures for that channel. "Reintentar fallidos" takes the same channel, state and search, and sends
// again only those deliveries. The engine does not run: deliveries move by direct UPDATEs (hand-over) and
// applyReports (receipts), as in reception.test.ts.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SendResult } from '../../shared/compose-contract';
import { CHANNEL_CODES } from '../../shared/codes';
import {
  RECIPIENT_STATUSES,
  type DeliveryProgress,
  type ReceptionPage,
  type ReceptionRow,
  type RetryResult,
} from '../../shared/reception-contract';
import type { Db } from '../../server/db/client';
import { applyReports, refreshRecipients } from '../../server/reception/status';
import { composeInput } from '../fixtures/compose';
import { one, rows, send } from './support/compose';
import { receipt as report, startRecordingServer } from './support/recording';
import { Client } from './support/server';

let server: Awaited<ReturnType<typeof startRecordingServer>>;
let queued: Awaited<ReturnType<typeof startRecordingServer>>['calls']['queued'];
let db: Db;
let admin: Client;
let docente: Client;
let message = 0;

/**
 * Guardians of one course by what happens to them: `lost` (Zoraida first) their SMS not received,
 * `refused` their SMS a reception error, `noPhone` has no mobile (SMS failed, missing address),
 * `bounced` their e-mail a reception error, `waiting` their SMS still handed over; two more received
 * all. Every e-mail but `bounced`'s arrived.
 */
const who = { lost: [] as number[], refused: 0, noPhone: 0, bounced: 0, waiting: 0 };

interface DeliveryRow {
  id: number;
  ref: number;
  channel: string;
  status: string;
  error: string | null;
  generation: number;
}

const deliveries = () =>
  rows<DeliveryRow>(
    db,
    sql`select d.id, r.recipient_ref_id as ref, d.channel, d.status, d.error, d.generation
        from deliveries d join message_recipients r on r.id = d.recipient_id
        where d.message_id = ${message} order by d.id`,
  );
const deliveryOf = async (ref: number, channel: string) =>
  (await deliveries()).find((d) => Number(d.ref) === ref && d.channel === channel)!;

async function reception(query = '', client = admin) {
  const res = await client.get(`/api/messages/${message}/reception${query}`);
  return { status: res.status, body: (await res.json()) as ReceptionPage & { code?: string; errors?: Record<string, string[]> } };
}

/** Every row of a query, page by page. */
async function listed(query: string): Promise<ReceptionRow[]> {
  const out: ReceptionRow[] = [];
  for (let page = 1; ; page++) {
    const { body } = await reception(`?per_page=100&page=${page}&${query}`);
    out.push(...body.data);
    if (page >= body.meta.last_page) return out;
  }
}

/** The guardians (recipient_ref_id) behind rows. */
const refsOf = async (list: ReceptionRow[]) => {
  const map = await rows<{ id: number; ref: number }>(
    db,
    sql`select id, recipient_ref_id as ref from message_recipients where message_id = ${message}`,
  );
  const refOf = new Map(map.map((r) => [Number(r.id), Number(r.ref)]));
  return list.map((r) => refOf.get(r.recipient_id)!).sort((a, b) => a - b);
};
const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

async function retry(body?: unknown, client = admin) {
  const res = await client.post(`/api/messages/${message}/reception/retry`, body);
  return { status: res.status, body: (await res.json()) as { data: RetryResult; code?: string; errors?: Record<string, string[]> } };
}

/** The summary's figure for one recipient state of one channel (pending: queued + handed over). */
const figure = (progress: DeliveryProgress, state: (typeof RECIPIENT_STATUSES)[number]) =>
  state === 'pending' ? progress.queued + progress.sent : progress[state];

beforeAll(async () => {
  server = await startRecordingServer();
  db = server.db;
  queued = server.calls.queued;
  admin = new Client(server.url);
  docente = new Client(server.url);
  expect((await admin.login('administrador@sanandres.cl')).status).toBe(200);
  expect((await docente.login('docente@sanandres.cl')).status).toBe(200);

  const school = (await one<{ id: number }>(db, sql`select institution_id as id from users where email = 'administrador@sanandres.cl'`)).id;
  const course = (
    await one<{ id: number }>(
      db,
      sql`select c.id from courses c where c.institution_id = ${school}
          and (select count(*) from students s where s.course_id = c.id) >= 10 order by c.id limit 1`,
    )
  ).id;
  const guardians = await rows<{ id: number }>(
    db,
    sql`select g.id from guardians g join student_guardians sg on sg.guardian_id = g.id join students s on s.id = sg.student_id
        where s.course_id = ${course} and g.email is not null and g.phone is not null
        group by g.id having count(*) = 1 order by g.id limit 9`,
  );
  expect(guardians).toHaveLength(9);
  const [a, b, c, refused, noPhone, bounced, waiting] = guardians.map((g) => Number(g.id)) as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  Object.assign(who, { lost: [a, b, c], refused, noPhone, bounced, waiting });
  await db.execute(sql`update guardians set first_names = 'Zoraida' where id = ${a}`);
  await db.execute(sql`update guardians set phone = null where id = ${noPhone}`);

  const res = await send(
    admin,
    composeInput({
      channels: ['e-mail', 'sms'],
      content: 'Mañana no hay clases.',
      recipients: guardians.map((g) => ({ kind: 'guardian' as const, id: Number(g.id) })),
    }),
  );
  expect(res.status).toBe(201);
  message = ((await res.json()) as { data: SendResult }).data.id;
  const recipients = await rows<{ id: number }>(db, sql`select id from message_recipients where message_id = ${message}`);
  await refreshRecipients(
    db,
    recipients.map((r) => Number(r.id)),
  );

  // Everything handed over; then the receipts: e-mails arrive (but one), SMS arrive (but the lost, the
  // refused and the one still waiting).
  await db.execute(
    sql`update deliveries set status = 'sent', attempts = 1, sent_at = now() where message_id = ${message} and status = 'queued'`,
  );
  const all = await deliveries();
  const sms = (ref: number) => all.find((d) => Number(d.ref) === ref && d.channel === 'sms')!;
  const email = (ref: number) => all.find((d) => Number(d.ref) === ref && d.channel === 'e-mail')!;
  const special = new Set([...who.lost.map((ref) => sms(ref).id), sms(refused).id, sms(waiting).id, email(bounced).id]);
  await applyReports(db, [
    ...who.lost.map((ref) => report(sms(ref), 'not_received', 'undelivered')),
    report(sms(refused), 'error', 'rejected'),
    report(email(bounced), 'error', 'rejected'),
    ...all.filter((d) => d.status === 'sent' && !special.has(d.id)).map((d) => report(d, 'received')),
  ]);
});

afterAll(async () => {
  await server?.close();
});

describe('GET /messages/:id/reception?channel=', () => {
  it('counts, for every channel and state, exactly the summary’s figure of that channel', async () => {
    const whole = (await reception()).body;
    // The summary per channel: the channels the message used, whose figures add up to the message's.
    expect(whole.meta.channels.map((c) => c.channel)).toEqual(['e-mail', 'sms']);
    for (const key of ['total', 'queued', 'sent', 'received', 'read', 'not_received', 'error', 'failed', 'retryable'] as const) {
      expect(
        whole.meta.channels.reduce((sum, c) => sum + c.progress[key], 0),
        key,
      ).toBe(whole.meta.progress[key]);
    }
    const sms = whole.meta.channels.find((c) => c.channel === 'sms')!.progress;
    expect(sms).toMatchObject({ total: 9, received: 3, not_received: 3, error: 1, failed: 1, sent: 1, state: 'sending', retryable: 4 });
    // What the first report of it saw: by person (the best of their channels) nobody missed the message.
    expect(whole.meta.counts.not_received).toBe(0);

    for (const { channel, progress } of whole.meta.channels) {
      const page = (await reception(`?channel=${channel}`)).body;
      expect(page.meta.channels).toEqual(whole.meta.channels);
      expect(page.meta.progress).toEqual(whole.meta.progress);
      expect(page.meta.counts.all, `${channel} all`).toBe(progress.total);
      expect(page.meta.total).toBe(progress.total);
      for (const state of RECIPIENT_STATUSES) {
        expect(page.meta.counts[state], `${channel} ${state}`).toBe(figure(progress, state));
        // The chip's list holds as many rows as its count, each in that state on that channel.
        const list = await listed(`channel=${channel}&status=${state}`);
        expect(list, `${channel} ${state} rows`).toHaveLength(figure(progress, state));
        for (const row of list) {
          const delivery = row.channels.find((c) => c.channel === channel)!;
          expect(state === 'pending' ? ['queued', 'sent'] : [state]).toContain(delivery.status);
        }
      }
    }
    // A channel the message did not use lists nobody.
    for (const channel of CHANNEL_CODES.filter((c) => c !== 'e-mail' && c !== 'sms')) {
      const page = (await reception(`?channel=${channel}`)).body;
      expect(page.data).toEqual([]);
      expect(Object.values(page.meta.counts).every((n) => n === 0)).toBe(true);
    }
  });

  it('lists exactly who did not get the SMS, with the search and the pages keeping the channel', async () => {
    expect(await refsOf(await listed('channel=sms&status=not_received'))).toEqual(sorted(who.lost));
    expect(await refsOf(await listed('channel=sms&status=error'))).toEqual([who.refused]);
    expect(await refsOf(await listed('channel=sms&status=failed'))).toEqual([who.noPhone]);
    expect(await refsOf(await listed('channel=sms&status=pending'))).toEqual([who.waiting]);
    expect(await refsOf(await listed('channel=e-mail&status=error'))).toEqual([who.bounced]);
    // Every e-mail but one arrived: their e-mail list has nobody "no recibido".
    expect(await listed('channel=e-mail&status=not_received')).toEqual([]);

    const zoraida = (await reception('?channel=sms&status=not_received&q=ZORAIDA')).body;
    expect(await refsOf(zoraida.data)).toEqual([who.lost[0]]);
    expect(zoraida.meta.counts).toMatchObject({ all: 1, not_received: 1 });

    const base = `/api/messages/${message}/reception`;
    const first = (await reception('?channel=sms&status=not_received&per_page=1')).body;
    expect(first.meta).toMatchObject({ total: 3, last_page: 3 });
    expect(first.links).toEqual({
      first: `${base}?channel=sms&status=not_received&page=1&per_page=1`,
      last: `${base}?channel=sms&status=not_received&page=3&per_page=1`,
      prev: null,
      next: `${base}?channel=sms&status=not_received&page=2&per_page=1`,
    });
    const paged = [first.data[0]!];
    for (let next = first.links.next; next; ) {
      const page = (await (await admin.get(next)).json()) as ReceptionPage;
      paged.push(...page.data);
      next = page.links.next;
    }
    expect(await refsOf(paged)).toEqual(sorted(who.lost));
  });

  it('says how many deliveries a retry of the list would send again', async () => {
    expect((await reception('?channel=sms&status=not_received')).body.meta.retryable).toBe(3);
    expect((await reception('?channel=sms&status=received')).body.meta.retryable).toBe(0);
    // The SMS of the lost and the refused; not the one with no phone (nothing to send it to).
    expect((await reception('?channel=sms')).body.meta.retryable).toBe(4);
    expect((await reception('?channel=e-mail')).body.meta.retryable).toBe(1);
    expect((await reception('?channel=sms&q=zoraida')).body.meta.retryable).toBe(1);
    const whole = (await reception()).body.meta;
    expect(whole.retryable).toBe(whole.progress.retryable);
  });

  it('answers an unknown channel with 422, and a stranger with 404 before that', async () => {
    const bad = await reception('?channel=fax&status=perdido');
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors!).sort()).toEqual(['channel', 'status']);
    expect(bad.body.errors!.channel![0]).toBe('El canal debe ser uno de: all, app-mobile, e-mail, sms, whatsapp.');
    expect((await reception('?channel=fax', docente)).status).toBe(404);
  });
});

describe('POST /messages/:id/reception/retry with a channel', () => {
  it('refuses an unknown channel, state or a search too long with 422, changing nothing', async () => {
    const before = await deliveries();
    const bad = await retry({ channel: 'fax', status: 'perdido', q: 'a'.repeat(201) });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors!).sort()).toEqual(['channel', 'q', 'status']);
    expect((await retry('sms')).status).toBe(422);
    expect((await retry({ channel: 'sms' }, docente)).status).toBe(404);
    expect(await deliveries()).toEqual(before);
  });

  it('sends again only that channel’s failed deliveries of the people listed', async () => {
    const sms = (ref: number) => deliveryOf(ref, 'sms');
    const [zoraida, ...others] = who.lost as [number, ...number[]];

    // Searched: only Zoraida's SMS.
    queued.length = 0;
    let res = await retry({ channel: 'sms', status: 'not_received', q: 'zoraida' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ resent: 1, retryable: 0 });
    expect(queued).toEqual([[{ id: (await sms(zoraida)).id, generation: 1 }]]);
    expect(await sms(zoraida)).toMatchObject({ status: 'queued', error: null, generation: 1 });
    for (const ref of others) expect(await sms(ref)).toMatchObject({ status: 'not_received', generation: 0 });

    // "No recibidos" of the SMS: the other two; the refused SMS and the bounced e-mail stay.
    queued.length = 0;
    res = await retry({ channel: 'sms', status: 'not_received' });
    expect(res.body.data).toMatchObject({ resent: 2, retryable: 0 });
    const rounds = await Promise.all(others.map(async (ref) => ({ id: (await sms(ref)).id, generation: 1 })));
    expect(queued).toEqual([rounds.sort((x, y) => x.id - y.id)]);
    for (const ref of who.lost) expect(await sms(ref)).toMatchObject({ status: 'queued', generation: 1 });
    expect(await sms(who.refused)).toMatchObject({ status: 'error', generation: 0 });
    expect(await deliveryOf(who.bounced, 'e-mail')).toMatchObject({ status: 'error', generation: 0 });
    // They are pending again: the SMS chip and the summary say so together.
    const page = (await reception('?channel=sms')).body;
    const progress = page.meta.channels.find((c) => c.channel === 'sms')!.progress;
    expect(res.body.data.channels).toEqual(page.meta.channels);
    expect(res.body.data.progress).toEqual(page.meta.progress);
    expect(progress).toMatchObject({ queued: 3, sent: 1, not_received: 0 });
    expect(page.meta.counts).toMatchObject({ pending: 4, not_received: 0, error: 1 });

    // Every SMS of the list: the refused one (nothing for the one without a phone), no e-mail.
    queued.length = 0;
    res = await retry({ channel: 'sms' });
    expect(res.body.data.resent).toBe(1);
    expect(queued).toEqual([[{ id: (await sms(who.refused)).id, generation: 1 }]]);
    expect(await sms(who.noPhone)).toMatchObject({ status: 'failed', error: 'missing_address', generation: 0 });
    expect(await deliveryOf(who.bounced, 'e-mail')).toMatchObject({ status: 'error', generation: 0 });

    // Without a scope, the whole message, as before: the bounced e-mail.
    queued.length = 0;
    res = await retry();
    expect(res.body.data.resent).toBe(1);
    expect(queued).toEqual([[{ id: (await deliveryOf(who.bounced, 'e-mail')).id, generation: 1 }]]);
  });
});
