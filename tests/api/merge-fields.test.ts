// Merge fields on the real server: {estudiante} {curso} {apoderado} are filled per recipient at
// delivery (the simulator holds what each phone got), a guardian of two picked students gets one delivery
// naming both, staff get the fields as written, and send and the estimate count an SMS with each field at
// its longest value among the recipients (refusing, naming the field, what would not fit one segment).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecipientPick } from '../../shared/compose-contract';
import { fillFields, joinList, smsUnitsOf } from '../../shared/merge-fields';
import { smsText } from '../../shared/sms-text';
import { openSession } from '../../server/app-api/tokens';
import { composeInput } from '../fixtures/compose';
import { count, one, rows, send } from './support/compose';
import { startServer, type Client, type TestServer } from './support/server';
import { eventually } from './support/wait';

const ADMIN = 'administrador@sanandres.cl';

describe('merge fields filled per recipient', () => {
  let server: TestServer;
  let admin: Client;
  let institutionId: number;
  let signature: string | null;
  beforeAll(async () => {
    server = await startServer({ delivery: true });
    admin = server.client();
    expect((await admin.login(ADMIN)).status).toBe(200);
    institutionId = Number((await one<{ id: number }>(server.db, sql`select institution_id as id from users where email = ${ADMIN}`)).id);
    signature =
      (
        await rows<{ signature: string }>(
          server.db,
          sql`select signature from institution_signatures where institution_id = ${institutionId} and is_active`,
        )
      )[0]?.signature ?? null;
  });
  afterAll(async () => {
    await server?.close();
  });

  async function sendOk(body: object): Promise<number> {
    const res = await send(admin, body);
    expect(res.status, await res.clone().text()).toBe(201);
    return ((await res.json()) as { data: { id: number } }).data.id;
  }

  /** What the simulator received for each phone delivery of the message: recipient id → body. */
  async function phoneBodies(messageId: number, channel: 'sms' | 'whatsapp'): Promise<Map<number, string>> {
    await eventually(
      'entregas por teléfono terminadas',
      () =>
        count(
          server.db,
          sql`select count(*)::int as n from deliveries where message_id = ${messageId} and channel = ${channel} and status in ('queued', 'sent')`,
        ),
      (n) => n === 0,
    );
    const sim = await rows<{ recipient_id: number; body: string }>(
      server.db,
      sql`select d.recipient_id, s.body from deliveries d join provider_sim_messages s on s.reference = 'hermes-' || d.id || '-' || d.generation
          where d.message_id = ${messageId} and d.channel = ${channel}`,
    );
    return new Map(sim.map((s) => [Number(s.recipient_id), s.body]));
  }

  it('a course’s guardians each get their own student’s name and course, and their own name', async () => {
    const course = await one<{ id: number; name: string }>(
      server.db,
      sql`select c.id, c.name from courses c where c.institution_id = ${institutionId} and c.name like '%°%'
          and (select count(*) from students s where s.course_id = c.id) >= 10 order by c.id limit 1`,
    );
    const content = 'Apoderado/a {apoderado}: {estudiante} ({curso}) tiene reunión el jueves.';
    const id = await sendOk(
      composeInput({
        title: 'Reunión de {curso}',
        content,
        channels: ['sms', 'whatsapp'],
        recipients: [{ kind: 'course', id: course.id, audience: 'apoderados' }],
      }),
    );
    // Each guardian's children in this course, by first name, independently of the server's values.
    const expected = await rows<{ recipient_id: number; guardian: string; names: string[] }>(
      server.db,
      sql`select r.id as recipient_id, g.first_names || ' ' || g.last_name_father || ' ' || g.last_name_mother as guardian,
            array_agg(split_part(s.first_names, ' ', 1) order by s.first_names, s.id) as names
          from message_recipients r join guardians g on g.id = r.recipient_ref_id
          join student_guardians sg on sg.guardian_id = g.id join students s on s.id = sg.student_id and s.course_id = ${course.id}
          where r.message_id = ${id} group by r.id, g.id`,
    );
    expect(expected.length).toBeGreaterThan(5);
    const sms = await phoneBodies(id, 'sms');
    const whatsapp = await phoneBodies(id, 'whatsapp');
    expect(sms.size).toBeGreaterThan(5);
    let checked = 0;
    for (const e of expected) {
      const values = { estudiante: joinList(e.names), curso: course.name, apoderado: e.guardian };
      const filled = fillFields(content, values);
      if (sms.has(Number(e.recipient_id))) {
        expect(sms.get(Number(e.recipient_id))).toBe(smsText(filled, signature).text);
        checked++;
      }
      // WhatsApp carries the text as written: accents and "°" included.
      if (whatsapp.has(Number(e.recipient_id)))
        expect(whatsapp.get(Number(e.recipient_id))).toBe(`Reunión de ${course.name}\n${filled}${signature ? `\n\n${signature}` : ''}`);
    }
    expect(checked).toBe(sms.size);
    // Nothing reached a phone with a placeholder left in it.
    for (const body of [...sms.values(), ...whatsapp.values()]) expect(body).not.toMatch(/\{(estudiante|curso|apoderado)\}/);
    // The sender's copy (the message as written) keeps the placeholders.
    const written = await one<{ content: string }>(server.db, sql`select content from messages where id = ${id}`);
    expect(written.content).toBe(content);
  });

  it('a guardian of two picked students gets one delivery naming both, with both courses', async () => {
    const family = await one<{ guardian_id: number; student_ids: number[]; names: string[]; courses: string[] }>(
      server.db,
      sql`select g.id as guardian_id, array_agg(s.id order by s.first_names, s.id) as student_ids,
            array_agg(split_part(s.first_names, ' ', 1) order by s.first_names, s.id) as names,
            array_agg(c.name order by s.first_names, s.id) as courses
          from guardians g join student_guardians sg on sg.guardian_id = g.id join students s on s.id = sg.student_id
          join courses c on c.id = s.course_id
          where g.institution_id = ${institutionId} and g.phone is not null
          group by g.id having count(*) = 2 and count(distinct s.course_id) = 2 order by g.id limit 1`,
    );
    const staffMember = await one<{ id: number }>(
      server.db,
      sql`select id from staff where institution_id = ${institutionId} and phone is not null order by id limit 1`,
    );
    const picks: RecipientPick[] = [
      ...family.student_ids.map((sid): RecipientPick => ({ kind: 'student', id: Number(sid), audience: 'apoderados' })),
      { kind: 'staff', id: Number(staffMember.id) },
    ];
    // The guardian has the app: its inbox shows the message filled too.
    const { token } = await openSession(server.db, { id: Number(family.guardian_id), institutionId }, new Date());
    const content = 'Les recordamos que {estudiante} ({curso}) debe traer su libreta.';
    const id = await sendOk(
      composeInput({ title: 'Libreta de {estudiante}', content, channels: ['sms', 'app-mobile'], recipients: picks }),
    );
    const recipient = await one<{ id: number; student_names: string }>(
      server.db,
      sql`select id, student_names from message_recipients where message_id = ${id} and recipient_kind = 'apoderado' and recipient_ref_id = ${family.guardian_id}`,
    );
    const deliveries = await count(
      server.db,
      sql`select count(*)::int as n from deliveries where recipient_id = ${recipient.id} and channel = 'sms'`,
    );
    expect(deliveries).toBe(1);
    const bodies = await phoneBodies(id, 'sms');
    const both = joinList(family.names);
    expect(both).toMatch(/ [ye] /);
    const body = bodies.get(Number(recipient.id))!;
    const filled = fillFields(content, { estudiante: both, curso: joinList(family.courses) });
    expect(body).toBe(smsText(filled, signature).text);

    const app = (path: string) =>
      fetch(`${server.url}/api/app${path}`, { headers: { Accept: 'application/json', Authorization: `Bearer ${token}` } });
    await eventually(
      'entrega por la app',
      () =>
        count(
          server.db,
          sql`select count(*)::int as n from deliveries where recipient_id = ${recipient.id} and channel = 'app-mobile' and status = 'sent'`,
        ),
      (n) => n === 1,
    );
    const list = (await (await app('/messages')).json()) as { data: { id: number; title: string; snippet: string }[] };
    const listed = list.data.find((m) => m.id === id)!;
    expect(listed.title).toBe(`Libreta de ${both}`);
    expect(listed.snippet).toBe(filled.slice(0, listed.snippet.length));
    expect(listed.snippet.length).toBeGreaterThan(30);
    const opened = (await (await app(`/messages/${id}`)).json()) as { data: { title: string; content: string } };
    expect(opened.data).toMatchObject({ title: `Libreta de ${both}`, content: filled });
    // The staff member reads the fields as written (a colleague reads the message its author wrote).
    const staffRecipient = await one<{ id: number }>(
      server.db,
      sql`select id from message_recipients where message_id = ${id} and recipient_kind = 'funcionario'`,
    );
    expect(bodies.get(Number(staffRecipient.id))).toBe(smsText(content, signature).text);
  });

  it('the app shows the guardian the fields filled for them across the conversation; staff keep them as written', async () => {
    const family = await one<{ guardian_id: number; name: string; student_ids: number[]; names: string[]; courses: string[] }>(
      server.db,
      sql`select g.id as guardian_id, g.first_names || ' ' || g.last_name_father || ' ' || g.last_name_mother as name,
            array_agg(s.id order by s.first_names, s.id) as student_ids,
            array_agg(split_part(s.first_names, ' ', 1) order by s.first_names, s.id) as names,
            array_agg(c.name order by s.first_names, s.id) as courses
          from guardians g join student_guardians sg on sg.guardian_id = g.id join students s on s.id = sg.student_id
          join courses c on c.id = s.course_id
          where g.institution_id = ${institutionId}
          group by g.id having count(*) = 2 order by g.id desc limit 1`,
    );
    const guardianId = Number(family.guardian_id);
    const { token } = await openSession(server.db, { id: guardianId, institutionId }, new Date());
    const app = (path: string, init: RequestInit = {}) =>
      fetch(`${server.url}/api/app${path}`, {
        ...init,
        headers: { Accept: 'application/json', 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      });
    type AppDetail = { title: string; content: string; thread: { id: number; title: string; content: string; mine: boolean }[] };
    const appDetail = async (id: number) => {
      const res = await app(`/messages/${id}`);
      expect(res.status).toBe(200);
      return ((await res.json()) as { data: AppDetail }).data;
    };
    const handedOver = (messageId: number) =>
      eventually(
        'entrega por la app',
        () =>
          count(
            server.db,
            sql`select count(*)::int as n from deliveries where message_id = ${messageId} and channel = 'app-mobile' and status = 'sent'`,
          ),
        (n) => n >= 1,
      );
    const both = joinList(family.names);
    const values = { estudiante: both, curso: joinList([...new Set(family.courses)]), apoderado: family.name };

    const title = 'Entrevista por {estudiante}';
    const content = 'Estimado(a) {apoderado}: le citamos por {estudiante} ({curso}).';
    const original = await sendOk(
      composeInput({
        title,
        content,
        channels: ['app-mobile'],
        recipients: family.student_ids.map((sid): RecipientPick => ({ kind: 'student', id: Number(sid), audience: 'apoderados' })),
        allow_replies: true,
      }),
    );
    await handedOver(original);
    // The guardian answers from the app: the answer's title is the one they read.
    const asked = await app(`/messages/${original}/reply`, { method: 'POST', body: JSON.stringify({ content: '¿A qué hora?' }) });
    expect(asked.status).toBe(201);
    const question = ((await asked.json()) as { data: { id: number } }).data.id;
    expect((await one<{ title: string }>(server.db, sql`select title from messages where id = ${question}`)).title).toBe(
      `Re: ${fillFields(title, values)}`,
    );

    // The school answers with a text using the fields too.
    const answerContent = '{apoderado}, le esperamos a las 9:00 con {estudiante}.';
    const answer = await sendOk({
      ...composeInput({
        title: 'Re: Entrevista',
        content: answerContent,
        channels: ['app-mobile'],
        recipients: [{ kind: 'guardian', id: guardianId }],
      }),
      reply_to_id: question,
    });
    await handedOver(answer);

    const opened = await appDetail(answer);
    expect(opened.content).toBe(fillFields(answerContent, values));
    expect(opened.thread.map((m) => [m.id, m.mine, m.title, m.content])).toEqual([
      [original, false, fillFields(title, values), fillFields(content, values)],
      [question, true, `Re: ${fillFields(title, values)}`, '¿A qué hora?'],
    ]);
    const first = await appDetail(original);
    expect(first.thread.map((m) => [m.id, m.content])).toEqual([
      [question, '¿A qué hora?'],
      [answer, fillFields(answerContent, values)],
    ]);
    for (const m of [opened, ...opened.thread, first, ...first.thread])
      expect(`${m.title} ${m.content}`).not.toMatch(/\{(estudiante|curso|apoderado)\}/);

    // The author's own copies keep the fields as written.
    for (const [id, written] of [
      [original, content],
      [answer, answerContent],
    ] as const) {
      const res = await admin.get(`/api/messages/${id}`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { data: { content: string } }).data.content).toBe(written);
    }
  });

  describe('the SMS is counted with each field at its longest value', () => {
    /** A course's students, the longest first name's SMS units, and the SMS limit. */
    async function studentsOfCourse() {
      const course = await one<{ id: number }>(
        server.db,
        sql`select c.id from courses c where c.institution_id = ${institutionId}
            and (select count(*) from students s where s.course_id = c.id) >= 10 order by c.id limit 1`,
      );
      const names = await rows<{ name: string }>(
        server.db,
        sql`select split_part(first_names, ' ', 1) as name from students where course_id = ${course.id}`,
      );
      const longest = Math.max(...names.map((n) => smsUnitsOf(n.name)));
      const shortest = Math.min(...names.map((n) => smsUnitsOf(n.name)));
      const pick: RecipientPick = { kind: 'course', id: course.id, audience: 'estudiantes' };
      return { pick, longest, shortest, limit: smsText('', signature).limit };
    }

    const estimate = (body: object) => admin.post('/api/messages/estimate', body);

    it('fits exactly at the limit with the longest value, and one more character is refused naming the field', async () => {
      const { pick, longest, shortest, limit } = await studentsOfCourse();
      expect(longest).toBeGreaterThan(shortest);
      const fits = `${'a'.repeat(limit - longest)}{estudiante}`;
      const ok = await estimate(composeInput({ content: fits, channels: ['sms'], recipients: [pick] }));
      expect(ok.status, await ok.clone().text()).toBe(200);

      const over = `a${fits}`;
      for (const res of [
        await estimate(composeInput({ content: over, channels: ['sms'], recipients: [pick] })),
        await send(admin, composeInput({ content: over, channels: ['sms'], recipients: [pick] })),
      ]) {
        expect(res.status).toBe(422);
        const body = (await res.json()) as { errors: Record<string, string[]> };
        expect(body.errors.content![0]).toMatch(
          new RegExp(
            `^El SMS supera los ${limit} caracteres permitidos para el destinatario con el valor más largo de \\{estudiante\\} \\(«.+», ${longest} caracteres\\): tendría ${limit + 1}\\.`,
          ),
        );
      }
      // A refused send wrote nothing.
      expect(await count(server.db, sql`select count(*)::int as n from messages where content = ${over}`)).toBe(0);
    });

    it('does not refuse a text the placeholder itself would make too long when the real values fit', async () => {
      const { pick, longest, limit } = await studentsOfCourse();
      // "{estudiante}" counts 14 units (braces are escaped characters in GSM-7), more than any first name here.
      expect(smsUnitsOf('{estudiante}')).toBeGreaterThan(longest);
      const content = `${'a'.repeat(limit - longest)}{estudiante}`;
      expect(smsText(content, signature).ok).toBe(false);
      const res = await estimate(composeInput({ content, channels: ['sms'], recipients: [pick] }));
      expect(res.status, await res.clone().text()).toBe(200);
    });

    it('leaves e-mail-only messages alone whatever their length', async () => {
      const { pick } = await studentsOfCourse();
      const res = await estimate(composeInput({ content: `${'a'.repeat(300)} {estudiante}`, channels: ['e-mail'], recipients: [pick] }));
      expect(res.status).toBe(200);
    });
  });
});
