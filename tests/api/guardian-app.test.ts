// The guardian app API (/api/app) against the real server on PGlite: sign-in by SMS code (wrong, dead after
// 5 attempts, expired, superseded, throttled, the same answer for unknown phones), bearer tokens (missing,
// bad, expired, revoked), the inbox of app-mobile deliveries (listing and opening report received, reading
// reports read, through the shared status rules), replies reaching the author's Hermes inbox and counters,
// staff answering them (the conversation in both inboxes and in the app), and isolation between guardians
// and schools.
//
// The delivery engine is not under test here: messages are sent through the compose API and their app
// deliveries are handed over (status 'sent') with an UPDATE, which is the engine's part. The SMS adapter is
// a capturing one: the code is read from what was "sent".
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecipientPick, SendResult } from '../../shared/compose-contract';
import type { FolderCount, MessageDetail } from '../../shared/messages-contract';
import { smsText } from '../../shared/sms-text';
import type { AppMessageDetail, AppMessageSummary } from '../../server/app-api/inbox';
import { deleteStaleAppLogins } from '../../server/app-api/tokens';
import { applyReports } from '../../server/reception/status';
import type { Db } from '../../server/db/client';
import { composeInput } from '../fixtures/compose';
import { capturedSms, serveWithCapturedSms } from './support/app-sms';
import { count, one, pdfBytes, rows, send, uploadOk } from './support/compose';
import { list } from './support/mail';
import { Client } from './support/server';

type AppSummary = AppMessageSummary;
interface AppPage {
  data: AppSummary[];
  meta: { current_page: number; last_page: number; per_page: number; total: number; unread: number };
  links: { first: string; last: string; prev: string | null; next: string | null };
}
interface FamilySessionBody {
  data: {
    token: string;
    expires_at: string;
    guardian: { id: number; name: string; school: { name: string; locale: string }; schools: { name: string; locale: string }[] };
  };
}
interface Guardian {
  id: number;
  phone: string;
  name: string;
}

const { sent: sms, delivery } = capturedSms();

let db: Db;
let url: string;
let close: () => Promise<void>;
let admin: Client;

const ids = {
  sanAndres: 0,
  adminUser: 0,
  adminName: '',
  course: 0,
  /** App installed, a student in `course`: receives the app messages. */
  reader: null as unknown as Guardian,
  /** Another guardian of `course` with the app: gets the same messages, on their own deliveries. */
  classmate: null as unknown as Guardian,
  /** No app yet, no child in `course`. */
  outsider: null as unknown as Guardian,
  /** Only for the throttle. */
  throttled: null as unknown as Guardian,
  /** Benito Juárez (MX). */
  mexican: null as unknown as Guardian,
};
const msg = { replies: 0, closed: 0, queued: 0, title: '', attachment: { name: '', size: 0 } };

const guardianName = sql`split_part(g.first_names, ' ', 1) || ' ' || g.last_name_father || ' ' || g.last_name_mother`;
/** Guardians whose phone nobody else has (so the phone names exactly them). */
const uniquePhone = sql`g.phone is not null and (select count(*) from guardians o where o.phone = g.phone) = 1`;

function api(pathname: string, init: RequestInit & { token?: string; json?: unknown } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('Accept', 'application/json');
  if (init.token) headers.set('Authorization', `Bearer ${init.token}`);
  if (init.json !== undefined) headers.set('Content-Type', 'application/json');
  return fetch(`${url}/api/app${pathname}`, {
    ...init,
    headers,
    body: init.json === undefined ? init.body : JSON.stringify(init.json),
  });
}

const requestCode = (phone: string) => api('/session/code', { method: 'POST', json: { phone } });
const signIn = (phone: string, code: string) => api('/session', { method: 'POST', json: { phone, code } });

/** Asks for a code and reads it from the captured SMS. */
async function codeFor(phone: string): Promise<string> {
  const before = sms.length;
  const res = await requestCode(phone);
  expect(res.status).toBe(202);
  const sent = sms.slice(before).filter((m) => m.address === phone);
  expect(sent).toHaveLength(1);
  return /\b(\d{6})\b/.exec(sent[0]!.text)![1]!;
}

/** Moves the phone's earlier codes out of the throttle window, as if 10 minutes had passed. */
async function pastWindow(phone: string): Promise<void> {
  await db.execute(sql`update app_login_codes set created_at = created_at - interval '11 minutes' where phone = ${phone}`);
}

async function tokenFor(g: Guardian): Promise<string> {
  await pastWindow(g.phone);
  const res = await signIn(g.phone, await codeFor(g.phone));
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { token: string } }).data.token;
}

async function errorOf(res: Response, status: number, code: string): Promise<{ message: string; errors?: Record<string, string[]> }> {
  expect(res.status).toBe(status);
  const body = (await res.json()) as { message: string; code: string; errors?: Record<string, string[]> };
  expect(body.code).toBe(code);
  return body;
}

async function sendToCourse(overrides: { title: string; allow_replies: boolean; attachment_ids?: number[] }): Promise<number> {
  const recipients: RecipientPick[] = [{ kind: 'course', id: ids.course, audience: 'apoderados' }];
  const res = await send(
    admin,
    composeInput({ channels: ['app-mobile'], recipients, content: `Contenido de ${overrides.title}.`, ...overrides }),
  );
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: SendResult }).data.id;
}

/** The engine's hand-over of a message's app deliveries (not this API's job). */
async function handOver(messageId: number, at: Date): Promise<void> {
  await db.execute(sql`update deliveries set status = 'sent', sent_at = ${at.toISOString()}::timestamptz, attempts = 1
    where message_id = ${messageId} and channel = 'app-mobile' and status = 'queued'`);
}

const deliveryOf = (messageId: number, g: Guardian) =>
  one<{ id: number; generation: number; status: string; delivered_at: Date | null; read_at: Date | null; recipient_status: string }>(
    db,
    sql`select d.id, d.generation, d.status, d.delivered_at, d.read_at, r.status as recipient_status
        from deliveries d join message_recipients r on r.id = d.recipient_id
        where d.message_id = ${messageId} and d.channel = 'app-mobile' and d.address = ${`guardian:${g.id}`}`,
  );

async function counts(client: Client): Promise<FolderCount> {
  const res = await client.get('/api/messages/info');
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: FolderCount[] }).data.find((c) => c.type === 'received')!;
}

beforeAll(async () => {
  ({ db, url, close } = await serveWithCapturedSms(delivery));

  admin = new Client(url);
  expect((await admin.login('administrador@sanandres.cl')).status).toBe(200);
  const sa = await one<{ institution: number; id: number; name: string }>(
    db,
    sql`select institution_id as institution, id, name from users where email = 'administrador@sanandres.cl'`,
  );
  ids.sanAndres = sa.institution;
  ids.adminUser = sa.id;
  ids.adminName = sa.name;
  // A course with at least two app guardians with their own phones.
  const course = await one<{ id: number }>(
    db,
    sql`select s.course_id as id from guardians g join student_guardians sg on sg.guardian_id = g.id
        join students s on s.id = sg.student_id
        where g.institution_id = ${ids.sanAndres} and g.app_installed_at is not null and ${uniquePhone}
        group by s.course_id having count(distinct g.id) >= 2 order by s.course_id limit 1`,
  );
  ids.course = course.id;
  const inCourse = await rows<Guardian>(
    db,
    sql`select distinct g.id, g.phone, ${guardianName} as name from guardians g
        join student_guardians sg on sg.guardian_id = g.id join students s on s.id = sg.student_id
        where s.course_id = ${ids.course} and g.app_installed_at is not null and ${uniquePhone} order by g.id limit 2`,
  );
  [ids.reader, ids.classmate] = [inCourse[0]!, inCourse[1]!];
  // The seed's school year of activity gave them an app history; these tests count their inbox from empty, as
  // for families who just installed the app.
  await db.execute(sql`delete from deliveries where channel = 'app-mobile'
    and address in (${`guardian:${ids.reader.id}`}, ${`guardian:${ids.classmate.id}`})`);
  const others = await rows<Guardian>(
    db,
    sql`select g.id, g.phone, ${guardianName} as name from guardians g
        where g.institution_id = ${ids.sanAndres} and g.app_installed_at is null and ${uniquePhone}
          and not exists (select 1 from student_guardians sg join students s on s.id = sg.student_id
                          where sg.guardian_id = g.id and s.course_id = ${ids.course})
        order by g.id limit 2`,
  );
  [ids.outsider, ids.throttled] = [others[0]!, others[1]!];
  ids.mexican = await one<Guardian>(
    db,
    sql`select g.id, g.phone, ${guardianName} as name from guardians g join users u on u.institution_id = g.institution_id
        where u.email = 'administrador@benitojuarez.edu.mx' and ${uniquePhone} order by g.id limit 1`,
  );

  const file = await uploadOk(admin, 'circular.pdf', 'application/pdf', pdfBytes(2048));
  msg.attachment = { name: file.name, size: 2048 };
  msg.title = 'Salida pedagógica';
  msg.replies = await sendToCourse({ title: msg.title, allow_replies: true, attachment_ids: [file.id] });
  msg.closed = await sendToCourse({ title: 'Cambio de horario', allow_replies: false });
  msg.queued = await sendToCourse({ title: 'Aún en cola', allow_replies: true });
  await handOver(msg.replies, new Date(Date.now() - 60_000));
  await handOver(msg.closed, new Date());
}, 60_000);

afterAll(async () => {
  await close?.();
});

describe('sign-in code', () => {
  it('sends a 6-digit code by SMS and keeps only its hash, valid 10 minutes', async () => {
    const before = sms.length;
    const res = await requestCode(ids.reader.phone);
    expect(res.status).toBe(202);
    const [out] = sms.slice(before);
    expect(out).toMatchObject({ channel: 'sms', address: ids.reader.phone, attachments: [] });
    // Sent in GSM-7 like every SMS ("codigo"): with the "ó" a provider would switch to UCS-2.
    const code = /^Tu codigo de Hermes es (\d{6})\. Vence en 10 minutos\.$/.exec(out!.text)![1]!;
    expect(smsText(out!.text, null).text).toBe(out!.text);
    const row = await one<{ id: number; code_hash: string; ttl: number; attempts: number }>(
      db,
      sql`select id, code_hash, extract(epoch from expires_at - created_at)::int as ttl, attempts
          from app_login_codes where phone = ${ids.reader.phone} order by id desc limit 1`,
    );
    expect(out!.key).toBe(`app-code-${row.id}`);
    expect(row.code_hash).not.toContain(code);
    expect(row.code_hash).toBe(createHash('sha256').update(code).digest('base64url'));
    expect(row.ttl).toBe(600);
    expect(row.attempts).toBe(0);
  });

  it('answers an unknown phone exactly like a known one, and sends nothing', async () => {
    const unknown = '+56987654321';
    expect((await rows(db, sql`select 1 from guardians where phone = ${unknown}`)).length).toBe(0);
    const before = sms.length;
    const [a, b] = await Promise.all([requestCode(unknown), requestCode(ids.outsider.phone)]);
    expect(a.status).toBe(202);
    expect(b.status).toBe(202);
    expect(await a.json()).toEqual(await b.json());
    const sent = sms.slice(before);
    expect(sent.map((m) => m.address)).toEqual([ids.outsider.phone]);
  });

  it('refuses something that is not a phone with a 422', async () => {
    const body = await errorOf(await requestCode('llámame'), 422, 'validation.failed');
    expect(body.errors?.phone).toEqual(['El teléfono no es válido.']);
    const empty = await errorOf(await api('/session/code', { method: 'POST', json: {} }), 422, 'validation.failed');
    expect(empty.errors?.phone).toEqual(['El teléfono es obligatorio.']);
  });

  it('throttles to 3 codes per phone per 10 minutes, known or unknown alike', async () => {
    for (const phone of [ids.throttled.phone, '+56987650000']) {
      for (let i = 0; i < 3; i++) expect((await requestCode(phone)).status).toBe(202);
      const res = await requestCode(phone);
      const body = await errorOf(res, 429, 'auth.throttled');
      expect(body.message).toMatch(/^Demasiadas solicitudes de código\. Inténtalo de nuevo en 10 minutos\.$/);
      expect(Number(res.headers.get('Retry-After'))).toBeGreaterThan(590);
    }
    expect(
      Number((await one<{ n: number }>(db, sql`select count(*)::int as n from app_login_codes where phone = ${ids.throttled.phone}`)).n),
    ).toBe(3);
    // Once the window has passed, codes flow again.
    await pastWindow(ids.throttled.phone);
    expect((await requestCode(ids.throttled.phone)).status).toBe(202);
  });

  it('refuses a wrong code, and kills the code after 5 wrong answers', async () => {
    const code = await codeFor(ids.outsider.phone);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 1; i <= 5; i++) {
      const body = await errorOf(await signIn(ids.outsider.phone, wrong), 401, 'auth.invalid_credentials');
      expect(body.message).toBe('El código no es válido o venció. Solicita uno nuevo.');
      const { attempts } = await one<{ attempts: number }>(
        db,
        sql`select attempts from app_login_codes where phone = ${ids.outsider.phone} order by id desc limit 1`,
      );
      expect(attempts).toBe(i);
    }
    await errorOf(await signIn(ids.outsider.phone, code), 401, 'auth.invalid_credentials');
    await errorOf(await signIn(ids.outsider.phone, 'abc'), 401, 'auth.invalid_credentials');
    expect((await one<{ n: number }>(db, sql`select count(*)::int as n from app_tokens where person_id = ${ids.outsider.id}`)).n).toBe(0);
  });

  it('refuses an expired code and a superseded one', async () => {
    await pastWindow(ids.outsider.phone);
    const expired = await codeFor(ids.outsider.phone);
    await db.execute(sql`update app_login_codes set expires_at = now() - interval '1 second'
      where phone = ${ids.outsider.phone} and consumed_at is null`);
    await errorOf(await signIn(ids.outsider.phone, expired), 401, 'auth.invalid_credentials');

    const older = await codeFor(ids.outsider.phone);
    const newer = await codeFor(ids.outsider.phone);
    if (older !== newer) await errorOf(await signIn(ids.outsider.phone, older), 401, 'auth.invalid_credentials');
    expect((await signIn(ids.outsider.phone, newer)).status).toBe(200);
  });

  it('signs in with the right code: a 90-day token, the app counts as installed, the code is spent', async () => {
    const { app_installed_at } = await one<{ app_installed_at: Date | null }>(
      db,
      sql`select app_installed_at from guardians where id = ${ids.throttled.id}`,
    );
    expect(app_installed_at).toBeNull();
    await pastWindow(ids.throttled.phone);
    const code = await codeFor(ids.throttled.phone);
    // Typed the national way, as a guardian would.
    const national = ids.throttled.phone.replace(/^\+56/, '').replace(/^(\d)(\d{4})(\d{4})$/, '$1 $2 $3');
    const started = Date.now();
    const res = await signIn(national, code);
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as FamilySessionBody;
    // The school is named: the app shows it on every message and speaks its locale.
    expect(data.guardian).toEqual({
      id: ids.throttled.id,
      name: ids.throttled.name,
      school: { name: 'Colegio San Andrés de Ñuñoa', locale: 'es-CL' },
      // Every school of the phone: this one has only one.
      schools: [{ name: 'Colegio San Andrés de Ñuñoa', locale: 'es-CL' }],
    });
    expect(data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const ttlDays = (new Date(data.expires_at).getTime() - started) / 86_400_000;
    expect(ttlDays).toBeGreaterThan(89.9);
    expect(ttlDays).toBeLessThan(90.1);
    const token = await one<{ token_hash: string; person_kind: string; institution_id: number }>(
      db,
      sql`select token_hash, person_kind, institution_id from app_tokens where person_id = ${ids.throttled.id}`,
    );
    expect(token).toEqual({
      token_hash: createHash('sha256').update(data.token).digest('base64url'),
      person_kind: 'apoderado',
      institution_id: ids.sanAndres,
    });
    const after = await one<{ app_installed_at: Date | null }>(
      db,
      sql`select app_installed_at from guardians where id = ${ids.throttled.id}`,
    );
    expect(after.app_installed_at).not.toBeNull();
    // The code is consumed: it cannot sign in twice.
    await errorOf(await signIn(ids.throttled.phone, code), 401, 'auth.invalid_credentials');
  });
});

describe('shared phones', () => {
  it('a phone several guardians share signs in as the most recently created of them', async () => {
    const [newer, older] = await rows<Guardian>(
      db,
      sql`select g.id, g.phone, ${guardianName} as name from guardians g
          where g.institution_id = ${ids.sanAndres} and ${uniquePhone} and g.id not in
            (${ids.reader.id}, ${ids.classmate.id}, ${ids.outsider.id}, ${ids.throttled.id})
          order by g.id desc limit 2`,
    );
    await db.execute(sql`update guardians set phone = ${newer!.phone} where id = ${older!.id}`);
    const res = await signIn(newer!.phone, await codeFor(newer!.phone));
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { guardian: { id: number } } }).data.guardian.id).toBe(newer!.id);
    expect(newer!.id).toBeGreaterThan(older!.id);
  });
});

describe('bearer token', () => {
  it('refuses calls without a token, with an unknown one, an expired one or a revoked one', async () => {
    for (const res of [
      await api('/messages'),
      await api('/messages', { token: 'no-es-un-token' }),
      await api('/messages', { headers: { Authorization: 'Basic abc' } }),
    ]) {
      const body = await errorOf(res, 401, 'auth.unauthenticated');
      expect(body.message).toBe('No autenticado.');
    }
    const token = await tokenFor(ids.classmate);
    // A page past the end: authenticated, and it reports nothing received (the inbox tests check that).
    expect((await api('/messages?page=50', { token })).status).toBe(200);
    const used = await one<{ last_used_at: Date | null }>(
      db,
      sql`select last_used_at from app_tokens where token_hash = ${createHash('sha256').update(token).digest('base64url')}`,
    );
    expect(used.last_used_at).not.toBeNull();

    expect((await api('/session', { method: 'DELETE', token })).status).toBe(204);
    await errorOf(await api('/messages', { token }), 401, 'auth.unauthenticated');
    await errorOf(await api('/session', { method: 'DELETE', token }), 401, 'auth.unauthenticated');

    const other = await tokenFor(ids.classmate);
    await db.execute(sql`update app_tokens set expires_at = now() - interval '1 second'
      where token_hash = ${createHash('sha256').update(other).digest('base64url')}`);
    await errorOf(await api('/messages', { token: other }), 401, 'auth.unauthenticated');
  });

  it('the hourly sweep deletes expired sessions and day-old codes, and nothing still usable', async () => {
    const live = await tokenFor(ids.classmate);
    await db.execute(sql`update app_login_codes set created_at = now() - interval '25 hours'`);
    const expired = await count(db, sql`select count(*)::int as n from app_tokens where expires_at < now()`);
    const oldCodes = await count(db, sql`select count(*)::int as n from app_login_codes`);
    expect(expired).toBeGreaterThan(0);
    expect(oldCodes).toBeGreaterThan(0);
    expect(await deleteStaleAppLogins(db)).toBe(expired + oldCodes);
    expect(await count(db, sql`select count(*)::int as n from app_tokens where expires_at < now()`)).toBe(0);
    expect(await count(db, sql`select count(*)::int as n from app_login_codes`)).toBe(0);
    // Still signed in (a page past the end, so nothing is reported received for the inbox tests).
    expect((await api('/messages?page=50', { token: live })).status).toBe(200);
  });
});

describe('inbox', () => {
  let token = '';
  beforeAll(async () => {
    token = await tokenFor(ids.reader);
  });

  it('lists handed-over app messages, newest first, and reports them received', async () => {
    expect((await deliveryOf(msg.replies, ids.reader)).status).toBe('sent');
    expect((await deliveryOf(msg.queued, ids.reader)).status).toBe('queued');
    const res = await api('/messages', { token });
    expect(res.status).toBe(200);
    const page = (await res.json()) as AppPage;
    const students = await one<{ names: string }>(
      db,
      sql`select student_names as names from message_recipients
          where message_id = ${msg.replies} and recipient_kind = 'apoderado' and recipient_ref_id = ${ids.reader.id}`,
    );
    expect(page.data.map((m) => m.id)).toEqual([msg.closed, msg.replies]);
    expect(page.data[1]).toMatchObject({
      id: msg.replies,
      title: msg.title,
      snippet: `Contenido de ${msg.title}.`,
      sender_name: ids.adminName,
      read: false,
      allow_replies: true,
      student_names: students.names,
    });
    expect(page.data[0]!.allow_replies).toBe(false);
    // Both unread: the badge counts the whole inbox, not the page.
    expect(page.meta).toEqual({ current_page: 1, last_page: 1, per_page: 20, total: 2, unread: 2 });
    expect(page.links).toEqual({ first: '/api/app/messages?page=1', last: '/api/app/messages?page=1', prev: null, next: null });

    for (const id of [msg.replies, msg.closed]) {
      const d = await deliveryOf(id, ids.reader);
      expect(d.status).toBe('received');
      expect(d.delivered_at).not.toBeNull();
      expect(d.read_at).toBeNull();
      expect(d.recipient_status).toBe('received');
    }
    // Nobody else's deliveries moved, and the queued one stays queued.
    expect((await deliveryOf(msg.replies, ids.classmate)).status).toBe('sent');
    expect((await deliveryOf(msg.queued, ids.reader)).status).toBe('queued');
  });

  it('pages by 20 and refuses a page that is not a number', async () => {
    const empty = (await (await api('/messages?page=2', { token })).json()) as AppPage;
    expect(empty.data).toEqual([]);
    expect(empty.meta).toMatchObject({ current_page: 2, total: 2 });
    expect(empty.links.prev).toBe('/api/app/messages?page=1');
    const body = await errorOf(await api('/messages?page=0', { token }), 422, 'validation.failed');
    expect(body.errors?.page).toBeDefined();
  });

  it('opens a message with its attachments and reports it received', async () => {
    const res = await api(`/messages/${msg.replies}`, { token: await tokenFor(ids.classmate) });
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as {
      data: AppSummary & { content: string; read_at: string | null; attachments: { name: string; size: number }[] };
    };
    expect(data).toMatchObject({ id: msg.replies, title: msg.title, content: `Contenido de ${msg.title}.`, read: false, read_at: null });
    expect(data.attachments).toEqual([expect.objectContaining(msg.attachment)]);
    expect(await deliveryOf(msg.replies, ids.classmate)).toMatchObject({ status: 'received', recipient_status: 'received' });
  });

  it("does not show queued messages, failed ones or other families' messages", async () => {
    await errorOf(await api(`/messages/${msg.queued}`, { token }), 404, 'not_found');
    await errorOf(await api(`/messages/abc`, { token }), 404, 'not_found');
    await db.execute(sql`update deliveries set status = 'failed', error = 'test' where message_id = ${msg.closed}
      and address = ${`guardian:${ids.classmate.id}`}`);
    const classmate = await tokenFor(ids.classmate);
    const page = (await (await api('/messages', { token: classmate })).json()) as AppPage;
    expect(page.data.map((m) => m.id)).toEqual([msg.replies]);
    await errorOf(await api(`/messages/${msg.closed}`, { token: classmate }), 404, 'not_found');

    const outsider = await tokenFor(ids.outsider);
    expect(((await (await api('/messages', { token: outsider })).json()) as AppPage).meta.total).toBe(0);
    await errorOf(await api(`/messages/${msg.replies}`, { token: outsider }), 404, 'not_found');
    await errorOf(await api(`/messages/${msg.replies}/read`, { method: 'POST', token: outsider }), 404, 'not_found');
    await errorOf(
      await api(`/messages/${msg.replies}/reply`, { method: 'POST', token: outsider, json: { content: 'Hola' } }),
      404,
      'not_found',
    );
    expect((await deliveryOf(msg.replies, ids.reader)).status).not.toBe('read');
  });

  it('marks a message read, once', async () => {
    const res = await api(`/messages/${msg.replies}/read`, { method: 'POST', token });
    expect(res.status).toBe(200);
    const first = ((await res.json()) as { data: { id: number; read: boolean; read_at: string } }).data;
    expect(first).toMatchObject({ id: msg.replies, read: true });
    const d = await deliveryOf(msg.replies, ids.reader);
    expect(d.status).toBe('read');
    expect(new Date(d.read_at!).toISOString()).toBe(first.read_at);
    expect(d.recipient_status).toBe('read');

    const again = ((await (await api(`/messages/${msg.replies}/read`, { method: 'POST', token })).json()) as { data: { read_at: string } })
      .data;
    expect(again.read_at).toBe(first.read_at);
    // Opening it later does not turn it back into "received".
    expect((await api(`/messages/${msg.replies}`, { token })).status).toBe(200);
    expect((await deliveryOf(msg.replies, ids.reader)).status).toBe('read');
    const page = (await (await api('/messages', { token })).json()) as AppPage;
    expect(page.data.find((m) => m.id === msg.replies)!.read).toBe(true);
  });

  it("delivers a reply to the author's inbox and counters", async () => {
    const before = await counts(admin);
    const res = await api(`/messages/${msg.replies}/reply`, { method: 'POST', token, json: { content: 'Confirmo asistencia de Tomás.' } });
    expect(res.status).toBe(201);
    const { id } = ((await res.json()) as { data: { id: number } }).data;

    const row = await one<Record<string, unknown>>(
      db,
      sql`select sender_kind, sender_ref_id, sender_name, author_user_id, kind, reply_to_id, title, search, channels, institution_id
          from messages where id = ${id}`,
    );
    expect(row).toEqual({
      sender_kind: 'apoderado',
      sender_ref_id: ids.reader.id,
      sender_name: ids.reader.name,
      author_user_id: null,
      kind: 'sent',
      reply_to_id: msg.replies,
      title: `Re: ${msg.title}`,
      search: `re: salida pedagogica\nconfirmo asistencia de tomas.`,
      // The channel it came by: staff answer it there (shared/message-rules.ts replyChannels).
      channels: ['app-mobile'],
      institution_id: ids.sanAndres,
    });
    const staffRef = await one<{ ref: number }>(
      db,
      sql`select coalesce((select id from staff where user_id = ${ids.adminUser}), ${ids.adminUser}) as ref`,
    );
    expect(await rows(db, sql`select recipient_kind, recipient_ref_id, status from message_recipients where message_id = ${id}`)).toEqual([
      { recipient_kind: 'funcionario', recipient_ref_id: staffRef.ref, status: 'received' },
    ]);

    const inbox = await list(admin, 'folder=inbox');
    const listed = inbox.data.find((m) => m.id === id);
    expect(listed).toMatchObject({ title: `Re: ${msg.title}`, counterpart: ids.reader.name, unread: true, kind: 'received' });
    const after = await counts(admin);
    expect(after.total).toBe(before.total + 1);
    expect(after.unreads).toBe(before.unreads + 1);
    const detail = await admin.get(`/api/messages/${id}`);
    expect(detail.status).toBe(200);
    expect((await list(admin, 'folder=inbox&q=confirmo asistencia')).data.map((m) => m.id)).toContain(id);
  });

  it('refuses replies the author did not allow, and empty or too long ones', async () => {
    const closed = await errorOf(
      await api(`/messages/${msg.closed}/reply`, { method: 'POST', token, json: { content: 'Hola' } }),
      409,
      'message.replies_closed',
    );
    expect(closed.message).toBe('Este mensaje no admite respuestas.');
    for (const content of ['', '   ', 'x'.repeat(4001), 42]) {
      await errorOf(await api(`/messages/${msg.replies}/reply`, { method: 'POST', token, json: { content } }), 422, 'validation.failed');
    }
    expect((await api(`/messages/${msg.replies}/reply`, { method: 'POST', token, json: { content: 'x'.repeat(4000) } })).status).toBe(201);
    expect((await one<{ n: number }>(db, sql`select count(*)::int as n from messages where reply_to_id = ${msg.closed}`)).n).toBe(0);
  });
});

describe('given up, then opened', () => {
  it('a message given up on after 3 days unopened still shows in the app, and opening it makes it received', async () => {
    // Handed over and never fetched (earlier tests may have listed this guardian's inbox).
    await db.execute(sql`update deliveries set status = 'sent', delivered_at = null, read_at = null
      where message_id = ${msg.replies} and channel = 'app-mobile' and address = ${`guardian:${ids.classmate.id}`}`);
    const d = await deliveryOf(msg.replies, ids.classmate);
    // What the engine's sweep does to it after 3 days unopened.
    await applyReports(db, [
      { deliveryId: Number(d.id), generation: Number(d.generation), status: 'not_received', at: new Date(), error: 'app_not_opened' },
    ]);
    expect((await deliveryOf(msg.replies, ids.classmate)).status).toBe('not_received');

    const token = await tokenFor(ids.classmate);
    const page = (await (await api('/messages', { token })).json()) as AppPage;
    expect(page.data.map((m) => m.id)).toContain(msg.replies);
    const after = await deliveryOf(msg.replies, ids.classmate);
    expect(after.status).toBe('received');
    expect(after.recipient_status).toBe('received');
  });
});

describe('tenancy', () => {
  it('a guardian of another school sees none of it', async () => {
    const token = await tokenFor(ids.mexican);
    const page = (await (await api('/messages', { token })).json()) as AppPage;
    expect(page.data.map((m) => m.id)).not.toContain(msg.replies);
    for (const id of [msg.replies, msg.closed]) {
      await errorOf(await api(`/messages/${id}`, { token }), 404, 'not_found');
      await errorOf(await api(`/messages/${id}/read`, { method: 'POST', token }), 404, 'not_found');
    }
    const row = await one<{ institution_id: number }>(
      db,
      sql`select institution_id from app_tokens where token_hash = ${createHash('sha256').update(token).digest('base64url')}`,
    );
    expect(row.institution_id).not.toBe(ids.sanAndres);
  });

  it('a token names its school: moved to another school, it finds no guardian', async () => {
    const token = await tokenFor(ids.outsider);
    await db.execute(sql`update app_tokens set institution_id = (select institution_id from guardians where id = ${ids.mexican.id})
      where token_hash = ${createHash('sha256').update(token).digest('base64url')}`);
    await errorOf(await api('/messages', { token }), 401, 'auth.unauthenticated');
  });
});

describe('paging', () => {
  it('serves 20 per page, newest first, with Laravel-style meta and links', async () => {
    const token = await tokenFor(ids.reader);
    const extra: number[] = [];
    for (let i = 1; i <= 19; i++) extra.push(await sendToCourse({ title: `Aviso ${i}`, allow_replies: false }));
    for (const id of extra) await handOver(id, new Date());
    const first = (await (await api('/messages', { token })).json()) as AppPage;
    // Every message unread but the one read in an earlier test, on both pages.
    expect(first.meta).toEqual({ current_page: 1, last_page: 2, per_page: 20, total: 21, unread: 20 });
    expect(first.links).toEqual({
      first: '/api/app/messages?page=1',
      last: '/api/app/messages?page=2',
      prev: null,
      next: '/api/app/messages?page=2',
    });
    expect(first.data.map((m) => m.id)).toEqual([...extra.reverse(), msg.closed]);
    const second = (await (await api('/messages?page=2', { token })).json()) as AppPage;
    expect(second.data.map((m) => m.id)).toEqual([msg.replies]);
    expect(second.links).toMatchObject({ prev: '/api/app/messages?page=1', next: null });
    // Every listed delivery was reported received, on both pages.
    const pending = await rows(
      db,
      sql`select d.id from deliveries d where d.address = ${`guardian:${ids.reader.id}`} and d.status = 'sent'`,
    );
    expect(pending).toEqual([]);
  });
});

describe('staff answer families', () => {
  const detailOf = async (client: Client, id: number): Promise<MessageDetail> => {
    const res = await client.get(`/api/messages/${id}`);
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: MessageDetail }).data;
  };
  const appDetailOf = async (token: string, id: number): Promise<AppMessageDetail> => {
    const res = await api(`/messages/${id}`, { token });
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: AppMessageDetail }).data;
  };
  const appReply = async (token: string, id: number, content: string): Promise<number> => {
    const res = await api(`/messages/${id}/reply`, { method: 'POST', token, json: { content } });
    expect(res.status).toBe(201);
    return ((await res.json()) as { data: { id: number } }).data.id;
  };

  it("threads a staff answer to a guardian's app message in both inboxes and in the guardian's app", async () => {
    const token = await tokenFor(ids.classmate);
    // The app writes a guardian's answer without allow-replies: staff answer it all the same.
    const question = await appReply(token, msg.replies, '¿Hay que llevar almuerzo?');
    const asked = await detailOf(admin, question);
    expect(asked).toMatchObject({ kind: 'received', allow_replies: false, sender: { kind: 'apoderado', id: ids.classmate.id } });
    // The channels that reach that guardian: the app (installed), and e-mail and phone as the school has them.
    const contact = await one<{ email: string | null; phone: string | null }>(
      db,
      sql`select email, phone from guardians where id = ${ids.classmate.id}`,
    );
    expect(asked.reply_channels).toEqual([
      'app-mobile',
      ...(contact.email ? ['e-mail'] : []),
      ...(contact.phone ? ['sms', 'whatsapp'] : []),
    ]);
    expect(asked.channels).toEqual(['app-mobile']);
    expect(asked.thread.map((m) => [m.id, m.folder])).toEqual([[msg.replies, 'sent']]);

    const answer = composeInput({
      title: `Re: ${msg.title}`,
      content: 'Sí, almuerzo frío.',
      channels: ['app-mobile'],
      recipients: [{ kind: 'guardian', id: ids.classmate.id }],
      allow_replies: true,
    });
    // The estimate takes the reply as send does.
    expect((await admin.post('/api/messages/estimate', { ...answer, reply_to_id: question })).status).toBe(200);
    const sent = await send(admin, { ...answer, reply_to_id: question });
    expect(sent.status).toBe(201);
    const answerId = ((await sent.json()) as { data: SendResult }).data.id;
    await handOver(answerId, new Date());

    // The author's inbox and sent folder: the answer and the question know each other.
    expect((await detailOf(admin, answerId)).thread.map((m) => [m.id, m.folder])).toEqual([
      [msg.replies, 'sent'],
      [question, 'inbox'],
    ]);
    expect((await detailOf(admin, question)).thread.map((m) => [m.id, m.folder, m.sender.name])).toEqual([
      [msg.replies, 'sent', ids.adminName],
      [answerId, 'sent', ids.adminName],
    ]);

    // The guardian's app: the answer arrives in the thread of their message, their own words in it too.
    expect((await appDetailOf(token, answerId)).thread).toEqual([
      expect.objectContaining({ id: msg.replies, mine: false, sender_name: ids.adminName }),
      expect.objectContaining({ id: question, mine: true, content: '¿Hay que llevar almuerzo?', sender_name: ids.classmate.name }),
    ]);
    // Answering the answer from the app stays "Re: <title>" and joins the same conversation.
    const again = await appReply(token, answerId, 'Gracias.');
    expect((await one<{ title: string }>(db, sql`select title from messages where id = ${again}`)).title).toBe(`Re: ${msg.title}`);
    const original = await appDetailOf(token, msg.replies);
    // Other families' answers to the same course message are not this guardian's to see.
    expect(original.thread.map((m) => [m.id, m.mine])).toEqual([
      [question, true],
      [answerId, false],
      [again, true],
    ]);
    expect((await detailOf(admin, again)).thread.map((m) => m.id)).toEqual([msg.replies, question, answerId]);
  });

  it("refuses an answer to a colleague's message that does not allow replies, in the estimate, send and drafts alike", async () => {
    const teacher = new Client(url);
    expect((await teacher.login('docente@sanandres.cl')).status).toBe(200);
    const teacherStaff = await one<{ id: number }>(
      db,
      sql`select s.id from staff s join users u on u.id = s.user_id where u.email = 'docente@sanandres.cl'`,
    );
    const toTeacher = (allow_replies: boolean) =>
      composeInput({ title: 'Turnos de patio', recipients: [{ kind: 'staff', id: teacherStaff.id }], allow_replies });
    const sentTo = async (allow: boolean) => ((await (await send(admin, toTeacher(allow))).json()) as { data: SendResult }).data.id;
    const closed = await sentTo(false);
    const open = await sentTo(true);
    const adminStaff = await one<{ id: number }>(db, sql`select id from staff where user_id = ${ids.adminUser}`);
    const answer = composeInput({ title: 'Re: Turnos de patio', recipients: [{ kind: 'staff', id: adminStaff.id }] });

    expect((await detailOf(teacher, closed)).reply_channels).toEqual([]);
    expect((await detailOf(teacher, open)).reply_channels).toContain('e-mail');
    expect((await teacher.post('/api/messages/estimate', { ...answer, reply_to_id: open })).status).toBe(200);
    for (const [replyTo, why] of [
      [closed, 'El mensaje al que respondes no admite respuestas.'],
      // A message the teacher never got (the admin's to a course) is not there to be answered.
      [msg.closed, 'El mensaje al que respondes no existe.'],
    ] as const) {
      for (const refused of [
        await teacher.post('/api/messages/estimate', { ...answer, reply_to_id: replyTo }),
        await send(teacher, { ...answer, reply_to_id: replyTo }),
        await teacher.post('/api/messages/drafts', { ...answer, reply_to_id: replyTo }),
      ]) {
        expect(refused.status).toBe(422);
        expect(((await refused.json()) as { errors: Record<string, string[]> }).errors.reply_to_id).toEqual([why]);
      }
    }
    expect(await count(db, sql`select count(*)::int as n from messages where reply_to_id in (${closed}, ${msg.closed})`)).toBe(0);
  });
});
