// Who a message reaches, against the real server: a student's family picked by the student's name (the
// `student` pick with a guardian audience, what the picker's family row makes) reaches the student's
// titular and suplente, is refused like any foreign id, and is counted by the estimate; the estimate and
// the send result count the people no chosen channel can reach (no address on any of them), so the
// confirmation and the toast can say who will not get it.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Audience, Estimate, RecipientPick, SendResult } from '../../shared/compose-contract';
import type { ChannelCode } from '../../shared/codes';
import { FOREIGN_RECIPIENTS } from '../../server/recipients/expand';
import { COMPOSE_MESSAGES } from '../../server/compose/validate';
import { composeInput } from '../fixtures/compose';
import { count, one, rows, send } from './support/compose';
import { startServer, type Client, type TestServer } from './support/server';
import { appInUse } from './support/app-use';
import { appReachableSql } from '../../server/recipients/app-reach';

let server: TestServer;
let docente: Client;

/** A San Andrés student with a titular and a suplente, one of Liceo Elqui, and a colleague with a login (the app reaches her). */
const ids = { student: 0, titular: 0, suplente: 0, elquiStudent: 0, colleague: 0 };

beforeAll(async () => {
  server = await startServer();
  docente = server.client();
  expect((await docente.login('docente@sanandres.cl')).status).toBe(200);
  const family = await one<{ student: number; titular: number; suplente: number }>(
    server.db,
    sql`select s.id as student,
          (select guardian_id from student_guardians where student_id = s.id and role = 1) as titular,
          (select guardian_id from student_guardians where student_id = s.id and role = 2) as suplente
        from students s join users u on u.institution_id = s.institution_id and u.email = 'docente@sanandres.cl'
        where (select count(*) from student_guardians sg where sg.student_id = s.id) = 2
          and exists (select 1 from student_guardians sg where sg.student_id = s.id and sg.role = 2)
        order by s.id limit 1`,
  );
  Object.assign(ids, family);
  ids.elquiStudent = (
    await one<{ id: number }>(
      server.db,
      sql`select s.id from students s join users u on u.institution_id = s.institution_id and u.email = 'docente@liceoelqui.cl' order by s.id limit 1`,
    )
  ).id;
  ids.colleague = (
    await one<{ id: number }>(
      server.db,
      sql`select st.id from staff st join users u on u.id = st.user_id where u.email = 'directora@sanandres.cl'`,
    )
  ).id;
});
afterAll(async () => {
  await server?.close();
});

const familyOf = (id: number, audience: Audience = 'apoderados'): RecipientPick => ({ kind: 'student', id, audience });

async function estimateOf(recipients: RecipientPick[], channels: ChannelCode[] = ['e-mail']): Promise<Estimate> {
  const res = await docente.post('/api/messages/estimate', composeInput({ channels, content: 'Hola', recipients }));
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Estimate }).data;
}

async function sent(recipients: RecipientPick[], channels: ChannelCode[] = ['e-mail'], key = randomUUID()): Promise<SendResult> {
  const res = await send(docente, composeInput({ channels, recipients }), key);
  expect([200, 201]).toContain(res.status);
  return ((await res.json()) as { data: SendResult }).data;
}

describe("a student's family", () => {
  it('reaches the titular and the suplente, once each, and the estimate counts them', async () => {
    expect((await estimateOf([familyOf(ids.student)])).recipients).toBe(2);
    expect((await estimateOf([familyOf(ids.student, 'titulares')])).recipients).toBe(1);
    expect((await estimateOf([familyOf(ids.student, 'suplentes')])).recipients).toBe(1);
    // Picked twice (family and titular alone) they are still two people.
    expect((await estimateOf([familyOf(ids.student), familyOf(ids.student, 'titulares')])).recipients).toBe(2);

    const result = await sent([familyOf(ids.student)]);
    const reached = await rows<{ kind: string; ref: number }>(
      server.db,
      sql`select recipient_kind as kind, recipient_ref_id as ref from message_recipients where message_id = ${result.id} order by recipient_ref_id`,
    );
    expect(reached).toEqual([ids.titular, ids.suplente].sort((a, b) => a - b).map((ref) => ({ kind: 'apoderado', ref })));
    expect(result.recipients).toBe(2);
  });

  it("refuses another school's student like any foreign id: estimate, send, schedule and drafts", async () => {
    const body = composeInput({ recipients: [familyOf(ids.elquiStudent)] });
    const refused = async (res: Response) => {
      expect(res.status).toBe(422);
      return ((await res.json()) as { errors: Record<string, string[]> }).errors.recipients;
    };
    const before = await count(server.db, sql`select count(*)::int as n from messages`);
    expect(await refused(await docente.post('/api/messages/estimate', body))).toEqual([FOREIGN_RECIPIENTS]);
    expect(await refused(await send(docente, body))).toEqual([FOREIGN_RECIPIENTS]);
    const at = new Date(Date.now() + 86_400_000).toISOString();
    expect(await refused(await send(docente, { ...body, scheduled_at: at }, randomUUID(), '/api/messages/schedule'))).toEqual([
      FOREIGN_RECIPIENTS,
    ]);
    expect(await refused(await docente.post('/api/messages/drafts', body))).toEqual([FOREIGN_RECIPIENTS]);
    expect(await count(server.db, sql`select count(*)::int as n from messages`)).toBe(before);
  });
});

describe('people no chosen channel reaches', () => {
  it('are counted by the estimate and by the send result (and its replay)', async () => {
    // Students have no app yet: by app alone a student is reached by nothing.
    const student: RecipientPick = { kind: 'student', id: ids.student, audience: 'estudiantes' };
    const byApp = await estimateOf([student], ['app-mobile']);
    expect(byApp).toMatchObject({ recipients: 1, unreachable: 1 });
    expect(byApp.channels).toEqual([{ code: 'app-mobile', deliveries: 0, missing_address: 1, opted_out: 0, blocked: 0 }]);
    const hasEmail = await count(server.db, sql`select count(email)::int as n from students where id = ${ids.student}`);
    // By app and e-mail, the student's e-mail reaches them when they have one.
    expect((await estimateOf([student], ['app-mobile', 'e-mail'])).unreachable).toBe(1 - hasEmail);

    // Sent with a colleague the app does reach (alone, nobody would get it: refused below).
    const key = randomUUID();
    const colleague: RecipientPick = { kind: 'staff', id: ids.colleague };
    const result = await sent([student, colleague], ['app-mobile'], key);
    expect(result).toMatchObject({ recipients: 2, deliveries: 2, unreachable: 1 });
    expect(await sent([student, colleague], ['app-mobile'], key)).toEqual(result);
  });

  it('are everyone: send, schedule and a draft sent by id are refused with a Spanish 422, and nothing is written', async () => {
    // The student by app alone: nobody to deliver to (the estimate says so, and compose does not offer Enviar).
    const body = composeInput({ channels: ['app-mobile'], recipients: [{ kind: 'student', id: ids.student, audience: 'estudiantes' }] });
    expect(await estimateOf(body.recipients, ['app-mobile'])).toMatchObject({ recipients: 1, unreachable: 1 });
    const refused = async (res: Response) => {
      const answer = (await res.json()) as { errors?: Record<string, string[]> };
      expect(res.status, JSON.stringify(answer)).toBe(422);
      return answer.errors?.recipients;
    };
    const nobody = [COMPOSE_MESSAGES.nobodyReachable];
    expect(nobody).toEqual(['Ningún destinatario puede recibir este mensaje por los canales elegidos.']);
    const messagesNow = () => count(server.db, sql`select count(*)::int as n from messages`);
    const deliveriesNow = () => count(server.db, sql`select count(*)::int as n from deliveries`);
    const before = { messages: await messagesNow(), deliveries: await deliveriesNow() };
    expect(await refused(await send(docente, body))).toEqual(nobody);
    const at = new Date(Date.now() + 86_400_000).toISOString();
    expect(await refused(await send(docente, { ...body, scheduled_at: at }, randomUUID(), '/api/messages/schedule'))).toEqual(nobody);
    // A draft may say it (nothing goes out); sending it by id may not, and it stays a draft.
    const draft = await docente.post('/api/messages/drafts', body);
    expect(draft.status).toBe(201);
    const draftId = ((await draft.json()) as { data: { id: number } }).data.id;
    expect(await refused(await send(docente, { ...body, draft_id: draftId }))).toEqual(nobody);
    expect(
      await refused(await send(docente, { ...body, draft_id: draftId, scheduled_at: at }, randomUUID(), '/api/messages/schedule')),
    ).toEqual(nobody);
    expect(await one<{ kind: string }>(server.db, sql`select kind from messages where id = ${draftId}`)).toEqual({ kind: 'draft' });
    expect(await count(server.db, sql`select count(*)::int as n from message_recipients where message_id = ${draftId}`)).toBe(0);
    expect({ messages: await messagesNow(), deliveries: await deliveriesNow() }).toEqual({
      messages: before.messages + 1,
      deliveries: before.deliveries,
    });
    // The same people on a channel that reaches one of them: sent.
    const email = await count(server.db, sql`select count(email)::int as n from students where id = ${ids.student}`);
    const withColleague = composeInput({
      channels: ['app-mobile'],
      recipients: [...body.recipients, { kind: 'staff', id: ids.colleague }],
    });
    expect((await send(docente, withColleague)).status).toBe(201);
    expect((await send(docente, { ...body, channels: ['e-mail'] })).status).toBe(email === 1 ? 201 : 422);
  });

  it('are the people with no address on any chosen channel, not the deliveries missing one', async () => {
    const course = await one<{ id: number }>(
      server.db,
      sql`select c.id from courses c join users u on u.institution_id = c.institution_id and u.email = 'docente@sanandres.cl'
          where exists (select 1 from students s where s.course_id = c.id) order by c.id limit 1`,
    );
    const pick: RecipientPick = { kind: 'course', id: course.id, audience: 'apoderados' };
    const guardians = sql`select distinct g.* from guardians g join student_guardians sg on sg.guardian_id = g.id
      join students s on s.id = sg.student_id where s.course_id = ${course.id}`;
    // Two of them lose their phone (this test's own copy of the database): one has the app, one nothing.
    const [withApp, without] = await rows<{ id: number }>(server.db, sql`select id from (${guardians}) g order by id limit 2`);
    await server.db.execute(sql`update guardians set phone = null, app_installed_at = now() where id = ${withApp!.id}`);
    await appInUse(server.db, { guardianIds: [withApp!.id] });
    await server.db.execute(sql`update guardians set phone = null, app_installed_at = null where id = ${without!.id}`);
    await server.db.execute(sql`delete from app_tokens where person_kind = 'apoderado' and person_id = ${without!.id}`);
    const noPhone = await count(server.db, sql`select count(*)::int as n from (${guardians}) g where g.phone is null`);
    const neither = await count(
      server.db,
      sql`select count(*)::int as n from (${guardians}) g where g.phone is null and not ${appReachableSql('g')}`,
    );
    expect(noPhone).toBeGreaterThanOrEqual(2);
    expect(neither).toBeGreaterThanOrEqual(1);
    expect(neither).toBeLessThan(noPhone);
    const sms = await estimateOf([pick], ['sms']);
    expect(sms.unreachable).toBe(noPhone);
    expect(sms.unreachable).toBe(sms.channels[0]!.missing_address);
    const both = await estimateOf([pick], ['app-mobile', 'sms']);
    expect(both.unreachable).toBe(neither);
    expect(both.recipients).toBe(sms.recipients);
  });
});
