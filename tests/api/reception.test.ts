// Reception status (reception-contract.ts) against the real server: the per-recipient page (shape, filters,
// counts, accent-insensitive search, paging and links), author-only access, the delivery progress in the
// page, the message detail and the sent folder, "retry failed" (new round, quota re-reserved or refused,
// missing addresses re-resolved, concurrent retries, the engine told after commit) and the yellow device
// status read from guardians.device_misses. The engine does not run here: the test moves deliveries the way
// it would, with direct UPDATEs for the hand-over and applyReports for receipts.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Recipients, SendResult } from '../../shared/compose-contract';
import type { Quota } from '../../shared/quota-contract';
import { fold } from '../../shared/fold';
import type { MessageDetail, MessageSummary, Paged } from '../../shared/messages-contract';
import type { ChannelDelivery, ReceptionPage, RetryResult } from '../../shared/reception-contract';
import { SMS_SEGMENTS_PER_MESSAGE } from '../../shared/sms-text';
import type { Db } from '../../server/db/client';
import { applyReports, refreshRecipients } from '../../server/reception/status';
import { composeInput } from '../fixtures/compose';
import { count, one, rows, send } from './support/compose';
import { receipt as report, startRecordingServer, type EngineCalls } from './support/recording';
import { Client } from './support/server';

/** What the routes asked of the (recording) engine. */
let calls: EngineCalls;
let server: Awaited<ReturnType<typeof startRecordingServer>>;
let db: Db;
let admin: Client;
let docente: Client;
let juarez: Client;

const ids = { school: 0, course: 0, message: 0, jose: 0, a: 0, b: 0, fix: 0, none: 0 };

interface DeliveryRow {
  id: number;
  recipient_id: number;
  ref: number;
  channel: string;
  status: string;
  error: string | null;
  address: string | null;
  attempts: number;
  generation: number;
  segments: number;
  last_retry_at: string | null;
}

const deliveriesOf = (messageId: number) =>
  rows<DeliveryRow>(
    db,
    sql`select d.id, d.recipient_id, r.recipient_ref_id as ref, d.channel, d.status, d.error, d.address, d.attempts,
          d.generation, d.segments, d.last_retry_at
        from deliveries d join message_recipients r on r.id = d.recipient_id
        where d.message_id = ${messageId} order by d.id`,
  );
const deliveryOf = async (ref: number, channel: string, messageId = ids.message) =>
  (await deliveriesOf(messageId)).find((d) => Number(d.ref) === ref && d.channel === channel)!;

async function reception(client: Client, query = '', id = ids.message) {
  const res = await client.get(`/api/messages/${id}/reception${query}`);
  return { status: res.status, body: (await res.json()) as ReceptionPage & { code?: string; errors?: Record<string, string[]> } };
}

async function allRows(query = '') {
  const out: ReceptionPage['data'] = [];
  for (let page = 1; ; page++) {
    const { body } = await reception(admin, `?per_page=100&page=${page}${query}`);
    out.push(...body.data);
    if (page >= body.meta.last_page) return out;
  }
}

const rowOf = async (ref: number) => {
  const recipient = await one<{ id: number }>(
    db,
    sql`select id from message_recipients where message_id = ${ids.message} and recipient_ref_id = ${ref} and recipient_kind = 'apoderado'`,
  );
  return (await allRows()).find((r) => r.recipient_id === Number(recipient.id))!;
};

const quota = async () => ((await (await admin.get('/api/quota')).json()) as { data: Quota }).data;
const retry = async (client: Client, id = ids.message) => {
  const res = await client.post(`/api/messages/${id}/reception/retry`);
  return { status: res.status, body: (await res.json()) as { data: RetryResult; code?: string; errors?: Record<string, string[]> } };
};

beforeAll(async () => {
  server = await startRecordingServer();
  db = server.db;
  calls = server.calls;
  admin = new Client(server.url);
  docente = new Client(server.url);
  juarez = new Client(server.url);
  expect((await admin.login('administrador@sanandres.cl')).status).toBe(200);
  expect((await docente.login('docente@sanandres.cl')).status).toBe(200);
  expect((await juarez.login('administrador@benitojuarez.edu.mx')).status).toBe(200);

  ids.school = (await one<{ id: number }>(db, sql`select institution_id as id from users where email = 'administrador@sanandres.cl'`)).id;
  ids.course = (
    await one<{ id: number }>(
      db,
      sql`select c.id from courses c where c.institution_id = ${ids.school}
          and (select count(*) from students s where s.course_id = c.id) >= 8 order by c.id limit 1`,
    )
  ).id;
  // Five guardians of the course with an e-mail and a mobile, each reached through one student only.
  const five = await rows<{ id: number }>(
    db,
    sql`select g.id from guardians g join student_guardians sg on sg.guardian_id = g.id join students s on s.id = sg.student_id
        where s.course_id = ${ids.course} and g.email is not null and g.phone is not null
        group by g.id having count(*) = 1 order by g.id limit 5`,
  );
  expect(five).toHaveLength(5);
  const [jose, a, b, fix, none] = five.map((g) => Number(g.id)) as [number, number, number, number, number];
  Object.assign(ids, { jose, a, b, fix, none });
  await db.execute(sql`update guardians set first_names = 'José Ignacio' where id = ${ids.jose}`);
  await db.execute(sql`update guardians set email = null where id = ${ids.fix}`);
  await db.execute(sql`update guardians set email = null, phone = null where id = ${ids.none}`);

  const res = await send(
    admin,
    composeInput({
      channels: ['e-mail', 'sms'],
      content: 'Mañana no hay clases.',
      recipients: [{ kind: 'course', id: ids.course, audience: 'apoderados' }],
    }),
  );
  expect(res.status).toBe(201);
  ids.message = ((await res.json()) as { data: SendResult }).data.id;
  expect(calls.sent).toEqual([ids.message]);
  // The engine's fan-out settles the recipients whose every channel was born failed (no address at all).
  const recipients = await rows<{ id: number }>(db, sql`select id from message_recipients where message_id = ${ids.message}`);
  await refreshRecipients(
    db,
    recipients.map((r) => Number(r.id)),
  );
});

afterAll(async () => {
  await server?.close();
});

describe('GET /messages/:id/reception', () => {
  it('answers one row per recipient with its channels, addresses and state while the message is sending', async () => {
    const { status, body } = await reception(admin);
    expect(status).toBe(200);
    const recipients = await count(db, sql`select count(*)::int as n from message_recipients where message_id = ${ids.message}`);
    const deliveries = await deliveriesOf(ids.message);
    const missing = deliveries.filter((d) => d.error === 'missing_address').length;
    expect(missing).toBeGreaterThanOrEqual(3);
    expect(body.meta).toMatchObject({ current_page: 1, per_page: 50, total: recipients, last_page: Math.ceil(recipients / 50) });
    expect(body.data).toHaveLength(Math.min(50, recipients));
    expect(body.meta.progress).toEqual({
      total: deliveries.length,
      queued: deliveries.length - missing,
      sent: 0,
      received: 0,
      read: 0,
      not_received: 0,
      error: 0,
      failed: missing,
      state: 'sending',
      // Born without an address: not promised to a retry.
      retryable: 0,
      no_address: missing,
      unreached: 0,
    });
    const failedRecipients = await count(
      db,
      sql`select count(*)::int as n from message_recipients where message_id = ${ids.message} and status = 'failed'`,
    );
    expect(failedRecipients).toBeGreaterThanOrEqual(1);
    expect(body.meta.counts).toEqual({
      all: recipients,
      pending: recipients - failedRecipients,
      received: 0,
      read: 0,
      not_received: 0,
      error: 0,
      failed: failedRecipients,
    });

    const jose = await rowOf(ids.jose);
    const g = await one<{ email: string; phone: string; last_name_father: string }>(
      db,
      sql`select email, phone, last_name_father from guardians where id = ${ids.jose}`,
    );
    expect(jose).toMatchObject({ kind: 'apoderado', status: 'pending', email: g.email, phone: g.phone, group: expect.any(String) });
    expect(jose.name).toMatch(/^José /);
    expect(jose.student_names).toEqual(expect.any(String));
    expect(jose.channels).toEqual([
      {
        channel: 'e-mail',
        status: 'queued',
        address: g.email,
        error: null,
        attempts: 0,
        sent_at: null,
        delivered_at: null,
        read_at: null,
        last_retry_at: null,
        opted_out_at: null,
        blocked_at: null,
      },
      {
        channel: 'sms',
        status: 'queued',
        address: g.phone,
        error: null,
        attempts: 0,
        sent_at: null,
        delivered_at: null,
        read_at: null,
        last_retry_at: null,
        opted_out_at: null,
        blocked_at: null,
      },
    ] satisfies ChannelDelivery[]);
    const none = await rowOf(ids.none);
    expect(none).toMatchObject({ status: 'failed', email: null, phone: null });
    expect(none.channels.map((c) => [c.channel, c.status, c.error, c.address])).toEqual([
      ['e-mail', 'failed', 'missing_address', null],
      ['sms', 'failed', 'missing_address', null],
    ]);
  });

  it('moves with the deliveries: filters and counts per state, ISO timestamps, partially failed at the end', async () => {
    // The engine hands everything over…
    await db.execute(
      sql`update deliveries set status = 'sent', attempts = 1, sent_at = now() where message_id = ${ids.message} and status = 'queued'`,
    );
    // … and the receipts come in; José's SMS last.
    const deliveries = await deliveriesOf(ids.message);
    const josesSms = deliveries.find((d) => Number(d.ref) === ids.jose && d.channel === 'sms')!;
    const special = new Set([ids.a, ids.b]);
    await applyReports(db, [
      report(await deliveryOf(ids.a, 'e-mail'), 'received'),
      report(await deliveryOf(ids.a, 'sms'), 'read'),
      report(await deliveryOf(ids.b, 'sms'), 'not_received', 'undelivered'),
      report(await deliveryOf(ids.b, 'e-mail'), 'error', 'rejected'),
      ...deliveries
        .filter((d) => d.status === 'sent' && !special.has(Number(d.ref)) && d.id !== josesSms.id)
        .map((d) => report(d, 'received')),
    ]);
    let page = (await reception(admin)).body;
    expect(page.meta.progress).toMatchObject({ sent: 1, read: 1, not_received: 1, error: 1, state: 'sending' });

    await applyReports(db, [report(josesSms, 'received')]);
    page = (await reception(admin)).body;
    const missing = deliveries.filter((d) => d.error === 'missing_address').length;
    expect(page.meta.progress).toEqual({
      total: deliveries.length,
      queued: 0,
      sent: 0,
      received: deliveries.length - missing - 3,
      read: 1,
      not_received: 1,
      error: 1,
      failed: missing,
      state: 'partially_failed',
      retryable: 2,
      no_address: missing,
      // People tried on some channel who got it on none.
      unreached: await count(
        db,
        sql`select count(*)::int as n from message_recipients r where r.message_id = ${ids.message}
          and exists (select 1 from deliveries d where d.recipient_id = r.id and d.address is not null)
          and not exists (select 1 from deliveries d where d.recipient_id = r.id and d.status in ('received', 'read', 'queued', 'sent'))`,
      ),
    });
    expect(page.meta.progress.unreached).toBeGreaterThan(0);
    const failedRecipients = page.meta.counts.failed;
    expect(page.meta.counts).toEqual({
      all: page.meta.total,
      pending: 0,
      received: page.meta.total - failedRecipients - 2,
      read: 1,
      not_received: 1,
      error: 0,
      failed: failedRecipients,
    });

    const read = (await reception(admin, '?status=read')).body;
    expect(read.meta.total).toBe(1);
    expect(read.data.map((r) => r.recipient_id)).toEqual([(await rowOf(ids.a)).recipient_id]);
    const channelsOfA = read.data[0]!.channels;
    expect(channelsOfA.map((c) => c.status)).toEqual(['received', 'read']);
    for (const c of channelsOfA) {
      expect(c.sent_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(c.delivered_at).toMatch(/Z$/);
      expect(c.attempts).toBe(1);
    }
    expect(channelsOfA[1]!.read_at).toMatch(/Z$/);
    const notReceived = (await reception(admin, '?status=not_received')).body;
    expect(notReceived.data).toHaveLength(1);
    expect(notReceived.data[0]!.channels.map((c) => [c.status, c.error])).toEqual([
      ['error', 'rejected'],
      ['not_received', 'undelivered'],
    ]);
    const failed = (await reception(admin, '?status=failed')).body;
    expect(failed.data.every((r) => r.status === 'failed')).toBe(true);
    expect(failed.data).toHaveLength(failedRecipients);
    expect(failed.meta.counts).toEqual(page.meta.counts);
    expect((await reception(admin, '?status=pending')).body.data).toEqual([]);
  });

  it('searches names and students accent- and case-insensitively, with counts of the search', async () => {
    const everyone = await allRows();
    const matching = (needle: string) => everyone.filter((r) => fold(`${r.name} ${r.student_names ?? ''}`).includes(needle));
    for (const q of ['jose', 'JOSÉ', 'José']) {
      const { body } = await reception(admin, `?per_page=100&q=${encodeURIComponent(q)}`);
      expect(body.data.map((r) => r.recipient_id)).toEqual(matching('jose').map((r) => r.recipient_id));
      expect(body.data.some((r) => r.name.startsWith('José '))).toBe(true);
      expect(body.meta.counts.all).toBe(body.meta.total);
    }
    // By a student's surname, written without its accents and in capitals.
    const b = await rowOf(ids.b);
    const surname = b.student_names!.split(' ')[1]!;
    const { body } = await reception(admin, `?per_page=100&q=${encodeURIComponent(fold(surname).toUpperCase())}`);
    expect(body.data.map((r) => r.recipient_id)).toEqual(matching(fold(surname)).map((r) => r.recipient_id));
    expect(body.data.map((r) => r.recipient_id)).toContain(b.recipient_id);
    expect(body.meta.counts.not_received).toBe(1);
    expect(body.meta.counts.all).toBe(body.data.length);
    // Search and filter together; LIKE wildcards are plain characters.
    expect(
      (await reception(admin, `?q=${encodeURIComponent(fold(surname))}&status=read`)).body.data.every((r) => r.status === 'read'),
    ).toBe(true);
    expect((await reception(admin, '?q=%25')).body.meta.total).toBe(0);
    expect((await reception(admin, '?q=zzzzqqq')).body).toMatchObject({ data: [], meta: { total: 0, last_page: 1 } });
  });

  it('pages with Laravel links that keep the filter and the search', async () => {
    const everyone = await allRows();
    const total = everyone.length;
    const first = (await reception(admin, '?per_page=3')).body;
    expect(first.meta).toMatchObject({ current_page: 1, per_page: 3, total, last_page: Math.ceil(total / 3) });
    expect(first.data.map((r) => r.recipient_id)).toEqual(everyone.slice(0, 3).map((r) => r.recipient_id));
    const base = `/api/messages/${ids.message}/reception`;
    expect(first.links).toEqual({
      first: `${base}?page=1&per_page=3`,
      last: `${base}?page=${Math.ceil(total / 3)}&per_page=3`,
      prev: null,
      next: `${base}?page=2&per_page=3`,
    });
    const second = (await (await admin.get(first.links.next!)).json()) as ReceptionPage;
    expect(second.data.map((r) => r.recipient_id)).toEqual(everyone.slice(3, 6).map((r) => r.recipient_id));
    expect(second.links.prev).toBe(`${base}?page=1&per_page=3`);
    const last = (await (await admin.get(first.links.last)).json()) as ReceptionPage;
    expect(last.links.next).toBeNull();
    expect(last.data.at(-1)!.recipient_id).toBe(everyone.at(-1)!.recipient_id);
    const filtered = (await reception(admin, '?status=failed&q=a&per_page=1')).body;
    expect(filtered.links.first).toBe(`${base}?status=failed&q=a&page=1&per_page=1`);
    const beyond = (await reception(admin, `?per_page=3&page=${Math.ceil(total / 3) + 5}`)).body;
    expect(beyond.data).toEqual([]);
    expect(beyond.links.next).toBeNull();
  });

  it('answers bad parameters with 422 and Spanish messages', async () => {
    const bad = await reception(admin, '?status=perdido&page=0&per_page=101');
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe('validation.failed');
    expect(Object.keys(bad.body.errors!).sort()).toEqual(['page', 'per_page', 'status']);
    expect(bad.body.errors!.per_page).toEqual(['La cantidad por página debe ser un número entero entre 1 y 100.']);
    expect(bad.body.errors!.status![0]).toMatch(/^El estado debe ser uno de: all, pending/);
    expect((await reception(admin, '?page=dos')).status).toBe(422);
    expect((await reception(admin, `?q=${'a'.repeat(201)}`)).body.errors).toEqual({
      q: ['La búsqueda no puede superar los 200 caracteres.'],
    });
    expect((await reception(admin, '?per_page=100')).status).toBe(200);
  });

  it('is the author’s only: colleagues, other schools, recipients and unknown ids get 404', async () => {
    for (const client of [docente, juarez]) {
      expect((await reception(client)).status).toBe(404);
      expect((await reception(client, '?status=perdido')).status).toBe(404);
      expect((await retry(client)).status).toBe(404);
    }
    expect((await reception(admin, '', 999_999)).status).toBe(404);
    expect((await admin.get('/api/messages/abc/reception')).status).toBe(404);
    // A message the admin received (in their inbox, someone else's) and one still a draft.
    const inbox = await one<{ id: number }>(
      db,
      sql`select e.message_id as id from mailbox_entries e join users u on u.id = e.user_id
          where u.email = 'administrador@sanandres.cl' and e.folder = 'inbox' limit 1`,
    );
    expect((await reception(admin, '', inbox.id)).status).toBe(404);
    const draft = await one<{ id: number }>(
      db,
      sql`select m.id from messages m join users u on u.id = m.author_user_id where u.email = 'administrador@sanandres.cl' and m.kind = 'draft' limit 1`,
    );
    expect((await reception(admin, '', draft.id)).status).toBe(404);
    expect((await retry(admin, draft.id)).status).toBe(404);
    const res = await fetch(`${server.url}/api/messages/${ids.message}/reception`);
    expect(res.status).toBe(401);
  });
});

describe('progress in the message detail and the sent folder', () => {
  it('shows the progress on the author’s detail and sent rows, null elsewhere; sent when all arrived', async () => {
    const page = (await reception(admin)).body;
    const detail = ((await (await admin.get(`/api/messages/${ids.message}`)).json()) as { data: MessageDetail }).data;
    expect(detail.reception).toEqual(page.meta.progress);
    expect(detail.progress).toEqual(page.meta.progress);

    // A second message, to one guardian by e-mail, that arrives entirely.
    const res = await send(
      admin,
      composeInput({ title: 'Solo a uno', channels: ['e-mail'], recipients: [{ kind: 'guardian', id: ids.a }] }),
    );
    const other = ((await res.json()) as { data: SendResult }).data.id;
    const [d] = await deliveriesOf(other);
    expect((await reception(admin, '', other)).body.meta.progress.state).toBe('sending');
    await db.execute(sql`update deliveries set status = 'sent', attempts = 1 where id = ${d!.id}`);
    await applyReports(db, [report(d!, 'received')]);
    const done = (await reception(admin, '', other)).body.meta.progress;
    expect(done).toMatchObject({ total: 1, received: 1, state: 'sent', retryable: 0 });

    const sent = (await (await admin.get('/api/messages?folder=sent&limit=100')).json()) as Paged<MessageSummary>;
    const byId = new Map(sent.data.map((m) => [m.id, m]));
    expect(byId.get(ids.message)!.progress).toEqual(page.meta.progress);
    expect(byId.get(other)!.progress).toEqual(done);
    expect(sent.data.every((m) => m.progress !== null && m.progress.total >= 0)).toBe(true);
    // The seeded history has the deliveries a send writes: one per person and channel.
    const seeded = sent.data.find((m) => m.id !== ids.message && m.id !== other)!;
    const seededDetail = ((await (await admin.get(`/api/messages/${seeded.id}`)).json()) as { data: MessageDetail }).data;
    expect(seeded.progress!.total).toBe(seededDetail.recipients_summary.total * seeded.channels.length);

    const inbox = (await (await admin.get('/api/messages?folder=inbox')).json()) as Paged<MessageSummary>;
    expect(inbox.data.length).toBeGreaterThan(0);
    expect(inbox.data.every((m) => m.progress === null)).toBe(true);
    const inboxDetail = ((await (await admin.get(`/api/messages/${inbox.data[0]!.id}`)).json()) as { data: MessageDetail }).data;
    expect(inboxDetail.reception).toBeNull();
  });
});

describe('POST /messages/:id/reception/retry', () => {
  it('queues the failed deliveries again as a new round, re-resolving fixed addresses and re-reserving quota', async () => {
    const newEmail = 'apoderado.corregido@example.cl';
    await db.execute(sql`update guardians set email = ${newEmail} where id = ${ids.fix}`);
    const before = { quota: await quota(), rows: await deliveriesOf(ids.message) };
    const bSms = before.rows.find((d) => Number(d.ref) === ids.b && d.channel === 'sms')!;
    const bMail = before.rows.find((d) => Number(d.ref) === ids.b && d.channel === 'e-mail')!;
    const fixMail = before.rows.find((d) => Number(d.ref) === ids.fix && d.channel === 'e-mail')!;
    expect(fixMail).toMatchObject({ status: 'failed', error: 'missing_address', address: null });
    // Still without any address: stays as it is.
    const stillMissing = before.rows.filter((d) => d.error === 'missing_address' && d.id !== fixMail.id);
    calls.queued.length = 0;

    const { status, body } = await retry(admin);
    expect(status).toBe(200);
    expect(body.data.resent).toBe(2);
    expect(calls.queued).toEqual([[bMail, bSms, fixMail].map((d) => ({ id: d.id, generation: 1 })).sort((x, y) => x.id - y.id)]);

    const after = await deliveriesOf(ids.message);
    const byId = new Map(after.map((d) => [d.id, d]));
    for (const d of [bSms, bMail, fixMail]) {
      const now = byId.get(d.id)!;
      expect(now).toMatchObject({ status: 'queued', error: null, generation: 1, attempts: d.attempts });
      expect(now.last_retry_at).not.toBeNull();
    }
    expect(byId.get(fixMail.id)!.address).toBe(newEmail);
    expect(byId.get(bSms.id)!).toMatchObject({ address: bSms.address, segments: SMS_SEGMENTS_PER_MESSAGE });
    for (const d of stillMissing)
      expect(byId.get(d.id)).toMatchObject({ status: 'failed', error: 'missing_address', generation: 0, last_retry_at: null });
    for (const d of before.rows.filter((x) => ![bSms.id, bMail.id, fixMail.id].includes(x.id))) {
      expect(byId.get(d.id)).toMatchObject({ status: d.status, generation: d.generation });
    }

    const q = await quota();
    expect(q.sms.used).toBe(before.quota.sms.used + SMS_SEGMENTS_PER_MESSAGE);
    expect(q.email.remaining).toBe(before.quota.email.remaining === null ? null : before.quota.email.remaining - 2);

    expect(body.data.progress).toMatchObject({
      queued: 3,
      not_received: 0,
      error: 0,
      failed: stillMissing.length,
      state: 'sending',
      retryable: 0,
    });
    expect((await rowOf(ids.b)).status).toBe('pending');
    // Its SMS arrived already: the best channel decides.
    expect(await rowOf(ids.fix)).toMatchObject({ status: 'received', email: newEmail });
    expect((await reception(admin)).body.meta.progress).toEqual(body.data.progress);

    // A late receipt of the old round (a provider repeating its report) must not mark the new one.
    expect(await applyReports(db, [{ ...report(bSms, 'received'), generation: 0 }])).toEqual([]);
    expect(byId.get(bSms.id)!.status).toBe('queued');
    expect((await deliveriesOf(ids.message)).find((d) => d.id === bSms.id)).toMatchObject({ status: 'queued', generation: 1 });

    // Nothing left that can go: 0 is an answer, and nothing is reserved or queued.
    calls.queued.length = 0;
    const again = await retry(admin);
    expect(again.body.data.resent).toBe(0);
    expect(calls.queued).toEqual([]);
    expect((await quota()).sms.used).toBe(q.sms.used);
  });

  it('refuses with 409 compose.quota when the quota does not cover it, changing nothing', async () => {
    const bSms = await deliveryOf(ids.b, 'sms');
    await db.execute(sql`update deliveries set status = 'sent', attempts = attempts + 1 where id = ${bSms.id}`);
    await applyReports(db, [report(bSms, 'not_received', 'undelivered')]);
    const q = await quota();
    await db.execute(sql`update institution_quotas set sms_monthly_limit = ${q.sms.used} where institution_id = ${ids.school}`);
    try {
      calls.queued.length = 0;
      const { status, body } = await retry(admin);
      expect(status).toBe(409);
      expect(body).toMatchObject({ code: 'compose.quota', errors: { quota: ['sms.quota_exceeded'] } });
      expect(await deliveryOf(ids.b, 'sms')).toMatchObject({ status: 'not_received', error: 'undelivered', generation: 1, attempts: 2 });
      expect((await quota()).sms.used).toBe(q.sms.used);
      expect(calls.queued).toEqual([]);
    } finally {
      await db.execute(sql`update institution_quotas set sms_monthly_limit = ${q.sms.limit} where institution_id = ${ids.school}`);
    }
  });

  it('does not queue a round twice when two retries race', async () => {
    const q = await quota();
    calls.queued.length = 0;
    const [one1, two] = await Promise.all([retry(admin), retry(admin)]);
    expect([one1.status, two.status]).toEqual([200, 200]);
    expect(one1.body.data.resent + two.body.data.resent).toBe(1);
    const bSms = await deliveryOf(ids.b, 'sms');
    expect(bSms).toMatchObject({ status: 'queued', generation: 2, attempts: 2 });
    expect(calls.queued).toEqual([[{ id: bSms.id, generation: 2 }]]);
    expect((await quota()).sms.used).toBe(q.sms.used + SMS_SEGMENTS_PER_MESSAGE);
  });
});

describe('device status', () => {
  it('turns a guardian yellow after 3 device deliveries not received, and back when one arrives', async () => {
    const target = await one<{ id: number }>(
      db,
      sql`select g.id from guardians g where g.institution_id = ${ids.school} and g.app_installed_at is not null
          and g.phone is not null and g.device_misses = 0
          and g.id <> all(${`{${[ids.jose, ids.a, ids.b, ids.fix, ids.none].join(',')}}`}::int[]) order by g.id limit 1`,
    );
    const statusOf = async () => {
      const { data } = (await (await admin.get('/api/recipients')).json()) as { data: Recipients };
      return data.courses.flatMap((c) => c.apoderados).find((g) => g.id === Number(target.id))!.device_status;
    };
    expect(await statusOf()).toBe('blue');
    const messages: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await send(
        admin,
        composeInput({
          title: `Aviso ${i}`,
          channels: ['sms'],
          content: 'Hola',
          recipients: [{ kind: 'guardian', id: Number(target.id) }],
        }),
      );
      expect(res.status).toBe(201);
      const id = ((await res.json()) as { data: SendResult }).data.id;
      messages.push(id);
      const [d] = await deliveriesOf(id);
      await db.execute(sql`update deliveries set status = 'sent', attempts = 1 where id = ${d!.id}`);
      await applyReports(db, [report(d!, 'not_received', 'undelivered')]);
      const misses = (await one<{ n: number }>(db, sql`select device_misses as n from guardians where id = ${target.id}`)).n;
      expect(misses).toBe(i + 1);
      expect(await statusOf()).toBe(i < 2 ? 'blue' : 'yellow');
      // The reception view shows the same colour on the guardian's row.
      const page = (await (await admin.get(`/api/messages/${id}/reception`)).json()) as { data: { kind: string; device: string | null }[] };
      expect(page.data.map((r) => r.device)).toEqual([i < 2 ? 'blue' : 'yellow']);
    }
    // Retrying the last one and getting it through ends the streak.
    expect((await retry(admin, messages[2]!)).body.data.resent).toBe(1);
    const [d] = await deliveriesOf(messages[2]!);
    await applyReports(db, [report(d!, 'received')]);
    expect(await statusOf()).toBe('blue');
  });
});

describe('who each row is about', () => {
  it("names a guardian's child and a student with their course, in full, so two children of one name are told apart", async () => {
    // José's one child, as the folders name people (first given name and both surnames), and the course.
    const child = await one<{ name: string; course: string }>(
      db,
      sql`select split_part(s.first_names, ' ', 1) || ' ' || s.last_name_father || ' ' || s.last_name_mother as name, c.name as course
          from student_guardians sg join students s on s.id = sg.student_id join courses c on c.id = s.course_id
          where sg.guardian_id = ${ids.jose}`,
    );
    expect((await rowOf(ids.jose)).students).toEqual([{ name: child.name, course: child.course }]);

    // A message to the students of a course whose students have an e-mail: each row names the student and the course.
    const course = await one<{ id: number; name: string }>(
      db,
      sql`select c.id, c.name from courses c where c.institution_id = ${ids.school}
          and exists (select 1 from students s where s.course_id = c.id and s.email is not null) order by c.id limit 1`,
    );
    const res = await send(
      admin,
      composeInput({ channels: ['e-mail'], content: 'Hola', recipients: [{ kind: 'course', id: course.id, audience: 'estudiantes' }] }),
    );
    expect(res.status).toBe(201);
    const id = ((await res.json()) as { data: SendResult }).data.id;
    const { body } = await reception(admin, '?per_page=100', id);
    expect(body.data.length).toBeGreaterThan(0);
    for (const row of body.data) expect(row.students).toEqual([{ name: row.name, course: course.name }]);
  });
});

describe('reads still awaited', () => {
  it('counts WhatsApp and app deliveries received within the hour and not read; not e-mail, not read, not older', async () => {
    const res = await send(
      admin,
      composeInput({
        channels: ['e-mail', 'whatsapp'],
        content: 'Reunión de apoderados el jueves.',
        recipients: [
          { kind: 'guardian', id: ids.a },
          { kind: 'guardian', id: ids.b },
          { kind: 'guardian', id: ids.jose },
        ],
      }),
    );
    expect(res.status).toBe(201);
    const id = ((await res.json()) as { data: SendResult }).data.id;
    const awaiting = async () => (await reception(admin, '', id)).body.meta.awaiting_reads;
    // Queued, then handed over: nothing received yet.
    expect(await awaiting()).toBe(0);
    await db.execute(
      sql`update deliveries set status = 'sent', attempts = 1, sent_at = now() where message_id = ${id} and status = 'queued'`,
    );
    expect(await awaiting()).toBe(0);

    const deliveries = await deliveriesOf(id);
    const whatsapp = deliveries.filter((d) => d.channel === 'whatsapp');
    expect(whatsapp).toHaveLength(3);
    await applyReports(db, [...deliveries.map((d) => report(d, 'received'))]);
    // Three WhatsApp received; the e-mails report no reads and are not waited for.
    expect(await awaiting()).toBe(3);
    expect((await reception(admin, '', id)).body.meta.progress.state).toBe('sent');

    await applyReports(db, [report(whatsapp[0]!, 'read')]);
    expect(await awaiting()).toBe(2);
    // A receipt of 61 minutes ago is no longer waited for; one of 59 still is.
    await db.execute(sql`update deliveries set delivered_at = now() - interval '61 minutes' where id = ${whatsapp[1]!.id}`);
    await db.execute(sql`update deliveries set delivered_at = now() - interval '59 minutes' where id = ${whatsapp[2]!.id}`);
    expect(await awaiting()).toBe(1);
    // The app is read-reporting too.
    await db.execute(sql`update deliveries set channel = 'app-mobile' where id = ${whatsapp[2]!.id}`);
    expect(await awaiting()).toBe(1);
    await db.execute(sql`update deliveries set delivered_at = now() - interval '2 hours' where id = ${whatsapp[2]!.id}`);
    expect(await awaiting()).toBe(0);
    // The page's other figures do not carry it: a filter or a channel leaves the whole message's count.
    await db.execute(sql`update deliveries set delivered_at = now() where id = ${whatsapp[1]!.id}`);
    expect((await reception(admin, '?channel=e-mail&status=read', id)).body.meta.awaiting_reads).toBe(1);
  });
});
