// Web Push against the real server and its delivery engine, with a local push service that checks VAPID and
// decrypts like a browser (tests/fixtures/push-service.ts): the public key (one pair for every process on
// the database), subscribing and unsubscribing a device (checks, the same device again, a shared phone,
// another guardian's endpoint), and a teacher's app message reaching the guardian's phone without its
// text, a gone endpoint forgotten, a busy push service retried and the delivery recorded sent.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession } from '../../server/app-api/tokens';
import { vapidKeys } from '../../server/push/keys';
import type { PushSubscriptionBody, PushUnsubscribeBody } from '../../shared/push-contract';
import { composeInput } from '../fixtures/compose';
import { type FakeSubscription, type PushService, startPushService } from '../fixtures/push-service';
import { count, one, send } from './support/compose';
import { type Client, startServer, type TestServer } from './support/server';
import { eventually } from './support/wait';

let service: PushService;
let server: TestServer;
let teacher: Client;

interface Family {
  guardianId: number;
  institutionId: number;
  studentId: number;
  /** The student's first name, as the phone should show it. */
  child: string;
  token: string;
}
/** Two guardians of different students of the teacher's school, and one of another school. */
let ana: Family;
let beto: Family;
let mexican: Family;

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

const subscribe = (family: Family, subscription: Pick<FakeSubscription, 'endpoint' | 'keys'>) =>
  app('/push/subscriptions', family.token, {
    method: 'POST',
    json: { endpoint: subscription.endpoint, expirationTime: null, keys: subscription.keys } satisfies PushSubscriptionBody,
  });
const unsubscribe = (family: Family, endpoint: string) =>
  app('/push/subscriptions', family.token, { method: 'DELETE', json: { endpoint } satisfies PushUnsubscribeBody });

const subscriptionsOf = (guardianId: number) =>
  count(server.db, sql`select count(*)::int as n from push_subscriptions where guardian_id = ${guardianId}`);

async function family(email: string, skip: number[]): Promise<Family> {
  const row = await one<{ guardian: number; institution: number; student: number; first: string }>(
    server.db,
    sql`select g.id as guardian, g.institution_id as institution, s.id as student, split_part(s.first_names, ' ', 1) as first
        from guardians g join student_guardians sg on sg.guardian_id = g.id join students s on s.id = sg.student_id
        join users u on u.institution_id = g.institution_id and u.email = ${email}
        where (select count(*) from student_guardians o where o.guardian_id = g.id) = 1
          and not (g.id = any(${`{${skip.join(',')}}`}::int[]))
        order by g.id limit 1`,
  );
  const session = await openSession(server.db, { id: row.guardian, institutionId: row.institution }, new Date());
  return { guardianId: row.guardian, institutionId: row.institution, studentId: row.student, child: row.first, token: session.token };
}

async function sendToFamilyOf(student: number, over: { title: string; emergency?: boolean }): Promise<number> {
  const res = await send(
    teacher,
    composeInput({
      title: over.title,
      content: 'Texto que no debe verse en la pantalla bloqueada.',
      channels: ['app-mobile'],
      recipients: [{ kind: 'student', id: student, audience: 'apoderados' }],
      ...(over.emergency ? { emergency: true } : {}),
    }),
  );
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: { id: number } }).data.id;
}

const deliveryOf = (messageId: number, guardianId: number) =>
  one<{ status: string; error: string | null; attempts: number }>(
    server.db,
    sql`select status, error, attempts from deliveries where message_id = ${messageId} and address = ${`guardian:${guardianId}`}`,
  );

beforeAll(async () => {
  service = await startPushService();
  server = await startServer({ delivery: true, pushAgent: service.agent });
  teacher = server.client();
  expect((await teacher.login('docente@sanandres.cl')).status).toBe(200);
  ana = await family('docente@sanandres.cl', []);
  beto = await family('docente@sanandres.cl', [ana.guardianId]);
  mexican = await family('docente@benitojuarez.edu.mx', []);
}, 60_000);

afterAll(async () => {
  await server?.close();
  await service?.close();
});

describe('the VAPID key', () => {
  it('is one pair for every process on the database, even when they start at once', async () => {
    // Nobody asked yet: the server and two other processes' loaders race to create it.
    expect(await count(server.db, sql`select count(*)::int as n from server_secrets where name = 'vapid'`)).toBe(0);
    const [res, other, third] = await Promise.all([
      app('/push/key', ana.token),
      vapidKeys(server.db, null)(),
      vapidKeys(server.db, null)(),
    ]);
    expect(res.status).toBe(200);
    const key = ((await res.json()) as { data: { public_key: string } }).data.public_key;
    expect(Buffer.from(key, 'base64url')).toHaveLength(65);
    expect(other.publicKey).toBe(key);
    expect(third).toEqual(other);
    expect(Buffer.from(other.privateKey, 'base64url')).toHaveLength(32);
    expect(await count(server.db, sql`select count(*)::int as n from server_secrets where name = 'vapid'`)).toBe(1);
  });

  it('set by environment, is that pair', async () => {
    const pair = { publicKey: 'B'.repeat(87), privateKey: 'a'.repeat(43) };
    expect(await vapidKeys(server.db, pair)()).toEqual(pair);
  });

  it('asks for a guardian token', async () => {
    expect((await app('/push/key', null)).status).toBe(401);
    expect((await app('/push/subscriptions', 'not-a-token', { method: 'POST', json: {} })).status).toBe(401);
  });
});

describe('subscriptions', () => {
  it('a device subscribes once; the same endpoint again updates its keys', async () => {
    const phone = service.subscribe();
    const first = await subscribe(ana, phone);
    expect(first.status).toBe(201);
    const created = ((await first.json()) as { data: { id: number; endpoint: string } }).data;
    expect(created.endpoint).toBe(phone.endpoint);
    const renewed = service.subscribe();
    const again = await subscribe(ana, { endpoint: phone.endpoint, keys: renewed.keys });
    expect(again.status).toBe(200);
    expect(((await again.json()) as { data: { id: number } }).data.id).toBe(created.id);
    const row = await one<{ n: number; p256dh: string }>(
      server.db,
      sql`select count(*) over ()::int as n, p256dh from push_subscriptions where endpoint = ${phone.endpoint}`,
    );
    expect(row).toEqual({ n: 1, p256dh: renewed.keys.p256dh });
    expect((await unsubscribe(ana, phone.endpoint)).status).toBe(204);
  });

  it('refuses what is not a browser subscription, in Spanish', async () => {
    const good = service.subscribe();
    const errorsOf = async (body: unknown) => {
      const res = await app('/push/subscriptions', ana.token, { method: 'POST', json: body });
      expect(res.status).toBe(422);
      return ((await res.json()) as { errors: Record<string, string[]> }).errors;
    };
    expect(await errorsOf({})).toEqual({
      endpoint: ['Falta la dirección de la suscripción.'],
      'keys.p256dh': ['La clave p256dh debe ser base64url de 65 bytes.'],
      'keys.auth': ['La clave auth debe ser base64url de 16 bytes.'],
    });
    expect(await errorsOf({ ...good, endpoint: good.endpoint.replace('https:', 'http:') })).toEqual({
      endpoint: ['La dirección de la suscripción debe ser una URL https.'],
    });
    expect(await errorsOf({ ...good, endpoint: 'https://user:pw@push.example/x' })).toEqual({
      endpoint: ['La dirección de la suscripción debe ser una URL https.'],
    });
    expect(await errorsOf({ ...good, endpoint: `https://push.example/${'x'.repeat(2048)}` })).toEqual({
      endpoint: ['La dirección de la suscripción no puede superar los 2048 caracteres.'],
    });
    const short = Buffer.from(good.keys.p256dh, 'base64url').subarray(1).toString('base64url');
    expect(await errorsOf({ endpoint: good.endpoint, keys: { p256dh: short, auth: 'no base64!' } })).toEqual({
      'keys.p256dh': ['La clave p256dh debe ser base64url de 65 bytes.'],
      'keys.auth': ['La clave auth debe ser base64url de 16 bytes.'],
    });
    expect(await count(server.db, sql`select count(*)::int as n from push_subscriptions where endpoint = ${good.endpoint}`)).toBe(0);
  });

  it('a shared phone moves to the guardian who subscribed it last; the other cannot remove it', async () => {
    const phone = service.subscribe();
    expect((await subscribe(ana, phone)).status).toBe(201);
    expect((await subscribe(beto, phone)).status).toBe(200);
    expect(await subscriptionsOf(ana.guardianId)).toBe(0);
    expect(await subscriptionsOf(beto.guardianId)).toBe(1);
    expect((await unsubscribe(ana, phone.endpoint)).status).toBe(404);
    expect(await subscriptionsOf(beto.guardianId)).toBe(1);
    expect((await unsubscribe(beto, phone.endpoint)).status).toBe(204);
    expect(await subscriptionsOf(beto.guardianId)).toBe(0);
  });

  it("another school's guardian neither sees nor removes it: 404", async () => {
    const phone = service.subscribe();
    expect((await subscribe(ana, phone)).status).toBe(201);
    expect((await unsubscribe(mexican, phone.endpoint)).status).toBe(404);
    expect((await unsubscribe(beto, phone.endpoint)).status).toBe(404);
    expect(await subscriptionsOf(ana.guardianId)).toBe(1);
    expect((await unsubscribe(ana, phone.endpoint)).status).toBe(204);
    expect((await unsubscribe(ana, phone.endpoint)).status).toBe(404);
    expect((await app('/push/subscriptions', ana.token, { method: 'DELETE', json: {} })).status).toBe(422);
  });
});

describe("a teacher's app message", () => {
  it('reaches each subscribed phone with the title, school and child, never the text; a gone one is forgotten', async () => {
    const phone = service.subscribe();
    const old = service.subscribe();
    expect((await subscribe(ana, phone)).status).toBe(201);
    expect((await subscribe(ana, old)).status).toBe(201);
    service.answer(old.endpoint, 410);
    const id = await sendToFamilyOf(ana.studentId, { title: 'Reunión del jueves' });
    const push = await eventually(
      'push recibido',
      () => service.received.find((p) => p.endpoint === phone.endpoint),
      (p) => p !== undefined,
    );
    expect(service.refused).toEqual([]);
    expect(JSON.parse(push!.text)).toEqual({
      message_id: id,
      title: 'Reunión del jueves',
      school: 'Colegio San Andrés de Ñuñoa',
      child: ana.child,
      url: `/familia/mensajes/${id}`,
      emergency: false,
    });
    expect(push!.text).not.toContain('pantalla bloqueada');
    expect(push).toMatchObject({ urgency: 'normal', topic: `m${id}`, ttl: '259200' });
    const { public_key } = ((await (await app('/push/key', ana.token)).json()) as { data: { public_key: string } }).data;
    expect(push!.vapidKey).toBe(public_key);
    await eventually(
      'envío registrado',
      () => deliveryOf(id, ana.guardianId),
      (d) => d.status === 'sent',
    );
    await eventually(
      'suscripción vencida quitada',
      () => subscriptionsOf(ana.guardianId),
      (n) => n === 1,
    );
    expect(await count(server.db, sql`select count(*)::int as n from push_subscriptions where endpoint = ${old.endpoint}`)).toBe(0);
  });

  it('of an emergency goes with high urgency', async () => {
    const id = await sendToFamilyOf(ana.studentId, { title: 'Suspensión de clases', emergency: true });
    const push = await eventually(
      'push de emergencia',
      () => service.received.find((p) => JSON.parse(p.text).message_id === id),
      (p) => p !== undefined,
    );
    expect(push!.urgency).toBe('high');
  });

  it('to a guardian with no subscription is sent all the same: it waits in the app inbox', async () => {
    expect(await subscriptionsOf(beto.guardianId)).toBe(0);
    const id = await sendToFamilyOf(beto.studentId, { title: 'Sin teléfono suscrito' });
    expect(
      await eventually(
        'envío sin push',
        () => deliveryOf(id, beto.guardianId),
        (d) => d.status !== 'queued',
      ),
    ).toMatchObject({
      status: 'sent',
      error: null,
    });
  });

  it('a busy push service is tried again, and once the retries run out the delivery is sent, not failed', async () => {
    const phone = service.subscribe();
    expect((await subscribe(beto, phone)).status).toBe(201);
    service.answer(phone.endpoint, 503);
    const id = await sendToFamilyOf(beto.studentId, { title: 'Servicio ocupado' });
    // The tests' engine: 2 retries, 1 s then 2 s apart (tests/api/support/server.ts).
    const settled = await eventually(
      'envío tras reintentos',
      () => deliveryOf(id, beto.guardianId),
      (d) => d.status !== 'queued',
      30_000,
    );
    expect(settled).toMatchObject({ status: 'sent', error: null });
    expect(service.requests.get(phone.endpoint)).toBe(3);
    expect(await subscriptionsOf(beto.guardianId)).toBe(1);
  }, 40_000);
});
