// The delivery engine end to end on the real server (PGlite, pg-boss, workers in process): a sent message's
// deliveries go through the .eml outbox, the provider simulator with its status webhook, and the app channel;
// SMTP errors are retried with backoff or fail at once; scheduled messages fire at their time, also after
// a restart; 50 concurrent sends never spend more SMS than the month's quota.
import { readdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecipientPick } from '../../shared/compose-contract';
import { SMS_SEGMENTS_PER_MESSAGE } from '../../shared/sms-text';
import { createDelivery } from '../../server/delivery/setup';
import { createLogger } from '../../server/log';
import { AttachmentStore } from '../../server/storage/attachments';
import { composeInput } from '../fixtures/compose';
import { count, one, rows, send } from './support/compose';
import { startServer, testConfig, type Client, type TestServer } from './support/server';
import { eventually } from './support/wait';

const statusCounts = async (server: TestServer, messageId: number) =>
  Object.fromEntries(
    (
      await rows<{ key: string; n: number }>(
        server.db,
        sql`select channel || ':' || status as key, count(*)::int as n from deliveries where message_id = ${messageId} group by 1`,
      )
    ).map((r) => [r.key, Number(r.n)]),
  ) as Record<string, number>;

/** Deliveries still in flight, and recipients the engine still owes a refresh (it refreshes them after). */
const inFlight = (server: TestServer, messageId: number) =>
  count(
    server.db,
    sql`select (select count(*) from deliveries where message_id = ${messageId} and status in ('queued', 'sent') and channel <> 'app-mobile')::int
      + (select count(*) from recipient_refreshes)::int as n`,
  );

async function courseOf(server: TestServer, email: string): Promise<RecipientPick> {
  const course = await one<{ id: number }>(
    server.db,
    sql`select c.id from courses c join users u on u.institution_id = c.institution_id
        where u.email = ${email} and (select count(*) from students s where s.course_id = c.id) >= 10 order by c.id limit 1`,
  );
  return { kind: 'course', id: course.id, audience: 'apoderados' };
}

async function sendOk(client: Client, body: object, path?: '/api/messages/schedule'): Promise<number> {
  const res = await send(client, body, undefined, path);
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: { id: number } }).data.id;
}

describe('delivery through the default channels', () => {
  let server: TestServer;
  let admin: Client;
  beforeAll(async () => {
    server = await startServer({ delivery: true });
    admin = server.client();
    expect((await admin.login('administrador@sanandres.cl')).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('sends e-mail to the outbox, SMS through the simulator and its webhook, and the app to the guardians', async () => {
    const pick = await courseOf(server, 'administrador@sanandres.cl');
    const id = await sendOk(
      admin,
      composeInput({ channels: ['e-mail', 'sms', 'app-mobile'], recipients: [pick], title: 'Salida pedagógica' }),
    );
    await eventually(
      'entregas terminadas',
      () => inFlight(server, id),
      (n) => n === 0,
    );

    const counts = await statusCounts(server, id);
    const reachable = await one<{ email: number; sms: number; app: number }>(
      server.db,
      sql`select count(*) filter (where channel = 'e-mail' and address is not null)::int as email,
            count(*) filter (where channel = 'sms' and address is not null)::int as sms,
            count(*) filter (where channel = 'app-mobile' and address is not null)::int as app
          from deliveries where message_id = ${id}`,
    );
    expect(reachable.email).toBeGreaterThan(0);
    expect(reachable.sms).toBeGreaterThan(0);
    expect(reachable.app).toBeGreaterThan(0);
    expect(counts['e-mail:received']).toBe(reachable.email);
    expect(counts['sms:received']).toBe(reachable.sms);
    // The guardian app has not fetched them yet: handed over, waiting for the app.
    expect(counts['app-mobile:sent']).toBe(reachable.app);

    // One .eml per e-mail delivery, named after its key; one simulator message per SMS, with our reference.
    const files = (await readdir(server.outboxDir)).filter((f) => f.endsWith('.eml'));
    const emailIds = await rows<{ id: number }>(
      server.db,
      sql`select id from deliveries where message_id = ${id} and channel = 'e-mail' and address is not null`,
    );
    expect(files.sort()).toEqual(emailIds.map((d) => `hermes-${d.id}-0_hermes.local.eml`).sort());
    const sim = await rows<{ reference: string; to: string; body: string; id: string }>(
      server.db,
      sql`select s.reference, s.to, s.body, s.id from provider_sim_messages s join deliveries d on s.reference = 'hermes-' || d.id || '-' || d.generation
          where d.message_id = ${id}`,
    );
    expect(sim).toHaveLength(reachable.sms);
    const sms = await rows<{ id: number; address: string; provider_ref: string; sent_at: string; delivered_at: string; attempts: number }>(
      server.db,
      sql`select id, address, provider_ref, sent_at, delivered_at, attempts from deliveries where message_id = ${id} and channel = 'sms' and address is not null`,
    );
    for (const d of sms) {
      const twin = sim.find((s) => s.reference === `hermes-${d.id}-0`)!;
      expect(twin.to).toBe(d.address);
      expect(twin.body).toContain('Los esperamos');
      expect(d.provider_ref).toBe(twin.id);
      expect(d.sent_at).not.toBeNull();
      expect(d.delivered_at).not.toBeNull();
      expect(d.attempts).toBe(1);
    }

    // Recipients take the best of their channels; the message is marked fanned out.
    const pending = await count(
      server.db,
      sql`select count(*)::int as n from message_recipients where message_id = ${id} and status = 'pending'`,
    );
    expect(pending).toBe(0);
    const fanned = await one<{ at: string | null }>(server.db, sql`select fanned_out_at as at from messages where id = ${id}`);
    expect(fanned.at).not.toBeNull();
  });

  it('a guardian signs in to the app with the SMS code, and fetching and opening the message mark it received and read', async () => {
    const guardian = await one<{ id: number; phone: string; student: number }>(
      server.db,
      sql`select g.id, g.phone, min(sg.student_id) as student from guardians g join student_guardians sg on sg.guardian_id = g.id
          join users u on u.institution_id = g.institution_id and u.email = 'administrador@sanandres.cl'
          where g.app_installed_at is not null and g.phone is not null group by g.id order by g.id limit 1`,
    );
    const id = await sendOk(
      admin,
      composeInput({
        channels: ['app-mobile'],
        recipients: [{ kind: 'guardian', id: guardian.id }],
        title: 'Entrevista',
        allow_replies: true,
      }),
    );
    const delivery = () =>
      one<{ status: string; delivered_at: string | null; read_at: string | null }>(
        server.db,
        sql`select status, delivered_at, read_at from deliveries where message_id = ${id} and channel = 'app-mobile'`,
      );
    await eventually('entregado a la app', delivery, (d) => d.status === 'sent');

    // The code travels as a real SMS through the simulator.
    const app = (path: string, init: RequestInit = {}, token?: string) =>
      fetch(`${server.url}/api/app${path}`, {
        ...init,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      });
    expect((await app('/session/code', { method: 'POST', body: JSON.stringify({ phone: guardian.phone }) })).status).toBe(202);
    const sms = await eventually(
      'SMS con el código',
      () =>
        rows<{ body: string }>(
          server.db,
          sql`select body from provider_sim_messages where "to" = ${guardian.phone} and reference like 'app-code-%'`,
        ),
      (r) => r.length === 1,
    );
    const code = /\b(\d{6})\b/.exec(sms[0]!.body)![1]!;
    const session = await app('/session', { method: 'POST', body: JSON.stringify({ phone: guardian.phone, code }) });
    expect(session.status).toBe(200);
    const token = ((await session.json()) as { data: { token: string } }).data.token;

    const inbox = (await (await app('/messages', {}, token)).json()) as { data: { id: number; title: string }[] };
    expect(inbox.data.map((m) => m.title)).toContain('Entrevista');
    const received = await delivery();
    expect(received.status).toBe('received');
    expect(received.delivered_at).not.toBeNull();
    expect((await app(`/messages/${id}/read`, { method: 'POST' }, token)).status).toBe(200);
    const read = await delivery();
    expect(read.status).toBe('read');
    expect(read.read_at).not.toBeNull();

    // The reply lands in the author's inbox.
    const reply = await app(`/messages/${id}/reply`, { method: 'POST', body: JSON.stringify({ content: 'Confirmo asistencia.' }) }, token);
    expect(reply.status).toBe(201);
    const list = (await (await admin.get('/api/messages?folder=inbox')).json()) as { data: { title: string }[] };
    expect(list.data.map((m) => m.title)).toContain('Re: Entrevista');
  });

  it('counts an app delivery never fetched in 3 days as not received', async () => {
    const pick = await courseOf(server, 'administrador@sanandres.cl');
    const id = await sendOk(admin, composeInput({ channels: ['app-mobile'], recipients: [pick], title: 'Circular' }));
    const waiting = () => count(server.db, sql`select count(*)::int as n from deliveries where message_id = ${id} and status = 'sent'`);
    // Every delivery handed over first: a worker claims a batch at a time, so some could still be queued
    // and be handed over after the clock is moved back, and never expire in this sweep.
    const queued = () => count(server.db, sql`select count(*)::int as n from deliveries where message_id = ${id} and status = 'queued'`);
    await eventually('todas entregadas a la app', queued, (n) => n === 0);
    const handed = await waiting();
    expect(handed).toBeGreaterThan(0);
    await server.db.execute(sql`update deliveries set sent_at = now() - interval '73 hours' where message_id = ${id} and status = 'sent'`);
    await server.delivery!.engine.sweep();
    const expired = await count(
      server.db,
      sql`select count(*)::int as n from deliveries where message_id = ${id} and status = 'not_received' and error = 'app_not_opened'`,
    );
    expect(expired).toBe(handed);
    expect(await waiting()).toBe(0);
  });

  it('recipients a crash left owed a refresh are brought up to date by the sweep', async () => {
    const pick = await courseOf(server, 'administrador@sanandres.cl');
    const id = await sendOk(admin, composeInput({ channels: ['e-mail'], recipients: [pick], title: 'Reunión de apoderados' }));
    await eventually(
      'entregas terminadas',
      () => inFlight(server, id),
      (n) => n === 0,
    );
    const pending = () =>
      count(server.db, sql`select count(*)::int as n from message_recipients where message_id = ${id} and status = 'pending'`);
    expect(await pending()).toBe(0);
    // What a process killed between its outcomes' commit and their recipients' refresh leaves behind.
    const stale = await rows(
      server.db,
      sql`update message_recipients set status = 'pending' where message_id = ${id} and status = 'received' returning id`,
    );
    expect(stale.length).toBeGreaterThan(0);
    await server.db.execute(
      sql`insert into recipient_refreshes (recipient_id, device) select id, false from message_recipients where message_id = ${id}`,
    );
    await server.delivery!.engine.sweep();
    expect(await pending()).toBe(0);
    expect(await count(server.db, sql`select count(*)::int as n from recipient_refreshes`)).toBe(0);
  });

  it('a colleague receives the app channel in their Hermes inbox at once, and reading it there is "read"', async () => {
    const docente = server.client();
    expect((await docente.login('docente@sanandres.cl')).status).toBe(200);
    const staff = await one<{ id: number; user_id: number }>(
      server.db,
      sql`select s.id, s.user_id from staff s join users u on u.id = s.user_id where u.email = 'docente@sanandres.cl'`,
    );
    const id = await sendOk(
      admin,
      composeInput({ channels: ['app-mobile'], recipients: [{ kind: 'staff', id: staff.id }], title: 'Consejo de profesores' }),
    );
    const delivery = () =>
      one<{ status: string; delivered_at: string | null; read_at: string | null }>(
        server.db,
        sql`select status, delivered_at, read_at from deliveries where message_id = ${id} and address = ${`user:${staff.user_id}`}`,
      );
    await eventually('recibido', delivery, (d) => d.status === 'received');
    expect((await delivery()).delivered_at).not.toBeNull();
    expect((await docente.post(`/api/messages/${id}/read`, {})).status).toBe(200);
    const read = await delivery();
    expect(read.status).toBe('read');
    expect(read.read_at).not.toBeNull();
    const recipient = await one<{ status: string }>(server.db, sql`select status from message_recipients where message_id = ${id}`);
    expect(recipient.status).toBe('read');
  });

  it('reports simulated failures as not received and marks the guardian after 3 in a row', async () => {
    server.delivery!.simulator!.setFailureRate(1);
    try {
      const pick = await courseOf(server, 'administrador@sanandres.cl');
      const ids: number[] = [];
      for (let i = 0; i < 3; i++)
        ids.push(await sendOk(admin, composeInput({ channels: ['sms'], recipients: [pick], title: `Aviso ${i}` })));
      for (const id of ids)
        await eventually(
          'entregas terminadas',
          () => inFlight(server, id),
          (n) => n === 0,
        );
      const counts = await statusCounts(server, ids[2]!);
      expect(counts['sms:not_received']).toBeGreaterThan(0);
      expect(counts['sms:received']).toBeUndefined();
      const yellow = await count(
        server.db,
        sql`select count(distinct g.id)::int as n from guardians g join message_recipients r on r.recipient_ref_id = g.id and r.recipient_kind = 'apoderado'
            where r.message_id = ${ids[2]!} and g.phone is not null and g.app_installed_at is null and g.device_misses = 3`,
      );
      expect(yellow).toBeGreaterThan(0);
    } finally {
      server.delivery!.simulator!.setFailureRate(0);
    }
  });

  it('fires a scheduled message at its time through its queue job, with the copy to the sender', async () => {
    const pick = await courseOf(server, 'administrador@sanandres.cl');
    const at = new Date(Date.now() + 3600_000).toISOString();
    const id = await sendOk(
      admin,
      composeInput({ channels: ['e-mail'], recipients: [pick], scheduled_at: at, copy_to_sender: true }),
      '/api/messages/schedule',
    );
    expect(await inFlight(server, id)).toBeGreaterThan(0);
    // Bring its time to now and queue the job the way compose does, for a second from now.
    await server.db.execute(sql`update messages set scheduled_at = now() + interval '1 second' where id = ${id}`);
    const soon = await one<{ at: Date | string }>(server.db, sql`select scheduled_at as at from messages where id = ${id}`);
    await server.delivery!.engine.messageScheduled(id, new Date(soon.at));
    await eventually(
      'mensaje enviado',
      () => one<{ kind: string }>(server.db, sql`select kind from messages where id = ${id}`),
      (m) => m.kind === 'sent',
    );
    await eventually(
      'entregas terminadas',
      () => inFlight(server, id),
      (n) => n === 0,
    );
    const folder = await one<{ folder: string }>(
      server.db,
      sql`select e.folder from mailbox_entries e join messages m on m.id = e.message_id and e.user_id = m.author_user_id where m.id = ${id}`,
    );
    expect(folder.folder).toBe('sent');
    const copies = await count(
      server.db,
      sql`select count(*)::int as n from messages c join messages m on m.id = ${id}
          where c.id <> m.id and c.author_user_id = m.author_user_id and c.title = m.title and c.sent_at >= m.sent_at`,
    );
    expect(copies).toBe(1);
  });

  it('does not send a scheduled message that was cancelled back to draft', async () => {
    const pick = await courseOf(server, 'administrador@sanandres.cl');
    const at = new Date(Date.now() + 3600_000).toISOString();
    const id = await sendOk(admin, composeInput({ channels: ['e-mail'], recipients: [pick], scheduled_at: at }), '/api/messages/schedule');
    expect((await admin.post(`/api/messages/${id}/cancel-schedule`, {})).status).toBe(200);
    await server.db.execute(sql`update messages set scheduled_at = now() - interval '10 seconds' where id = ${id}`);
    await server.delivery!.engine.messageScheduled(id, new Date(Date.now() - 10_000));
    await server.delivery!.engine.sweep();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const m = await one<{ kind: string }>(server.db, sql`select kind from messages where id = ${id}`);
    expect(m.kind).toBe('draft');
    expect(await count(server.db, sql`select count(*)::int as n from deliveries where message_id = ${id}`)).toBe(0);
  });

  it('does not send a scheduled message in the trash, even long past its time', async () => {
    const pick = await courseOf(server, 'administrador@sanandres.cl');
    const at = new Date(Date.now() + 3600_000).toISOString();
    const id = await sendOk(admin, composeInput({ channels: ['e-mail'], recipients: [pick], scheduled_at: at }), '/api/messages/schedule');
    expect((await admin.post('/api/messages/delete', { ids: [id] })).status).toBe(200);
    await server.db.execute(sql`update messages set scheduled_at = now() - interval '1 hour' where id = ${id}`);
    await server.delivery!.engine.messageScheduled(id, new Date(Date.now() - 3600_000));
    await server.delivery!.engine.sweep();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await one<{ kind: string }>(server.db, sql`select kind from messages where id = ${id}`)).kind).toBe('scheduled');
    expect(await inFlight(server, id)).toBeGreaterThan(0);
    // Restored after its time: it goes out.
    expect((await admin.post('/api/messages/restore', { ids: [id] })).status).toBe(200);
    await server.delivery!.engine.sweep();
    await eventually(
      'mensaje enviado',
      () => one<{ kind: string }>(server.db, sql`select kind from messages where id = ${id}`),
      (m) => m.kind === 'sent',
    );
  });

  it('lets 50 concurrent sends spend at most the month quota, refusing the rest as a whole', async () => {
    const pick = await courseOf(server, 'administrador@sanandres.cl');
    const estimate = await admin.post('/api/messages/estimate', composeInput({ channels: ['sms'], recipients: [pick] }));
    const perMessage = ((await estimate.json()) as { data: { sms: { total: number } } }).data.sms.total;
    expect(perMessage).toBeGreaterThan(0);
    const institution = await one<{ id: number; month: string }>(
      server.db,
      sql`select u.institution_id as id, to_char(now() at time zone i.timezone, 'YYYY-MM') as month
          from users u join institutions i on i.id = u.institution_id where u.email = 'administrador@sanandres.cl'`,
    );
    const used = async () =>
      Number(
        (
          await rows<{ segments: number }>(
            server.db,
            sql`select segments from sms_usage where institution_id = ${institution.id} and month = ${institution.month}`,
          )
        )[0]?.segments ?? 0,
      );
    // Room for exactly 7 more messages.
    const before = await used();
    await server.db.execute(
      sql`update institution_quotas set sms_monthly_limit = ${before + perMessage * 7} where institution_id = ${institution.id}`,
    );
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => send(admin, composeInput({ channels: ['sms'], recipients: [pick], title: `Carrera ${i}` }))),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(7);
    expect(statuses.filter((s) => s === 409)).toHaveLength(43);
    expect(await used()).toBe(before + perMessage * 7);
    expect(perMessage % SMS_SEGMENTS_PER_MESSAGE).toBe(0);
  });
});

describe('SMTP errors', () => {
  let smtp: SMTPServer;
  let port = 0;
  /** Addresses the fake mail server refuses for good (550) or for now (451). */
  const refuse = { permanent: new Set<string>(), transient: new Set<string>() };
  const accepted: string[] = [];

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo(address, _session, callback) {
        if (refuse.permanent.has(address.address)) return callback(Object.assign(new Error('Buzón inexistente'), { responseCode: 550 }));
        if (refuse.transient.has(address.address)) return callback(Object.assign(new Error('Intente más tarde'), { responseCode: 451 }));
        callback();
      },
      onData(stream, session, callback) {
        stream.on('data', () => {});
        stream.on('end', () => {
          accepted.push(...session.envelope.rcptTo.map((r) => r.address));
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    port = (smtp.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('retries a 451 with backoff until it gives up, and fails a 550 at once', async () => {
    const server = await startServer({
      delivery: true,
      config: { smtpUrl: `smtp://127.0.0.1:${port}`, deliveryRetries: 2, deliveryRetryDelayS: 1 },
    });
    try {
      const admin = server.client();
      expect((await admin.login('administrador@sanandres.cl')).status).toBe(200);
      const pick = await courseOf(server, 'administrador@sanandres.cl');
      const emails = await rows<{ email: string }>(
        server.db,
        sql`select distinct g.email from guardians g join student_guardians sg on sg.guardian_id = g.id join students s on s.id = sg.student_id
            where s.course_id = ${pick.id} and g.email is not null order by g.email limit 2`,
      );
      refuse.permanent.add(emails[0]!.email);
      refuse.transient.add(emails[1]!.email);
      const started = Date.now();
      const id = await sendOk(admin, composeInput({ channels: ['e-mail'], recipients: [pick] }));
      await eventually(
        'entregas terminadas',
        () => inFlight(server, id),
        (n) => n === 0,
        30_000,
      );
      const byAddress = async (email: string) =>
        one<{ status: string; error: string; attempts: number; last_retry_at: string | null }>(
          server.db,
          sql`select status, error, attempts, last_retry_at from deliveries where message_id = ${id} and address = ${email}`,
        );
      const permanent = await byAddress(emails[0]!.email);
      expect(permanent).toMatchObject({ status: 'failed', error: 'rejected', attempts: 1, last_retry_at: null });
      const transient = await byAddress(emails[1]!.email);
      expect(transient).toMatchObject({ status: 'failed', error: 'unreachable', attempts: 3 });
      expect(transient.last_retry_at).not.toBeNull();
      // Backoff: two retries of at least 1 s and 2 s (jittered up to twice that).
      expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
      const others = await count(
        server.db,
        sql`select count(*)::int as n from deliveries where message_id = ${id} and status = 'received'`,
      );
      expect(others).toBeGreaterThan(0);
      expect(accepted.length).toBe(others);
    } finally {
      await server.close();
    }
  });
});

describe('restarts', () => {
  it('a scheduled message still fires after the engine restarts on the same database', async () => {
    const server = await startServer({ delivery: true });
    try {
      const admin = server.client();
      expect((await admin.login('administrador@sanandres.cl')).status).toBe(200);
      const pick = await courseOf(server, 'administrador@sanandres.cl');
      const id = await sendOk(
        admin,
        composeInput({ channels: ['e-mail'], recipients: [pick], scheduled_at: new Date(Date.now() + 3600_000).toISOString() }),
        '/api/messages/schedule',
      );
      // The engine stops (the process "goes down"); meanwhile the message's time comes.
      await server.delivery!.stop();
      await server.db.execute(sql`update messages set scheduled_at = now() - interval '10 seconds' where id = ${id}`);
      const config = testConfig({ outboxDir: server.outboxDir, simFailureRate: 0, simDelayMs: 20 });
      const again = createDelivery({
        handle: server.handle,
        config,
        logger: createLogger('silent'),
        store: new AttachmentStore(server.attachmentsDir),
      });
      again.bindApp(async () => new Response(null, { status: 204 }));
      await again.start();
      try {
        await eventually(
          'mensaje enviado',
          () => one<{ kind: string }>(server.db, sql`select kind from messages where id = ${id}`),
          (m) => m.kind === 'sent',
        );
        await eventually(
          'entregas terminadas',
          () => inFlight(server, id),
          (n) => n === 0,
        );
      } finally {
        await again.stop();
      }
    } finally {
      await server.close();
    }
  });
});
