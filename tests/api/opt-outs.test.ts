// Opt-outs end to end on the seeded school, driving the handler the inbound webhooks call (server/opt-outs/)
// with a fake confirmation: "BAJA" stops SMS to that phone at once — the estimate and the quota count it out,
// send writes its SMS born failed and free, the engine never hands it to the provider (also when the opt-out
// came after the message was written), reception says since when, connectivity and the call list name it —
// while an emergency still goes by the other channels; "ALTA" undoes all of it. A repeated webhook changes
// nothing, and "ALTA" from a phone that never left is an ordinary reply.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Estimate, Recipients } from '../../shared/compose-contract';
import type { CallList, CourseConnectivity } from '../../shared/dashboard-contract';
import type { ReceptionPage } from '../../shared/reception-contract';
import { smsText } from '../../shared/sms-text';
import { createOptOutHandler, type OptOutHandler } from '../../server/opt-outs/handler';
import { createInboundHandler } from '../../server/inbound/handler';
import { createLogger } from '../../server/log';
import { AttachmentStore } from '../../server/storage/attachments';
import type { InboundMessage } from '../../server/inbound/contract';
import { composeInput } from '../fixtures/compose';
import { count, one, rows, send } from './support/compose';
import { startServer, type Client, type TestServer } from './support/server';
import { eventually } from './support/wait';

let server: TestServer;
let admin: Client;
let optOut: OptOutHandler;
/** The emergency sent while the phone was opted out of SMS. */
let emergencyId = 0;
const confirmations: { channel: string; phone: string; text: string }[] = [];
const ids = { school: 0, schoolName: '', guardian: 0, phone: '', course: 0, month: '', misses: 0 };

/** An inbound message from the guardian's phone, as a provider adapter hands it over. */
const inbound = (body: string, overrides: Partial<InboundMessage> = {}): InboundMessage => ({
  channel: 'sms',
  from: ids.phone,
  provider: 'twilio',
  providerId: `SM${randomUUID().replace(/-/g, '')}`,
  body,
  receivedAt: new Date('2026-11-03T14:00:00.000Z'),
  media: [],
  ...overrides,
});

const pick = () => [{ kind: 'guardian' as const, id: ids.guardian }];
const message = (overrides: Parameters<typeof composeInput>[0] = {}) =>
  composeInput({ channels: ['sms'], content: 'Mañana no hay clases por corte de agua.', recipients: pick(), ...overrides });

async function estimateOf(body: object): Promise<Estimate> {
  const res = await admin.post('/api/messages/estimate', body);
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Estimate }).data;
}

async function sentId(body: object): Promise<number> {
  const res = await send(admin, body);
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: { id: number } }).data.id;
}

const smsUsed = async () =>
  Number(
    (
      await rows<{ segments: number }>(
        server.db,
        sql`select segments from sms_usage where institution_id = ${ids.school} and month = ${ids.month}`,
      )
    )[0]?.segments ?? 0,
  );

const deliveriesOf = (messageId: number) =>
  rows<{ channel: string; status: string; error: string | null; segments: number; address: string | null }>(
    server.db,
    sql`select channel, status, error, segments, address from deliveries where message_id = ${messageId} order by channel`,
  );

/** What the provider simulator was asked to send to the guardian's phone for this message. */
const handedToProvider = (messageId: number) =>
  count(
    server.db,
    sql`select count(*)::int as n from provider_sim_messages p
        where p.to = ${ids.phone} and p.reference in (
          select 'hermes-' || d.id || '-' || d.generation from deliveries d where d.message_id = ${messageId})`,
  );

async function receptionOf(messageId: number): Promise<ReceptionPage> {
  const res = await admin.get(`/api/messages/${messageId}/reception`);
  expect(res.status).toBe(200);
  return (await res.json()) as ReceptionPage;
}

async function courseGuardian() {
  const res = await admin.get(`/api/dashboard/connectivity/courses/${ids.course}`);
  expect(res.status).toBe(200);
  const course = ((await res.json()) as { data: CourseConnectivity }).data;
  return course.students.flatMap((s) => s.guardians).find((g) => g.id === ids.guardian)!;
}

/** The guardian's dot in the recipient picker. */
async function pickerStatus(): Promise<string | undefined> {
  const res = await admin.get('/api/recipients');
  expect(res.status).toBe(200);
  const { data } = (await res.json()) as { data: Recipients };
  return data.courses.flatMap((c) => c.apoderados).find((g) => g.id === ids.guardian)?.device_status;
}

async function callList(): Promise<CallList> {
  const res = await admin.get(`/api/dashboard/connectivity/courses/${ids.course}/call-list`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: CallList }).data;
}

beforeAll(async () => {
  server = await startServer({ delivery: true });
  admin = server.client();
  expect((await admin.login('administrador@sanandres.cl')).status).toBe(200);
  const school = await one<{ id: number; name: string; month: string; user_id: number }>(
    server.db,
    sql`select i.id, i.name, to_char(now() at time zone i.timezone, 'YYYY-MM') as month, u.id as user_id
        from users u join institutions i on i.id = u.institution_id where u.email = 'administrador@sanandres.cl'`,
  );
  ids.school = school.id;
  ids.schoolName = school.name;
  ids.month = school.month;
  // A guardian with a mobile no one else has and an e-mail, of an enrolled student.
  const guardian = await one<{ id: number; phone: string; course_id: number }>(
    server.db,
    sql`select g.id, g.phone, s.course_id from guardians g
        join student_guardians sg on sg.guardian_id = g.id join students s on s.id = sg.student_id and s.withdrawn_at is null
        where g.institution_id = ${school.id} and g.sms_ok and g.sms_phone = g.phone and g.email is not null
          and (select count(*) from guardians o where o.phone = g.phone) = 1
        order by g.id limit 1`,
  );
  ids.guardian = guardian.id;
  ids.phone = guardian.phone;
  ids.course = guardian.course_id;
  ids.misses = (await one<{ n: number }>(server.db, sql`select device_misses as n from guardians where id = ${guardian.id}`)).n;
  // Without the app, so their phone is how the school reaches them (the call list's case).
  await server.db.execute(sql`delete from push_subscriptions where guardian_id = ${guardian.id}`);
  await server.db.execute(
    sql`delete from app_tokens where person_kind = 'apoderado' and (person_id = ${guardian.id} or phone = ${guardian.phone})`,
  );
  // Every channel contracted and permitted, and room in the quota.
  for (const channel of ['sms', 'whatsapp', 'e-mail', 'app-mobile']) {
    await server.db.execute(sql`insert into institution_channels (institution_id, channel, enabled) values (${school.id}, ${channel}, true)
      on conflict (institution_id, channel) do update set enabled = true`);
    await server.db.execute(sql`insert into user_channel_permissions (user_id, channel, enabled) values (${school.user_id}, ${channel}, true)
      on conflict (user_id, channel) do update set enabled = true`);
  }
  await server.db.execute(sql`update institution_quotas set sms_monthly_limit = 100000, sms_reserve_percent = 0,
    whatsapp_balance = null, email_balance = null where institution_id = ${school.id}`);
  optOut = createOptOutHandler(server.db, {
    confirm: async (channel, phone, text) => {
      confirmations.push({ channel, phone, text });
    },
  });
});
afterAll(() => server.close());

describe('the handler', () => {
  it('an ordinary reply is not its business, even one that says "baja"', async () => {
    expect(await optOut(inbound('Mi hija está de baja médica, no va mañana'))).toBe(false);
    expect(await optOut(inbound('Gracias'))).toBe(false);
    expect(await count(server.db, sql`select count(*)::int as n from channel_opt_out_events where phone = ${ids.phone}`)).toBe(0);
    expect(confirmations).toEqual([]);
  });

  it('"ALTA" from a phone that never left is an ordinary reply and writes nothing', async () => {
    expect(await optOut(inbound('Alta'))).toBe(false);
    expect(await count(server.db, sql`select count(*)::int as n from channel_opt_out_events where phone = ${ids.phone}`)).toBe(0);
    expect(confirmations).toEqual([]);
  });
});

describe('the record', () => {
  it('keeps only SMS and WhatsApp opt-outs and their events', async () => {
    await expect(
      server.db.execute(sql`insert into channel_opt_out_events (channel, phone, kind, body, provider, provider_id, at)
        values ('e-mail', ${ids.phone}, 'out', 'BAJA', 'twilio', ${`SM${randomUUID()}`}, now())`),
    ).rejects.toThrow();
    await expect(
      server.db.execute(sql`insert into channel_opt_outs (channel, phone, opted_out_at) values ('e-mail', ${ids.phone}, now())`),
    ).rejects.toThrow();
  });
});

describe('before the opt-out', () => {
  it('the estimate counts the SMS and the quota pays for it', async () => {
    const estimate = await estimateOf(message());
    expect(estimate.channels).toEqual([{ code: 'sms', deliveries: 1, missing_address: 0, opted_out: 0, blocked: 0 }]);
    expect(estimate.sms?.total).toBe(1);
    expect((await courseGuardian()).fix).not.toContain('sms_opted_out');
  });
});

describe('"BAJA" by SMS', () => {
  // Built once the guardian is known (beforeAll), and kept: the repeat below is the same provider message.
  let word: InboundMessage;
  let scheduled = 0;
  let usedWithScheduled = 0;

  it('a scheduled message is written before the opt-out', async () => {
    const at = new Date(Date.now() + 5 * 60_000).toISOString();
    const res = await send(
      admin,
      message({ title: 'Programado antes de la baja', scheduled_at: at }),
      randomUUID(),
      '/api/messages/schedule',
    );
    expect(res.status).toBe(201);
    scheduled = ((await res.json()) as { data: { id: number } }).data.id;
    expect((await deliveriesOf(scheduled))[0]).toMatchObject({ status: 'queued', segments: 1 });
    usedWithScheduled = await smsUsed();
  });

  it("is recorded for SMS and that phone, and confirmed once in the school's words", async () => {
    word = inbound('Baja por favor 🙏');
    expect(await optOut(word)).toBe(true);
    expect(await rows(server.db, sql`select channel, phone, opted_out_at from channel_opt_outs where phone = ${ids.phone}`)).toEqual([
      { channel: 'sms', phone: ids.phone, opted_out_at: expect.anything() },
    ]);
    expect(confirmations).toHaveLength(1);
    expect(confirmations[0]).toMatchObject({ channel: 'sms', phone: ids.phone });
    // GSM-7 (shared/sms-text.ts): "recibirás" goes as "recibiras", one segment.
    expect(confirmations[0]!.text).toBe(`Listo: no recibiras mas mensajes de ${ids.schoolName} por SMS. Responde ALTA para volver.`);
  });

  it('stops at once what was queued to that phone: the scheduled SMS fails opted out and its segment goes back to the quota', async () => {
    expect((await deliveriesOf(scheduled))[0]).toMatchObject({ status: 'failed', error: 'opted_out', segments: 0 });
    expect(await smsUsed()).toBe(usedWithScheduled - 1);
    const recipient = await one<{ status: string }>(server.db, sql`select status from message_recipients where message_id = ${scheduled}`);
    expect(recipient.status).toBe('failed');
  });

  it('the provider repeating the webhook changes nothing and confirms nothing', async () => {
    expect(await optOut({ ...word })).toBe(true);
    expect(confirmations).toHaveLength(1);
    expect(await count(server.db, sql`select count(*)::int as n from channel_opt_out_events where phone = ${ids.phone}`)).toBe(1);
  });

  it('the estimate counts the phone out of SMS (apart from "no phone") and the quota charges nothing', async () => {
    const estimate = await estimateOf(message());
    expect(estimate.channels).toEqual([{ code: 'sms', deliveries: 0, missing_address: 0, opted_out: 1, blocked: 0 }]);
    expect(estimate.sms?.total).toBe(0);
    expect(estimate.unreachable).toBe(1);
    // WhatsApp is another channel: still reached.
    const both = await estimateOf(message({ channels: ['sms', 'whatsapp'] }));
    expect(both.channels).toEqual([
      { code: 'sms', deliveries: 0, missing_address: 0, opted_out: 1, blocked: 0 },
      { code: 'whatsapp', deliveries: 1, missing_address: 0, opted_out: 0, blocked: 0 },
    ]);
    expect(both.unreachable).toBe(0);
  });

  it('an SMS-only message to that phone alone reaches nobody, and send refuses it as it does with no phone', async () => {
    const res = await send(admin, message());
    expect(res.status).toBe(422);
  });

  it('an emergency by SMS and e-mail goes by e-mail; the SMS is born failed, free, and never handed to the provider', async () => {
    const before = await smsUsed();
    const id = await sentId(message({ title: 'Emergencia: corte de agua', channels: ['sms', 'e-mail'], emergency: true }));
    emergencyId = id;
    const born = await deliveriesOf(id);
    expect(born).toEqual([
      expect.objectContaining({ channel: 'e-mail', status: 'queued', error: null }),
      { channel: 'sms', status: 'failed', error: 'opted_out', segments: 0, address: ids.phone },
    ]);
    expect(await smsUsed()).toBe(before);
    await eventually(
      'el correo se entrega',
      () => deliveriesOf(id),
      (ds) => ds[0]!.status === 'received',
    );
    expect((await deliveriesOf(id))[1]).toMatchObject({ status: 'failed', error: 'opted_out' });
    expect(await handedToProvider(id)).toBe(0);

    const page = await receptionOf(id);
    const row = page.data[0]!;
    expect(row.status).toBe('received');
    expect(row.channels.find((c) => c.channel === 'sms')).toMatchObject({
      status: 'failed',
      error: 'opted_out',
      opted_out_at: '2026-11-03T14:00:00.000Z',
    });
    expect(row.channels.find((c) => c.channel === 'e-mail')!.opted_out_at).toBeNull();
    // Not promised by "Reintentar fallidos", and not a failure of the message.
    expect(page.meta.retryable).toBe(0);
    expect(page.meta.progress.state).toBe('sent');
    const retry = await admin.post(`/api/messages/${id}/reception/retry`);
    expect(retry.status).toBe(200);
    expect(((await retry.json()) as { data: { resent: number } }).data.resent).toBe(0);
    expect((await deliveriesOf(id))[1]).toMatchObject({ status: 'failed', error: 'opted_out' });
  });

  it('a delivery the opt-out did not catch (written in the same instant) is stopped when the engine comes to it, and its segment goes back', async () => {
    // As send wrote it: queued, one segment charged to the month.
    await server.db.execute(sql`update deliveries set status = 'queued', error = null, segments = 1 where message_id = ${scheduled}`);
    await server.db.execute(
      sql`update sms_usage set segments = segments + 1 where institution_id = ${ids.school} and month = ${ids.month}`,
    );
    const charged = await smsUsed();
    await server.db.execute(sql`update messages set scheduled_at = now() - interval '10 seconds' where id = ${scheduled}`);
    await server.delivery!.engine.sweep();
    await eventually(
      'el SMS programado termina',
      () => deliveriesOf(scheduled),
      (ds) => ds[0]!.status !== 'queued',
    );
    expect((await deliveriesOf(scheduled))[0]).toMatchObject({ status: 'failed', error: 'opted_out', segments: 0 });
    expect(await smsUsed()).toBe(charged - 1);
    expect(await handedToProvider(scheduled)).toBe(0);
    const row = (await receptionOf(scheduled)).data[0]!;
    expect(row.channels[0]).toMatchObject({ error: 'opted_out', opted_out_at: '2026-11-03T14:00:00.000Z' });
  });

  it("the device status does not count on that SMS, and the guardian's misses do not grow", async () => {
    const misses = await one<{ device_misses: number }>(server.db, sql`select device_misses from guardians where id = ${ids.guardian}`);
    expect(misses.device_misses).toBe(ids.misses);
    const guardian = await courseGuardian();
    expect(guardian.device_status).toBe('red');
    // The picker's dot, by the same rule: no app and no number the engine will text.
    expect(await pickerStatus()).toBe('red');
  });

  it('connectivity names the opt-out with its date, and the call list lists the family', async () => {
    const guardian = await courseGuardian();
    expect(guardian.fix).toContain('sms_opted_out');
    expect(guardian.fix).not.toContain('phone_invalid');
    expect(guardian.opted_out).toEqual([{ channel: 'sms', at: '2026-11-03T14:00:00.000Z' }]);
    const list = await callList();
    const row = list.rows.find((r) => r.phone === ids.phone);
    expect(row).toBeDefined();
    expect(row!.reasons).toContain('sms_opted_out');
    expect(row!.opted_out).toEqual([{ channel: 'sms', at: '2026-11-03T14:00:00.000Z' }]);
    const csv = await admin.get(`/api/dashboard/connectivity/courses/${ids.course}/call-list?format=csv`);
    expect(await csv.text()).toContain('Se dio de baja por SMS el 03-11-2026');
  });
});

describe('"STOP" by WhatsApp', () => {
  let scheduled = 0;

  it('a WhatsApp message is scheduled before the opt-out', async () => {
    const at = new Date(Date.now() + 5 * 60_000).toISOString();
    const res = await send(
      admin,
      message({ title: 'WhatsApp programado antes de la baja', channels: ['whatsapp'], scheduled_at: at }),
      randomUUID(),
      '/api/messages/schedule',
    );
    expect(res.status).toBe(201);
    scheduled = ((await res.json()) as { data: { id: number } }).data.id;
    expect((await deliveriesOf(scheduled))[0]).toMatchObject({ channel: 'whatsapp', status: 'queued' });
  });

  it('stops WhatsApp only, confirmed on WhatsApp', async () => {
    expect(await optOut(inbound('STOP', { channel: 'whatsapp', provider: 'meta', providerId: `wamid.${randomUUID()}` }))).toBe(true);
    expect(confirmations.at(-1)).toMatchObject({ channel: 'whatsapp', phone: ids.phone });
    expect(confirmations.at(-1)!.text).toBe(
      `Listo: no recibirás más mensajes de ${ids.schoolName} por WhatsApp. Responde ALTA para volver.`,
    );
    const estimate = await estimateOf(message({ channels: ['sms', 'whatsapp', 'e-mail'] }));
    expect(estimate.channels).toEqual([
      { code: 'e-mail', deliveries: 1, missing_address: 0, opted_out: 0, blocked: 0 },
      { code: 'sms', deliveries: 0, missing_address: 0, opted_out: 1, blocked: 0 },
      { code: 'whatsapp', deliveries: 0, missing_address: 0, opted_out: 1, blocked: 0 },
    ]);
    expect(estimate.whatsapp?.total).toBe(0);
  });

  it("a WhatsApp delivery the opt-out did not catch gives its message back to the school's balance when the engine stops it", async () => {
    const balance = async () =>
      (
        await one<{ n: number | null }>(
          server.db,
          sql`select whatsapp_balance as n from institution_quotas where institution_id = ${ids.school}`,
        )
      ).n;
    // As send wrote it in the opt-out's instant: queued, one message taken from a balance of 11.
    await server.db.execute(sql`update deliveries set status = 'queued', error = null where message_id = ${scheduled}`);
    await server.db.execute(sql`update institution_quotas set whatsapp_balance = 10 where institution_id = ${ids.school}`);
    try {
      await server.db.execute(sql`update messages set scheduled_at = now() - interval '10 seconds' where id = ${scheduled}`);
      await server.delivery!.engine.sweep();
      await eventually(
        'el WhatsApp programado termina',
        () => deliveriesOf(scheduled),
        (ds) => ds[0]!.status !== 'queued',
      );
      expect((await deliveriesOf(scheduled))[0]).toMatchObject({ status: 'failed', error: 'opted_out' });
      expect(Number(await balance())).toBe(11);
    } finally {
      await server.db.execute(sql`update institution_quotas set whatsapp_balance = null where institution_id = ${ids.school}`);
    }
  });
});

describe('"ALTA" re-joins', () => {
  it('by SMS: recorded, confirmed, and SMS is reached and paid for again; WhatsApp stays out', async () => {
    expect(await optOut(inbound('ALTA'))).toBe(true);
    expect(confirmations.at(-1)!.text).toBe(
      `Listo: volveras a recibir los mensajes de ${ids.schoolName} por SMS. Responde BAJA para dejarlos.`,
    );
    expect(await rows(server.db, sql`select channel from channel_opt_outs where phone = ${ids.phone}`)).toEqual([{ channel: 'whatsapp' }]);
    const estimate = await estimateOf(message({ channels: ['sms', 'whatsapp'] }));
    expect(estimate.channels).toEqual([
      { code: 'sms', deliveries: 1, missing_address: 0, opted_out: 0, blocked: 0 },
      { code: 'whatsapp', deliveries: 0, missing_address: 0, opted_out: 1, blocked: 0 },
    ]);
    expect(estimate.sms?.total).toBe(1);
    const guardian = await courseGuardian();
    expect(guardian.fix).not.toContain('sms_opted_out');
    expect(guardian.device_status).not.toBe('red');
    expect(await pickerStatus()).not.toBe('red');
  });

  it('the next SMS goes to the provider and is charged', async () => {
    const before = await smsUsed();
    const id = await sentId(message({ title: 'Después del alta' }));
    expect((await deliveriesOf(id))[0]).toMatchObject({ status: 'queued', segments: 1 });
    expect(await smsUsed()).toBe(before + 1);
    await eventually(
      'el SMS llega al proveedor',
      () => handedToProvider(id),
      (n) => n === 1,
    );
  });

  it('"Reintentar fallidos" now sends the SMS the opt-out held back, and reception no longer names it', async () => {
    const retry = await admin.post(`/api/messages/${emergencyId}/reception/retry`);
    expect(retry.status).toBe(200);
    expect(((await retry.json()) as { data: { resent: number } }).data.resent).toBe(1);
    await eventually(
      'el SMS reenviado llega al proveedor',
      () => handedToProvider(emergencyId),
      (n) => n === 1,
    );
    const sms = (await receptionOf(emergencyId)).data[0]!.channels.find((c) => c.channel === 'sms')!;
    expect(sms.error).toBeNull();
    expect(sms.opted_out_at).toBeNull();
  });

  it('by WhatsApp too: nothing is left', async () => {
    expect(await optOut(inbound('start', { channel: 'whatsapp', provider: 'meta', providerId: `wamid.${randomUUID()}` }))).toBe(true);
    expect(await count(server.db, sql`select count(*)::int as n from channel_opt_outs where phone = ${ids.phone}`)).toBe(0);
    expect(await count(server.db, sql`select count(*)::int as n from channel_opt_out_events where phone = ${ids.phone}`)).toBe(4);
    expect((await courseGuardian()).opted_out).toEqual([]);
  });
});

describe('the confirmation', () => {
  it('failing to send it leaves the opt-out standing', async () => {
    const failing = createOptOutHandler(server.db, {
      confirm: () => Promise.reject(new Error('proveedor caído')),
    });
    expect(await failing(inbound('CANCELAR'))).toBe(true);
    expect(await count(server.db, sql`select count(*)::int as n from channel_opt_outs where phone = ${ids.phone}`)).toBe(1);
    expect(await optOut(inbound('alta'))).toBe(true);
  });
});

describe('a webhook delivered twice at once', () => {
  it('records one opt-out and confirms once', async () => {
    const before = confirmations.length;
    const twice = inbound('PARAR');
    expect(await Promise.all([optOut(twice), optOut({ ...twice })])).toEqual([true, true]);
    expect(confirmations.length).toBe(before + 1);
    expect(await count(server.db, sql`select count(*)::int as n from channel_opt_out_events where provider_id = ${twice.providerId}`)).toBe(
      1,
    );
    expect(await optOut(inbound('alta'))).toBe(true);
  });
});

describe('one sender for every school of the deployment', () => {
  it('a BAJA from a phone two schools know stops it in both, and the confirmation names both', async () => {
    const mx = await one<{ id: number; name: string; user_id: number; guardian: number }>(
      server.db,
      sql`select i.id, i.name, u.id as user_id,
            (select g.id from guardians g where g.institution_id = i.id order by g.id limit 1) as guardian
          from users u join institutions i on i.id = u.institution_id where u.email = 'administrador@benitojuarez.edu.mx'`,
    );
    await server.db.execute(
      sql`update guardians set phone = ${ids.phone}, sms_phone = ${ids.phone}, sms_ok = true where id = ${mx.guardian}`,
    );
    for (const channel of ['sms', 'e-mail']) {
      await server.db.execute(sql`insert into institution_channels (institution_id, channel, enabled) values (${mx.id}, ${channel}, true)
        on conflict (institution_id, channel) do update set enabled = true`);
      await server.db.execute(sql`insert into user_channel_permissions (user_id, channel, enabled) values (${mx.user_id}, ${channel}, true)
        on conflict (user_id, channel) do update set enabled = true`);
    }
    expect(await optOut(inbound('No más'))).toBe(true);
    // Named oldest school first.
    const [first, second] = (
      await rows<{ name: string }>(server.db, sql`select name from institutions where id in (${ids.school}, ${mx.id}) order by id`)
    ).map((r) => r.name);
    // The SMS in its GSM-7 form (shared/sms-text.ts): "Juárez" goes as "Juarez".
    expect(confirmations.at(-1)!.text).toContain(smsText(`de ${first} y ${second} por SMS`, null).text);

    const mxAdmin = server.client();
    expect((await mxAdmin.login('administrador@benitojuarez.edu.mx')).status).toBe(200);
    const res = await mxAdmin.post(
      '/api/messages/estimate',
      message({ channels: ['sms', 'e-mail'], recipients: [{ kind: 'guardian', id: mx.guardian }] }),
    );
    expect(res.status).toBe(200);
    const estimate = ((await res.json()) as { data: Estimate }).data;
    expect(estimate.channels.find((c) => c.code === 'sms')).toEqual({
      code: 'sms',
      deliveries: 0,
      missing_address: 0,
      opted_out: 1,
      blocked: 0,
    });
    expect(await optOut(inbound('ALTA'))).toBe(true);
  });
});

describe('behind the inbound handler the webhooks call', () => {
  it('BAJA is settled as an opt-out and threaded nowhere; an ordinary reply goes on to be a message', async () => {
    const inboundHandler = createInboundHandler(server.db, {
      store: new AttachmentStore(server.attachmentsDir),
      logger: createLogger('silent'),
      optOut,
    });
    const outcomeOf = async (providerId: string) =>
      (await one<{ outcome: string | null }>(server.db, sql`select outcome from inbound_messages where provider_id = ${providerId}`))
        .outcome;
    const before = confirmations.length;
    const baja = inbound('BAJA');
    await inboundHandler(baja);
    expect(await outcomeOf(baja.providerId)).toBe('opt_out');
    expect(await count(server.db, sql`select count(*)::int as n from channel_opt_outs where phone = ${ids.phone}`)).toBe(1);
    expect(confirmations.length).toBe(before + 1);
    const reply = inbound('Mi hija está de baja médica');
    await inboundHandler(reply);
    expect(await outcomeOf(reply.providerId)).not.toBe('opt_out');
    const alta = inbound('Alta');
    await inboundHandler(alta);
    expect(await outcomeOf(alta.providerId)).toBe('opt_out');
    expect(await count(server.db, sql`select count(*)::int as n from channel_opt_outs where phone = ${ids.phone}`)).toBe(0);
  });
});
