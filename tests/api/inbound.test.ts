// Families answer by SMS and WhatsApp, against the real server: the inbound handler (what the providers'
// webhooks call) is fed an InboundMessage directly, on the test's seeded copy, and what staff see is read
// through the staff API. A guardian's SMS or WhatsApp answers the latest message that reached their phone by
// that channel when it allowed replies (in its author's inbox, threaded under it); otherwise, and for an
// unknown phone, the school's administrators get it. A repeated webhook is ignored; files are kept within
// the limits, and what is left out is noted under the text; the WhatsApp window follows the last message.
//
// The delivery engine is not under test: a send's SMS/WhatsApp deliveries are handed over with an UPDATE.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelCode } from '../../shared/codes';
import { replyChannels } from '../../shared/message-rules';
import { ATTACHMENT_MAX_BYTES, type SendResult } from '../../shared/compose-contract';
import type { MessageDetail, MessageSummary } from '../../shared/messages-contract';
import { InboundBusy, type InboundMedia, type InboundMessage } from '../../server/inbound/contract';
import { createInboundHandler } from '../../server/inbound/handler';
import { createOptOutHandler } from '../../server/opt-outs/handler';
import { normalizePhone, phoneForPeople } from '../../server/recipients/phone';
import { whatsappWindowOpenUntil } from '../../server/inbound/window';
import type { Db } from '../../server/db/client';
import { createLogger } from '../../server/log';
import { AttachmentStore } from '../../server/storage/attachments';
import { composeInput } from '../fixtures/compose';
import { count, one, rows, send } from './support/compose';
import { signedIn, startServer, type TestServer } from './support/server';

let server: TestServer;
let db: Db;
const as = signedIn(() => server);
let handle: (message: InboundMessage) => Promise<void>;
/** The same handler, waiting at most this long for another request's handling of the same message. */
let handleSoon: (message: InboundMessage, busyWaitMs?: number) => Promise<void>;
const offeredToOptOut: string[] = [];

const TEACHER = 'docente@sanandres.cl';
const ADMIN = 'administrador@sanandres.cl';
const MX_ADMIN = 'administrador@benitojuarez.edu.mx';

interface Family {
  guardian: number;
  phone: string;
  student: number;
  name: string;
}
let fam: Family;
let ids: { sa: number; mx: number } = { sa: 0, mx: 0 };
/** The schools that send by SMS: where a message from an unknown phone goes. */
let smsSchools: number[] = [];

const uniquePhone = sql`g.phone is not null and (select count(*) from guardians o where o.phone = g.phone) = 1`;
const guardianName = sql`concat_ws(' ', split_part(g.first_names, ' ', 1), g.last_name_father, nullif(g.last_name_mother, ''))`;

/** A minute apart from a fixed start: deliveries and inbound messages in a known order. */
let clock = Date.parse('2026-11-30T12:00:00Z');
function tick(): Date {
  clock += 60_000;
  return new Date(clock);
}

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, ...Array.from({ length: 60 }, (_, i) => i)]);

function media(bytes: Buffer | (() => Promise<Buffer>), contentType = 'image/jpeg', filename: string | null = null): InboundMedia {
  return { contentType, filename, download: typeof bytes === 'function' ? bytes : async () => bytes };
}

function inbound(overrides: Partial<InboundMessage> = {}): InboundMessage {
  return {
    channel: 'sms',
    from: fam.phone,
    provider: 'twilio',
    providerId: `SM${randomUUID().replaceAll('-', '')}`,
    body: 'Firmado, muchas gracias.',
    receivedAt: tick(),
    media: [],
    ...overrides,
  };
}

/** Sends by one phone channel to a student's guardians and hands the deliveries over to the provider. */
async function sendBy(email: string, channel: ChannelCode, student: number, title: string, allowReplies: boolean): Promise<number> {
  const res = await send(
    await as(email),
    composeInput({
      title,
      channels: [channel],
      recipients: [{ kind: 'student', id: student, audience: 'apoderados' }],
      allow_replies: allowReplies,
    }),
  );
  expect(res.status, await res.clone().text()).toBe(201);
  const id = ((await res.json()) as { data: SendResult }).data.id;
  await db.execute(sql`update deliveries set status = 'sent', sent_at = ${tick().toISOString()}::timestamptz, attempts = 1
    where message_id = ${id} and channel = ${channel}`);
  return id;
}

/** The channels «Responder» starts on (the sender may use every channel that reaches the family). */
const startsOn = (message: MessageDetail) => replyChannels(message.channels, message.reply_channels, message.reply_channels);

async function inbox(email: string): Promise<MessageSummary[]> {
  const res = await (await as(email)).get('/api/messages?folder=inbox&limit=50');
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: MessageSummary[] }).data;
}

async function detail(email: string, id: number): Promise<MessageDetail> {
  const res = await (await as(email)).get(`/api/messages/${id}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: MessageDetail }).data;
}

/** The Hermes messages an inbound message (by provider id) became. */
async function becameOf(providerId: string) {
  return rows<{ message_id: number; institution_id: number; guardian_id: number | null; outcome: string }>(
    db,
    sql`select t.message_id, t.institution_id, t.guardian_id, i.outcome from inbound_messages i
      left join inbound_message_targets t on t.inbound_id = i.id where i.provider_id = ${providerId} order by t.message_id`,
  );
}

async function onlyMessage(providerId: string): Promise<number> {
  const became = await becameOf(providerId);
  expect(became).toHaveLength(1);
  return Number(became[0]!.message_id);
}

beforeAll(async () => {
  server = await startServer();
  db = server.db;
  handle = createInboundHandler(db, {
    store: new AttachmentStore(server.attachmentsDir),
    logger: createLogger('silent'),
    optOut: async (message) => {
      offeredToOptOut.push(message.providerId);
      return message.body.trim().toUpperCase() === 'BAJA';
    },
  });
  handleSoon = (message, busyWaitMs = 300) =>
    createInboundHandler(db, { store: new AttachmentStore(server.attachmentsDir), logger: createLogger('silent'), busyWaitMs })(message);
  ids = await one<{ sa: number; mx: number }>(
    db,
    sql`select (select institution_id from users where email = ${ADMIN}) as sa, (select institution_id from users where email = ${MX_ADMIN}) as mx`,
  );
  // Both schools send by SMS and WhatsApp, and the senders may use them.
  await db.execute(sql`insert into institution_channels (institution_id, channel, enabled)
    select i, c, true from unnest(array[${ids.sa}, ${ids.mx}]::int[]) i, unnest(array['sms', 'whatsapp']) c
    on conflict (institution_id, channel) do update set enabled = true`);
  await db.execute(sql`insert into user_channel_permissions (user_id, channel, enabled)
    select u.id, c, true from users u, unnest(array['sms', 'whatsapp']) c where u.email in (${TEACHER}, ${ADMIN}, ${MX_ADMIN})
    on conflict (user_id, channel) do update set enabled = true`);
  // Room in both schools' SMS and WhatsApp balances for the sends below.
  await db.execute(sql`update institution_quotas set sms_monthly_limit = 1000000, sms_reserve_percent = 0, whatsapp_balance = null
    where institution_id in (${ids.sa}, ${ids.mx})`);
  await db.execute(sql`delete from sms_monthly_limits where institution_id in (${ids.sa}, ${ids.mx})`);
  smsSchools = (
    await rows<{ id: number }>(db, sql`select institution_id as id from institution_channels where channel = 'sms' and enabled order by 1`)
  ).map((r) => Number(r.id));
  fam = await one<Family>(
    db,
    sql`select g.id as guardian, g.phone, min(s.id) as student, ${guardianName} as name from guardians g
      join student_guardians sg on sg.guardian_id = g.id join students s on s.id = sg.student_id and s.withdrawn_at is null
      where g.institution_id = ${ids.sa} and ${uniquePhone} and g.phone like '+569%'
      group by g.id order by g.id limit 1`,
  );
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe('a guardian answers a message that allowed replies', () => {
  it('by SMS: a reply to the latest SMS message, in its author’s inbox and thread, answered by SMS', async () => {
    await sendBy(TEACHER, 'sms', fam.student, 'Autorización salida pedagógica (anterior)', true);
    const original = await sendBy(TEACHER, 'sms', fam.student, 'Autorización salida pedagógica', true);
    const message = inbound({ body: 'Autorizo. Saludos, la mamá de Ana.' });
    await handle(message);

    const id = await onlyMessage(message.providerId);
    const listed = (await inbox(TEACHER)).find((m) => m.id === id);
    expect(listed).toMatchObject({ title: 'Re: Autorización salida pedagógica', counterpart: fam.name, channels: ['sms'], unread: true });
    const reply = await detail(TEACHER, id);
    expect(reply).toMatchObject({
      content: 'Autorizo. Saludos, la mamá de Ana.',
      reply_to_id: original,
      sender: { kind: 'apoderado', id: Number(fam.guardian), name: fam.name },
    });
    expect(reply.thread.map((m) => m.id)).toContain(original);
    expect(startsOn(reply)).toEqual(['sms']);
    expect(reply.arrived_by).toEqual({ channel: 'sms', phone: phoneForPeople(fam.phone), known: true });
    expect((await detail(TEACHER, original)).arrived_by).toBeNull();
    // The original's author sees this family's conversation under it.
    const sent = await detail(TEACHER, original);
    expect(sent.conversations.flatMap((c) => c.messages.map((m) => m.id))).toContain(id);
    // Not in the administrators' inbox.
    expect((await inbox(ADMIN)).some((m) => m.id === id)).toBe(false);
    expect((await becameOf(message.providerId))[0]).toMatchObject({ outcome: 'reply', guardian_id: Number(fam.guardian) });
  });

  it('by WhatsApp: the latest WhatsApp message, even when an SMS came later', async () => {
    const original = await sendBy(TEACHER, 'whatsapp', fam.student, 'Reunión por WhatsApp', true);
    await sendBy(ADMIN, 'sms', fam.student, 'Aviso por SMS sin respuestas', false);
    const message = inbound({ channel: 'whatsapp', provider: 'meta', providerId: `wamid.${randomUUID()}`, body: 'Asistiré.' });
    await handle(message);

    const id = await onlyMessage(message.providerId);
    const reply = await detail(TEACHER, id);
    expect(reply).toMatchObject({ title: 'Re: Reunión por WhatsApp', reply_to_id: original, channels: ['whatsapp'] });
    expect(startsOn(reply)).toEqual(['whatsapp']);
  });
});

describe('the school’s inbox, so nothing a family writes is lost', () => {
  it('an answer to a message that did not allow replies goes to its school’s administrators', async () => {
    await sendBy(TEACHER, 'sms', fam.student, 'Recordatorio', true);
    await sendBy(TEACHER, 'sms', fam.student, 'Cambio de horario', false);
    const message = inbound({ body: '¿A qué hora es la salida?' });
    await handle(message);

    const id = await onlyMessage(message.providerId);
    expect((await inbox(TEACHER)).some((m) => m.id === id)).toBe(false);
    const listed = (await inbox(ADMIN)).find((m) => m.id === id);
    expect(listed).toMatchObject({ title: `Mensaje por SMS de ${fam.name}`, counterpart: fam.name, channels: ['sms'] });
    const shown = await detail(ADMIN, id);
    expect(shown).toMatchObject({
      content: '¿A qué hora es la salida?',
      reply_to_id: null,
      sender: { kind: 'apoderado', id: Number(fam.guardian) },
    });
    // Staff answer the family by SMS, as they wrote.
    expect(startsOn(shown)).toEqual(['sms']);
    expect((await becameOf(message.providerId))[0]).toMatchObject({ outcome: 'school_inbox', institution_id: Number(ids.sa) });
  });

  it('an answer to a message whose author no longer signs in goes to the administrators', async () => {
    const director = 'directora@sanandres.cl';
    await db.execute(sql`insert into user_channel_permissions (user_id, channel, enabled)
      select id, 'sms', true from users where email = ${director} on conflict (user_id, channel) do update set enabled = true`);
    await sendBy(director, 'sms', fam.student, 'Entrevista con dirección', true);
    await db.execute(sql`update users set status = 'deactivated', deactivated_at = now() where email = ${director}`);
    try {
      const message = inbound({ body: 'Confirmo la entrevista.' });
      await handle(message);
      const id = await onlyMessage(message.providerId);
      expect((await detail(ADMIN, id)).title).toBe(`Mensaje por SMS de ${fam.name}`);
    } finally {
      await db.execute(sql`update users set status = 'active', deactivated_at = null where email = ${director}`);
    }
  });

  it('a phone of no family reaches the administrators of the schools that send by that channel, unanswerable', async () => {
    const message = inbound({ from: '+56961234567', body: 'Hola, soy la abuela de Tomás.' });
    expect(await count(db, sql`select count(*) as n from guardians where phone = ${message.from}`)).toBe(0);
    await handle(message);

    const became = await becameOf(message.providerId);
    expect(smsSchools).toEqual(expect.arrayContaining([Number(ids.sa), Number(ids.mx)]));
    expect(became.map((b) => Number(b.institution_id)).sort()).toEqual([...smsSchools].sort());
    expect(became.every((b) => b.guardian_id === null && b.outcome === 'school_inbox')).toBe(true);
    const sa = became.find((b) => Number(b.institution_id) === Number(ids.sa))!;
    const shown = await detail(ADMIN, Number(sa.message_id));
    expect(shown).toMatchObject({
      title: 'Mensaje por SMS de +56 9 6123 4567 (número desconocido)',
      content: 'Hola, soy la abuela de Tomás.',
    });
    expect(shown.reply_channels).toEqual([]);
    expect(shown.arrived_by).toEqual({ channel: 'sms', phone: '+56 9 6123 4567', known: false });
    const mx = became.find((b) => Number(b.institution_id) === Number(ids.mx))!;
    expect((await inbox(MX_ADMIN)).some((m) => m.id === Number(mx.message_id))).toBe(true);
    // Each school sees its own message only.
    expect((await (await as(ADMIN)).get(`/api/messages/${mx.message_id}`)).status).toBe(404);
  });

  it('a phone of no family reaches only the schools that use that channel, and no school when none does', async () => {
    const enabled = (
      await rows<{ id: number }>(db, sql`select institution_id as id from institution_channels where channel = 'whatsapp' and enabled`)
    ).map((r) => Number(r.id));
    await db.execute(sql`update institution_channels set enabled = false where channel = 'whatsapp' and institution_id <> ${ids.sa}`);
    try {
      const message = inbound({ channel: 'whatsapp', provider: 'meta', from: '+56961234568', body: 'Hola.' });
      await handle(message);
      expect((await becameOf(message.providerId)).map((b) => Number(b.institution_id))).toEqual([Number(ids.sa)]);
      await db.execute(sql`update institution_channels set enabled = false where channel = 'whatsapp' and institution_id = ${ids.sa}`);
      const unheard = inbound({ channel: 'whatsapp', provider: 'meta', from: '+56961234568', body: 'Hola de nuevo.' });
      await handle(unheard);
      expect(await becameOf(unheard.providerId)).toEqual([
        { message_id: null, institution_id: null, guardian_id: null, outcome: 'school_inbox' },
      ]);
    } finally {
      await db.execute(
        sql`update institution_channels set enabled = true where channel = 'whatsapp' and institution_id = any(${`{${enabled.join(',')}}`}::int[])`,
      );
    }
  });
});

describe('a phone that is a guardian in two schools', () => {
  let mx: { guardian: number; student: number; name: string };

  beforeAll(async () => {
    mx = await one(
      db,
      sql`select g.id as guardian, min(s.id) as student, ${guardianName} as name from guardians g
        join student_guardians sg on sg.guardian_id = g.id join students s on s.id = sg.student_id and s.withdrawn_at is null
        where g.institution_id = ${ids.mx} and g.phone is not null group by g.id order by g.id limit 1`,
    );
    await db.execute(sql`update guardians set phone = ${fam.phone} where id = ${mx.guardian}`);
  });

  it('answers the latest message of either school, as that school’s guardian', async () => {
    await sendBy(TEACHER, 'sms', fam.student, 'Mensaje de San Andrés', true);
    const original = await sendBy(MX_ADMIN, 'sms', mx.student, 'Junta de padres', true);
    const message = inbound({ body: 'Enterada.' });
    await handle(message);

    const id = await onlyMessage(message.providerId);
    expect((await becameOf(message.providerId))[0]).toMatchObject({ institution_id: Number(ids.mx), guardian_id: Number(mx.guardian) });
    expect(await detail(MX_ADMIN, id)).toMatchObject({ reply_to_id: original, sender: { kind: 'apoderado', id: Number(mx.guardian) } });
  });

  it('by a channel that brought nothing yet, only the school whose message reached the phone last by another channel gets it', async () => {
    await db.execute(sql`delete from deliveries where channel = 'whatsapp' and address = ${fam.phone}`);
    const message = inbound({ channel: 'whatsapp', provider: 'meta', providerId: `wamid.${randomUUID()}`, body: 'Buenas tardes.' });
    await handle(message);

    const became = await becameOf(message.providerId);
    expect(became.map((b) => [Number(b.institution_id), Number(b.guardian_id), b.outcome])).toEqual([
      [Number(ids.mx), Number(mx.guardian), 'school_inbox'],
    ]);
    const shown = await detail(MX_ADMIN, Number(became[0]!.message_id));
    expect(shown.title).toBe(`Mensaje por WhatsApp de ${mx.name}`);
    // Words a Chilean and a Mexican school both use.
    expect(await rows(db, sql`select distinct group_label from message_recipients where message_id = ${shown.id}`)).toEqual([
      { group_label: 'Administración' },
    ]);
  });

  it('when nothing ever reached the phone, both schools’ administrators get it from their own guardian', async () => {
    await db.execute(sql`delete from deliveries d using message_recipients r
      where d.recipient_id = r.id and r.recipient_kind = 'apoderado' and r.recipient_ref_id in (${fam.guardian}, ${mx.guardian})`);
    const message = inbound({ channel: 'whatsapp', provider: 'meta', providerId: `wamid.${randomUUID()}`, body: 'Buenas noches.' });
    await handle(message);

    const became = await becameOf(message.providerId);
    expect(became.map((b) => [Number(b.institution_id), Number(b.guardian_id)]).sort()).toEqual(
      [
        [Number(ids.sa), Number(fam.guardian)],
        [Number(ids.mx), Number(mx.guardian)],
      ].sort(),
    );
  });
});

describe('recorded once', () => {
  it('a repeated webhook (same provider id) is ignored', async () => {
    await sendBy(TEACHER, 'sms', fam.student, 'Citación', true);
    const message = inbound({ from: '+56933334444', body: 'Repetido' });
    await handle(message);
    await handle({ ...message });
    await Promise.all([handle({ ...message }), handle({ ...message })]);
    expect(await count(db, sql`select count(*) as n from inbound_messages where provider_id = ${message.providerId}`)).toBe(1);
    expect(await count(db, sql`select count(*) as n from messages where content = 'Repetido'`)).toBe(smsSchools.length);
    expect(offeredToOptOut.filter((id) => id === message.providerId)).toHaveLength(1);
  });

  it('one cut short long ago is handled when the provider repeats it; one still being handled is busy, not acknowledged', async () => {
    const abandoned = inbound({ from: '+56998765432', body: 'Quedó a medias' });
    const inFlight = inbound({ from: '+56998765432', body: 'En curso' });
    for (const [message, ago] of [
      [abandoned, '11 minutes'],
      [inFlight, '1 minute'],
    ] as const) {
      await db.execute(sql`insert into inbound_messages (channel, phone, provider, provider_id, received_at, body, claimed_at)
        values ('sms', ${message.from}, ${message.provider}, ${message.providerId}, ${message.receivedAt.toISOString()}::timestamptz,
          ${message.body}, now() - ${ago}::interval)`);
    }
    await handle(abandoned);
    await expect(handleSoon(inFlight)).rejects.toBeInstanceOf(InboundBusy);
    expect((await becameOf(abandoned.providerId)).map((b) => b.outcome)).toEqual(smsSchools.map(() => 'school_inbox'));
    expect(await becameOf(inFlight.providerId)).toEqual([{ message_id: null, institution_id: null, guardian_id: null, outcome: null }]);
  });

  it('a repeat that comes while the first is at work waits for it: acknowledged once it is recorded', async () => {
    const message = inbound({ from: '+56998765432', body: 'Llegó dos veces' });
    await db.execute(sql`insert into inbound_messages (channel, phone, provider, provider_id, received_at, body, claimed_at)
      values ('sms', ${message.from}, ${message.provider}, ${message.providerId}, ${message.receivedAt.toISOString()}::timestamptz,
        ${message.body}, now())`);
    let answered = false;
    const repeat = handleSoon(message, 5000).then(() => {
      answered = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(answered).toBe(false);
    await db.execute(sql`update inbound_messages set outcome = 'school_inbox' where provider_id = ${message.providerId}`);
    await repeat;
    expect(await count(db, sql`select count(*) as n from messages where content = 'Llegó dos veces'`)).toBe(0);
  });

  it('a repeat that comes while the first is at work handles it itself when the first fails', async () => {
    const message = inbound({ from: '+56998765432', body: 'El primero falló' });
    await db.execute(sql`insert into inbound_messages (channel, phone, provider, provider_id, received_at, body, claimed_at)
      values ('sms', ${message.from}, ${message.provider}, ${message.providerId}, ${message.receivedAt.toISOString()}::timestamptz,
        ${message.body}, now())`);
    const repeat = handleSoon(message, 5000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // What the first handling does when it fails: it unrecords the message.
    await db.execute(sql`delete from inbound_messages where provider_id = ${message.providerId}`);
    await repeat;
    expect((await becameOf(message.providerId)).map((b) => b.outcome)).toEqual(smsSchools.map(() => 'school_inbox'));
  });

  it('text the database cannot keep is cleaned, never refused', async () => {
    const message = inbound({ from: '+56961234567', body: 'Hola\u0000 mundo\ud800' });
    await handle(message);
    const [first] = await becameOf(message.providerId);
    expect((await detail(ADMIN, Number(first!.message_id))).content).toBe('Hola mundo\ufffd');
  });

  it('an opt-out word is recorded and goes no further', async () => {
    const message = inbound({ body: 'BAJA' });
    const before = await count(db, sql`select count(*) as n from messages`);
    await handle(message);
    expect(await becameOf(message.providerId)).toEqual([{ message_id: null, institution_id: null, guardian_id: null, outcome: 'opt_out' }]);
    expect(await count(db, sql`select count(*) as n from messages`)).toBe(before);
  });
});

describe('a Mexican mobile as WhatsApp gives it (+521…, Hermes keeps +52…)', () => {
  const KEPT = '+525512345678';
  const GIVEN = '+5215512345678';
  let mxFam: { guardian: number; student: number };

  beforeAll(async () => {
    expect(normalizePhone(KEPT, 'MX')).toEqual({ ok: true, e164: KEPT });
    mxFam = await one(
      db,
      sql`select g.id as guardian, min(s.id) as student from guardians g
        join student_guardians sg on sg.guardian_id = g.id join students s on s.id = sg.student_id and s.withdrawn_at is null
        where g.institution_id = ${ids.mx} and g.phone is not null group by g.id order by g.id desc limit 1`,
    );
    await db.execute(sql`update guardians set phone = ${KEPT}, sms_phone = ${KEPT}, sms_ok = true where id = ${mxFam.guardian}`);
  });

  for (const [provider, channel] of [
    ['meta', 'whatsapp'],
    ['twilio', 'whatsapp'],
    ['twilio', 'sms'],
  ] as const) {
    it(`threads to the message it answers, through ${provider} by ${channel}, recorded under the number Hermes keeps`, async () => {
      const original = await sendBy(MX_ADMIN, channel, mxFam.student, `Junta por ${channel} (${provider})`, true);
      expect(await count(db, sql`select count(*) as n from deliveries where message_id = ${original} and address = ${KEPT}`)).toBe(1);
      const message = inbound({ channel, provider, from: GIVEN, body: 'Ahí estaré.' });
      await handle(message);
      expect(await becameOf(message.providerId)).toEqual([
        expect.objectContaining({ institution_id: Number(ids.mx), guardian_id: Number(mxFam.guardian), outcome: 'reply' }),
      ]);
      expect(await detail(MX_ADMIN, await onlyMessage(message.providerId))).toMatchObject({ reply_to_id: original });
      expect(await one(db, sql`select phone from inbound_messages where provider_id = ${message.providerId}`)).toEqual({ phone: KEPT });
    });
  }

  it("opens the family's WhatsApp window under the number Hermes sends to", async () => {
    const phone = '+525587654321';
    await handle(inbound({ channel: 'whatsapp', provider: 'meta', from: '+5215587654321', receivedAt: new Date('2026-12-03T10:00:00Z') }));
    expect(await whatsappWindowOpenUntil(db, phone)).toEqual(new Date('2026-12-04T10:00:00Z'));
  });

  it('BAJA is kept under that number and stops what is queued to it', async () => {
    const withOptOut = createInboundHandler(db, {
      store: new AttachmentStore(server.attachmentsDir),
      logger: createLogger('silent'),
      optOut: createOptOutHandler(db, { confirm: async () => undefined }),
    });
    const res = await send(
      await as(MX_ADMIN),
      composeInput({
        title: 'Aviso en cola',
        channels: ['sms'],
        recipients: [{ kind: 'student', id: mxFam.student, audience: 'apoderados' }],
      }),
    );
    expect(res.status).toBe(201);
    const queued = ((await res.json()) as { data: SendResult }).data.id;
    await withOptOut(inbound({ from: GIVEN, body: 'BAJA' }));
    expect(await rows(db, sql`select phone from channel_opt_outs where channel = 'sms' and phone like '+52%'`)).toEqual([{ phone: KEPT }]);
    expect(await rows(db, sql`select status from deliveries where message_id = ${queued} and address = ${KEPT}`)).toEqual([
      { status: 'failed' },
    ]);
  });
});

describe('files', () => {
  async function replyWith(files: InboundMedia[], body = 'Adjunto la comunicación firmada.') {
    await sendBy(TEACHER, 'sms', fam.student, 'Comunicación para firmar', true);
    const message = inbound({ body, media: files });
    await handle(message);
    return detail(TEACHER, await onlyMessage(message.providerId));
  }

  it('a photo is kept as an attachment its reader downloads', async () => {
    const reply = await replyWith([media(JPEG, 'image/jpeg')]);
    expect(reply.attachments).toMatchObject([{ name: 'archivo-1.jpg', size: JPEG.length, content_type: 'image/jpeg' }]);
    expect(reply.content).toBe('Adjunto la comunicación firmada.');
    const res = await (await as(TEACHER)).get(`/api${reply.attachments[0]!.url}`);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(JPEG);
  });

  it('too big, a type not allowed and a failed download are noted under the text, which arrives', async () => {
    const reply = await replyWith([
      media(Buffer.alloc(ATTACHMENT_MAX_BYTES + 1, 0xff), 'image/jpeg', 'enorme.jpg'),
      media(Buffer.from('MZ\x90\x00'), 'application/x-msdownload', 'programa.exe'),
      media(async () => {
        throw new Error('provider 500');
      }, 'image/png'),
      media(JPEG, 'image/jpeg', 'firma.jpg'),
    ]);
    expect(reply.attachments.map((a) => a.name)).toEqual(['firma.jpg']);
    expect(reply.content).toBe(
      [
        'Adjunto la comunicación firmada.',
        '',
        '[Archivos no incluidos]',
        '- enorme.jpg: supera el tamaño permitido',
        '- programa.exe: tipo de archivo no permitido',
        '- archivo-3.png: no se pudo descargar',
      ].join('\n'),
    );
  });

  it('a photo without text arrives as the photo', async () => {
    const reply = await replyWith([media(JPEG)], '');
    expect(reply.content).toBe('');
    expect(reply.attachments).toHaveLength(1);
  });
});

describe('the WhatsApp window', () => {
  it('is open 24 hours after the phone’s last WhatsApp message; an SMS does not open it', async () => {
    const phone = '+56955556666';
    expect(await whatsappWindowOpenUntil(db, phone)).toBeNull();
    await handle(inbound({ from: phone, channel: 'sms' }));
    expect(await whatsappWindowOpenUntil(db, phone)).toBeNull();
    const first = inbound({ from: phone, channel: 'whatsapp', provider: 'meta', receivedAt: new Date('2026-12-01T10:00:00Z') });
    const last = inbound({ from: phone, channel: 'whatsapp', provider: 'meta', receivedAt: new Date('2026-12-01T15:30:00Z') });
    await handle(last);
    await handle(first);
    expect(await whatsappWindowOpenUntil(db, phone)).toEqual(new Date('2026-12-02T15:30:00Z'));
  });
});
