import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecipientPick, Recipients, SendResult } from '../../shared/compose-contract';
import type { FamilyChild, FamilyInboxPage, FamilyMessageDetail, FamilySession } from '../../shared/family-contract';
import type { Db } from '../../server/db/client';
import { composeInput } from '../fixtures/compose';
import { newsInput } from '../fixtures/news';
import type { NewsPost } from '../../shared/news-contract';
import { PEOPLE_API } from '../../shared/people-contract';
import { capturedSms, codeSentTo, serveWithCapturedSms } from './support/app-sms';
import { sendJson } from './support/staff';
import { one, pdfBytes, rows, send, uploadOk } from './support/compose';
import { Client } from './support/server';

const { sent: sms, delivery } = capturedSms();

let db: Db;
let url: string;
let close: () => Promise<void>;

interface Child {
  id: number;
  course: string;
  name: string;
}

const fam = {
  phone: '',
  /** The San Andrés guardian row and two of their children, in two courses. */
  sa: { id: 0, children: [] as Child[] },
  /** The Benito Juárez guardian row given the same phone, and their child. */
  mx: { id: 0, child: null as unknown as Child },
  /** A San Andrés student who is none of theirs. */
  stranger: 0,
};
const msg = { a: 0, b: 0, mx: 0, foreign: 0, fileA: 0, fileForeign: 0 };
let token = '';
let session: FamilySession;

function api(pathname: string, init: RequestInit & { token?: string; json?: unknown } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('Accept', 'application/json');
  if (init.token) headers.set('Authorization', `Bearer ${init.token}`);
  if (init.json !== undefined) headers.set('Content-Type', 'application/json');
  return fetch(`${url}/api/app${pathname}`, { ...init, headers, body: init.json === undefined ? init.body : JSON.stringify(init.json) });
}

async function page(query = ''): Promise<FamilyInboxPage> {
  const res = await api(`/messages${query}`, { token });
  expect(res.status).toBe(200);
  return (await res.json()) as FamilyInboxPage;
}

const idsOf = (p: FamilyInboxPage) => p.data.map((m) => m.id);

async function sendTo(client: Client, studentId: number, title: string, extra: { attachment_ids?: number[]; content?: string } = {}) {
  const recipients: RecipientPick[] = [{ kind: 'student', id: studentId, audience: 'apoderados' }];
  const res = await send(
    client,
    composeInput({
      channels: ['app-mobile'],
      recipients,
      content: extra.content ?? `Contenido de ${title}.`,
      title,
      allow_replies: true,
      ...extra,
    }),
  );
  expect(res.status, await res.clone().text()).toBe(201);
  const id = ((await res.json()) as { data: SendResult }).data.id;
  await db.execute(sql`update deliveries set status = 'sent', sent_at = now(), attempts = 1
    where message_id = ${id} and channel = 'app-mobile' and status = 'queued'`);
  return id;
}

const childName = sql`concat_ws(' ', split_part(s.first_names, ' ', 1), s.last_name_father, nullif(s.last_name_mother, ''))`;
const uniquePhone = sql`g.phone is not null and (select count(*) from guardians o where o.phone = g.phone) = 1`;

beforeAll(async () => {
  ({ db, url, close } = await serveWithCapturedSms(delivery));
  const sanAndres = new Client(url);
  expect((await sanAndres.login('administrador@sanandres.cl')).status).toBe(200);
  const juarez = new Client(url);
  expect((await juarez.login('administrador@benitojuarez.edu.mx')).status).toBe(200);

  // A San Andrés guardian of two enrolled children in two courses, with a phone of their own.
  const sa = await one<{ id: number; phone: string }>(
    db,
    sql`select g.id, g.phone from guardians g join student_guardians sg on sg.guardian_id = g.id join students s on s.id = sg.student_id
        join institutions i on i.id = g.institution_id
        where i.name like 'Colegio San Andrés%' and s.withdrawn_at is null and ${uniquePhone}
        group by g.id, g.phone having count(distinct s.course_id) >= 2 order by g.id limit 1`,
  );
  fam.phone = sa.phone;
  fam.sa.id = sa.id;
  fam.sa.children = await rows<Child>(
    db,
    sql`select distinct on (s.course_id) s.id, c.name as course, ${childName} as name
        from student_guardians sg join students s on s.id = sg.student_id join courses c on c.id = s.course_id
        where sg.guardian_id = ${sa.id} and s.withdrawn_at is null order by s.course_id, s.id limit 2`,
  );
  // The same family in México: a guardian row there is given the same phone.
  const mx = await one<{ id: number; child: number; course: string; name: string }>(
    db,
    sql`select g.id, s.id as child, c.name as course, ${childName} as name
        from guardians g join student_guardians sg on sg.guardian_id = g.id join students s on s.id = sg.student_id
        join courses c on c.id = s.course_id join users u on u.institution_id = g.institution_id
        where u.email = 'administrador@benitojuarez.edu.mx' and s.withdrawn_at is null and ${uniquePhone}
          and (select count(*) from student_guardians x where x.guardian_id = g.id) = 1
        order by g.id limit 1`,
  );
  fam.mx = { id: mx.id, child: { id: mx.child, course: mx.course, name: mx.name } };
  await db.execute(sql`update guardians set phone = ${fam.phone}, app_installed_at = null where id = ${mx.id}`);
  // The seed's year of activity gave them an app history; the inbox is counted from what these tests send.
  await db.execute(
    sql`delete from deliveries where channel = 'app-mobile' and address in (${`guardian:${sa.id}`}, ${`guardian:${mx.id}`})`,
  );
  fam.stranger = (
    await one<{ id: number }>(
      db,
      sql`select s.id from students s join guardians g on g.institution_id = s.institution_id
          where g.id = ${sa.id} and s.withdrawn_at is null
            and not exists (select 1 from student_guardians sg join guardians o on o.id = sg.guardian_id
                            where sg.student_id = s.id and o.phone = ${fam.phone})
          order by s.id limit 1`,
    )
  ).id;

  // One sign-in: the app counts as installed for both rows, so both schools' app messages reach the phone.
  await api('/session/code', { method: 'POST', json: { phone: fam.phone } });
  const res = await api('/session', { method: 'POST', json: { phone: fam.phone, code: codeSentTo(sms, fam.phone) } });
  expect(res.status).toBe(200);
  session = ((await res.json()) as { data: FamilySession }).data;
  token = session.token;

  const [childA, childB] = fam.sa.children as [Child, Child];
  const fileA = await uploadOk(sanAndres, 'autorización.pdf', 'application/pdf', pdfBytes(3000));
  msg.fileA = fileA.id;
  msg.a = await sendTo(sanAndres, childA.id, 'Reunión de APODERADOS', { attachment_ids: [fileA.id] });
  msg.b = await sendTo(sanAndres, childB.id, 'Salida al museo');
  msg.mx = await sendTo(juarez, fam.mx.child.id, 'Junta de padres', { content: 'Los esperamos el jueves en la reunión del salón.' });
  const fileForeign = await uploadOk(sanAndres, 'otra.pdf', 'application/pdf', pdfBytes(1000));
  msg.fileForeign = fileForeign.id;
  msg.foreign = await sendTo(sanAndres, fam.stranger, 'Reunión de otro curso', { attachment_ids: [fileForeign.id] });
}, 90_000);

afterAll(async () => {
  await close?.();
});

describe('one sign-in, every school', () => {
  it('the session lists the schools of the phone, the signed-in row first', async () => {
    const names = session.guardian.schools.map((s) => s.name);
    expect(names).toHaveLength(2);
    expect(names).toEqual(expect.arrayContaining(['Colegio San Andrés de Ñuñoa']));
    expect(session.guardian.schools[0]).toEqual(session.guardian.school);
    // The newest row of the phone signs in (as when one school had it twice): its locale is the app's.
    expect(session.guardian.id).toBe(Math.max(fam.sa.id, fam.mx.id));
    const installed = await rows<{ id: number }>(
      db,
      sql`select id from guardians where phone = ${fam.phone} and app_installed_at is not null order by id`,
    );
    expect(installed.map((r) => r.id)).toEqual([fam.sa.id, fam.mx.id].sort((a, b) => a - b));
  });

  it('lists every enrolled child with school, course and unread count', async () => {
    const res = await api('/children', { token });
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: FamilyChild[] };
    const byId = new Map(data.map((child) => [child.id, child]));
    const [childA, childB] = fam.sa.children as [Child, Child];
    expect(byId.get(childA.id)).toEqual({
      id: childA.id,
      name: childA.name,
      school_name: 'Colegio San Andrés de Ñuñoa',
      course_name: childA.course,
      unread: 1,
    });
    expect(byId.get(childB.id)).toMatchObject({ course_name: childB.course, unread: 1 });
    expect(byId.get(fam.mx.child.id)).toMatchObject({ name: fam.mx.child.name, course_name: fam.mx.child.course, unread: 1 });
    expect(byId.get(fam.mx.child.id)!.school_name).not.toBe('Colegio San Andrés de Ñuñoa');
    expect(byId.has(fam.stranger)).toBe(false);
    expect((await api('/children')).status).toBe(401);
  });

  it('the combined inbox holds both schools, newest first, each row naming its school; nobody else’s', async () => {
    const all = await page();
    expect(idsOf(all)).toEqual([msg.mx, msg.b, msg.a]);
    expect(idsOf(all)).not.toContain(msg.foreign);
    const mx = all.data.find((m) => m.id === msg.mx)!;
    expect(mx.school_name).toBe(session.guardian.schools.find((s) => s.name !== 'Colegio San Andrés de Ñuñoa')!.name);
    expect(all.data.find((m) => m.id === msg.a)).toMatchObject({ school_name: 'Colegio San Andrés de Ñuñoa', read: false });
  });

  it('filters by one child, any school; another family’s child is a 404, a word a 422', async () => {
    const [childA, childB] = fam.sa.children as [Child, Child];
    expect(idsOf(await page(`?student=${childA.id}`))).toEqual([msg.a]);
    expect(idsOf(await page(`?student=${childB.id}`))).toEqual([msg.b]);
    expect(idsOf(await page(`?student=${fam.mx.child.id}`))).toEqual([msg.mx]);
    expect((await api(`/messages?student=${fam.stranger}`, { token })).status).toBe(404);
    expect((await api('/messages?student=uno', { token })).status).toBe(422);
  });

  it('searches title and text, accents and case aside, with the child filter and in the page links', async () => {
    expect(idsOf(await page('?q=reunion de apoderados'))).toEqual([msg.a]);
    // "reunión" is in the Mexican message's text and the San Andrés one's title; the stranger's stays out.
    expect(idsOf(await page(`?q=${encodeURIComponent('REUNIÓN')}`))).toEqual([msg.mx, msg.a]);
    expect(idsOf(await page(`?q=${encodeURIComponent('SALON')}`))).toEqual([msg.mx]);
    expect(idsOf(await page(`?q=reunion&student=${fam.mx.child.id}`))).toEqual([msg.mx]);
    const none = await page('?q=zzzz no existe');
    expect(none.data).toEqual([]);
    expect(none.meta.total).toBe(0);
    // A LIKE wildcard is a character like any other.
    expect((await page('?q=%25')).data).toEqual([]);
    const filtered = await page(`?q=museo&student=${fam.sa.children[1]!.id}`);
    expect(filtered.links.first).toBe(`/api/app/messages?student=${fam.sa.children[1]!.id}&q=museo&page=1`);
  });

  it('downloads a message file with the bearer token; another message’s or family’s file is a 404', async () => {
    const detail = ((await (await api(`/messages/${msg.a}`, { token })).json()) as { data: FamilyMessageDetail }).data;
    expect(detail.attachments).toEqual([{ id: msg.fileA, name: 'autorización.pdf', size: 3000, content_type: 'application/pdf' }]);
    const res = await api(`/messages/${msg.a}/attachments/${msg.fileA}`, { token });
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('application/pdf');
    expect(res.headers.get('Content-Disposition')).toContain(`filename*=UTF-8''${encodeURIComponent('autorización.pdf')}`);
    expect((await res.arrayBuffer()).byteLength).toBe(3000);
    expect((await api(`/messages/${msg.a}/attachments/${msg.fileA}`)).status).toBe(401);
    expect((await api(`/messages/${msg.a}/attachments/${msg.fileForeign}`, { token })).status).toBe(404);
    expect((await api(`/messages/${msg.foreign}/attachments/${msg.fileForeign}`, { token })).status).toBe(404);
    expect((await api(`/messages/${msg.a}/attachments/x`, { token })).status).toBe(404);
  });

  it('another family’s message stays a 404 for opening, reading and replying', async () => {
    expect((await api(`/messages/${msg.foreign}`, { token })).status).toBe(404);
    expect((await api(`/messages/${msg.foreign}/read`, { method: 'POST', token })).status).toBe(404);
    expect((await api(`/messages/${msg.foreign}/reply`, { method: 'POST', token, json: { content: 'Hola' } })).status).toBe(404);
  });

  it('reads and replies in the school the message came from, as that school’s guardian', async () => {
    expect((await api(`/messages/${msg.mx}/read`, { method: 'POST', token })).status).toBe(200);
    const read = await one<{ status: string }>(
      db,
      sql`select status from deliveries where message_id = ${msg.mx} and channel = 'app-mobile' and address = ${`guardian:${fam.mx.id}`}`,
    );
    expect(read.status).toBe('read');
    const res = await api(`/messages/${msg.mx}/reply`, { method: 'POST', token, json: { content: 'Ahí estaremos.' } });
    expect(res.status).toBe(201);
    const { id } = ((await res.json()) as { data: { id: number } }).data;
    const reply = await one<{ sender_ref_id: number; same_school: boolean }>(
      db,
      sql`select r.sender_ref_id, r.institution_id = m.institution_id as same_school from messages r, messages m
          where r.id = ${id} and m.id = ${msg.mx}`,
    );
    expect(reply).toEqual({ sender_ref_id: fam.mx.id, same_school: true });
    const children = ((await (await api('/children', { token })).json()) as { data: FamilyChild[] }).data;
    expect(children.find((c) => c.id === fam.mx.child.id)!.unread).toBe(0);
  });

  it('the wall holds both schools’ posts; a third school’s is a 404', async () => {
    const post = async (email: string, title: string) => {
      const client = new Client(url);
      expect((await client.login(email)).status).toBe(200);
      const res = await client.post('/api/news', newsInput({ title, pinned: true }));
      expect(res.status, await res.clone().text()).toBe(201);
      return ((await res.json()) as { data: NewsPost }).data.id;
    };
    const sa = await post('administrador@sanandres.cl', 'Feria científica');
    const mx = await post('administrador@benitojuarez.edu.mx', 'Festival de primavera');
    const elqui = await post('administrador@liceoelqui.cl', 'Aniversario del liceo');
    const wall = (await (await api('/wall', { token })).json()) as { data: NewsPost[] };
    const ids = wall.data.map((p) => p.id);
    expect(ids).toEqual(expect.arrayContaining([sa, mx]));
    expect(ids).not.toContain(elqui);
    expect((await api(`/wall/${mx}`, { token })).status).toBe(200);
    expect((await api(`/wall/${sa}`, { token })).status).toBe(200);
    expect((await api(`/wall/${elqui}`, { token })).status).toBe(404);
  });

  it('keeps a push subscription for each school of the session, and removes them together', async () => {
    const subscription = {
      endpoint: 'https://push.example.com/send/familia-dos-colegios',
      keys: { p256dh: Buffer.alloc(65, 4).toString('base64url'), auth: Buffer.alloc(16, 5).toString('base64url') },
    };
    expect((await api('/push/subscriptions', { method: 'POST', token, json: subscription })).status).toBe(201);
    const kept = await rows<{ guardian_id: number }>(
      db,
      sql`select guardian_id from push_subscriptions where endpoint = ${subscription.endpoint} order by guardian_id`,
    );
    expect(kept.map((r) => r.guardian_id)).toEqual([fam.sa.id, fam.mx.id].sort((a, b) => a - b));
    expect((await api('/push/subscriptions', { method: 'DELETE', token, json: { endpoint: subscription.endpoint } })).status).toBe(204);
    expect(await rows(db, sql`select 1 from push_subscriptions where endpoint = ${subscription.endpoint}`)).toEqual([]);
  });

  it('the other school counts the phone reachable by app while the session is in use, and not after', async () => {
    const own = session.guardian.id;
    const other = own === fam.mx.id ? fam.sa.id : fam.mx.id;
    const admin = new Client(url);
    expect((await admin.login(other === fam.mx.id ? 'administrador@benitojuarez.edu.mx' : 'administrador@sanandres.cl')).status).toBe(200);
    const statusOf = async (): Promise<string | undefined> => {
      const res = await admin.get('/api/recipients');
      expect(res.status).toBe(200);
      const { data } = (await res.json()) as { data: Recipients };
      return data.courses.flatMap((course) => course.apoderados).find((g) => g.id === other)?.device_status;
    };
    // The other row has neither a subscription nor a session of its own: only the phone's session reaches it.
    await db.execute(sql`delete from push_subscriptions where guardian_id = ${other}`);
    await db.execute(sql`delete from app_tokens where person_id = ${other}`);
    await page();
    expect(await statusOf()).toBe('blue');
    await db.execute(sql`update app_tokens set last_used_at = now() - interval '40 days', created_at = now() - interval '40 days'
      where person_id = ${own}`);
    try {
      expect(await statusOf()).not.toBe('blue');
    } finally {
      await db.execute(sql`update app_tokens set created_at = now() where person_id = ${own}`);
    }
  });

  it('a withdrawn child leaves the list and its filter, its messages stay in the combined inbox', async () => {
    const childB = fam.sa.children[1]!;
    await db.execute(sql`update students set withdrawn_at = now() - interval '1 day' where id = ${childB.id}`);
    try {
      const { data } = (await (await api('/children', { token })).json()) as { data: FamilyChild[] };
      expect(data.map((c) => c.id)).not.toContain(childB.id);
      expect((await api(`/messages?student=${childB.id}`, { token })).status).toBe(404);
      expect(idsOf(await page())).toContain(msg.b);
    } finally {
      await db.execute(sql`update students set withdrawn_at = null where id = ${childB.id}`);
    }
  });

  it('an erased child (by the school, on request) leaves the list and its filter like a withdrawn one', async () => {
    const childB = fam.sa.children[1]!;
    await db.execute(sql`update students set erased_at = now() where id = ${childB.id}`);
    try {
      const { data } = (await (await api('/children', { token })).json()) as { data: FamilyChild[] };
      expect(data.map((c) => c.id)).not.toContain(childB.id);
      expect((await api(`/messages?student=${childB.id}`, { token })).status).toBe(404);
      const notices = (await (await api('/notifications', { token })).json()) as { data: { children: { student_id: number }[] } };
      expect(notices.data.children.length).toBeGreaterThan(0);
      expect(notices.data.children.map((c) => c.student_id)).not.toContain(childB.id);
    } finally {
      await db.execute(sql`update students set erased_at = null where id = ${childB.id}`);
    }
  });

  it('a phone taken off a row takes that school out of the session; a session without a phone keeps its own row', async () => {
    const ownIsMx = session.guardian.id === fam.mx.id;
    const other = ownIsMx ? fam.sa.id : fam.mx.id;
    const ownMessages = ownIsMx ? [msg.mx] : [msg.b, msg.a];
    await db.execute(sql`update guardians set phone = '+56911112222' where id = ${other}`);
    try {
      expect(idsOf(await page())).toEqual(ownMessages);
    } finally {
      await db.execute(sql`update guardians set phone = ${fam.phone} where id = ${other}`);
    }
    expect(idsOf(await page())).toEqual([msg.mx, msg.b, msg.a]);
    await db.execute(sql`update app_tokens set phone = null where person_id = ${session.guardian.id}`);
    expect(idsOf(await page())).toEqual(ownMessages);
    const children = ((await (await api('/children', { token })).json()) as { data: FamilyChild[] }).data;
    const ownChildren = ownIsMx ? [fam.mx.child.id] : fam.sa.children.map((c) => c.id);
    expect(children.map((c) => c.id).sort()).toEqual(expect.arrayContaining(ownChildren.sort()));
    expect(children.map((c) => c.id)).not.toContain(ownIsMx ? fam.sa.children[0]!.id : fam.mx.child.id);
  });
});

describe('one school, one phone on two rows', () => {
  it('shows a message that reached both rows once, and reading it reads it for both', async () => {
    // A second San Andrés row with the phone, guardian of the same first child (registered twice).
    const [childA] = fam.sa.children as [Child];
    await db.execute(sql`update app_tokens set phone = ${fam.phone} where person_id = ${session.guardian.id}`);
    const twin = await one<{ id: number }>(
      db,
      sql`insert into guardians (institution_id, first_names, last_name_father, last_name_mother, phone, app_installed_at)
          select institution_id, first_names, last_name_father, last_name_mother, phone, now() from guardians where id = ${fam.sa.id}
          returning id`,
    );
    // The twin takes the child's other role (its guardian there, if any, makes room).
    const { role } = await one<{ role: number }>(
      db,
      sql`select role from student_guardians where student_id = ${childA.id} and guardian_id = ${fam.sa.id}`,
    );
    await db.execute(sql`delete from student_guardians where student_id = ${childA.id} and role = ${3 - role}`);
    await db.execute(sql`insert into student_guardians (student_id, guardian_id, role, relationship)
      values (${childA.id}, ${twin.id}, ${3 - role}, 'Madre')`);
    const sanAndres = new Client(url);
    expect((await sanAndres.login('administrador@sanandres.cl')).status).toBe(200);
    const both = await sendTo(sanAndres, childA.id, 'Aviso a las dos fichas');
    const deliveries = await rows<{ address: string }>(
      db,
      sql`select address from deliveries where message_id = ${both} and channel = 'app-mobile' and address in
          (${`guardian:${fam.sa.id}`}, ${`guardian:${twin.id}`})`,
    );
    expect(deliveries).toHaveLength(2);
    const listed = await page();
    expect(idsOf(listed)).toEqual([both, msg.mx, msg.b, msg.a]);
    expect(listed.meta.total).toBe(4);
    // Unread while either row has it unread; the child counts it once.
    expect(listed.data[0]!.read).toBe(false);
    const children = ((await (await api('/children', { token })).json()) as { data: FamilyChild[] }).data;
    expect(children.filter((c) => c.id === childA.id)).toHaveLength(1);
    expect((await api(`/messages/${both}/read`, { method: 'POST', token })).status).toBe(200);
    const statuses = await rows<{ status: string }>(
      db,
      sql`select status from deliveries where message_id = ${both} and channel = 'app-mobile' and address in
          (${`guardian:${fam.sa.id}`}, ${`guardian:${twin.id}`})`,
    );
    expect(statuses.map((s) => s.status)).toEqual(['read', 'read']);
    expect((await page()).data.find((m) => m.id === both)!.read).toBe(true);
  });
});

describe('a number the school corrects', () => {
  it('ends the session of whoever signed in with the old number, and their phone gets no more pushes', async () => {
    const guardian = await one<{ id: number; phone: string }>(
      db,
      sql`select g.id, g.phone from guardians g join institutions i on i.id = g.institution_id
          where i.name like 'Colegio San Andrés%' and ${uniquePhone} and g.id <> ${fam.sa.id}
            and exists (select 1 from student_guardians sg where sg.guardian_id = g.id)
          order by g.id limit 1`,
    );
    await api('/session/code', { method: 'POST', json: { phone: guardian.phone } });
    const signIn = await api('/session', { method: 'POST', json: { phone: guardian.phone, code: codeSentTo(sms, guardian.phone) } });
    expect(signIn.status).toBe(200);
    const held = ((await signIn.json()) as { data: FamilySession }).data.token;
    const subscription = {
      endpoint: 'https://push.example.com/send/numero-equivocado',
      keys: { p256dh: Buffer.alloc(65, 4).toString('base64url'), auth: Buffer.alloc(16, 5).toString('base64url') },
    };
    expect((await api('/push/subscriptions', { method: 'POST', token: held, json: subscription })).status).toBe(201);
    expect((await api('/messages', { token: held })).status).toBe(200);

    const admin = new Client(url);
    expect((await admin.login('administrador@sanandres.cl')).status).toBe(200);
    const corrected = await sendJson(admin, 'PATCH', `/api${PEOPLE_API.person('apoderado', guardian.id)}`, {
      fono_celular: '+56 9 7654 3219',
    });
    expect(corrected.status, await corrected.clone().text()).toBe(200);

    expect((await api('/messages', { token: held })).status).toBe(401);
    expect(await rows(db, sql`select 1 from push_subscriptions where guardian_id = ${guardian.id}`)).toEqual([]);
  });

  it('a number changed by any other path (what an import writes) ends the session too', async () => {
    const guardian = await one<{ id: number; phone: string; institution_id: number }>(
      db,
      sql`select g.id, g.phone, g.institution_id from guardians g join institutions i on i.id = g.institution_id
          where i.name like 'Colegio San Andrés%' and ${uniquePhone} and g.id <> ${fam.sa.id}
            and exists (select 1 from student_guardians sg where sg.guardian_id = g.id)
          order by g.id desc limit 1`,
    );
    await api('/session/code', { method: 'POST', json: { phone: guardian.phone } });
    const signIn = await api('/session', { method: 'POST', json: { phone: guardian.phone, code: codeSentTo(sms, guardian.phone) } });
    const held = ((await signIn.json()) as { data: FamilySession }).data.token;
    expect((await api('/messages', { token: held })).status).toBe(200);
    // What the import's statement does to a changed guardian (server/roster/apply.ts), the phone aside.
    await db.execute(sql`update guardians set phone = '+56976543218' where id = ${guardian.id}`);
    expect((await api('/messages', { token: held })).status).toBe(401);
  });
});
