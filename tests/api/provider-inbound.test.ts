// Families' messages a gateway of the own provider API brings (docs/provider-api.md, "Incoming messages"),
// posted signed to the real server's /api/webhooks/provider/{sms|whatsapp}/incoming and handled by the real
// inbound domain: a guardian's SMS answers the message that reached them, a repeated id is ignored, a
// WhatsApp opens the 24-hour window from its `at`, files are fetched with the provider token only from the
// provider's own address. A wrong signature is a 401 and a malformed message a 422 in Spanish; neither
// writes anything.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signReport, SIGNATURE_HEADER } from '../../server/delivery/provider';
import { whatsappWindowOpenUntil } from '../../server/inbound/window';
import { composeInput } from '../fixtures/compose';
import { count, one, rows, send } from './support/compose';
import { listen, startServer, type TestServer } from './support/server';

const SECRET = 'gateway-webhook-secret';
const TOKEN = 'gateway-token';
const ADMIN = 'administrador@sanandres.cl';
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, ...Array.from({ length: 60 }, (_, i) => i)]);

let server: TestServer;
/** The gateway's own API (SMS_PROVIDER_URL), which serves its files to the provider token only. */
let gateway: { url: string; close(): Promise<void> };
/** A storage elsewhere on this machine, serving signed links to anyone: never fetched. */
let storage: { url: string; close(): Promise<void> };
const seenAuth: { gateway: (string | null)[]; storage: (string | null)[] } = { gateway: [], storage: [] };
let fam: { guardian: number; phone: string; student: number };

const incoming = (channel: string, payload: unknown, signature: string | null = signReport(JSON.stringify(payload), SECRET)) => {
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
  return fetch(`${server.url}/api/webhooks/provider/${channel}/incoming`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(signature === null ? {} : { [SIGNATURE_HEADER]: signature }) },
    body,
  });
};
const signedRaw = (channel: string, raw: string) => incoming(channel, raw, signReport(raw, SECRET));

const inboundRows = (providerId: string) =>
  rows<{
    channel: string;
    phone: string;
    provider: string;
    body: string;
    received_at: string;
    media_count: number;
    outcome: string | null;
  }>(
    server.db,
    sql`select channel, phone, provider, body, received_at, media_count, outcome from inbound_messages where provider_id = ${providerId}`,
  );
const allInbound = () => count(server.db, sql`select count(*) as n from inbound_messages`);

/** The Hermes messages an inbound message became. */
const became = (providerId: string) =>
  rows<{ message_id: number; content: string; reply_to_id: number | null; sender_kind: string }>(
    server.db,
    sql`select m.id as message_id, m.content, m.reply_to_id, m.sender_kind from inbound_messages i
        join inbound_message_targets t on t.inbound_id = i.id join messages m on m.id = t.message_id
        where i.provider = 'gateway' and i.provider_id = ${providerId}`,
  );

beforeAll(async () => {
  const files = new Hono();
  files.get('/media/:name', (c) => {
    seenAuth.gateway.push(c.req.header('Authorization') ?? null);
    if (c.req.header('Authorization') !== `Bearer ${TOKEN}`) return c.text('no', 401);
    return c.body(new Uint8Array(JPEG), 200, { 'Content-Type': 'image/jpeg' });
  });
  gateway = await listen(files);
  const bucket = new Hono();
  bucket.get('/signed/:name', (c) => {
    seenAuth.storage.push(c.req.header('Authorization') ?? null);
    return c.body(new Uint8Array(JPEG), 200, { 'Content-Type': 'image/jpeg' });
  });
  storage = await listen(bucket);
  server = await startServer({ config: { webhookSecret: SECRET, smsProvider: { url: gateway.url, token: TOKEN } } });

  const school = await one<{ id: number }>(server.db, sql`select institution_id as id from users where email = ${ADMIN}`);
  fam = await one(
    server.db,
    sql`select g.id as guardian, g.phone, min(s.id) as student from guardians g
      join student_guardians sg on sg.guardian_id = g.id join students s on s.id = sg.student_id and s.withdrawn_at is null
      where g.institution_id = ${school.id} and g.phone like '+569%'
        and (select count(*) from guardians o where o.phone = g.phone) = 1
      group by g.id order by g.id limit 1`,
  );
  await server.db.execute(sql`insert into institution_channels (institution_id, channel, enabled) values (${school.id}, 'sms', true)
    on conflict (institution_id, channel) do update set enabled = true`);
}, 120_000);

afterAll(async () => {
  await server?.close();
  await gateway?.close();
  await storage?.close();
});

describe("a gateway's incoming messages", () => {
  it("thread a guardian's SMS under the message that reached them, once however often it is posted", async () => {
    const admin = server.client();
    expect((await admin.login(ADMIN)).status).toBe(200);
    const res = await send(
      admin,
      composeInput({
        title: 'Reunión de apoderados',
        channels: ['sms'],
        recipients: [{ kind: 'student', id: fam.student, audience: 'apoderados' }],
        allow_replies: true,
      }),
    );
    expect(res.status, await res.clone().text()).toBe(201);
    const original = ((await res.json()) as { data: { id: number } }).data.id;
    await server.db.execute(sql`update deliveries set status = 'sent', sent_at = now(), attempts = 1
      where message_id = ${original} and channel = 'sms'`);

    const id = `gw-${randomUUID()}`;
    // The number as a gateway may write it: the national format with spaces.
    const local = `+56 9 ${fam.phone.slice(4, 8)} ${fam.phone.slice(8)}`;
    const first = await incoming('sms', { id, from: local, body: 'Confirmo asistencia.' });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ data: { received: 1 } });
    expect(await inboundRows(id)).toEqual([
      expect.objectContaining({ channel: 'sms', phone: fam.phone, provider: 'gateway', body: 'Confirmo asistencia.', outcome: 'reply' }),
    ]);
    const [reply] = await became(id);
    expect(reply).toMatchObject({ content: 'Confirmo asistencia.', sender_kind: 'apoderado', reply_to_id: original });

    // The gateway repeats it (a lost answer): acknowledged, nothing new.
    const total = await allInbound();
    expect((await incoming('sms', { id, from: fam.phone, body: 'Confirmo asistencia.' })).status).toBe(200);
    expect(await allInbound()).toBe(total);
    expect(await became(id)).toHaveLength(1);
  });

  it("take a list, and a WhatsApp opens the family's window from when it was written", async () => {
    const at = new Date(Date.now() - 3600_000);
    const ids = [`gw-${randomUUID()}`, `gw-${randomUUID()}`];
    const res = await incoming('whatsapp', [
      { id: ids[0], from: fam.phone, body: 'Hola', at: at.toISOString() },
      // A clock ahead of ours counts as now: the window never opens into the future.
      { id: ids[1], from: `whatsapp:${fam.phone}`, body: '¿Mañana hay clases?', at: '2099-01-01T00:00:00Z' },
    ]);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { received: 2 } });
    const [early] = await inboundRows(ids[0]!);
    expect(new Date(early!.received_at).getTime()).toBe(at.getTime());
    const [late] = await inboundRows(ids[1]!);
    expect(new Date(late!.received_at).getTime()).toBeLessThanOrEqual(Date.now());
    expect(late!.channel).toBe('whatsapp');
    const until = await whatsappWindowOpenUntil(server.db, fam.phone);
    expect(until!.getTime()).toBe(new Date(late!.received_at).getTime() + 24 * 3600_000);
  });

  it('fetch files with the provider token from its own address, and never from another private address', async () => {
    const id = `gw-${randomUUID()}`;
    const res = await incoming('sms', {
      id,
      from: fam.phone,
      body: 'Adjunto el certificado',
      media: [
        { url: `${gateway.url}/media/1`, content_type: 'image/jpeg', filename: 'certificado.jpg' },
        { url: `${storage.url}/signed/2?firma=abc`, content_type: 'image/jpeg' },
      ],
    });
    expect(res.status).toBe(200);
    expect(seenAuth.gateway).toEqual([`Bearer ${TOKEN}`]);
    // The storage listens on this machine, which only the gateway's own address may be
    // (tests/unit/media-download.test.ts fetches a public one without the token).
    expect(seenAuth.storage).toEqual([]);
    const [row] = await inboundRows(id);
    expect(row!.media_count).toBe(2);
    const [message] = await became(id);
    const kept = await rows<{ name: string; content_type: string; size: number }>(
      server.db,
      sql`select name, content_type, size from message_attachments where message_id = ${message!.message_id} order by id`,
    );
    expect(kept).toEqual([{ name: 'certificado.jpg', content_type: 'image/jpeg', size: JPEG.length }]);
  });

  it("drop invisible control characters from the family's text instead of refusing it", async () => {
    const id = `gw-${randomUUID()}`;
    const res = await incoming('sms', { id, from: fam.phone, body: 'Gracias\u0000 por\u0007 avisar\tprofesora' });
    expect(res.status).toBe(200);
    expect((await inboundRows(id))[0]!.body).toBe('Gracias por avisar\tprofesora');
  });

  it('refuse a missing or wrong signature with 401 and write nothing', async () => {
    const total = await allInbound();
    const payload = { id: `gw-${randomUUID()}`, from: fam.phone, body: 'hola' };
    for (const signature of [null, 'sha256=00', signReport(JSON.stringify(payload), 'otro-secreto'), `sha256=${'0'.repeat(64)}`]) {
      const res = await incoming('sms', payload, signature);
      expect(res.status, String(signature)).toBe(401);
      expect(await res.json()).toMatchObject({ code: 'auth.unauthenticated', message: 'La firma del mensaje no es válida.' });
    }
    // Signed for one body, sent with another.
    const res = await incoming('sms', { ...payload, body: 'otra cosa' }, signReport(JSON.stringify(payload), SECRET));
    expect(res.status).toBe(401);
    expect(await allInbound()).toBe(total);
  });

  it('refuse a malformed message with 422 in Spanish, naming the field, and write nothing', async () => {
    const total = await allInbound();
    const ok = { id: 'gw-x', from: fam.phone, body: 'hola' };
    const cases: [unknown, string, RegExp][] = [
      ['no es json', 'body', /objeto JSON/],
      [[], 'body', /entre 1 y 100/],
      [Array.from({ length: 101 }, () => ok), 'body', /entre 1 y 100/],
      [{ ...ok, id: '' }, 'id', /identificador/],
      [{ ...ok, id: 'a\u0000b' }, 'id', /identificador/],
      [{ ...ok, from: '12' }, 'from', /celular válido/],
      [{ ...ok, from: '+56223456789' }, 'from', /celular válido/],
      [{ ...ok, body: 5 }, 'body', /texto/],
      [{ ...ok, body: '  ' }, 'body', /ni archivos/],
      [{ ...ok, at: 'ayer' }, 'at', /ISO 8601/],
      [{ ...ok, media: [{ url: 'ftp://x/y', content_type: 'image/jpeg' }] }, 'media', /url http/],
      [{ ...ok, media: [{ url: 'https://x/y' }] }, 'media', /content_type/],
      [[ok, { ...ok, from: 'nadie' }], 'from', /^Mensaje 2: /],
    ];
    for (const [payload, field, message] of cases) {
      const res = typeof payload === 'string' ? await signedRaw('sms', payload) : await incoming('sms', payload);
      expect(res.status, JSON.stringify(payload).slice(0, 80)).toBe(422);
      const answer = (await res.json()) as { code: string; errors: Record<string, string[]> };
      expect(answer.code).toBe('validation.failed');
      expect(answer.errors[field]?.[0], JSON.stringify(payload).slice(0, 80)).toMatch(message);
    }
    expect(await allInbound()).toBe(total);
  });

  it('answer 503 with Retry-After to a repeat that comes while the first is still at work, and take it later', async () => {
    const id = `gw-${randomUUID()}`;
    await server.db.execute(sql`insert into inbound_messages (channel, phone, provider, provider_id, received_at, body, claimed_at)
      values ('sms', ${fam.phone}, 'gateway', ${id}, now(), 'En curso', now())`);
    const res = await incoming('sms', { id, from: fam.phone, body: 'En curso' });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('10');
    expect(await res.json()).toMatchObject({ code: 'inbound.busy' });
    await server.db.execute(sql`update inbound_messages set outcome = 'school_inbox' where provider_id = ${id}`);
    expect((await incoming('sms', { id, from: fam.phone, body: 'En curso' })).status).toBe(200);
  }, 20_000);

  it('read a national number as Chilean, then as Mexican', async () => {
    for (const [from, phone] of [
      ['9 8765 4321', '+56987654321'],
      ['55 1234 5678', '+525512345678'],
      ['+52 1 55 1234 5678', '+525512345678'],
    ]) {
      const id = `gw-${randomUUID()}`;
      expect((await incoming('sms', { id, from, body: 'Hola' })).status, from).toBe(200);
      expect((await inboundRows(id))[0], from).toMatchObject({ phone });
    }
  });

  it('are not found for another channel', async () => {
    expect((await incoming('email', { id: 'gw-y', from: fam.phone, body: 'hola' })).status).toBe(404);
  });
});
