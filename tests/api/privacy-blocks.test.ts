// Objection (server/privacy-requests/blocks.ts): a blocked guardian gets nothing on any channel — send writes
// every delivery born failed `person_blocked` and free, the estimate counts them out, reception says since
// when — and lifting the block lets the next message through. Both are audited; a teacher is refused and
// another school's person not found.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Estimate } from '../../shared/compose-contract';
import type { PersonBlock } from '../../shared/privacy-requests-contract';
import type { ReceptionPage } from '../../shared/reception-contract';
import { composeInput } from '../fixtures/compose';
import { one, rows, send } from './support/compose';
import { startServer, type Client, type TestServer } from './support/server';

let server: TestServer;
let admin: Client;
let teacher: Client;
const ids = { school: 0, admin: 0, guardian: 0, other: 0 };
const CHANNELS = ['sms', 'whatsapp', 'e-mail', 'app-mobile'] as const;
const message = () =>
  composeInput({
    channels: [...CHANNELS],
    content: 'Reunión de apoderados el jueves.',
    recipients: [
      { kind: 'guardian', id: ids.guardian },
      { kind: 'guardian', id: ids.other },
    ],
  });

async function sentId(): Promise<number> {
  const res = await send(admin, message());
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: { id: number } }).data.id;
}

const put = (client: Client, url: string, body: unknown) =>
  client.fetch(url, { method: 'PUT', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
const del = (client: Client, url: string) => client.fetch(url, { method: 'DELETE' });

const deliveriesOf = (messageId: number) =>
  rows<{ channel: string; status: string; error: string | null; segments: number }>(
    server.db,
    sql`select d.channel, d.status, d.error, d.segments from deliveries d join message_recipients r on r.id = d.recipient_id
        where d.message_id = ${messageId} and r.recipient_kind = 'apoderado' and r.recipient_ref_id = ${ids.guardian} order by d.channel`,
  );

beforeAll(async () => {
  server = await startServer();
  admin = server.client();
  expect((await admin.login('administrador@sanandres.cl')).status).toBe(200);
  teacher = server.client();
  expect((await teacher.login('docente@sanandres.cl')).status).toBe(200);
  const school = await one<{ id: number; user_id: number }>(
    server.db,
    sql`select institution_id as id, id as user_id from users where email = 'administrador@sanandres.cl'`,
  );
  ids.school = school.id;
  ids.admin = school.user_id;
  ids.guardian = (
    await one<{ id: number }>(
      server.db,
      sql`select id from guardians where institution_id = ${school.id} and phone is not null and email is not null and sms_ok order by id limit 1`,
    )
  ).id;
  ids.other = (
    await one<{ id: number }>(
      server.db,
      sql`select id from guardians where institution_id = ${school.id} and email is not null and id <> ${ids.guardian} order by id limit 1`,
    )
  ).id;
  for (const channel of CHANNELS) {
    await server.db.execute(sql`insert into institution_channels (institution_id, channel, enabled) values (${school.id}, ${channel}, true)
      on conflict (institution_id, channel) do update set enabled = true`);
    await server.db.execute(sql`insert into user_channel_permissions (user_id, channel, enabled) values (${school.user_id}, ${channel}, true)
      on conflict (user_id, channel) do update set enabled = true`);
  }
  await server.db.execute(sql`update institution_quotas set sms_monthly_limit = 100000, sms_reserve_percent = 0,
    whatsapp_balance = null, email_balance = null where institution_id = ${school.id}`);
});
afterAll(() => server.close());

describe('who may', () => {
  it('a teacher is refused, another school’s person is not found, who asked is a code', async () => {
    const foreign = await one<{ id: number }>(
      server.db,
      sql`select id from guardians where institution_id <> ${ids.school} order by id limit 1`,
    );
    expect((await put(teacher, `/api/privacy/people/apoderado/${ids.guardian}/block`, { solicitado_por: 'persona' })).status).toBe(403);
    expect((await del(teacher, `/api/privacy/people/apoderado/${ids.guardian}/block`)).status).toBe(403);
    expect((await put(admin, `/api/privacy/people/apoderado/${foreign.id}/block`, { solicitado_por: 'persona' })).status).toBe(404);
    expect((await del(admin, `/api/privacy/people/apoderado/${foreign.id}/block`)).status).toBe(404);
    expect((await put(admin, `/api/privacy/people/apoderado/${ids.guardian}/block`, { solicitado_por: 'Juan, su tío' })).status).toBe(422);
  });
});

describe('a block', () => {
  it('stops every channel from then on, free, and reception says since when', async () => {
    const res = await put(admin, `/api/privacy/people/apoderado/${ids.guardian}/block`, { solicitado_por: 'apoderado' });
    expect(res.status).toBe(200);
    const block = ((await res.json()) as { data: PersonBlock }).data;
    expect(block).toMatchObject({ tipo: 'apoderado', id: ids.guardian, solicitado_por: 'apoderado' });
    const audit = await rows<{ actor_user_id: number; detail: Record<string, unknown> }>(
      server.db,
      sql`select actor_user_id, detail from audit_events where action = 'person.blocked' and subject_id = ${ids.guardian}`,
    );
    expect(audit).toEqual([{ actor_user_id: ids.admin, detail: { solicitado_por: 'apoderado', entregas_detenidas: 0 } }]);
    // The same request again is no new entry; a change of who asked is one, with the new requester.
    const again = async (solicitado_por: string) =>
      expect((await put(admin, `/api/privacy/people/apoderado/${ids.guardian}/block`, { solicitado_por })).status).toBe(200);
    await again('apoderado');
    await again('persona');
    await again('persona');
    await again('apoderado');
    const changes = await rows<{ detail: Record<string, unknown> }>(
      server.db,
      sql`select detail from audit_events where action = 'person.blocked' and subject_id = ${ids.guardian} order by id`,
    );
    expect(changes.map((c) => c.detail)).toEqual([
      { solicitado_por: 'apoderado', entregas_detenidas: 0 },
      { solicitado_por: 'persona', entregas_detenidas: 0, solicitado_antes_por: 'apoderado' },
      { solicitado_por: 'apoderado', entregas_detenidas: 0, solicitado_antes_por: 'persona' },
    ]);
    expect((await rows(server.db, sql`select 1 from person_blocks where person_id = ${ids.guardian}`)).length).toBe(1);

    const estimate = await admin.post('/api/messages/estimate', message());
    expect(estimate.status).toBe(200);
    const counted = ((await estimate.json()) as { data: Estimate }).data;
    expect(counted.unreachable).toBe(1);
    for (const c of counted.channels) expect(c).toMatchObject({ opted_out: 0, blocked: 1 });
    expect(counted.channels.find((c) => c.code === 'e-mail')).toMatchObject({ deliveries: 1, missing_address: 0 });

    const id = await sentId();
    const deliveries = await deliveriesOf(id);
    expect(deliveries).toHaveLength(CHANNELS.length);
    for (const d of deliveries) expect(d).toMatchObject({ status: 'failed', error: 'person_blocked', segments: 0 });

    const reception = await admin.get(`/api/messages/${id}/reception`);
    const page = (await reception.json()) as ReceptionPage;
    const row = page.data.find(
      (r) => r.kind === 'apoderado' && r.name.length > 0 && r.channels.every((c) => c.error === 'person_blocked'),
    )!;
    for (const c of row.channels) expect(c).toMatchObject({ error: 'person_blocked', blocked_at: block.bloqueado_el });
  });

  it('lifted, lets the next message through, audited once', async () => {
    expect((await del(admin, `/api/privacy/people/apoderado/${ids.guardian}/block`)).status).toBe(204);
    expect((await del(admin, `/api/privacy/people/apoderado/${ids.guardian}/block`)).status).toBe(204);
    const lifted = await rows(
      server.db,
      sql`select 1 from audit_events where action = 'person.unblocked' and subject_id = ${ids.guardian}`,
    );
    expect(lifted).toHaveLength(1);
    const id = await sentId();
    expect((await deliveriesOf(id)).filter((d) => d.error === 'person_blocked')).toEqual([]);
  });

  it('fails what was still queued for them, with its SMS given back', async () => {
    const id = await sentId();
    expect((await deliveriesOf(id)).some((d) => d.status === 'queued')).toBe(true);
    expect((await put(admin, `/api/privacy/people/apoderado/${ids.guardian}/block`, { solicitado_por: 'persona' })).status).toBe(200);
    for (const d of await deliveriesOf(id)) {
      if (d.error === 'person_blocked') expect(d).toMatchObject({ status: 'failed', segments: 0 });
    }
    expect((await deliveriesOf(id)).some((d) => d.status === 'queued')).toBe(false);
  });
});
