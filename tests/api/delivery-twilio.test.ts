// SMS and WhatsApp through Twilio, against a local fake that speaks Twilio's wire format
// (tests/fixtures/twilio.ts): the requests checked field by field, Twilio's answers as SendResults, signed
// status callbacks through the real server moving the deliveries (in order, out of order, repeated, with a
// wrong signature), a timed-out POST not sent twice, WhatsApp as free text inside the family's 24-hour window and
// as the template outside it, the engine retrying 429 and 5xx, and incoming messages
// handed to the inbound handler. Hermes's public address is not this machine's, as in production behind a
// proxy: the fake signs over the public URL and connects to the test server.
import { type DeliveryPool, deliveryPool, type PooledDelivery } from './support/delivery-pool';
import { Hono } from 'hono';
import { sql } from 'drizzle-orm';
import { format } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TwilioSettings } from '../../server/config';
import { deliveryKey, type Outgoing } from '../../server/delivery/channel';
import { buildAdapters } from '../../server/delivery/adapters';
import { createTwilioAdapter } from '../../server/delivery/twilio/adapter';
import { sidOfRound } from '../../server/delivery/twilio/rounds';
import { twilioSignature } from '../../server/delivery/twilio/signature';
import { whatsappWindowOpenUntil } from '../../server/inbound/window';
import { recordOutcomes } from '../../server/reception/status';
import { twilioWebhookRoutes } from '../../server/routes/twilio-webhook';
import { composeInput } from '../fixtures/compose';
import { type FakeTwilio, startFakeTwilio } from '../fixtures/twilio';
import { one, rows, send } from './support/compose';
import { listen, startServer, testConfig, type TestServer } from './support/server';
import { eventually } from './support/wait';
import { InboundBusy, type InboundMessage } from '../../server/inbound/contract';

const PUBLIC = 'https://hermes.colegio.example';
const SMS_FROM = '+56229990000';
const WHATSAPP_FROM = '+14155238886';

let fake: FakeTwilio;
let server: TestServer;
let settings: TwilioSettings;
const cleanups: (() => Promise<void>)[] = [];

/** SMS / WhatsApp deliveries of one sent message, handed out one per test. */
let pool: DeliveryPool;

/** Sends a message to a course of the seeded school; returns its id. */
async function sendToCourse(target: TestServer, channels: ('sms' | 'whatsapp')[], title = 'Corte de agua'): Promise<number> {
  const admin = target.client();
  expect((await admin.login('administrador@sanandres.cl')).status).toBe(200);
  const course = await one<{ id: number }>(
    target.db,
    sql`select c.id from courses c join users u on u.institution_id = c.institution_id
        where u.email = 'administrador@sanandres.cl'
          and (select count(*) from students s where s.course_id = c.id) >= 10 order by c.id limit 1`,
  );
  const res = await send(
    admin,
    composeInput({
      title,
      content: 'Mañana no hay clases.',
      channels,
      recipients: [{ kind: 'course', id: course.id, audience: 'apoderados' }],
    }),
  );
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: { id: number } }).data.id;
}

beforeAll(async () => {
  fake = await startFakeTwilio();
  settings = {
    accountSid: fake.accountSid,
    authToken: fake.authToken,
    apiUrl: fake.url,
    sms: { from: SMS_FROM },
    whatsapp: { from: WHATSAPP_FROM, contentSid: null },
  };
  server = await startServer({ config: { publicUrl: PUBLIC, twilio: settings } });
  const id = await sendToCourse(server, ['sms', 'whatsapp']);
  pool = await deliveryPool(server.db, id);
  // Enough rows for every test below.
  expect(pool.left('sms')).toBeGreaterThanOrEqual(16);
  expect(pool.left('whatsapp')).toBeGreaterThanOrEqual(4);
});

afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

afterAll(async () => {
  await server?.close();
  await fake?.close();
});

const take = (channel: 'sms' | 'whatsapp' = 'sms') => pool.take(channel);

const outgoing = (row: PooledDelivery, channel: 'sms' | 'whatsapp' = 'sms'): Outgoing => ({
  deliveryId: row.id,
  key: deliveryKey(row.id, row.generation),
  channel,
  address: row.address,
  messageId: row.message_id,
  title: row.title,
  text: row.content,
  senderName: 'Administrador',
  institutionName: 'Colegio San Andrés',
  attachments: [],
});

const adapter = (channel: 'sms' | 'whatsapp' = 'sms', overrides: Partial<TwilioSettings> = {}, timeoutMs = 2000) =>
  createTwilioAdapter({
    channel,
    settings: { ...settings, ...overrides },
    publicUrl: PUBLIC,
    sidOfRound: (round) => sidOfRound(server.db, round),
    timeoutMs,
  });

const delivery = (id: number) =>
  one<{
    status: string;
    error: string | null;
    provider_ref: string | null;
    delivered_at: string | null;
    read_at: string | null;
    recipient: string;
  }>(
    server.db,
    sql`select d.status, d.error, d.provider_ref, d.delivered_at, d.read_at, r.status as recipient
        from deliveries d join message_recipients r on r.id = d.recipient_id where d.id = ${id}`,
  );

/** Hands a delivery to Twilio and records the hand-over as the engine does; returns its sid. */
async function handedOver(row: PooledDelivery, channel: 'sms' | 'whatsapp' = 'sms'): Promise<string> {
  const result = await adapter(channel).send(outgoing(row, channel));
  if (!result.ok || !result.providerRef) throw new Error(`not handed over: ${JSON.stringify(result)}`);
  await recordOutcomes(server.db, [
    { id: row.id, generation: row.generation, status: 'sent', error: null, provider_ref: result.providerRef },
  ]);
  return result.providerRef;
}

const statusUrl = (channel: string, key?: string) =>
  `${PUBLIC}/api/webhooks/twilio/${channel}/status${key ? `?key=${encodeURIComponent(key)}` : ''}`;

/** A status callback written by hand (for sids the fake never issued), signed over `signedUrl`. */
function postCallback(url: string, params: Record<string, string>, signature = twilioSignature(fake.authToken, url, params)) {
  return fetch(`${server.url}${url.slice(PUBLIC.length)}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Twilio-Signature': signature },
    body: new URLSearchParams(params).toString(),
  });
}

const callback = (sid: string, status: string, errorCode?: number) =>
  fake.status(sid, status, { connectTo: server.url, ...(errorCode !== undefined ? { errorCode } : {}) });

describe('sending through Twilio', () => {
  it('posts an SMS to Messages.json, form-encoded with Basic auth, field by field', async () => {
    const row = take();
    const result = await adapter().send(outgoing(row));
    const taken = fake.messages.at(-1)!;
    expect(result).toEqual({ ok: true, status: 'sent', providerRef: taken.sid });
    expect(taken.sid).toMatch(/^SM[0-9a-f]{32}$/);
    const request = fake.requests.at(-1)!;
    expect(request.path).toBe(`/2010-04-01/Accounts/${fake.accountSid}/Messages.json`);
    expect(request.authorization).toBe(`Basic ${Buffer.from(`${fake.accountSid}:${fake.authToken}`).toString('base64')}`);
    expect(request.contentType).toBe('application/x-www-form-urlencoded');
    expect(request.form).toEqual({
      To: row.address,
      From: SMS_FROM,
      Body: row.content,
      StatusCallback: statusUrl('sms', deliveryKey(row.id, row.generation)),
    });
  });

  it('sends WhatsApp with whatsapp: addresses and the title as the first line', async () => {
    const row = take('whatsapp');
    const result = await adapter('whatsapp').send(outgoing(row, 'whatsapp'));
    expect(result.ok).toBe(true);
    expect(fake.requests.at(-1)!.form).toEqual({
      To: `whatsapp:${row.address}`,
      From: `whatsapp:${WHATSAPP_FROM}`,
      Body: `${row.title}\n${row.content}`,
      StatusCallback: statusUrl('whatsapp', deliveryKey(row.id, row.generation)),
    });
  });

  it("sends WhatsApp as the school's approved template when one is configured", async () => {
    const template = `HX${'e'.repeat(32)}`;
    const row = take('whatsapp');
    const result = await adapter('whatsapp', { whatsapp: { from: WHATSAPP_FROM, contentSid: template } }).send(outgoing(row, 'whatsapp'));
    expect(result.ok).toBe(true);
    const { form } = fake.requests.at(-1)!;
    expect(form).toEqual({
      To: `whatsapp:${row.address}`,
      From: `whatsapp:${WHATSAPP_FROM}`,
      ContentSid: template,
      ContentVariables: expect.any(String),
      StatusCallback: statusUrl('whatsapp', deliveryKey(row.id, row.generation)),
    });
    expect(JSON.parse(form.ContentVariables!)).toEqual({
      1: 'Colegio San Andrés',
      2: row.title,
      3: `${PUBLIC}/familia/mensajes/${row.message_id}`,
    });
  });

  it("folds the template's title to one line as Meta's adapter does, and links staff to their Hermes inbox", async () => {
    const template = `HX${'e'.repeat(32)}`;
    const send = adapter('whatsapp', { whatsapp: { from: WHATSAPP_FROM, contentSid: template } });
    const variables: unknown[] = [];
    for (const [recipientKind, title] of [
      ['funcionario', 'Reunión\tde   apoderados\n'],
      ['apoderado', ' \n '],
    ] as const) {
      const row = take('whatsapp');
      expect((await send.send({ ...outgoing(row, 'whatsapp'), recipientKind, title })).ok).toBe(true);
      variables.push({ messageId: row.message_id, sent: JSON.parse(fake.requests.at(-1)!.form.ContentVariables!) });
    }
    const [staff, family] = variables as { messageId: number; sent: unknown }[];
    expect(staff!.sent).toEqual({ 1: 'Colegio San Andrés', 2: 'Reunión de apoderados', 3: `${PUBLIC}/inbox/message/${staff!.messageId}` });
    expect(family!.sent).toEqual({ 1: 'Colegio San Andrés', 2: '-', 3: `${PUBLIC}/familia/mensajes/${family!.messageId}` });
  });

  it('sends from a Messaging Service when one is configured', async () => {
    const service = `MG${'c'.repeat(32)}`;
    const row = take();
    const result = await adapter('sms', { sms: { messagingServiceSid: service } }).send(outgoing(row));
    expect(result.ok).toBe(true);
    const { form } = fake.requests.at(-1)!;
    expect(form.MessagingServiceSid).toBe(service);
    expect(form.From).toBeUndefined();
  });

  it("maps Twilio's answers to permanent and transient failures with Hermes's codes", async () => {
    const cases: [Parameters<FakeTwilio['failNext']>[0], { kind: string; error: string }][] = [
      [
        { status: 400, code: 21211 },
        { kind: 'permanent', error: 'invalid_number' },
      ],
      [
        { status: 400, code: 21614 },
        { kind: 'permanent', error: 'not_mobile' },
      ],
      [
        { status: 400, code: 21610 },
        { kind: 'permanent', error: 'unsubscribed' },
      ],
      [
        { status: 400, code: 21606 },
        { kind: 'transient', error: 'provider_config' },
      ],
      [
        { status: 400, code: 21999 },
        { kind: 'permanent', error: 'rejected' },
      ],
      [
        { status: 429, code: 20429, retryAfter: 1 },
        { kind: 'transient', error: 'unreachable' },
      ],
      [
        { status: 500, code: 20500 },
        { kind: 'transient', error: 'unreachable' },
      ],
      [
        { status: 503, code: 20503 },
        { kind: 'transient', error: 'unreachable' },
      ],
    ];
    const row = take();
    for (const [answer, expected] of cases) {
      fake.failNext(answer);
      expect(await adapter().send(outgoing(row)), JSON.stringify(answer)).toEqual({ ok: false, ...expected });
    }
    // Wrong credentials: the fake checks the Basic auth itself.
    expect(await adapter('sms', { authToken: 'otro' }).send(outgoing(row))).toEqual({
      ok: false,
      kind: 'transient',
      error: 'provider_auth',
    });
    expect(fake.requests.at(-1)!.status).toBe(401);
  });

  it('refuses a number it cannot text before paying for a call', async () => {
    const before = fake.requests.length;
    const row = { ...take(), address: '+5612' };
    expect(await adapter().send(outgoing(row))).toEqual({ ok: false, kind: 'permanent', error: 'invalid_number' });
    expect(fake.requests.length).toBe(before);
  });

  it('does not send again a round Twilio took before our side timed out', async () => {
    const row = take();
    fake.failNext({ status: 201, delayMs: 1500 });
    const timedOut = await adapter('sms', {}, 300).send(outgoing(row));
    expect(timedOut).toEqual({ ok: false, kind: 'transient', error: 'unreachable' });
    const taken = fake.messages.at(-1)!;
    expect(taken.to).toBe(row.address);
    // Twilio's first callback names the round in its URL: its sid is kept for the retry.
    expect((await callback(taken.sid, 'sent')).status).toBe(200);
    expect((await delivery(row.id)).provider_ref).toBe(taken.sid);
    const posts = fake.requests.length;
    expect(await adapter().send(outgoing(row))).toEqual({ ok: true, status: 'sent', providerRef: taken.sid });
    expect(fake.requests.length).toBe(posts);
  });
  it('sends again a timed-out round no callback vouched for: a rare duplicate rather than a lost message', async () => {
    const row = take();
    fake.failNext({ status: 201, delayMs: 1000 });
    expect(await adapter('sms', {}, 300).send(outgoing(row))).toEqual({ ok: false, kind: 'transient', error: 'unreachable' });
    const result = await adapter().send(outgoing(row));
    expect(result.ok).toBe(true);
    expect(fake.messages.filter((m) => m.to === row.address)).toHaveLength(2);
  });
});

describe('status callbacks', () => {
  it('move a delivery to received, then read, and late or repeated ones change nothing', async () => {
    const row = take();
    const sid = await handedOver(row);
    expect(await (await callback(sid, 'sent')).json()).toEqual({ data: { applied: 0 } });
    expect((await delivery(row.id)).status).toBe('sent');

    expect(await (await callback(sid, 'delivered')).json()).toEqual({ data: { applied: 1 } });
    const received = await delivery(row.id);
    expect(received).toMatchObject({ status: 'received', error: null, recipient: 'received' });
    expect(received.delivered_at).not.toBeNull();
    expect(await (await callback(sid, 'delivered')).json()).toEqual({ data: { applied: 0 } });

    // WhatsApp's read receipts come the same way; an SMS never sends one, but the rule is the channel's own.
    expect(await (await callback(sid, 'read')).json()).toEqual({ data: { applied: 1 } });
    const read = await delivery(row.id);
    expect(read).toMatchObject({ status: 'read', recipient: 'read' });
    for (const late of ['delivered', 'sent', 'undelivered', 'read']) {
      expect(await (await callback(sid, late)).json()).toEqual({ data: { applied: 0 } });
    }
    expect(await delivery(row.id)).toEqual(read);
  });

  it('take a read that arrives before its delivered', async () => {
    const row = take('whatsapp');
    const sid = await handedOver(row, 'whatsapp');
    await callback(sid, 'read');
    await callback(sid, 'delivered');
    await callback(sid, 'sent');
    const d = await delivery(row.id);
    expect(d.status).toBe('read');
    expect(d.delivered_at).not.toBeNull();
    expect(d.read_at).not.toBeNull();
  });

  it("record an undelivered or failed message with the reason of Twilio's ErrorCode", async () => {
    const off = take();
    await callback(await handedOver(off), 'undelivered', 30003);
    expect(await delivery(off.id)).toMatchObject({ status: 'not_received', error: 'handset_unreachable' });

    const landline = take();
    await callback(await handedOver(landline), 'undelivered', 30006);
    expect(await delivery(landline.id)).toMatchObject({ status: 'not_received', error: 'not_mobile' });

    const spam = take();
    await callback(await handedOver(spam), 'undelivered', 30007);
    expect(await delivery(spam.id)).toMatchObject({ status: 'not_received', error: 'filtered' });

    const window = take('whatsapp');
    await callback(await handedOver(window, 'whatsapp'), 'failed', 63016);
    expect(await delivery(window.id)).toMatchObject({ status: 'error', error: 'whatsapp_window' });
  });

  it('find the delivery by its sid when the callback URL carries no key (a Messaging Service callback)', async () => {
    const row = take();
    const sid = await handedOver(row);
    const params = { MessageSid: sid, MessageStatus: 'delivered', AccountSid: fake.accountSid, To: row.address };
    expect(await (await postCallback(statusUrl('sms'), params)).json()).toEqual({ data: { applied: 1 } });
    expect((await delivery(row.id)).status).toBe('received');
  });

  it('acknowledge and ignore an unknown sid, another channel, and an old round', async () => {
    const unknown = { MessageSid: `SM${'f'.repeat(32)}`, MessageStatus: 'delivered', AccountSid: fake.accountSid };
    expect(await (await postCallback(statusUrl('sms'), unknown)).json()).toEqual({ data: { applied: 0 } });

    const row = take();
    const sid = await handedOver(row);
    const params = { MessageSid: sid, MessageStatus: 'delivered', AccountSid: fake.accountSid };
    expect(await (await postCallback(statusUrl('whatsapp', deliveryKey(row.id, row.generation)), params)).json()).toEqual({
      data: { applied: 0 },
    });
    expect(await (await postCallback(statusUrl('sms', deliveryKey(row.id, row.generation + 1)), params)).json()).toEqual({
      data: { applied: 0 },
    });
    expect(await (await postCallback(statusUrl('sms', 'hermes-99999999999-0'), params)).json()).toEqual({ data: { applied: 0 } });
    expect((await delivery(row.id)).status).toBe('sent');
  });

  it('refuse a missing or wrong signature with 401 and write nothing', async () => {
    const row = take();
    const sid = await handedOver(row);
    const before = await delivery(row.id);
    const taken = fake.messages.find((m) => m.sid === sid)!;
    const params = { MessageSid: sid, MessageStatus: 'delivered', AccountSid: fake.accountSid };

    expect((await fake.status(sid, 'delivered', { connectTo: server.url, signature: null })).status).toBe(401);
    expect((await fake.status(sid, 'delivered', { connectTo: server.url, signature: 'AAAAAAAAAAAAAAAAAAAAAAAAAAA=' })).status).toBe(401);
    // Signed with another token, or over the address the request reached instead of the public one.
    expect((await postCallback(taken.statusCallback!, params, twilioSignature('otro', taken.statusCallback!, params))).status).toBe(401);
    const local = `${server.url}${taken.statusCallback!.slice(PUBLIC.length)}`;
    expect((await postCallback(taken.statusCallback!, params, twilioSignature(fake.authToken, local, params))).status).toBe(401);
    // A parameter changed after signing.
    const signed = twilioSignature(fake.authToken, taken.statusCallback!, params);
    expect((await postCallback(taken.statusCallback!, { ...params, MessageStatus: 'read' }, signed)).status).toBe(401);
    const res = await fake.status(sid, 'read', { connectTo: server.url, signature: null });
    expect(await res.json()).toMatchObject({ code: 'auth.unauthenticated' });
    expect(await delivery(row.id)).toEqual(before);
  });
  it('can be driven over HTTP by a fake started on its own', async () => {
    const row = take();
    const sid = await handedOver(row);
    const listed = (await (await fetch(`${fake.url}/_fake/messages`)).json()) as { messages: { sid: string }[] };
    expect(listed.messages.map((m) => m.sid)).toContain(sid);
    const res = await fetch(`${fake.url}/_fake/messages/${sid}/status`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ status: 'undelivered', errorCode: 30004, connectTo: server.url }),
    });
    expect(await res.json()).toEqual({ status: 200, body: JSON.stringify({ data: { applied: 1 } }) });
    expect(await delivery(row.id)).toMatchObject({ status: 'not_received', error: 'blocked' });
  });
});

describe('incoming messages', () => {
  it('are handed to the inbound handler, media fetched with the account credentials, and answered with empty TwiML', async () => {
    const received: InboundMessage[] = [];
    const app = new Hono();
    app.route(
      '/api/webhooks/twilio',
      twilioWebhookRoutes(server.db, {
        settings,
        publicUrl: PUBLIC,
        onInbound: async (message) => {
          received.push(message);
        },
      }),
    );
    const http = await listen(app);
    cleanups.push(http.close);
    const photo = Buffer.from('una foto de la libreta firmada');
    const url = `${PUBLIC}/api/webhooks/twilio/whatsapp/incoming`;
    const { response, sid } = await fake.incoming(
      url,
      {
        from: '+56987654321',
        body: 'Adjunto la autorización firmada',
        whatsapp: true,
        media: [{ contentType: 'image/jpeg', bytes: photo }],
      },
      { connectTo: http.url },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/xml/);
    expect(await response.text()).toBe('<?xml version="1.0" encoding="UTF-8"?><Response/>');
    expect(received).toHaveLength(1);
    const [message] = received;
    expect(message).toMatchObject({
      channel: 'whatsapp',
      from: '+56987654321',
      provider: 'twilio',
      providerId: sid,
      body: 'Adjunto la autorización firmada',
    });
    expect(message!.receivedAt).toBeInstanceOf(Date);
    expect(message!.media).toHaveLength(1);
    expect(message!.media[0]).toMatchObject({ contentType: 'image/jpeg', filename: null });
    expect((await message!.media[0]!.download()).equals(photo)).toBe(true);
    expect(fake.mediaRequests.at(-1)).toBe(`Basic ${Buffer.from(`${fake.accountSid}:${fake.authToken}`).toString('base64')}`);

    // An SMS without media; then a forged one, refused before the handler sees it.
    await fake.incoming(`${PUBLIC}/api/webhooks/twilio/sms/incoming`, { from: '+56912345678', body: 'BAJA' }, { connectTo: http.url });
    expect(received.at(-1)).toMatchObject({ channel: 'sms', from: '+56912345678', body: 'BAJA', media: [] });
    const forged = await fake.incoming(
      url,
      { from: '+56912345678', body: 'hola' },
      { connectTo: http.url, signature: 'AAAAAAAAAAAAAAAAAAAAAAAAAAA=' },
    );
    expect(forged.response.status).toBe(401);
    expect(received).toHaveLength(2);
  });

  it("answer 404 on a channel Twilio does not serve, however well signed: WhatsApp may be Meta's", async () => {
    const received: InboundMessage[] = [];
    const app = new Hono();
    const { whatsapp: _whatsapp, ...smsOnly } = settings;
    app.route(
      '/api/webhooks/twilio',
      twilioWebhookRoutes(server.db, {
        settings: smsOnly,
        publicUrl: PUBLIC,
        onInbound: async (message) => {
          received.push(message);
        },
      }),
    );
    const http = await listen(app);
    cleanups.push(http.close);
    const whatsapp = await fake.incoming(
      `${PUBLIC}/api/webhooks/twilio/whatsapp/incoming`,
      { from: '+56987654321', body: 'Hola', whatsapp: true },
      { connectTo: http.url },
    );
    expect(whatsapp.response.status).toBe(404);
    const params = { MessageSid: whatsapp.sid, MessageStatus: 'delivered' };
    const statusAt = `${PUBLIC}/api/webhooks/twilio/whatsapp/status?key=hermes-1-0`;
    const status = await fetch(`${http.url}/api/webhooks/twilio/whatsapp/status?key=hermes-1-0`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        'X-Twilio-Signature': twilioSignature(fake.authToken, statusAt, params),
      },
      body: new URLSearchParams(params).toString(),
    });
    expect(status.status).toBe(404);
    expect(received).toEqual([]);
    // SMS, which it serves, is taken.
    const sms = await fake.incoming(
      `${PUBLIC}/api/webhooks/twilio/sms/incoming`,
      { from: '+56987654321', body: 'Hola' },
      { connectTo: http.url },
    );
    expect(sms.response.status).toBe(200);
    expect(received.map((m) => m.channel)).toEqual(['sms']);
  });

  it('answer 503 with Retry-After while another request still handles the same message', async () => {
    const app = new Hono();
    app.route(
      '/api/webhooks/twilio',
      twilioWebhookRoutes(server.db, {
        settings,
        publicUrl: PUBLIC,
        onInbound: async (message) => {
          throw new InboundBusy(message.providerId);
        },
      }),
    );
    const http = await listen(app);
    cleanups.push(http.close);
    const { response } = await fake.incoming(
      `${PUBLIC}/api/webhooks/twilio/sms/incoming`,
      { from: '+56987654321', body: 'Hola' },
      { connectTo: http.url },
    );
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('10');
  });

  it('are acknowledged by the real server', async () => {
    const { response } = await fake.incoming(
      `${PUBLIC}/api/webhooks/twilio/sms/incoming`,
      { from: '+56987654321', body: 'Gracias' },
      { connectTo: server.url },
    );
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<Response/>');
  });
});

describe("WhatsApp with a template and the family's 24-hour window", () => {
  const template = `HX${'d'.repeat(32)}`;
  const withTemplate = { whatsapp: { from: WHATSAPP_FROM, contentSid: template } };
  const HOUR = 3600_000;
  const windowed = (lookup: (phone: string) => Promise<Date | null>) =>
    createTwilioAdapter({
      channel: 'whatsapp',
      settings: { ...settings, ...withTemplate },
      publicUrl: PUBLIC,
      sidOfRound: (round) => sidOfRound(server.db, round),
      windowOpenUntil: lookup,
      timeoutMs: 2000,
    });
  const freeText = (row: PooledDelivery) => ({
    To: `whatsapp:${row.address}`,
    From: `whatsapp:${WHATSAPP_FROM}`,
    Body: `${row.title}\n${row.content}`,
    StatusCallback: statusUrl('whatsapp', deliveryKey(row.id, row.generation)),
  });
  const asTemplate = (row: PooledDelivery) => ({
    To: `whatsapp:${row.address}`,
    From: `whatsapp:${WHATSAPP_FROM}`,
    ContentSid: template,
    ContentVariables: expect.any(String),
    StatusCallback: statusUrl('whatsapp', deliveryKey(row.id, row.generation)),
  });

  it("sends free text while the window is open, asking for the family's own phone", async () => {
    const row = take('whatsapp');
    const asked: string[] = [];
    const result = await windowed(async (phone) => {
      asked.push(phone);
      return new Date(Date.now() + HOUR);
    }).send(outgoing(row, 'whatsapp'));
    expect(result).toEqual({ ok: true, status: 'sent', providerRef: fake.messages.at(-1)!.sid });
    expect(asked).toEqual([row.address]);
    expect(fake.requests.at(-1)!.form).toEqual(freeText(row));
  });

  it('sends the template when the window closed, never opened, or cannot be read', async () => {
    const lookups = [async () => new Date(Date.now() - 1000), async () => null, async () => Promise.reject(new Error('sin base'))];
    for (const lookup of lookups) {
      const row = take('whatsapp');
      const before = fake.requests.length;
      expect((await windowed(lookup).send(outgoing(row, 'whatsapp'))).ok).toBe(true);
      expect(fake.requests.length).toBe(before + 1);
      expect(fake.requests.at(-1)!.form).toEqual(asTemplate(row));
    }
  });

  it('sends the template in the same attempt when Twilio refuses the free text with 63016', async () => {
    const row = take('whatsapp');
    const before = fake.requests.length;
    fake.failNext({ status: 400, code: 63016 });
    const result = await windowed(async () => new Date(Date.now() + HOUR)).send(outgoing(row, 'whatsapp'));
    const [refused, templated] = fake.requests.slice(before);
    expect(fake.requests.length).toBe(before + 2);
    expect(refused).toMatchObject({ status: 400, form: freeText(row) });
    expect(templated).toMatchObject({ status: 201, form: asTemplate(row) });
    expect(result).toEqual({ ok: true, status: 'sent', providerRef: fake.messages.at(-1)!.sid });
    expect(fake.messages.at(-1)!.contentSid).toBe(template);
  });

  it('keeps any other refusal of the free text, and a timeout, without sending the template', async () => {
    const row = take('whatsapp');
    const open = async () => new Date(Date.now() + HOUR);
    let before = fake.requests.length;
    fake.failNext({ status: 400, code: 63003 });
    expect(await windowed(open).send(outgoing(row, 'whatsapp'))).toEqual({ ok: false, kind: 'permanent', error: 'not_on_whatsapp' });
    expect(fake.requests.length).toBe(before + 1);

    before = fake.requests.length;
    fake.failNext({ status: 201, delayMs: 800 });
    const slow = createTwilioAdapter({
      channel: 'whatsapp',
      settings: { ...settings, ...withTemplate },
      publicUrl: PUBLIC,
      windowOpenUntil: open,
      timeoutMs: 200,
    });
    expect(await slow.send(outgoing(row, 'whatsapp'))).toEqual({ ok: false, kind: 'transient', error: 'unreachable' });
    expect(fake.requests.length).toBe(before + 1);
    expect(fake.requests.at(-1)!.form.Body).toBeDefined();
  });

  it('opens the window when the family writes on WhatsApp, through the real webhook and the adapters the server builds', async () => {
    const row = take('whatsapp');
    const built = buildAdapters(
      testConfig({ publicUrl: PUBLIC, twilio: { ...settings, ...withTemplate } }),
      null,
      null,
      server.db,
      (phone) => whatsappWindowOpenUntil(server.db, phone),
    );
    await built.adapters.whatsapp.send(outgoing(row, 'whatsapp'));
    expect(fake.requests.at(-1)!.form).toEqual(asTemplate(row));

    // An SMS from the same phone does not open it; a WhatsApp does.
    await fake.incoming(`${PUBLIC}/api/webhooks/twilio/sms/incoming`, { from: row.address, body: 'Recibido' }, { connectTo: server.url });
    const again = { ...row, generation: row.generation + 1 };
    await built.adapters.whatsapp.send(outgoing(again, 'whatsapp'));
    expect(fake.requests.at(-1)!.form).toEqual(asTemplate(again));

    const { response } = await fake.incoming(
      `${PUBLIC}/api/webhooks/twilio/whatsapp/incoming`,
      { from: row.address, body: '¿A qué hora es la reunión?', whatsapp: true },
      { connectTo: server.url },
    );
    expect(response.status).toBe(200);
    const third = { ...row, generation: row.generation + 2 };
    await built.adapters.whatsapp.send(outgoing(third, 'whatsapp'));
    expect(fake.requests.at(-1)!.form).toEqual(freeText(third));
  });
});

describe('the engine with Twilio', () => {
  it('retries 429 and 5xx with its backoff and sends each delivery once', async () => {
    const engineFake = await startFakeTwilio();
    cleanups.push(engineFake.close);
    const engineSettings: TwilioSettings = { ...settings, apiUrl: engineFake.url };
    // Everything this server logs, at its most talkative, is kept to look for secrets in.
    const printed: string[] = [];
    const keep = (...args: unknown[]) => {
      printed.push(format(...args));
    };
    const spies = [vi.spyOn(console, 'log').mockImplementation(keep), vi.spyOn(console, 'error').mockImplementation(keep)];
    cleanups.push(async () => {
      for (const spy of spies) spy.mockRestore();
    });
    const engineServer = await startServer({ delivery: true, config: { publicUrl: PUBLIC, twilio: engineSettings, log: 'debug' } });
    cleanups.push(engineServer.close);
    engineFake.failNext({ status: 429, code: 20429, retryAfter: 1 }, 2);
    engineFake.failNext({ status: 500, code: 20500 }, 1);
    engineFake.failNext({ status: 503 }, 1);
    const id = await sendToCourse(engineServer, ['sms']);
    const settled = await eventually(
      'every SMS handed to Twilio or refused',
      () =>
        rows<{ id: number; status: string; error: string | null; provider_ref: string | null; attempts: number }>(
          engineServer.db,
          sql`select id, status, error, provider_ref, attempts from deliveries where message_id = ${id} and channel = 'sms' order by id`,
        ),
      (list) => list.length > 0 && list.every((d) => d.status !== 'queued'),
      30_000,
    );
    const sent = settled.filter((d) => d.status === 'sent');
    expect(sent.length).toBeGreaterThanOrEqual(4);
    // The four refusals were retried: nothing failed for them, and each delivery went to Twilio once.
    expect(settled.filter((d) => d.status === 'failed' && d.error !== 'invalid_number' && d.error !== 'missing_address')).toEqual([]);
    expect(engineFake.requests.filter((r) => r.status === 429 || r.status >= 500)).toHaveLength(4);
    expect(engineFake.messages).toHaveLength(sent.length);
    expect(new Set(sent.map((d) => d.provider_ref))).toEqual(new Set(engineFake.messages.map((m) => m.sid)));
    expect(sent.filter((d) => d.attempts > 1).length).toBeGreaterThanOrEqual(1);

    // Their callbacks, through the real server, bring every one to "received".
    for (const m of engineFake.messages) await engineFake.status(m.sid, 'delivered', { connectTo: engineServer.url });
    const after = await rows<{ status: string }>(
      engineServer.db,
      sql`select status from deliveries where message_id = ${id} and channel = 'sms' and provider_ref is not null`,
    );
    expect(after.every((d) => d.status === 'received')).toBe(true);

    // A family's message reaches the placeholder handler, which keeps neither its text nor its phone.
    const { response } = await engineFake.incoming(
      `${PUBLIC}/api/webhooks/twilio/sms/incoming`,
      { from: '+56987654321', body: 'Mi hija está enferma' },
      { connectTo: engineServer.url },
    );
    expect(response.status).toBe(200);
    const log = printed.join('\n');
    expect(log).toContain('/api/webhooks/twilio/sms/status');
    for (const secret of [
      engineFake.authToken,
      Buffer.from(`${engineFake.accountSid}:${engineFake.authToken}`).toString('base64'),
      'Mi hija',
      '+56987654321',
    ]) {
      expect(log, secret).not.toContain(secret);
    }
  }, 60_000);
});
