import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SendResult } from '../../shared/compose-contract';
import type { FamilyInboxPage, FamilyMessageDetail } from '../../shared/family-contract';
import type { MessageDetail } from '../../shared/messages-contract';
import type { Db } from '../../server/db/client';
import { composeInput } from '../fixtures/compose';
import { capturedSms, serveWithCapturedSms } from './support/app-sms';
import { one, rows, send } from './support/compose';
import { Client } from './support/server';

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
const ids = { adminName: '', course: 0 };
let reader: Guardian;
let classmate: Guardian;
let mexican: Guardian;

const guardianName = sql`split_part(g.first_names, ' ', 1) || ' ' || g.last_name_father || ' ' || g.last_name_mother`;
const uniquePhone = sql`g.phone is not null and (select count(*) from guardians o where o.phone = g.phone) = 1`;

function api(pathname: string, init: { token: string; method?: string; json?: unknown }): Promise<Response> {
  return fetch(`${url}/api/app${pathname}`, {
    method: init.method ?? 'GET',
    headers: { Accept: 'application/json', Authorization: `Bearer ${init.token}`, 'Content-Type': 'application/json' },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
}

async function tokenFor(g: Guardian): Promise<string> {
  await db.execute(sql`update app_login_codes set created_at = created_at - interval '11 minutes' where phone = ${g.phone}`);
  const before = sms.length;
  const asked = await fetch(`${url}/api/app/session/code`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ phone: g.phone }),
  });
  expect(asked.status).toBe(202);
  const code = /\b(\d{6})\b/.exec(sms.slice(before).find((m) => m.address === g.phone)!.text)![1]!;
  const res = await fetch(`${url}/api/app/session`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ phone: g.phone, code }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { token: string } }).data.token;
}

async function handOver(messageId: number): Promise<void> {
  await db.execute(sql`update deliveries set status = 'sent', sent_at = now(), attempts = 1
    where message_id = ${messageId} and channel = 'app-mobile' and status = 'queued'`);
}

async function staffDetail(id: number): Promise<MessageDetail> {
  const res = await admin.get(`/api/messages/${id}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: MessageDetail }).data;
}

async function appDetail(token: string, id: number): Promise<FamilyMessageDetail> {
  const res = await api(`/messages/${id}`, { token });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: FamilyMessageDetail }).data;
}

async function appReply(token: string, id: number, content: string): Promise<number> {
  const res = await api(`/messages/${id}/reply`, { token, method: 'POST', json: { content } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: { id: number } }).data.id;
}

/** The staff's answer to one guardian's message, on the app (as compose's «Responder» starts it). */
async function answer(replyTo: number, guardian: Guardian, content: string): Promise<number> {
  const res = await send(admin, {
    ...composeInput({
      title: 'Re: Reunión de apoderados',
      content,
      channels: ['app-mobile'],
      recipients: [{ kind: 'guardian', id: guardian.id }],
      allow_replies: true,
    }),
    reply_to_id: replyTo,
  });
  expect(res.status).toBe(201);
  const id = ((await res.json()) as { data: SendResult }).data.id;
  await handOver(id);
  return id;
}

beforeAll(async () => {
  ({ db, url, close } = await serveWithCapturedSms(delivery));
  admin = new Client(url);
  expect((await admin.login('administrador@sanandres.cl')).status).toBe(200);
  const sa = await one<{ institution: number; name: string }>(
    db,
    sql`select institution_id as institution, name from users where email = 'administrador@sanandres.cl'`,
  );
  ids.adminName = sa.name;
  ids.course = (
    await one<{ id: number }>(
      db,
      sql`select s.course_id as id from guardians g join student_guardians sg on sg.guardian_id = g.id
        join students s on s.id = sg.student_id
        where g.institution_id = ${sa.institution} and g.app_installed_at is not null and ${uniquePhone}
        group by s.course_id having count(distinct g.id) >= 2 order by s.course_id limit 1`,
    )
  ).id;
  const inCourse = await rows<Guardian>(
    db,
    sql`select distinct g.id, g.phone, ${guardianName} as name from guardians g
        join student_guardians sg on sg.guardian_id = g.id join students s on s.id = sg.student_id
        where s.course_id = ${ids.course} and g.app_installed_at is not null and ${uniquePhone} order by g.id limit 2`,
  );
  [reader, classmate] = [inCourse[0]!, inCourse[1]!];
  mexican = await one<Guardian>(
    db,
    sql`select g.id, g.phone, ${guardianName} as name from guardians g join users u on u.institution_id = g.institution_id
        where u.email = 'administrador@benitojuarez.edu.mx' and ${uniquePhone} order by g.id limit 1`,
  );
}, 60_000);

afterAll(async () => {
  await close?.();
});

describe('one thread per message and guardian', () => {
  it("keeps each family's thread apart on both sides, and an answer reaches only its guardian", async () => {
    const sent = await send(
      admin,
      composeInput({
        title: 'Reunión de apoderados',
        content: 'La reunión es el jueves a las 19:00.',
        channels: ['app-mobile'],
        recipients: [{ kind: 'course', id: ids.course, audience: 'apoderados' }],
        allow_replies: true,
      }),
    );
    expect(sent.status).toBe(201);
    const original = ((await sent.json()) as { data: SendResult }).data.id;
    await handOver(original);
    const [readerToken, classmateToken, mexicanToken] = [await tokenFor(reader), await tokenFor(classmate), await tokenFor(mexican)];

    const asked = await appReply(readerToken, original, '¿Puedo llegar 19:30?');
    const theirs = await appReply(classmateToken, original, 'Asistiré.');
    // The staff's view of its message: each family apart, the one whose thread moved last first.
    const before = await staffDetail(original);
    expect(before.conversations.map((c) => [c.guardian.id, c.messages.map((m) => m.id), c.answer_to])).toEqual([
      [classmate.id, [theirs], theirs],
      [reader.id, [asked], asked],
    ]);
    expect(before.conversations[1]!.guardian).toEqual({ id: reader.id, name: reader.name, kind: 'apoderado' });
    expect(before.conversations[1]!.guardian_of.length).toBeGreaterThan(0);
    // An erased child is no longer how staff tell the family apart (as a withdrawn one).
    const children = sql`select sg.student_id from student_guardians sg where sg.guardian_id = ${reader.id}`;
    await db.execute(sql`update students set erased_at = now() where id in (${children})`);
    try {
      expect((await staffDetail(original)).conversations[1]!.guardian_of).toEqual([]);
    } finally {
      await db.execute(sql`update students set erased_at = null where id in (${children})`);
    }

    const answered = await answer(asked, reader, 'Sí, lo esperamos.');
    const again = await appReply(readerToken, original, 'Gracias.');

    // Staff: the reader's thread holds the answer and the second reply; the classmate's is untouched.
    const after = await staffDetail(original);
    expect(after.conversations.map((c) => [c.guardian.id, c.messages.map((m) => [m.id, m.folder]), c.answer_to])).toEqual([
      [
        reader.id,
        [
          [asked, 'inbox'],
          [answered, 'sent'],
          [again, 'inbox'],
        ],
        again,
      ],
      [classmate.id, [[theirs, 'inbox']], theirs],
    ]);
    // The guardian's answer, opened by staff, shows the same thread as the staff's answer to it.
    expect((await staffDetail(asked)).thread.map((m) => m.id)).toEqual([original, answered, again]);
    expect((await staffDetail(answered)).thread.map((m) => m.id)).toEqual([original, asked, again]);
    expect((await staffDetail(asked)).conversations).toEqual([]);
    expect((await staffDetail(theirs)).thread.map((m) => m.id)).toEqual([original]);

    // The reader: the answer in the thread of the original, marked as the staff's, and in the inbox.
    expect((await appDetail(readerToken, original)).thread.map((m) => [m.id, m.mine, m.sender_name])).toEqual([
      [asked, true, reader.name],
      [answered, false, ids.adminName],
      [again, true, reader.name],
    ]);
    // Opening the answer itself shows the same thread (its second reply included).
    expect((await appDetail(readerToken, answered)).thread.map((m) => m.id)).toEqual([original, asked, again]);
    const inbox = (await (await api('/messages', { token: readerToken })).json()) as FamilyInboxPage;
    expect(inbox.data.map((m) => m.id)).toContain(answered);

    // The classmate sees only their own answer; the reader's thread is not theirs, nor another school's.
    expect((await appDetail(classmateToken, original)).thread.map((m) => [m.id, m.mine])).toEqual([[theirs, true]]);
    for (const token of [classmateToken, mexicanToken]) {
      expect((await api(`/messages/${answered}`, { token })).status).toBe(404);
      expect((await api(`/messages/${answered}/reply`, { token, method: 'POST', json: { content: 'Hola' } })).status).toBe(404);
      const list = (await (await api('/messages', { token })).json()) as FamilyInboxPage;
      expect(list.data.map((m) => m.id)).not.toContain(answered);
    }
    expect((await api(`/messages/${original}`, { token: mexicanToken })).status).toBe(404);
    // Only the reader got a delivery of the answer.
    const deliveries = await rows<{ address: string }>(
      db,
      sql`select address from deliveries where message_id = ${answered} and channel = 'app-mobile'`,
    );
    expect(deliveries).toEqual([{ address: `guardian:${reader.id}` }]);

    // Staff: a colleague of the school, or another school's administrator, has none of these threads.
    for (const email of ['docente@sanandres.cl', 'administrador@benitojuarez.edu.mx']) {
      const other = new Client(url);
      expect((await other.login(email)).status).toBe(200);
      for (const id of [original, asked, answered]) expect((await other.get(`/api/messages/${id}`)).status).toBe(404);
    }
  });
});
