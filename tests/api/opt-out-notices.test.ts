// A family's opt-out word through the real webhooks, answered through the real adapters (a notice, not a
// delivery: server/delivery/notice.ts): «BAJA» posted by the Twilio fake as an incoming SMS, by Meta's fake as
// a WhatsApp, and by the simulator as a gateway's incoming message opts the phone out (the next estimate counts
// it out), becomes no reply, and is confirmed once, in Spanish, as plain text with no status callback; a
// repeated webhook confirms nothing again; «ALTA» re-joins and confirms. A reply that only mentions "baja" is
// threaded as a reply and answered with nothing.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Estimate } from '../../shared/compose-contract';
import { smsText } from '../../shared/sms-text';
import { signReport, SIGNATURE_HEADER } from '../../server/delivery/provider';
import { createTwilioAdapter } from '../../server/delivery/twilio/adapter';
import { twilioSignature } from '../../server/delivery/twilio/signature';
import { composeInput } from '../fixtures/compose';
import { type FakeMeta, startFakeMeta } from '../fixtures/meta-graph';
import { type FakeTwilio, startFakeTwilio } from '../fixtures/twilio';
import { count, one, rows, send } from './support/compose';
import { type Client, startServer, type TestServer } from './support/server';
import { eventually } from './support/wait';

const PUBLIC = 'https://hermes.colegio.example';
const SMS_FROM = '+56229990000';
const SECRET = 'gateway-webhook-secret';
const ADMIN = 'administrador@sanandres.cl';

interface Family {
  server: TestServer;
  admin: Client;
  guardian: number;
  student: number;
  phone: string;
  school: string;
}

/** A guardian whose phone no other guardian or staff member has (so the confirmation names one school), every channel open. */
async function familyOf(server: TestServer, skip = 0): Promise<Family> {
  const admin = server.client();
  expect((await admin.login(ADMIN)).status).toBe(200);
  const school = await one<{ id: number; name: string; user_id: number }>(
    server.db,
    sql`select i.id, i.name, u.id as user_id from users u join institutions i on i.id = u.institution_id where u.email = ${ADMIN}`,
  );
  const guardian = await one<{ id: number; phone: string; student: number }>(
    server.db,
    sql`select g.id, g.phone, min(s.id) as student from guardians g
        join student_guardians sg on sg.guardian_id = g.id join students s on s.id = sg.student_id and s.withdrawn_at is null
        where g.institution_id = ${school.id} and g.sms_ok and g.sms_phone = g.phone and g.phone like '+569%'
          and (select count(*) from guardians o where o.phone = g.phone) = 1
          and not exists (select 1 from staff st where st.phone = g.phone)
        group by g.id order by g.id limit 1 offset ${skip}`,
  );
  for (const channel of ['sms', 'whatsapp']) {
    await server.db.execute(sql`insert into institution_channels (institution_id, channel, enabled) values (${school.id}, ${channel}, true)
      on conflict (institution_id, channel) do update set enabled = true`);
    await server.db.execute(sql`insert into user_channel_permissions (user_id, channel, enabled) values (${school.user_id}, ${channel}, true)
      on conflict (user_id, channel) do update set enabled = true`);
  }
  await server.db.execute(sql`update institution_quotas set sms_monthly_limit = 100000, sms_reserve_percent = 0,
    whatsapp_balance = null where institution_id = ${school.id}`);
  return { server, admin, guardian: guardian.id, student: Number(guardian.student), phone: guardian.phone, school: school.name };
}

/** How the next message to the guardian by `channel` is estimated. */
async function estimated(family: Family, channel: 'sms' | 'whatsapp') {
  const res = await family.admin.post(
    '/api/messages/estimate',
    composeInput({ channels: [channel], content: 'Mañana no hay clases.', recipients: [{ kind: 'guardian', id: family.guardian }] }),
  );
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Estimate }).data.channels[0];
}

/** What the family's message became: its outcome, and the Hermes messages it was written into. */
async function became(family: Family, providerId: string) {
  const inbound = await one<{ outcome: string | null; id: number }>(
    family.server.db,
    sql`select id, outcome from inbound_messages where provider_id = ${providerId}`,
  );
  const messages = await count(
    family.server.db,
    sql`select count(*)::int as n from inbound_message_targets where inbound_id = ${inbound.id} and message_id is not null`,
  );
  return { outcome: inbound.outcome, messages };
}

const optedOut = (family: Family) =>
  rows<{ channel: string }>(family.server.db, sql`select channel from channel_opt_outs where phone = ${family.phone} order by channel`);

const OUT = (school: string, channel: string) => `Listo: no recibirás más mensajes de ${school} por ${channel}. Responde ALTA para volver.`;
const IN = (school: string, channel: string) =>
  `Listo: volverás a recibir los mensajes de ${school} por ${channel}. Responde BAJA para dejarlos.`;
/** An SMS in its GSM-7 form ("recibiras"). */
const gsm = (text: string) => smsText(text, null).text;

describe('through Twilio (SMS) and Meta (WhatsApp)', () => {
  let twilio: FakeTwilio;
  let meta: FakeMeta;
  let family: Family;

  beforeAll(async () => {
    twilio = await startFakeTwilio();
    meta = await startFakeMeta();
    const server = await startServer({
      delivery: true,
      config: {
        publicUrl: PUBLIC,
        twilio: { accountSid: twilio.accountSid, authToken: twilio.authToken, apiUrl: twilio.url, sms: { from: SMS_FROM } },
        metaWhatsapp: {
          token: meta.token,
          phoneNumberId: meta.phoneNumberId,
          appSecret: meta.appSecret,
          verifyToken: 'verificar',
          graphUrl: meta.url,
          graphVersion: 'v24.0',
          template: 'hermes_aviso',
          templateLang: 'es',
        },
      },
    });
    meta.webhookUrl = `${server.url}/api/webhooks/meta/whatsapp`;
    family = await familyOf(server);
  }, 120_000);

  afterAll(async () => {
    await family?.server.close();
    await twilio?.close();
    await meta?.close();
  });

  const smsUrl = `${PUBLIC}/api/webhooks/twilio/sms/incoming`;
  /** What Twilio was asked to send after the first `from` messages. */
  const twilioSince = (from: number) => twilio.messages.slice(from);

  it('a reply that mentions "baja" is threaded under the message it answers, and confirmed with nothing', async () => {
    const res = await send(
      family.admin,
      composeInput({
        title: 'Reunión de apoderados',
        channels: ['sms'],
        recipients: [{ kind: 'student', id: family.student, audience: 'apoderados' }],
        allow_replies: true,
      }),
    );
    expect(res.status).toBe(201);
    const original = ((await res.json()) as { data: { id: number } }).data.id;
    await eventually(
      'the SMS handed to Twilio',
      () => count(family.server.db, sql`select count(*)::int as n from deliveries where message_id = ${original} and status = 'sent'`),
      (n) => n > 0,
    );
    const before = twilio.messages.length;
    const { response, sid } = await twilio.incoming(
      smsUrl,
      { from: family.phone, body: 'Mi hija está de baja médica, no va mañana' },
      { connectTo: family.server.url },
    );
    expect(response.status).toBe(200);
    expect(await became(family, sid)).toEqual({ outcome: 'reply', messages: 1 });
    const reply = await one<{ reply_to_id: number | null }>(
      family.server.db,
      sql`select m.reply_to_id from inbound_messages i join inbound_message_targets t on t.inbound_id = i.id
          join messages m on m.id = t.message_id where i.provider_id = ${sid}`,
    );
    expect(reply.reply_to_id).toBe(original);
    expect(await optedOut(family)).toEqual([]);
    expect(twilioSince(before)).toEqual([]);
  });

  it('«BAJA» by SMS opts the phone out, is no reply, and is confirmed once by Twilio without a status callback', async () => {
    expect(await estimated(family, 'sms')).toMatchObject({ deliveries: 1, opted_out: 0 });
    const before = twilio.messages.length;
    const { response, sid, params } = await twilio.incoming(smsUrl, { from: family.phone, body: 'Baja' }, { connectTo: family.server.url });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<Response/>');

    expect(await optedOut(family)).toEqual([{ channel: 'sms' }]);
    expect(await estimated(family, 'sms')).toMatchObject({ deliveries: 0, opted_out: 1 });
    expect(await became(family, sid)).toEqual({ outcome: 'opt_out', messages: 0 });
    expect(twilioSince(before)).toEqual([
      {
        sid: expect.stringMatching(/^SM[0-9a-f]{32}$/),
        to: family.phone,
        from: SMS_FROM,
        messagingServiceSid: null,
        body: gsm(OUT(family.school, 'SMS')),
        contentSid: null,
        contentVariables: null,
        statusCallback: null,
      },
    ]);
    expect(twilio.requests.at(-1)!.form).not.toHaveProperty('StatusCallback');

    // Twilio posts the same webhook again (it timed out waiting for us): nothing more is sent.
    const again = await fetch(`${family.server.url}/api/webhooks/twilio/sms/incoming`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8',
        'X-Twilio-Signature': twilioSignature(twilio.authToken, smsUrl, params),
      },
      body: new URLSearchParams(params).toString(),
    });
    expect(again.status).toBe(200);
    expect(twilioSince(before)).toHaveLength(1);
    expect(await count(family.server.db, sql`select count(*)::int as n from inbound_messages where provider_id = ${sid}`)).toBe(1);
  });

  it('«ALTA» by SMS re-joins and is confirmed', async () => {
    const before = twilio.messages.length;
    const { response, sid } = await twilio.incoming(smsUrl, { from: family.phone, body: 'ALTA' }, { connectTo: family.server.url });
    expect(response.status).toBe(200);
    expect(await optedOut(family)).toEqual([]);
    expect(await estimated(family, 'sms')).toMatchObject({ deliveries: 1, opted_out: 0 });
    expect(await became(family, sid)).toEqual({ outcome: 'opt_out', messages: 0 });
    expect(twilioSince(before).map((m) => ({ to: m.to, body: m.body, statusCallback: m.statusCallback }))).toEqual([
      { to: family.phone, body: gsm(IN(family.school, 'SMS')), statusCallback: null },
    ]);
  });

  it('«BAJA» by WhatsApp through Meta is confirmed as free text, never the template; a repeat sends nothing', async () => {
    expect(await estimated(family, 'whatsapp')).toMatchObject({ deliveries: 1, opted_out: 0 });
    const before = meta.messages.length;
    const id = `wamid.${randomUUID()}`;
    const word = [{ from: family.phone.slice(1), id, text: 'baja' }];
    expect((await meta.postInbound(word)).status).toBe(200);

    expect(await optedOut(family)).toEqual([{ channel: 'whatsapp' }]);
    expect(await estimated(family, 'whatsapp')).toMatchObject({ deliveries: 0, opted_out: 1 });
    expect(await estimated(family, 'sms')).toMatchObject({ deliveries: 1, opted_out: 0 });
    expect(await became(family, id)).toEqual({ outcome: 'opt_out', messages: 0 });
    const sent = meta.messages.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.type).toBe('text');
    expect(sent[0]!.body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: family.phone.slice(1),
      type: 'text',
      text: { body: OUT(family.school, 'WhatsApp'), preview_url: false },
    });

    expect((await meta.postInbound(word)).status).toBe(200);
    expect(meta.messages.slice(before)).toHaveLength(1);

    // Meta reports on the notice as on any message: no delivery has its wamid, so nothing changes.
    const readBefore = await count(family.server.db, sql`select count(*)::int as n from deliveries where read_at is not null`);
    expect((await meta.postStatuses([{ wamid: sent[0]!.wamid, status: 'read', recipientId: family.phone.slice(1) }])).status).toBe(200);
    expect(await count(family.server.db, sql`select count(*)::int as n from deliveries where provider_ref = ${sent[0]!.wamid}`)).toBe(0);
    expect(await count(family.server.db, sql`select count(*)::int as n from deliveries where read_at is not null`)).toBe(readBefore);
  });

  it("Twilio's WhatsApp sends a notice as free text even with a template configured, and refuses a landline unsent", async () => {
    const adapter = createTwilioAdapter({
      channel: 'whatsapp',
      settings: {
        accountSid: twilio.accountSid,
        authToken: twilio.authToken,
        apiUrl: twilio.url,
        whatsapp: { from: '+14155238886', contentSid: `HX${'d'.repeat(32)}` },
      },
      publicUrl: PUBLIC,
    });
    const before = twilio.requests.length;
    const notice = { key: 'hermes-notice-prueba', address: family.phone, text: OUT(family.school, 'WhatsApp') };
    expect(await adapter.notify!(notice)).toMatchObject({ ok: true, status: 'sent' });
    expect(twilio.requests.slice(before).map((r) => r.form)).toEqual([
      { To: `whatsapp:${family.phone}`, From: 'whatsapp:+14155238886', Body: OUT(family.school, 'WhatsApp') },
    ]);
    expect(await adapter.notify!({ ...notice, address: '+56223456789' })).toEqual({ ok: false, kind: 'permanent', error: 'not_mobile' });
    expect(twilio.requests).toHaveLength(before + 1);
  });

  it('«ALTA» by WhatsApp re-joins and is confirmed as free text', async () => {
    const before = meta.messages.length;
    expect((await meta.postInbound([{ from: family.phone.slice(1), text: 'Alta' }])).status).toBe(200);
    expect(await optedOut(family)).toEqual([]);
    expect(await estimated(family, 'whatsapp')).toMatchObject({ deliveries: 1, opted_out: 0 });
    expect(meta.messages.slice(before).map((m) => ({ type: m.type, body: (m.body.text as { body: string }).body }))).toEqual([
      { type: 'text', body: IN(family.school, 'WhatsApp') },
    ]);
  });
});

describe("through a gateway's incoming endpoint, with the simulator", () => {
  let family: Family;
  let token = '';

  beforeAll(async () => {
    const server = await startServer({ delivery: true, config: { webhookSecret: SECRET } });
    family = await familyOf(server);
    const file = path.join(server.outboxDir, 'simulator.token');
    await server.delivery!.simulator!.shareToken(file);
    token = (await readFile(file, 'utf8')).trim();
  }, 120_000);

  afterAll(async () => {
    await family?.server.close();
  });

  /** The family answers, as `npm run sim:reply` makes the simulator say. */
  const answer = (body: string, channel: 'sms' | 'whatsapp' = 'sms') =>
    fetch(`${family.server.url}/sim/provider/incoming`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ channel, from: family.phone, body }),
    });

  /** What the simulator was asked to send to the family that is no delivery. */
  const notices = () =>
    rows<{ channel: string; body: string; reference: string; callback_url: string | null }>(
      family.server.db,
      sql`select channel, body, reference, callback_url from provider_sim_messages
          where "to" = ${family.phone} and reference like 'hermes-notice-%' order by created_at`,
    );

  it('«BAJA» opts the phone out and the simulator takes one notice with no callback, reported to nobody', async () => {
    const res = await answer('NO MÁS');
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    expect(await optedOut(family)).toEqual([{ channel: 'sms' }]);
    expect(await estimated(family, 'sms')).toMatchObject({ deliveries: 0, opted_out: 1 });
    expect(await became(family, id)).toEqual({ outcome: 'opt_out', messages: 0 });
    const [notice, ...more] = await notices();
    expect(more).toEqual([]);
    expect(notice).toMatchObject({ channel: 'sms', body: gsm(OUT(family.school, 'SMS')), callback_url: null });
    expect(notice!.reference).toMatch(/^hermes-notice-[0-9a-f-]{36}$/);
    // The simulator decides its outcome and, with nowhere to report it, marks it told.
    await eventually(
      'the notice settled',
      () =>
        one<{ status: string; reported: boolean }>(
          family.server.db,
          sql`select status, reported_at is not null as reported from provider_sim_messages where reference = ${notice!.reference}`,
        ),
      (row) => row.status === 'delivered' && row.reported,
    );

    // The gateway posts the same message again: nothing more is sent.
    const payload = JSON.stringify({ id, from: family.phone, body: 'NO MÁS', at: new Date().toISOString() });
    const again = await fetch(`${family.server.url}/api/webhooks/provider/sms/incoming`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', [SIGNATURE_HEADER]: signReport(payload, SECRET) },
      body: payload,
    });
    expect(again.status).toBeLessThan(300);
    expect(await notices()).toHaveLength(1);
  });

  it('«ALTA» re-joins and is confirmed', async () => {
    expect((await answer('alta')).status).toBe(202);
    expect(await optedOut(family)).toEqual([]);
    expect(await estimated(family, 'sms')).toMatchObject({ deliveries: 1, opted_out: 0 });
    expect((await notices()).map((n) => n.body)).toEqual([gsm(OUT(family.school, 'SMS')), gsm(IN(family.school, 'SMS'))]);
  });

  it('by WhatsApp, the notice is the text alone, no title line', async () => {
    expect((await answer('Stop', 'whatsapp')).status).toBe(202);
    expect(await optedOut(family)).toEqual([{ channel: 'whatsapp' }]);
    expect((await notices()).filter((n) => n.channel === 'whatsapp').map((n) => n.body)).toEqual([OUT(family.school, 'WhatsApp')]);
  });
});
