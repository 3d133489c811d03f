// WhatsApp through Meta's Cloud API over real HTTP: the real server sends through the delivery engine to a
// local Graph API (tests/fixtures/meta-graph.ts) that checks each request as Meta would, and that posts
// signed webhooks back to the server as Meta does. Template outside the 24-hour window, text inside; the
// statuses move reception to received and read, out of order and repeated; 429 and 5xx are retried; a
// wrong signature writes nothing; families' messages reach the inbound handler with their files.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryKey, type Outgoing } from '../../server/delivery/channel';
import { createMetaWhatsappAdapter } from '../../server/delivery/meta/send';
import { signMeta } from '../../server/delivery/meta/signature';
import { InboundBusy, type InboundMessage } from '../../server/inbound/contract';
import { normalizePhone } from '../../server/recipients/phone';
import { composeInput } from '../fixtures/compose';
import { type FakeMeta, startFakeMeta } from '../fixtures/meta-graph';
import { one, rows, send } from './support/compose';
import { startServer, type TestServer } from './support/server';
import { eventually } from './support/wait';

const PUBLIC_URL = 'https://hermes.colegio.cl';
const VERIFY_TOKEN = 'token-de-verificacion';

let fake: FakeMeta;
let server: TestServer;
let admin: ReturnType<TestServer['client']>;
/** Guardians of the admin's school with a mobile number, handed out one per use. */
const guardians: { id: number; phone: string }[] = [];
/** Phones whose family wrote to the school in the last 24 hours. */
const openWindows = new Set<string>();
const inbound: InboundMessage[] = [];
let refuseInbound: Error | null = null;

interface DeliveryRow {
  id: number;
  generation: number;
  status: string;
  error: string | null;
  provider_ref: string | null;
  address: string;
  attempts: number;
  delivered_at: string | null;
  read_at: string | null;
  recipient: string;
}

const metaConfig = () => ({
  token: fake.token,
  phoneNumberId: fake.phoneNumberId,
  appSecret: fake.appSecret,
  verifyToken: VERIFY_TOKEN,
  graphUrl: fake.url,
  graphVersion: 'v24.0',
  template: 'hermes_aviso',
  templateLang: 'es',
});

beforeAll(async () => {
  fake = await startFakeMeta();
  server = await startServer({
    delivery: true,
    config: { publicUrl: PUBLIC_URL, metaWhatsapp: metaConfig() },
    whatsappWindow: async (phone) => (openWindows.has(phone) ? new Date(Date.now() + 3_600_000) : null),
    onInbound: async (message) => {
      if (refuseInbound) throw refuseInbound;
      inbound.push(message);
    },
  });
  fake.webhookUrl = `${server.url}/api/webhooks/meta/whatsapp`;
  admin = server.client();
  expect((await admin.login('administrador@sanandres.cl')).status).toBe(200);
  const found = await rows<{ id: number; phone: string }>(
    server.db,
    sql`select g.id, g.phone from guardians g join users u on u.institution_id = g.institution_id
        where u.email = 'administrador@sanandres.cl' and g.phone is not null order by g.id limit 60`,
  );
  for (const g of found) {
    const phone = normalizePhone(g.phone, 'CL');
    // One guardian per phone: a window opened for one must not open it for another test's guardian.
    if (phone.ok && !guardians.some((x) => x.phone === phone.e164)) guardians.push({ id: g.id, phone: phone.e164 });
  }
  expect(guardians.length).toBeGreaterThanOrEqual(8);
});

afterAll(async () => {
  await server?.close();
  await fake?.close();
});

const take = () => {
  const guardian = guardians.shift();
  if (!guardian) throw new Error('no guardian left');
  return guardian;
};

/** Sends a WhatsApp message to these guardians through the API; returns its id. */
async function sendTo(ids: number[], title = 'Corte de agua', content = 'Mañana no hay clases.\nLos buses no pasan.'): Promise<number> {
  const res = await send(
    admin,
    composeInput({ title, content, channels: ['whatsapp'], recipients: ids.map((id) => ({ kind: 'guardian' as const, id })) }),
  );
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: { id: number } }).data.id;
}

const deliveryOf = (messageId: number, guardianId: number) =>
  one<DeliveryRow>(
    server.db,
    sql`select d.id, d.generation, d.status, d.error, d.provider_ref, d.address, d.attempts, d.delivered_at, d.read_at,
          r.status as recipient
        from deliveries d join message_recipients r on r.id = d.recipient_id
        where d.message_id = ${messageId} and d.channel = 'whatsapp' and r.recipient_kind = 'apoderado' and r.recipient_ref_id = ${guardianId}`,
  );

const handedOver = (messageId: number, guardianId: number) =>
  eventually(
    'entrega a Meta',
    () => deliveryOf(messageId, guardianId),
    (d) => d.status === 'sent' && d.provider_ref !== null,
  );

const deliveryById = (id: number) =>
  one<DeliveryRow>(
    server.db,
    sql`select d.id, d.generation, d.status, d.error, d.provider_ref, d.address, d.attempts, d.delivered_at, d.read_at,
          r.status as recipient
        from deliveries d join message_recipients r on r.id = d.recipient_id where d.id = ${id}`,
  );

describe('sending through the engine', () => {
  it('sends the approved template outside the 24-hour window and free text inside it, field by field', async () => {
    const closed = take();
    const open = take();
    openWindows.add(open.phone);
    const messageId = await sendTo([closed.id, open.id]);
    const viaTemplate = await handedOver(messageId, closed.id);
    const viaText = await handedOver(messageId, open.id);

    const template = fake.messages.find((m) => m.wamid === viaTemplate.provider_ref)!;
    expect(template.body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: closed.phone.slice(1),
      type: 'template',
      template: {
        name: 'hermes_aviso',
        language: { code: 'es' },
        components: [
          {
            type: 'body',
            parameters: [
              { type: 'text', text: expect.stringMatching(/^Colegio San Andrés/) },
              { type: 'text', text: 'Corte de agua' },
              { type: 'text', text: `${PUBLIC_URL}/familia/mensajes/${messageId}` },
            ],
          },
        ],
      },
      biz_opaque_callback_data: deliveryKey(viaTemplate.id, viaTemplate.generation),
    });
    const text = fake.messages.find((m) => m.wamid === viaText.provider_ref)!;
    expect(text.body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: open.phone.slice(1),
      type: 'text',
      // The school's signature closes the text, as on every channel.
      text: { body: 'Corte de agua\nMañana no hay clases.\nLos buses no pasan.\n\nCSA', preview_url: false },
      biz_opaque_callback_data: deliveryKey(viaText.id, viaText.generation),
    });
    // Both with the bearer token, to this number's messages endpoint.
    const posts = fake.requests.filter((r) => r.method === 'POST');
    expect(posts.every((r) => r.authorization === `Bearer ${fake.token}` && r.path === `/v24.0/${fake.phoneNumberId}/messages`)).toBe(true);
  });

  it('retries 429 and 5xx with the engine backoff until Meta takes the message', async () => {
    const guardian = take();
    fake.failNext({ status: 429, code: 130429, message: '(#130429) Rate limit hit' }, { status: 503 });
    const before = fake.requests.length;
    const messageId = await sendTo([guardian.id], 'Reunión');
    const done = await handedOver(messageId, guardian.id);
    expect(done.attempts).toBe(3);
    expect(done.error).toBeNull();
    expect(fake.requests.slice(before).filter((r) => r.method === 'POST')).toHaveLength(3);
  });

  it('fails an undeliverable number at once, and records Meta refusing our token as provider_auth', async () => {
    const undeliverable = take();
    fake.failNext({ status: 400, code: 131026, message: 'Message undeliverable' });
    const first = await sendTo([undeliverable.id], 'Aviso uno');
    const failed = await eventually(
      'fallo permanente',
      () => deliveryOf(first, undeliverable.id),
      (d) => d.status === 'failed',
    );
    expect(failed).toMatchObject({ error: 'whatsapp_undeliverable', attempts: 1 });

    const refused = take();
    // Every try (the first and both retries) answered 401 with code 190.
    fake.failNext(...Array.from({ length: 3 }, () => ({ status: 401, code: 190, message: 'Session has expired' })));
    const second = await sendTo([refused.id], 'Aviso dos');
    const gaveUp = await eventually(
      'reintentos agotados',
      () => deliveryOf(second, refused.id),
      (d) => d.status === 'failed',
    );
    expect(gaveUp).toMatchObject({ error: 'provider_auth', attempts: 3 });
  });
});

describe('status webhook', () => {
  let sentId: number;
  let wamid: string;

  beforeAll(async () => {
    const guardian = take();
    const messageId = await sendTo([guardian.id], 'Paseo de curso');
    const row = await handedOver(messageId, guardian.id);
    sentId = row.id;
    wamid = row.provider_ref!;
  });

  it('moves reception to received on delivered and to read on read, by the wamid alone', async () => {
    const sent = await fake.postStatuses([{ wamid, status: 'sent' }]);
    expect(sent.status).toBe(200);
    expect((await deliveryById(sentId)).status).toBe('sent');

    const delivered = await fake.postStatuses([{ wamid, status: 'delivered', timestamp: Math.floor(Date.now() / 1000) - 60 }]);
    expect(delivered.status).toBe(200);
    expect(await delivered.json()).toEqual({ data: { applied: 1, inbound: 0 } });
    const received = await deliveryById(sentId);
    expect(received).toMatchObject({ status: 'received', recipient: 'received' });
    expect(received.delivered_at).not.toBeNull();

    // The same status again changes nothing.
    expect(await (await fake.postStatuses([{ wamid, status: 'delivered' }])).json()).toEqual({ data: { applied: 0, inbound: 0 } });

    expect(await (await fake.postStatuses([{ wamid, status: 'read' }])).json()).toEqual({ data: { applied: 1, inbound: 0 } });
    const read = await deliveryById(sentId);
    expect(read).toMatchObject({ status: 'read', recipient: 'read' });
    expect(read.read_at).not.toBeNull();

    // Late ones never move it back.
    for (const status of ['sent', 'delivered', 'failed'] as const) {
      const late = await fake.postStatuses([{ wamid, status }]);
      expect(await late.json()).toEqual({ data: { applied: 0, inbound: 0 } });
    }
    expect(await deliveryById(sentId)).toMatchObject({ status: 'read', recipient: 'read', error: null });
  });

  it('applies the furthest of an out-of-order batch, and finds a delivery by the key Meta echoes', async () => {
    const guardian = take();
    const messageId = await sendTo([guardian.id], 'Vacunación');
    const row = await handedOver(messageId, guardian.id);
    // read before delivered, in one post; the wamid unknown but the key ours.
    const res = await fake.postStatuses([
      { wamid: 'wamid.other', status: 'read', callbackData: deliveryKey(row.id, row.generation) },
      { wamid: 'wamid.other', status: 'delivered', callbackData: deliveryKey(row.id, row.generation) },
    ]);
    expect(await res.json()).toEqual({ data: { applied: 1, inbound: 0 } });
    expect(await deliveryById(row.id)).toMatchObject({ status: 'read', recipient: 'read' });
  });

  it('ignores unknown wamids, another round and the keys of other channels', async () => {
    const guardian = take();
    const messageId = await sendTo([guardian.id], 'Feria científica');
    const row = await handedOver(messageId, guardian.id);
    const res = await fake.postStatuses([
      { wamid: 'wamid.unknown', status: 'delivered' },
      { wamid: 'wamid.x', status: 'delivered', callbackData: deliveryKey(row.id, row.generation + 1) },
      { wamid: 'wamid.y', status: 'delivered', callbackData: 'hermes-99999999999-0' },
      { wamid: 'wamid.z', status: 'delivered', callbackData: 'not-ours' },
    ]);
    expect(await res.json()).toEqual({ data: { applied: 0, inbound: 0 } });
    expect((await deliveryById(row.id)).status).toBe('sent');
  });

  it('records a failed status with its reason: not received when the number cannot get it', async () => {
    const guardian = take();
    const messageId = await sendTo([guardian.id], 'Suspensión');
    const row = await handedOver(messageId, guardian.id);
    await fake.postStatuses([{ wamid: row.provider_ref!, status: 'failed', errorCode: 131026 }]);
    expect(await deliveryById(row.id)).toMatchObject({
      status: 'not_received',
      error: 'whatsapp_undeliverable',
      recipient: 'not_received',
    });
    // Delivered afterwards (another device of the family): received is no further than not received.
    await fake.postStatuses([{ wamid: row.provider_ref!, status: 'delivered' }]);
    expect((await deliveryById(row.id)).status).toBe('not_received');
    // Read still counts: the family did see it.
    await fake.postStatuses([{ wamid: row.provider_ref!, status: 'read' }]);
    expect((await deliveryById(row.id)).status).toBe('read');
  });

  it("records a template refused later as our fault, which never counts against the family's phone", async () => {
    const guardian = take();
    const misses = () =>
      one<{ n: number }>(server.db, sql`select device_misses as n from guardians where id = ${guardian.id}`).then((r) => Number(r.n));
    const before = await misses();
    const messageId = await sendTo([guardian.id], 'Plantilla pausada');
    const row = await handedOver(messageId, guardian.id);
    await fake.postStatuses([{ wamid: row.provider_ref!, status: 'failed', errorCode: 132015 }]);
    expect(await deliveryById(row.id)).toMatchObject({ status: 'error', error: 'provider_template' });
    expect(await misses()).toBe(before);
  });

  it("records a closed 24-hour window as ours to fix, which never turns the family's phone yellow", async () => {
    const guardian = take();
    const misses = () =>
      one<{ n: number }>(server.db, sql`select device_misses as n from guardians where id = ${guardian.id}`).then((r) => Number(r.n));
    const before = await misses();
    for (const title of ['Ventana 1', 'Ventana 2', 'Ventana 3']) {
      const messageId = await sendTo([guardian.id], title);
      const row = await handedOver(messageId, guardian.id);
      await fake.postStatuses([{ wamid: row.provider_ref!, status: 'failed', errorCode: 131047 }]);
      expect(await deliveryById(row.id)).toMatchObject({ error: 'whatsapp_window' });
    }
    expect(await misses()).toBe(before);
  });

  it('answers 401 to a wrong or missing signature and writes nothing', async () => {
    const guardian = take();
    const messageId = await sendTo([guardian.id], 'Kermés');
    const row = await handedOver(messageId, guardian.id);
    const payload = fake.statusPayload([{ wamid: row.provider_ref!, status: 'read' }]);
    for (const signature of [null, 'sha256=0000', `sha256=${'a'.repeat(64)}`]) {
      const res = await fake.postWebhook(payload, { signature });
      expect(res.status).toBe(401);
      expect(((await res.json()) as { message: string }).message).toBe('La firma del webhook no es válida.');
    }
    // Signed with another app's secret.
    const forged = await fake.postWebhook(payload, { signature: signMeta(JSON.stringify(payload), 'otro-secreto') });
    expect(forged.status).toBe(401);
    expect((await deliveryById(row.id)).status).toBe('sent');
    // The same post, signed, applies.
    expect((await fake.postWebhook(payload)).status).toBe(200);
    expect((await deliveryById(row.id)).status).toBe('read');
  });

  it('acknowledges a signed post it cannot read with 200, so Meta does not post it again', async () => {
    const res = await fetch(fake.webhookUrl!, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Hub-Signature-256': signMeta('{"object":', fake.appSecret) },
      body: '{"object":',
    });
    expect(res.status).toBe(200);
  });
});

describe('webhook verification', () => {
  const verify = (query: Record<string, string>) => fetch(`${fake.webhookUrl}?${new URLSearchParams(query)}`);

  it('answers the challenge as text when the verify token is ours', async () => {
    const res = await verify({ 'hub.mode': 'subscribe', 'hub.verify_token': VERIFY_TOKEN, 'hub.challenge': '1158201444' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toBe('1158201444');
  });

  it('answers 403 to another token or mode', async () => {
    for (const query of [
      { 'hub.mode': 'subscribe', 'hub.verify_token': 'otro', 'hub.challenge': '1' },
      { 'hub.mode': 'unsubscribe', 'hub.verify_token': VERIFY_TOKEN, 'hub.challenge': '1' },
      { 'hub.challenge': '1' },
    ] as Record<string, string>[]) {
      const res = await verify(query);
      expect(res.status).toBe(403);
      expect(await res.text()).not.toBe('1');
    }
  });
});

describe('without WHATSAPP_PROVIDER=meta', () => {
  it('has no Meta webhook', async () => {
    const plain = await server.sibling({ config: {} });
    const res = await fetch(`${plain.url}/api/webhooks/meta/whatsapp?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1`);
    expect(res.status).toBe(404);
  });
});

describe('families writing', () => {
  it('hands texts and files to the inbound handler, the files downloaded from Meta with the bearer', async () => {
    inbound.length = 0;
    const photo = Buffer.from('\xff\xd8\xff\xe0 foto de la libreta firmada', 'latin1');
    const mediaId = fake.addMedia(photo, 'image/jpeg');
    const res = await fake.postInbound([
      { from: '56987654321', id: 'wamid.in-1', timestamp: 1764504000, text: 'Gracias, ahí estaremos' },
      { from: '56987654321', id: 'wamid.in-2', media: { type: 'image', id: mediaId, mimeType: 'image/jpeg', caption: 'Firmada' } },
    ]);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { applied: 0, inbound: 2 } });
    expect(inbound.map(({ media: _media, receivedAt: _at, ...m }) => m)).toEqual([
      { channel: 'whatsapp', from: '+56987654321', provider: 'meta', providerId: 'wamid.in-1', body: 'Gracias, ahí estaremos' },
      { channel: 'whatsapp', from: '+56987654321', provider: 'meta', providerId: 'wamid.in-2', body: 'Firmada' },
    ]);
    expect(inbound[0]!.receivedAt).toEqual(new Date(1764504000_000));
    expect(inbound[0]!.media).toEqual([]);
    expect(inbound[1]!.media).toHaveLength(1);
    expect(inbound[1]!.media[0]!.contentType).toBe('image/jpeg');

    const before = fake.requests.length;
    expect(await inbound[1]!.media[0]!.download()).toEqual(photo);
    const downloads = fake.requests.slice(before);
    expect(downloads.map((r) => [r.method, r.path, r.authorization])).toEqual([
      ['GET', `/v24.0/${mediaId}`, `Bearer ${fake.token}`],
      ['GET', `/media-files/${mediaId}`, `Bearer ${fake.token}`],
    ]);
  });

  it('takes a message with a control character with 200, handing it on without it', async () => {
    inbound.length = 0;
    const res = await fake.postInbound([{ from: '56987654321', id: 'wamid.in-ctl', text: 'Listo\u0000\u001b' }]);
    expect(res.status).toBe(200);
    expect(inbound.map((m) => m.body)).toEqual(['Listo']);
  });

  it('answers 500 when the handler cannot record a message, so Meta posts it again', async () => {
    inbound.length = 0;
    refuseInbound = new Error('base de datos caída');
    try {
      const res = await fake.postInbound([{ from: '56987654321', id: 'wamid.in-3', text: 'Hola' }]);
      expect(res.status).toBe(500);
    } finally {
      refuseInbound = null;
    }
    expect((await fake.postInbound([{ from: '56987654321', id: 'wamid.in-3', text: 'Hola' }])).status).toBe(200);
    expect(inbound.map((m) => m.providerId)).toEqual(['wamid.in-3']);
  });
});

describe('families writing, while another request still handles the same message', () => {
  it('answers 503 with Retry-After, so Meta posts it again', async () => {
    inbound.length = 0;
    refuseInbound = new InboundBusy('wamid.in-4');
    try {
      const res = await fake.postInbound([{ from: '56987654321', id: 'wamid.in-4', text: 'Hola' }]);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('10');
    } finally {
      refuseInbound = null;
    }
    expect((await fake.postInbound([{ from: '56987654321', id: 'wamid.in-4', text: 'Hola' }])).status).toBe(200);
    expect(inbound.map((m) => m.providerId)).toEqual(['wamid.in-4']);
  });
});

describe('adapter against the fake', () => {
  const message = (overrides: Partial<Outgoing> = {}): Outgoing => ({
    deliveryId: 1,
    key: 'hermes-1-0',
    channel: 'whatsapp',
    address: '+56987654321',
    messageId: 7,
    title: 'Reunión\tde   apoderados\n',
    text: 'El miércoles a las 19:00.',
    senderName: 'Dirección',
    institutionName: 'Colegio San Andrés',
    attachments: [],
    ...overrides,
  });
  const adapter = (overrides: Partial<Parameters<typeof createMetaWhatsappAdapter>[0]> = {}) =>
    createMetaWhatsappAdapter({ config: metaConfig(), publicUrl: PUBLIC_URL, timeoutMs: 2000, ...overrides });

  it('folds a template parameter to one line, as Meta requires', async () => {
    const result = await adapter().send(message());
    expect(result).toEqual({ ok: true, status: 'sent', providerRef: expect.stringMatching(/^wamid\./) });
    const sent = fake.messages.find((m) => result.ok && m.wamid === result.providerRef)!;
    const parameters = (sent.body.template as { components: { parameters: { text: string }[] }[] }).components[0]!.parameters;
    expect(parameters.map((p) => p.text)).toEqual(['Colegio San Andrés', 'Reunión de apoderados', `${PUBLIC_URL}/familia/mensajes/7`]);
  });

  it("links staff to their Hermes inbox and families to the families' app", async () => {
    const links: string[] = [];
    for (const recipientKind of ['funcionario', 'apoderado', 'estudiante'] as const) {
      const result = await adapter().send(message({ recipientKind }));
      const sent = fake.messages.find((m) => result.ok && m.wamid === result.providerRef)!;
      links.push((sent.body.template as { components: { parameters: { text: string }[] }[] }).components[0]!.parameters[2]!.text);
    }
    expect(links).toEqual([`${PUBLIC_URL}/inbox/message/7`, `${PUBLIC_URL}/familia/mensajes/7`, `${PUBLIC_URL}/familia/mensajes/7`]);
  });

  it('sends the template at once when the window closed between the lookup and Meta (131047)', async () => {
    fake.failNext({ status: 400, code: 131047, message: 'Re-engagement message' });
    const before = fake.requests.length;
    const result = await adapter({ windowOpenUntil: async () => new Date(Date.now() + 60_000) }).send(message());
    expect(result.ok).toBe(true);
    const types = fake.requests.slice(before).map((r) => (r.body as { type: string }).type);
    expect(types).toEqual(['text', 'template']);
  });

  it('treats a window that already ended, or a lookup that fails, as closed', async () => {
    const before = fake.requests.length;
    await adapter({ windowOpenUntil: async () => new Date(Date.now() - 1000) }).send(message());
    await adapter({ windowOpenUntil: async () => Promise.reject(new Error('sin base')) }).send(message());
    expect(fake.requests.slice(before).map((r) => (r.body as { type: string }).type)).toEqual(['template', 'template']);
  });

  it('maps Meta errors to Hermes codes', async () => {
    for (const [failure, expected] of [
      [
        { status: 400, code: 132001 },
        { kind: 'transient', error: 'provider_template' },
      ],
      [
        { status: 400, code: 131056 },
        { kind: 'transient', error: 'unreachable' },
      ],
      [
        { status: 400, code: 131048 },
        { kind: 'transient', error: 'unreachable' },
      ],
      [
        { status: 500, code: 131000 },
        { kind: 'transient', error: 'unreachable' },
      ],
      [
        { status: 400, code: 131042 },
        { kind: 'transient', error: 'provider_account' },
      ],
      [
        { status: 400, code: 131051 },
        { kind: 'permanent', error: 'rejected' },
      ],
      [
        { status: 400, code: 100 },
        { kind: 'permanent', error: 'rejected' },
      ],
      [{ status: 502 }, { kind: 'transient', error: 'unreachable' }],
    ] as const) {
      fake.failNext(failure);
      expect(await adapter().send(message())).toEqual({ ok: false, ...expected });
    }
    expect(await adapter({ config: { ...metaConfig(), token: 'vencido' } }).send(message())).toEqual({
      ok: false,
      kind: 'transient',
      error: 'provider_auth',
    });
  });

  it('fails a bad number without calling Meta, and a closed port as unreachable', async () => {
    const before = fake.requests.length;
    expect(await adapter().send(message({ address: '12345' }))).toEqual({ ok: false, kind: 'permanent', error: 'invalid_number' });
    expect(await adapter().send(message({ address: '+56 2 2123 4567' }))).toEqual({ ok: false, kind: 'permanent', error: 'not_mobile' });
    expect(fake.requests.length).toBe(before);
    const gone = await startFakeMeta();
    await gone.close();
    expect(await adapter({ config: { ...metaConfig(), graphUrl: gone.url } }).send(message())).toEqual({
      ok: false,
      kind: 'transient',
      error: 'unreachable',
    });
  });
});
