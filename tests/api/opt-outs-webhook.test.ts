// A family's «BAJA» through the real app a deployment runs (server/app.ts builds the inbound handler): the
// provider's signed webhook records the opt-out, the phone is answered once through the channel's own
// adapter, and the next message leaves that phone's SMS out. The handler alone is tests/api/opt-outs.test.ts.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizePhone } from '../../server/recipients/phone';
import { type FakeTwilio, startFakeTwilio } from '../fixtures/twilio';
import { count, one, rows } from './support/compose';
import { startServer, type TestServer } from './support/server';
import { eventually } from './support/wait';

const PUBLIC = 'https://hermes.colegio.example';
const SMS_FROM = '+56229990000';

let fake: FakeTwilio;
let server: TestServer;
/** A seeded guardian's phone Twilio would take (E.164). */
let phone: string;

beforeAll(async () => {
  fake = await startFakeTwilio();
  server = await startServer({
    delivery: true,
    config: {
      publicUrl: PUBLIC,
      twilio: { accountSid: fake.accountSid, authToken: fake.authToken, apiUrl: fake.url, sms: { from: SMS_FROM } },
    },
  });
  const guardians = await rows<{ phone: string }>(server.db, sql`select phone from guardians where phone is not null order by id limit 50`);
  const usable = guardians.map((row) => normalizePhone(row.phone, 'CL')).find((result) => result.ok);
  if (!usable?.ok) throw new Error('no seeded guardian with a phone Twilio takes');
  phone = usable.e164;
});

afterAll(async () => {
  await server?.close();
  await fake?.close();
});

describe("BAJA through Twilio's incoming webhook", () => {
  it('records the opt-out and confirms once by SMS through Twilio', async () => {
    const { response } = await fake.incoming(
      `${PUBLIC}/api/webhooks/twilio/sms/incoming`,
      { from: phone, body: 'BAJA' },
      { connectTo: server.url },
    );
    expect(response.status).toBe(200);
    expect(await count(server.db, sql`select count(*)::int as n from channel_opt_outs where channel = 'sms' and phone = ${phone}`)).toBe(1);
    const outcome = await one<{ outcome: string | null }>(server.db, sql`select outcome from inbound_messages order by id desc limit 1`);
    expect(outcome.outcome).toBe('opt_out');
    const confirmation = await eventually(
      'the confirmation at Twilio',
      async () => fake.messages.filter((message) => message.to === phone),
      (list) => list.length > 0,
      10_000,
    );
    expect(confirmation).toHaveLength(1);
    expect(confirmation[0]).toMatchObject({
      from: SMS_FROM,
      body: expect.stringMatching(/^Listo: no recibiras mas mensajes de .+ por SMS\. Responde ALTA para volver\.$/),
    });
  });
});
