// The SMS that goes out is the SMS that was counted: a send through recording providers hands the SMS
// provider the GSM-7 text validation counted (accents dropped, typographic quotes and dashes plain, the
// signature closing it) in one segment, and WhatsApp the text as written. The estimate refuses what send
// and schedule refuse, with the same field errors, so the confirmation never shows a message that fails;
// and it accepts what they accept (a draft's own attachments, when told which draft is sent).
import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComposeInput, Estimate, RecipientPick } from '../../shared/compose-contract';
import { normalizePhone } from '../../server/recipients/phone';
import { composeInput } from '../fixtures/compose';
import { count, one, rows, send, uploadOk } from './support/compose';
import { listen, startServer, type Client, type TestServer } from './support/server';
import { eventually } from './support/wait';

// GSM 03.38, written out here rather than imported, so the segment count does not trust the code under test.
const GSM7_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM7_EXTENSION = '\f^{}\\[~]|€';

/** Segments a GSM-7 text takes (153 units per part once concatenated); throws on a non-GSM-7 character. */
function gsm7Segments(text: string): number {
  let units = 0;
  for (const char of text) {
    if (GSM7_BASIC.includes(char)) units += 1;
    else if (GSM7_EXTENSION.includes(char)) units += 2;
    else throw new Error(`no es GSM-7: ${JSON.stringify(char)} (U+${char.codePointAt(0)!.toString(16)})`);
  }
  return units <= 160 ? 1 : Math.ceil(units / 153);
}

interface Recorded {
  /** The request body exactly as the provider received it. */
  raw: Uint8Array;
  json: { channel: string; to: string; body: string; reference: string };
}

let server: TestServer;
let admin: Client;
let closeProvider: () => Promise<void>;
const recorded: Recorded[] = [];
let guardian: { id: number; phone: string };

beforeAll(async () => {
  // One provider for both channels: records every request and accepts it (no status report follows).
  const provider = new Hono();
  provider.post('/messages', async (c) => {
    const raw = new Uint8Array(await c.req.arrayBuffer());
    recorded.push({ raw, json: JSON.parse(new TextDecoder().decode(raw)) as Recorded['json'] });
    return c.json({ id: `rec-${recorded.length}`, status: 'accepted' }, 202);
  });
  const http = await listen(provider);
  closeProvider = http.close;
  const real = { url: http.url, token: 'recording' };
  server = await startServer({ delivery: true, config: { smsProvider: real, whatsappProvider: real } });
  admin = server.client();
  expect((await admin.login('administrador@sanandres.cl')).status).toBe(200);
  const candidates = await rows<{ id: number; phone: string }>(
    server.db,
    sql`select g.id, g.phone from guardians g join users u on u.institution_id = g.institution_id
        where u.email = 'administrador@sanandres.cl' and g.phone is not null order by g.id limit 50`,
  );
  guardian = candidates.find((g) => normalizePhone(g.phone, 'CL').ok)!;
  expect(guardian).toBeDefined();
  // The school's signature is «CSA», active (the seed): 6 units reserved.
  const signature = await one<{ signature: string; is_active: boolean }>(
    server.db,
    sql`select s.signature, s.is_active from institution_signatures s join users u on u.institution_id = s.institution_id
        where u.email = 'administrador@sanandres.cl'`,
  );
  expect(signature).toEqual({ signature: 'CSA', is_active: true });
});

afterAll(async () => {
  await server?.close();
  await closeProvider?.();
});

describe('the SMS handed to the provider', () => {
  it('is the GSM-7 text that was counted, signature included, in one segment; WhatsApp gets the text as written', async () => {
    const typed = 'Reunión … “comillas” — ÁÉÍÓÚ. ';
    // What validation counts: á/í/ó/ú lose the accent, É is GSM-7 and stays, … is three dots, quotes and dash plain.
    const counted = 'Reunion ... "comillas" - AÉIOU. ';
    expect(counted.length).toBe(32);
    // 154 units with the signature active: the longest content allowed.
    const content = typed + 'a'.repeat(154 - counted.length);
    const pick: RecipientPick = { kind: 'guardian', id: guardian.id };
    const body = composeInput({ title: 'Reunión de apoderados', content, channels: ['sms', 'whatsapp'], recipients: [pick] });

    const estimate = await admin.post('/api/messages/estimate', body);
    expect(estimate.status).toBe(200);
    const estimated = ((await estimate.json()) as { data: Estimate }).data;
    expect(estimated.sms).toMatchObject({ segments_per_message: 1, total: 1 });
    expect(estimated.problems).toEqual([]);

    const res = await send(admin, body);
    expect(res.status).toBe(201);
    const { id } = ((await res.json()) as { data: { id: number } }).data;
    const references = await rows<{ channel: string; reference: string; segments: number }>(
      server.db,
      sql`select channel, 'hermes-' || id || '-' || generation as reference, segments from deliveries where message_id = ${id} order by channel`,
    );
    const mine = () => recorded.filter((r) => references.some((d) => d.reference === r.json.reference));
    const handed = await eventually('el proveedor recibió los SMS', mine, (list) => list.length === 2);

    const sms = handed.find((r) => r.json.channel === 'sms')!;
    const expected = `${counted}${'a'.repeat(154 - counted.length)}\n\nCSA`;
    expect(sms.json.body).toBe(expected);
    expect(sms.json.to).toBe(guardian.phone);
    // The exact bytes on the wire, not only what a JSON parser makes of them.
    expect(new TextDecoder().decode(sms.raw)).toContain(JSON.stringify(expected));
    expect(gsm7Segments(sms.json.body)).toBe(1);
    // The quota was charged what the provider will send.
    expect(references.find((d) => d.channel === 'sms')!.segments).toBe(gsm7Segments(sms.json.body));

    // WhatsApp has no GSM-7 limit: the title, then the text as written and the signature.
    const whatsapp = handed.find((r) => r.json.channel === 'whatsapp')!;
    expect(whatsapp.json.body).toBe(`Reunión de apoderados\n${content}\n\nCSA`);
  });
});

describe('the estimate refuses what send refuses', () => {
  /** The estimate's and send's (or schedule's) answers to the same body: both 422, the same errors, nothing written. */
  async function sameRefusal(input: ComposeInput, path: '/api/messages/send' | '/api/messages/schedule' = '/api/messages/send') {
    const messages = () => count(server.db, sql`select count(*)::int as n from messages`);
    const before = await messages();
    const estimate = await admin.post('/api/messages/estimate', input);
    const refused = await send(admin, input, undefined, path);
    expect(refused.status).toBe(422);
    expect(estimate.status).toBe(422);
    const errors = (await estimate.json()) as { code: string; errors: Record<string, string[]> };
    expect(errors).toMatchObject({ code: 'validation.failed' });
    expect(errors.errors).toEqual(((await refused.json()) as { errors: Record<string, string[]> }).errors);
    expect(await messages()).toBe(before);
    return errors.errors;
  }
  const sms = (content: string) => composeInput({ content, channels: ['sms'], recipients: [{ kind: 'guardian', id: guardian.id }] });

  it('160 characters with the signature active', async () => {
    expect((await sameRefusal(sms('a'.repeat(160)))).content).toEqual(['El SMS supera los 154 caracteres permitidos.']);
  });

  it('an emoji', async () => {
    expect((await sameRefusal(sms('Hola 🎉'))).content).toEqual(['El SMS contiene caracteres que no se pueden enviar: 🎉']);
  });

  it('a schedule less than a minute ahead', async () => {
    const body = { ...sms('Hola'), scheduled_at: new Date(Date.now() + 20_000).toISOString() };
    expect((await sameRefusal(body, '/api/messages/schedule')).scheduled_at).toEqual([
      'La fecha de envío debe ser al menos un minuto en el futuro.',
    ]);
  });

  it('a send without title or recipients', async () => {
    const errors = await sameRefusal(composeInput({ title: ' ', recipients: [] }));
    expect(Object.keys(errors).sort()).toEqual(['recipients', 'title']);
  });

  it('and accepts what send accepts: a draft with its own attachment, named by draft_id', async () => {
    const file = await uploadOk(admin, 'circular.txt', 'text/plain', new TextEncoder().encode('circular'));
    const body = composeInput({ recipients: [{ kind: 'guardian', id: guardian.id }], attachment_ids: [file.id] });
    const draft = await admin.post('/api/messages/drafts', body);
    expect(draft.status).toBe(201);
    const draftId = ((await draft.json()) as { data: { id: number } }).data.id;
    // The attachment is the draft's now: without the draft it is someone else's.
    expect((await admin.post('/api/messages/estimate', body)).status).toBe(422);
    expect((await admin.post('/api/messages/estimate', { ...body, draft_id: draftId })).status).toBe(200);
    expect((await send(admin, { ...body, draft_id: draftId })).status).toBe(201);
  });
});
