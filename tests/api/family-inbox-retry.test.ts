// The families' inbox while the engine retries a push (decision 0225): with the real delivery engine and a
// local push service that answers 503, the app delivery stays queued between attempts, and the message is
// in the guardian's inbox already: listed, counted unread for the child, opened (received) and read (read).
// The engine's retries that were still due then neither push again nor move the read delivery back, and an
// attempt recorded after the read (one under way when the guardian read it) keeps it read.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FamilyChild, FamilyInboxPage, FamilyMessageDetail } from '../../shared/family-contract';
import type { PushSubscriptionBody } from '../../shared/push-contract';
import { openSession } from '../../server/app-api/tokens';
import { QUEUES } from '../../server/delivery/engine';
import { recordOutcomes } from '../../server/reception/status';
import { composeInput } from '../fixtures/compose';
import { type PushService, startPushService } from '../fixtures/push-service';
import { count, one, send } from './support/compose';
import { type Client, startServer, type TestServer } from './support/server';
import { eventually } from './support/wait';

let service: PushService;
let server: TestServer;
let teacher: Client;
const fam = { guardianId: 0, studentId: 0, token: '', endpoint: '' };

function app(pathname: string, init: { method?: string; json?: unknown } = {}): Promise<Response> {
  const headers = new Headers({ Accept: 'application/json', Authorization: `Bearer ${fam.token}` });
  if (init.json !== undefined) headers.set('Content-Type', 'application/json');
  return fetch(`${server.url}/api/app${pathname}`, {
    method: init.method ?? 'GET',
    headers,
    ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
  });
}

const deliveryOf = (messageId: number) =>
  one<{ id: number; generation: number; status: string; attempts: number; read_at: string | null; recipient: string }>(
    server.db,
    sql`select d.id, d.generation, d.status, d.attempts, d.read_at::text, r.status as recipient
        from deliveries d join message_recipients r on r.id = d.recipient_id
        where d.message_id = ${messageId} and d.address = ${`guardian:${fam.guardianId}`}`,
  );

/** Deliver jobs of the message's round still to run (waiting for their retry, or running). */
const pendingJobs = (deliveryId: number) =>
  count(
    server.db,
    sql`select count(*)::int as n from pgboss.job where name = ${QUEUES.deliver} and (data->>'id')::int = ${deliveryId}
        and state in ('created', 'retry', 'active')`,
  );

async function sendToFamily(title: string): Promise<number> {
  const res = await send(
    teacher,
    composeInput({
      title,
      content: 'Mañana no hay clases.',
      channels: ['app-mobile'],
      recipients: [{ kind: 'student', id: fam.studentId, audience: 'apoderados' }],
    }),
  );
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: { id: number } }).data.id;
}

beforeAll(async () => {
  service = await startPushService();
  // Three retries, 2 s then 4 s then 8 s apart: long enough to act while the delivery waits for one.
  server = await startServer({ delivery: true, pushAgent: service.agent, config: { deliveryRetries: 3, deliveryRetryDelayS: 2 } });
  teacher = server.client();
  expect((await teacher.login('docente@sanandres.cl')).status).toBe(200);
  const row = await one<{ guardian: number; institution: number; student: number }>(
    server.db,
    sql`select g.id as guardian, g.institution_id as institution, s.id as student
        from guardians g join student_guardians sg on sg.guardian_id = g.id join students s on s.id = sg.student_id
        join users u on u.institution_id = g.institution_id and u.email = 'docente@sanandres.cl'
        where (select count(*) from student_guardians o where o.guardian_id = g.id) = 1 and s.withdrawn_at is null
        order by g.id limit 1`,
  );
  const session = await openSession(server.db, { id: row.guardian, institutionId: row.institution }, new Date());
  Object.assign(fam, { guardianId: row.guardian, studentId: row.student, token: session.token });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await service?.close();
});

describe('a message whose push is being retried', () => {
  it('is in the inbox, opens as received and reads as read; the retries still due change nothing', async () => {
    const phone = service.subscribe();
    const body: PushSubscriptionBody = { endpoint: phone.endpoint, expirationTime: null, keys: phone.keys };
    expect((await app('/push/subscriptions', { method: 'POST', json: body })).status).toBe(201);
    fam.endpoint = phone.endpoint;
    service.answer(phone.endpoint, 503);

    const id = await sendToFamily('Push ocupado');
    const waiting = await eventually(
      'push reintentado',
      () => deliveryOf(id),
      (d) => d.attempts >= 1,
      10_000,
      20,
    );
    expect(waiting.status).toBe('queued');

    const inbox = (await (await app('/messages')).json()) as FamilyInboxPage;
    expect(inbox.data.find((m) => m.id === id)).toMatchObject({ title: 'Push ocupado', read: false });
    const children = ((await (await app('/children')).json()) as { data: FamilyChild[] }).data;
    expect(children.find((c) => c.id === fam.studentId)?.unread).toBeGreaterThanOrEqual(1);
    expect((await deliveryOf(id)).status).toBe('received');

    const opened = await app(`/messages/${id}`);
    expect(opened.status).toBe(200);
    expect(((await opened.json()) as { data: FamilyMessageDetail }).data).toMatchObject({ id, read: false });
    expect((await app(`/messages/${id}/read`, { method: 'POST' })).status).toBe(200);
    const read = await deliveryOf(id);
    expect(read).toMatchObject({ status: 'read', recipient: 'read' });
    const pushes = service.requests.get(phone.endpoint) ?? 0;

    // The retries still due run (and skip the delivery, no longer queued) before the test looks again.
    await eventually(
      'reintentos pendientes',
      () => pendingJobs(read.id),
      (n) => n === 0,
      30_000,
      200,
    );
    expect(await deliveryOf(id)).toMatchObject({ status: 'read', read_at: read.read_at, recipient: 'read' });
    // At most the attempt already under way when it was read pushed again.
    expect(service.requests.get(phone.endpoint)).toBeLessThanOrEqual(pushes + 1);
    expect((await (await app('/messages')).json()) as FamilyInboxPage).toMatchObject({
      data: expect.arrayContaining([expect.objectContaining({ id, read: true })]) as unknown,
    });
  }, 60_000);

  it('read, stays read when an attempt under way at the time records its outcome afterwards', async () => {
    service.answer(fam.endpoint, 201);
    const id = await sendToFamily('Leído antes del reintento');
    const sent = await eventually(
      'entregado',
      () => deliveryOf(id),
      (d) => d.status !== 'queued',
      10_000,
    );
    // The delivery as the engine had it when an attempt started: queued after a first attempt.
    await server.db.execute(sql`update deliveries set status = 'queued', attempts = 1, sent_at = null where id = ${sent.id}`);
    expect((await app(`/messages/${id}/read`, { method: 'POST' })).status).toBe(200);
    const read = await deliveryOf(id);
    expect(read.status).toBe('read');
    for (const status of ['queued', 'sent'] as const) {
      await recordOutcomes(server.db, [
        { id: read.id, generation: read.generation, status, error: status === 'queued' ? 'push_unavailable' : null, provider_ref: null },
      ]);
      expect(await deliveryOf(id), status).toMatchObject({ status: 'read', read_at: read.read_at });
    }
  });

  it('never attempted, is not in the inbox yet', async () => {
    const id = await sendToFamily('Aún sin intento');
    // Once the engine is done with it, put back as a delivery not attempted yet.
    const d = await eventually(
      'entregado',
      () => deliveryOf(id),
      (x) => x.status !== 'queued',
      10_000,
    );
    await server.db.execute(sql`update deliveries set status = 'queued', attempts = 0 where id = ${d.id}`);
    expect((await app(`/messages/${id}`)).status).toBe(404);
  });
});
