// The demo's families answer: with no SMS provider configured, the built-in simulator takes what a family
// writes (POST /sim/provider/incoming, its bearer token) and posts it signed to Hermes's incoming-messages
// webhook as a gateway would, so the answer lands threaded under the SMS the family got. `npm run
// sim:reply` is that call from a terminal, with the token the server shares in a file.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSimulatorToken, simulatorTokenFile } from '../../server/delivery/simulator';
import { composeInput } from '../fixtures/compose';
import { count, one, rows, send } from './support/compose';
import { startServer, type TestServer } from './support/server';
import { eventually } from './support/wait';

const run = promisify(execFile);
const ADMIN = 'administrador@sanandres.cl';

let server: TestServer;
let shared: string;
let token: string;
let fam: { phone: string; student: number };
let original: number;

const reply = (body: unknown, auth: string | null = `Bearer ${token}`, target = server.url) =>
  fetch(`${target}/sim/provider/incoming`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(auth ? { Authorization: auth } : {}) },
    body: JSON.stringify(body),
  });

const allInbound = () => count(server.db, sql`select count(*) as n from inbound_messages`);

/** The Hermes message the family's latest simulated answer became. */
const latestAnswer = () =>
  one<{ provider: string; provider_id: string; channel: string; outcome: string; content: string; reply_to_id: number }>(
    server.db,
    sql`select i.provider, i.provider_id, i.channel, i.outcome, m.content, m.reply_to_id from inbound_messages i
        join inbound_message_targets t on t.inbound_id = i.id join messages m on m.id = t.message_id
        where i.phone = ${fam.phone} order by i.id desc limit 1`,
  );

/** How the demo's person types the phone: the national way, with spaces. */
const typed = (phone: string) => `+56 9 ${phone.slice(4, 8)} ${phone.slice(8)}`;

beforeAll(async () => {
  server = await startServer({ delivery: true });
  shared = mkdtempSync(path.join(tmpdir(), 'hermes-sim-reply-'));
  await server.delivery!.simulator!.shareToken(simulatorTokenFile(shared));
  token = (await readSimulatorToken(shared))!;

  const school = await one<{ id: number }>(server.db, sql`select institution_id as id from users where email = ${ADMIN}`);
  fam = await one(
    server.db,
    sql`select g.phone, min(s.id) as student from guardians g
      join student_guardians sg on sg.guardian_id = g.id join students s on s.id = sg.student_id and s.withdrawn_at is null
      where g.institution_id = ${school.id} and g.phone like '+569%' and g.phone not like '%0000'
        and (select count(*) from guardians o where o.phone = g.phone) = 1
      group by g.id order by g.id limit 1`,
  );
  await server.db.execute(sql`insert into institution_channels (institution_id, channel, enabled) values (${school.id}, 'sms', true)
    on conflict (institution_id, channel) do update set enabled = true`);
  const admin = server.client();
  expect((await admin.login(ADMIN)).status).toBe(200);
  const res = await send(
    admin,
    composeInput({
      title: 'Salida pedagógica',
      channels: ['sms'],
      recipients: [{ kind: 'student', id: fam.student, audience: 'apoderados' }],
      allow_replies: true,
    }),
  );
  expect(res.status, await res.clone().text()).toBe(201);
  original = ((await res.json()) as { data: { id: number } }).data.id;
  // The simulator has the SMS: the family has something to answer.
  await eventually(
    "the family's SMS handed to the simulator",
    () =>
      rows<{ status: string }>(
        server.db,
        sql`select status from deliveries where message_id = ${original} and channel = 'sms' and address = ${fam.phone}`,
      ),
    (list) => list.length > 0 && list.every((d) => d.status !== 'queued'),
  );
}, 120_000);

afterAll(async () => {
  await server?.close();
  if (shared) rmSync(shared, { recursive: true, force: true });
});

describe('the simulator answers as a family', () => {
  it('shares its token with this machine’s user only', () => {
    expect(token.length).toBeGreaterThanOrEqual(32);
    expect(statSync(simulatorTokenFile(shared)).mode & 0o077).toBe(0);
  });

  it('brings the answer in through the signed incoming webhook, threaded under the SMS the family got', async () => {
    const res = await reply({ from: typed(fam.phone), body: 'Autorizo la salida.' });
    expect(res.status).toBe(202);
    const answer = (await res.json()) as { id: string; channel: string; from: string; status: string };
    expect(answer).toMatchObject({ channel: 'sms', from: fam.phone, status: 'delivered' });
    expect(answer.id).toMatch(/^sim-in-/);
    expect(await latestAnswer()).toMatchObject({
      provider: 'gateway',
      provider_id: answer.id,
      channel: 'sms',
      outcome: 'reply',
      content: 'Autorizo la salida.',
      reply_to_id: original,
    });
  });

  it('refuses a missing or wrong token, a bad number and an empty text, writing nothing', async () => {
    const total = await allInbound();
    expect((await reply({ from: fam.phone, body: 'hola' }, null)).status).toBe(401);
    expect((await reply({ from: fam.phone, body: 'hola' }, 'Bearer otro')).status).toBe(401);
    const bad = await reply({ from: '12345', body: 'hola' });
    expect(bad.status).toBe(422);
    expect(await bad.json()).toEqual({ code: 'invalid_number', message: 'El número de quien responde no es un celular válido.' });
    const empty = await reply({ from: fam.phone, body: '   ' });
    expect(empty.status).toBe(422);
    expect(((await empty.json()) as { message: string }).message).toMatch(/vacío/);
    expect((await reply({ channel: 'fax', from: fam.phone, body: 'hola' })).status).toBe(422);
    expect(await allInbound()).toBe(total);
  });

  it('answers only by a channel the simulator serves', async () => {
    const mixed = await startServer({ delivery: true, config: { smsProvider: { url: 'http://127.0.0.1:9', token: 't' } } });
    try {
      const file = simulatorTokenFile(path.join(shared, 'mixed'));
      await mixed.delivery!.simulator!.shareToken(file);
      const own = `Bearer ${(await readSimulatorToken(path.dirname(file)))!}`;
      const sms = await reply({ from: fam.phone, body: 'hola' }, own, mixed.url);
      expect(sms.status).toBe(422);
      expect(await sms.json()).toMatchObject({
        code: 'not_simulated',
        message: expect.stringMatching(/^El SMS de este Hermes va por un proveedor real/),
      });
      expect((await reply({ channel: 'whatsapp', from: fam.phone, body: 'hola' }, own, mixed.url)).status).toBe(202);
    } finally {
      await mixed.close();
    }
  });

  it('is not there without the simulator', async () => {
    const plain = await startServer();
    try {
      expect((await reply({ from: fam.phone, body: 'hola' }, `Bearer ${token}`, plain.url)).status).toBe(404);
    } finally {
      await plain.close();
    }
  });

  it('is one command in a terminal: npm run sim:reply -- <phone with spaces> <text>', async () => {
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: new URL(server.url).port,
      HOST: '127.0.0.1',
      HERMES_OUTBOX_DIR: shared,
      HERMES_LOG: 'silent',
    };
    const cli = path.resolve('server/cli/sim-reply.ts');
    const args = ['--import', 'tsx', cli, ...typed(fam.phone).split(' '), '¿A qué hora vuelven?'];
    const { stdout } = await run(process.execPath, args, { env });
    expect(stdout).toContain(`Mensaje de ${fam.phone} entregado a Hermes:`);
    expect(await latestAnswer()).toMatchObject({ content: '¿A qué hora vuelven?', outcome: 'reply', reply_to_id: original });

    // No server has shared a token there: it says what to do, in Spanish, and fails.
    const empty = mkdtempSync(path.join(tmpdir(), 'hermes-sim-reply-none-'));
    try {
      const failed = await run(process.execPath, args, { env: { ...env, HERMES_OUTBOX_DIR: empty } }).catch((err: unknown) => err);
      expect(failed).toMatchObject({ code: 1, stderr: expect.stringContaining('inicie Hermes con `npm start`') });
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  }, 60_000);
});
