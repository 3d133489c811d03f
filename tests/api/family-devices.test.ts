// The families' devices against the real server, its delivery engine and a local push service
// (tests/fixtures/push-service.ts): blue means reachable through the app (a live push subscription, or the
// app used in the last 30 days), so a guardian whose last subscription the push service called gone stops
// being blue; «No es mi teléfono» ends every session of the phone in every school; «Avisos» turns a
// child's pushes off, except for emergencies, and the message still reaches the inbox.
import { sql } from 'drizzle-orm';
import { pushMutedSql } from '../../server/push/mutes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession } from '../../server/app-api/tokens';
import { deviceStatusSql } from '../../server/recipients/device-status';
import type { Recipients } from '../../shared/compose-contract';
import type { FamilyNotifications, PhoneSessionsEnded } from '../../shared/family-devices-contract';
import type { PushSubscriptionBody } from '../../shared/push-contract';
import { composeInput } from '../fixtures/compose';
import { type FakeSubscription, type PushService, startPushService } from '../fixtures/push-service';
import { count, one, rows, send } from './support/compose';
import { type Client, startServer, type TestServer } from './support/server';
import { eventually } from './support/wait';

let service: PushService;
let server: TestServer;
let admin: Client;

function app(pathname: string, token: string | null, init: { method?: string; json?: unknown } = {}): Promise<Response> {
  const headers = new Headers({ Accept: 'application/json' });
  if (token) headers.set('Authorization', `Bearer ${token}`);
  if (init.json !== undefined) headers.set('Content-Type', 'application/json');
  return fetch(`${server.url}/api/app${pathname}`, {
    method: init.method ?? 'GET',
    headers,
    ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
  });
}

const subscribe = (token: string, phone: Pick<FakeSubscription, 'endpoint' | 'keys'>) =>
  app('/push/subscriptions', token, {
    method: 'POST',
    json: { endpoint: phone.endpoint, expirationTime: null, keys: phone.keys } satisfies PushSubscriptionBody,
  });

/** A San Andrés guardian with a textable phone and exactly `children` children, none of those in `skip`, with no app at all. */
async function bareGuardian(children: number, skip: number[]): Promise<{ id: number; institutionId: number; phone: string }> {
  const g = await one<{ id: number; institution_id: number; phone: string }>(
    server.db,
    sql`select g.id, g.institution_id, g.phone from guardians g join institutions i on i.id = g.institution_id
        where i.name = 'Colegio San Andrés de Ñuñoa' and g.sms_ok and g.sms_phone = g.phone and g.device_misses = 0
          and (select count(*) from student_guardians sg join students s on s.id = sg.student_id
               where sg.guardian_id = g.id and s.withdrawn_at is null) = ${children}
          and (select count(*) from student_guardians sg where sg.guardian_id = g.id) = ${children}
          and not (g.id = any(${`{${[0, ...skip].join(',')}}`}::int[]))
          and not exists (select 1 from guardians o where o.phone = g.phone and o.id <> g.id)
        order by g.id limit 1`,
  );
  await server.db.execute(sql`delete from app_tokens where person_kind = 'apoderado' and person_id = ${g.id}`);
  await server.db.execute(sql`delete from push_subscriptions where guardian_id = ${g.id}`);
  return { id: Number(g.id), institutionId: Number(g.institution_id), phone: g.phone };
}

/** The guardian's device status on the compose picker's directory (GET /api/recipients). */
async function statusOf(guardianId: number): Promise<string | undefined> {
  const { data } = (await (await admin.get('/api/recipients')).json()) as { data: Recipients };
  return data.courses.flatMap((c) => c.apoderados).find((g) => g.id === guardianId)?.device_status;
}

/** The device status the dashboards aggregate (SQL), beside the directory's. */
const connectivityStatusOf = async (guardianId: number) =>
  (await one<{ status: string }>(server.db, sql`select ${deviceStatusSql('g')} as status from guardians g where g.id = ${guardianId}`))
    .status;

const tokenStatus = (token: string) => app('/messages', token).then((r) => r.status);

beforeAll(async () => {
  service = await startPushService();
  server = await startServer({ delivery: true, pushAgent: service.agent });
  admin = server.client();
  expect((await admin.login('administrador@sanandres.cl')).status).toBe(200);
}, 60_000);

afterAll(async () => {
  await server?.close();
  await service?.close();
});

describe('blue: reachable through the app', () => {
  it('is a live subscription or the app used in the last 30 days, not a sign-in once', async () => {
    const g = await bareGuardian(1, []);
    await server.db.execute(sql`update guardians set app_installed_at = now() - interval '1 year' where id = ${g.id}`);
    // Signed in once, a year ago, and never since: green (by SMS), whatever app_installed_at says.
    expect(await statusOf(g.id)).toBe('green');
    const old = await openSession(server.db, { id: g.id, institutionId: g.institutionId }, new Date(Date.now() - 40 * 86_400_000));
    await server.db.execute(sql`update app_tokens set last_used_at = now() - interval '31 days', expires_at = now() + interval '50 days'
      where person_id = ${g.id}`);
    expect(await statusOf(g.id)).toBe('green');
    await server.db.execute(sql`update app_tokens set last_used_at = now() - interval '29 days' where person_id = ${g.id}`);
    expect(await statusOf(g.id)).toBe('blue');
    expect(await connectivityStatusOf(g.id)).toBe('blue');
    // Signed out: the session no longer counts.
    expect((await app('/session', old.token, { method: 'DELETE' })).status).toBe(204);
    expect(await statusOf(g.id)).toBe('green');
    expect(await connectivityStatusOf(g.id)).toBe('green');
  });

  it('ends when the push service calls the last subscription gone and the app was not used lately', async () => {
    const g = await bareGuardian(1, []);
    const session = await openSession(server.db, { id: g.id, institutionId: g.institutionId }, new Date());
    const phone = service.subscribe();
    expect((await subscribe(session.token, phone)).status).toBe(201);
    // The app last used 45 days ago; the subscription alone keeps the guardian blue.
    await server.db.execute(sql`update app_tokens set last_used_at = now() - interval '45 days' where person_id = ${g.id}`);
    expect(await statusOf(g.id)).toBe('blue');
    const student = await one<{ id: number }>(server.db, sql`select student_id as id from student_guardians where guardian_id = ${g.id}`);
    // The student's other guardians without the app, so this guardian is the message's only app recipient.
    await server.db.execute(sql`delete from app_tokens where person_kind = 'apoderado' and person_id in
      (select guardian_id from student_guardians where student_id = ${student.id} and guardian_id <> ${g.id})`);
    await server.db.execute(sql`delete from push_subscriptions where guardian_id in
      (select guardian_id from student_guardians where student_id = ${student.id} and guardian_id <> ${g.id})`);
    const message = (await sendApp(student.id, 'Aviso con teléfono desinstalado')).id;
    service.answer(phone.endpoint, 410);
    await eventually(
      'envío registrado',
      () => one<{ status: string }>(server.db, sql`select status from deliveries where message_id = ${message} and channel = 'app-mobile'`),
      (d) => d.status === 'sent',
    );
    await eventually(
      'suscripción quitada',
      () => count(server.db, sql`select count(*)::int as n from push_subscriptions where guardian_id = ${g.id}`),
      (n) => n === 0,
    );
    expect(await statusOf(g.id)).toBe('green');
    expect(await connectivityStatusOf(g.id)).toBe('green');
    // The next app message finds no app to reach them on: compose refuses it, nobody would get it.
    const next = await send(admin, appMessage(student.id, 'Aviso siguiente'));
    expect(next.status).toBe(422);
    expect(((await next.json()) as { errors: Record<string, string[]> }).errors.recipients).toEqual([
      'Ningún destinatario puede recibir este mensaje por los canales elegidos.',
    ]);
  });
});

const appMessage = (studentId: number, title: string, emergency = false) =>
  composeInput({
    title,
    content: 'Texto del aviso.',
    channels: ['app-mobile'],
    recipients: [{ kind: 'student', id: studentId, audience: 'apoderados' }],
    ...(emergency ? { emergency: true } : {}),
  });

async function sendApp(studentId: number, title: string, emergency = false): Promise<{ id: number }> {
  const res = await send(admin, appMessage(studentId, title, emergency));
  expect(res.status).toBe(201);
  return { id: ((await res.json()) as { data: { id: number } }).data.id };
}

describe('DELETE /api/app/sessions («No es mi teléfono»)', () => {
  it('ends every session of the phone in every school and removes their subscriptions, and nobody else’s', async () => {
    const here = await bareGuardian(1, []);
    const other = await bareGuardian(1, [here.id]);
    // The same phone on a record of the Mexican school (a family in both).
    const there = await one<{ id: number; institution_id: number }>(
      server.db,
      sql`select g.id, g.institution_id from guardians g join institutions i on i.id = g.institution_id
          where i.country = 'MX' order by g.id limit 1`,
    );
    await server.db.execute(sql`update guardians set phone = ${here.phone} where id = ${there.id}`);
    await server.db.execute(sql`delete from app_tokens where person_kind = 'apoderado' and person_id = ${there.id}`);
    const first = await openSession(server.db, { id: here.id, institutionId: here.institutionId }, new Date());
    const second = await openSession(server.db, { id: here.id, institutionId: here.institutionId }, new Date());
    const mexican = await openSession(server.db, { id: Number(there.id), institutionId: Number(there.institution_id) }, new Date());
    const bystander = await openSession(server.db, { id: other.id, institutionId: other.institutionId }, new Date());
    expect((await subscribe(second.token, service.subscribe())).status).toBe(201);
    expect((await subscribe(mexican.token, service.subscribe())).status).toBe(201);
    expect((await subscribe(bystander.token, service.subscribe())).status).toBe(201);
    expect(await statusOf(here.id)).toBe('blue');

    expect((await app('/sessions', null, { method: 'DELETE' })).status).toBe(401);
    const res = await app('/sessions', first.token, { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: PhoneSessionsEnded }).data).toEqual({ sessions: 3, subscriptions: 2 });

    for (const token of [first.token, second.token, mexican.token]) expect(await tokenStatus(token)).toBe(401);
    expect(await tokenStatus(bystander.token)).toBe(200);
    expect(
      await count(
        server.db,
        sql`select count(*)::int as n from push_subscriptions where guardian_id = any(${`{${here.id},${there.id}}`}::int[])`,
      ),
    ).toBe(0);
    expect(await count(server.db, sql`select count(*)::int as n from push_subscriptions where guardian_id = ${other.id}`)).toBe(1);
    expect(await statusOf(here.id)).toBe('green');
    expect((await app('/sessions', first.token, { method: 'DELETE' })).status).toBe(401);
  });
});

describe('GET and PUT /api/app/notifications («Avisos»)', () => {
  let parent: { id: number; institutionId: number };
  let token: string;
  let kids: { id: number }[];

  beforeAll(async () => {
    parent = await bareGuardian(2, []);
    token = (await openSession(server.db, { id: parent.id, institutionId: parent.institutionId }, new Date())).token;
    kids = await rows<{ id: number }>(
      server.db,
      sql`select s.id from student_guardians sg join students s on s.id = sg.student_id
          where sg.guardian_id = ${parent.id} order by s.first_names, s.last_name_father, s.id`,
    );
  });

  const settings = async () => ((await (await app('/notifications', token)).json()) as { data: FamilyNotifications }).data;

  it('lists each child with school and course, pushes on by default; refuses the signed-out', async () => {
    expect((await app('/notifications', null)).status).toBe(401);
    expect((await app('/notifications', null, { method: 'PUT', json: { children: [] } })).status).toBe(401);
    const { children } = await settings();
    expect(children.map((c) => c.student_id)).toEqual(kids.map((k) => Number(k.id)));
    for (const child of children) {
      expect(child).toMatchObject({ school: 'Colegio San Andrés de Ñuñoa', push: true });
      expect(child.course).toMatch(/\S/);
      expect(child.name).toMatch(/\S+ \S+/);
    }
  });

  it('turns one child off and back on; refuses what is malformed or not theirs with 422 in Spanish, changing nothing', async () => {
    const [a, b] = kids.map((k) => Number(k.id));
    const off = await app('/notifications', token, { method: 'PUT', json: { children: [{ student_id: a, push: false }] } });
    expect(off.status).toBe(200);
    expect(((await off.json()) as { data: FamilyNotifications }).data.children.map((c) => c.push)).toEqual([false, true]);
    expect((await settings()).children.map((c) => c.push)).toEqual([false, true]);
    const foreign = await one<{ id: number }>(
      server.db,
      sql`select s.id from students s where not exists (select 1 from student_guardians sg where sg.student_id = s.id and sg.guardian_id = ${parent.id})
          order by s.id limit 1`,
    );
    const refused = await app('/notifications', token, {
      method: 'PUT',
      json: {
        children: [
          { student_id: b, push: false },
          { student_id: Number(foreign.id), push: false },
        ],
      },
    });
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { errors: Record<string, string[]> }).errors.children![0]).toMatch(/no está a tu cargo/);
    for (const body of [
      {},
      { children: [] },
      { children: [{ student_id: a, push: 'no' }] },
      {
        children: [
          { student_id: a, push: true },
          { student_id: a, push: false },
        ],
      },
    ])
      expect((await app('/notifications', token, { method: 'PUT', json: body })).status).toBe(422);
    expect((await settings()).children.map((c) => c.push)).toEqual([false, true]);
    expect((await app('/notifications', token, { method: 'PUT', json: { children: [{ student_id: a, push: true }] } })).status).toBe(200);
    expect((await settings()).children.map((c) => c.push)).toEqual([true, true]);
  });

  it('mutes a message only when every child it names is muted; one naming nobody of theirs still rings', async () => {
    const [a, b] = kids.map((k) => Number(k.id));
    expect((await app('/notifications', token, { method: 'PUT', json: { children: [{ student_id: a, push: false }] } })).status).toBe(200);
    try {
      const nameOf = async (id: number) =>
        (
          await one<{ name: string }>(
            server.db,
            sql`select split_part(first_names, ' ', 1) || ' ' || last_name_father as name from students where id = ${id}`,
          )
        ).name;
      const muted = async (names: string | null) =>
        (
          await one<{ muted: boolean }>(
            server.db,
            sql`select ${pushMutedSql('r')} as muted from (select ${parent.id}::int as recipient_ref_id, ${names}::text as student_names) r`,
          )
        ).muted;
      expect(await muted(await nameOf(a!))).toBe(true);
      expect(await muted(await nameOf(b!))).toBe(false);
      expect(await muted(`${await nameOf(a!)}, ${await nameOf(b!)}`)).toBe(false);
      expect(await muted(null)).toBe(false);
      expect(await muted('Nadie Nombrado')).toBe(false);
    } finally {
      await app('/notifications', token, { method: 'PUT', json: { children: [{ student_id: a, push: true }] } });
    }
  });

  it('lists a child of two of the session’s rows once', async () => {
    const [a] = kids.map((k) => Number(k.id));
    const twin = await one<{ id: number }>(
      server.db,
      sql`insert into guardians (institution_id, first_names, last_name_father, last_name_mother, phone)
          select institution_id, first_names, last_name_father, last_name_mother, phone from guardians where id = ${parent.id}
          returning id`,
    );
    const { role } = await one<{ role: number }>(
      server.db,
      sql`select role from student_guardians where student_id = ${a} and guardian_id = ${parent.id}`,
    );
    await server.db.execute(sql`delete from student_guardians where student_id = ${a} and role = ${3 - role}`);
    await server.db.execute(
      sql`insert into student_guardians (student_id, guardian_id, role, relationship) values (${a}, ${twin.id}, ${3 - role}, 'Madre')`,
    );
    await server.db.execute(
      sql`update app_tokens set phone = (select phone from guardians where id = ${parent.id}) where person_id = ${parent.id}`,
    );
    try {
      expect((await settings()).children.filter((c) => c.student_id === a)).toHaveLength(1);
    } finally {
      await server.db.execute(sql`delete from student_guardians where guardian_id = ${twin.id}`);
      await server.db.execute(sql`delete from guardians where id = ${twin.id}`);
    }
  });

  it('skips the push of a muted child’s message, which still reaches the inbox; an emergency rings all the same', async () => {
    const [a, b] = kids.map((k) => Number(k.id));
    const phone = service.subscribe();
    expect((await subscribe(token, phone)).status).toBe(201);
    expect((await app('/notifications', token, { method: 'PUT', json: { children: [{ student_id: a, push: false }] } })).status).toBe(200);
    const pushesTo = () =>
      service.received.filter((p) => p.endpoint === phone.endpoint).map((p) => JSON.parse(p.text).message_id as number);

    const quiet = (await sendApp(a!, 'Aviso del hijo silenciado')).id;
    const loud = (await sendApp(b!, 'Aviso del otro hijo')).id;
    const emergency = (await sendApp(a!, 'Emergencia del hijo silenciado', true)).id;
    await eventually('pushes', pushesTo, (ids) => ids.includes(loud) && ids.includes(emergency));
    await eventually(
      'envío sin push registrado',
      () =>
        one<{ status: string }>(
          server.db,
          sql`select status from deliveries where message_id = ${quiet} and address = ${`guardian:${parent.id}`}`,
        ),
      (d) => d.status === 'sent',
    );
    expect(pushesTo()).not.toContain(quiet);
    const inbox = (await (await app('/messages', token)).json()) as { data: { id: number }[] };
    expect(inbox.data.map((m) => m.id)).toEqual(expect.arrayContaining([quiet, loud, emergency]));
  });
});
