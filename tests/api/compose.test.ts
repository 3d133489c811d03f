// Compose (compose-contract.ts) against the real server: validation with the SPEC's texts, channel
// permissions, SMS rules, attachment limits at send, recipient expansion and de-duplication, deliveries per
// channel, quota refusal with nothing written, idempotency (sequential and concurrent), drafts, schedule +
// cancel giving the quota back, folders of author and staff recipients, and tenant isolation.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Audience, ComposeDraft, Estimate, RecipientPick, SendResult } from '../../shared/compose-contract';
import type { Quota } from '../../shared/quota-contract';
import type { MessageDetail } from '../../shared/messages-contract';
import { composeInput } from '../fixtures/compose';
import { count, MB, one, pdfBytes, rows, send, uploadOk } from './support/compose';
import { list } from './support/mail';
import { startServer, type Client, type TestServer } from './support/server';

let server: TestServer;
let admin: Client;
let docente: Client;
let juarez: Client;

/** Ids looked up once in the seeded data. */
const ids = {
  sanAndres: 0,
  course: { id: 0, name: '' },
  elquiCourse: 0,
  family: { guardian: 0, students: [] as number[] },
  docenteStaff: 0,
  adminName: '',
};

beforeAll(async () => {
  server = await startServer();
  admin = server.client();
  docente = server.client();
  juarez = server.client();
  expect((await admin.login('administrador@sanandres.cl')).status).toBe(200);
  expect((await docente.login('docente@sanandres.cl')).status).toBe(200);
  expect((await juarez.login('administrador@benitojuarez.edu.mx')).status).toBe(200);
  const db = server.db;
  const sa = await one<{ id: number; name: string }>(
    db,
    sql`select institution_id as id, name from users where email = 'administrador@sanandres.cl'`,
  );
  ids.sanAndres = sa.id;
  ids.adminName = sa.name;
  ids.course = await one(
    db,
    sql`select c.id, c.name from courses c where c.institution_id = ${sa.id}
        and (select count(*) from students s where s.course_id = c.id) >= 10 order by c.id limit 1`,
  );
  ids.elquiCourse = (
    await one<{ id: number }>(
      db,
      sql`select c.id from courses c join users u on u.institution_id = c.institution_id
          where u.email = 'administrador@liceoelqui.cl' limit 1`,
    )
  ).id;
  const family = await one<{ guardian: number; students: number[] }>(
    db,
    sql`select sg.guardian_id as guardian, array_agg(sg.student_id order by sg.student_id) as students
        from student_guardians sg join guardians g on g.id = sg.guardian_id
        where g.institution_id = ${sa.id} group by sg.guardian_id having count(*) >= 2 order by sg.guardian_id limit 1`,
  );
  ids.family = { guardian: family.guardian, students: family.students.slice(0, 2) };
  ids.docenteStaff = (
    await one<{ id: number }>(db, sql`select s.id from staff s join users u on u.id = s.user_id where u.email = 'docente@sanandres.cl'`)
  ).id;
});
afterAll(async () => {
  await server?.close();
});

const coursePick = (audience: Audience = 'apoderados'): RecipientPick => ({
  kind: 'course',
  id: ids.course.id,
  audience,
});

async function errorsOf(res: Response, status = 422): Promise<Record<string, string[]>> {
  expect(res.status).toBe(status);
  const body = (await res.json()) as { code: string; errors: Record<string, string[]> };
  expect(body.code).toBe(status === 422 ? 'validation.failed' : 'compose.quota');
  return body.errors;
}

async function created(res: Response): Promise<SendResult> {
  if (res.status !== 201) throw new Error(`${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: SendResult }).data;
}

const messageCount = () => count(server.db, sql`select count(*)::int as n from messages`);
const smsUsed = (month: string) =>
  count(
    server.db,
    sql`select coalesce(sum(segments), 0)::int as n from sms_usage where institution_id = ${ids.sanAndres} and month = ${month}`,
  );
const quota = async (client: Client) => ((await (await client.get('/api/quota')).json()) as { data: Quota }).data;

describe('validation', () => {
  it('answers 422 with the SPEC texts for an empty send', async () => {
    const errors = await errorsOf(await send(admin, composeInput({ title: '  ', content: '', channels: [], recipients: [] })));
    expect(errors.title).toEqual(['Debes elegir un Título']);
    expect(errors.recipients).toEqual(['Debes elegir uno o más Destinatarios']);
    expect(errors.content).toEqual(['Debes escribir el contenido del mensaje.']);
    expect(errors.channels).toEqual(['Debes elegir al menos un canal.']);
  });

  it('requires an Idempotency-Key of 8 to 100 characters', async () => {
    const body = composeInput({ recipients: [coursePick()] });
    for (const key of [null, 'short', 'x'.repeat(101)]) {
      const errors = await errorsOf(await send(admin, body, key));
      expect(errors.idempotency_key).toEqual(['Falta el encabezado Idempotency-Key (entre 8 y 100 caracteres).']);
    }
  });

  it('refuses malformed picks, channels and attachment ids', async () => {
    const errors = await errorsOf(
      await send(admin, { ...composeInput(), channels: ['fax'], recipients: [{ kind: 'course', id: 1 }], attachment_ids: ['x'] }),
    );
    expect(Object.keys(errors).sort()).toEqual(['attachments', 'channels', 'recipients']);
  });

  it('refuses channels the school has not contracted or the user may not use', async () => {
    const docenteWhatsapp = await errorsOf(await send(docente, composeInput({ channels: ['whatsapp'], recipients: [coursePick()] })));
    expect(docenteWhatsapp.channels).toEqual(['No tienes permiso para enviar por el canal whatsapp.']);
    const juarezCourse = await one<{ id: number }>(
      server.db,
      sql`select c.id from courses c join users u on u.institution_id = c.institution_id
          where u.email = 'administrador@benitojuarez.edu.mx' limit 1`,
    );
    const juarezSms = await errorsOf(
      await send(
        juarez,
        composeInput({ channels: ['sms'], recipients: [{ kind: 'course', id: juarezCourse.id, audience: 'apoderados' }] }),
      ),
    );
    expect(juarezSms.channels).toEqual(['No tienes permiso para enviar por el canal sms.']);
  });

  it('refuses SMS text over the limit (154 with the signature) or with emoji', async () => {
    const long = await errorsOf(
      await send(admin, composeInput({ channels: ['sms'], content: 'a'.repeat(155), recipients: [coursePick()] })),
    );
    expect(long.content).toEqual(['El SMS supera los 154 caracteres permitidos.']);
    const emoji = await errorsOf(await send(admin, composeInput({ channels: ['sms'], content: 'Hola 🎉', recipients: [coursePick()] })));
    expect(emoji.content).toEqual(['El SMS contiene caracteres que no se pueden enviar: 🎉']);
    // Accents are transliterated, so 154 accented letters fit.
    const estimate = await admin.post(
      '/api/messages/estimate',
      composeInput({ channels: ['sms'], content: 'á'.repeat(154), recipients: [coursePick()] }),
    );
    expect(estimate.status).toBe(200);
  });

  it('allows one attachment with SMS and at most 22 MB in total', async () => {
    const a = await uploadOk(admin, 'a.txt', 'text/plain', new TextEncoder().encode('a'));
    const b = await uploadOk(admin, 'b.txt', 'text/plain', new TextEncoder().encode('b'));
    const sms = await errorsOf(
      await send(admin, composeInput({ channels: ['sms'], content: 'Hola', recipients: [coursePick()], attachment_ids: [a.id, b.id] })),
    );
    expect(sms.attachments).toEqual(['Un SMS admite solo un adjunto.']);

    const big1 = await uploadOk(admin, 'uno.pdf', 'application/pdf', pdfBytes(12 * MB));
    const big2 = await uploadOk(admin, 'dos.pdf', 'application/pdf', pdfBytes(11 * MB));
    const before = await messageCount();
    const total = await errorsOf(await send(admin, composeInput({ recipients: [coursePick()], attachment_ids: [big1.id, big2.id] })));
    expect(total.attachments).toEqual(['Los adjuntos pueden sumar como máximo 22 MB.']);
    expect(await messageCount()).toBe(before);

    // Someone else's upload is not usable.
    const other = await errorsOf(await send(docente, composeInput({ recipients: [coursePick()], attachment_ids: [a.id] })));
    expect(other.attachments).toEqual(['Algunos adjuntos no existen o ya pertenecen a otro mensaje.']);
  });

  it('refuses a schedule in the past or more than a year ahead', async () => {
    const body = (at: Date) => composeInput({ recipients: [coursePick()], scheduled_at: at.toISOString() });
    const past = await errorsOf(await send(admin, body(new Date(Date.now() - 1000)), randomUUID(), '/api/messages/schedule'));
    expect(past.scheduled_at).toEqual(['La fecha de envío debe ser al menos un minuto en el futuro.']);
    const far = await errorsOf(await send(admin, body(new Date(Date.now() + 367 * 86_400_000)), randomUUID(), '/api/messages/schedule'));
    expect(far.scheduled_at).toEqual(['La fecha de envío no puede ser más de un año en el futuro.']);
    const none = await errorsOf(await send(admin, composeInput({ recipients: [coursePick()] }), randomUUID(), '/api/messages/schedule'));
    expect(none.scheduled_at).toEqual(['Debes indicar la fecha y hora de envío.']);
  });

  it('keeps schools apart: another school’s course is refused', async () => {
    const before = await messageCount();
    const errors = await errorsOf(
      await send(admin, composeInput({ recipients: [{ kind: 'course', id: ids.elquiCourse, audience: 'apoderados' }] })),
    );
    expect(errors.recipients).toEqual(['Algunos destinatarios elegidos no existen o no pertenecen a tu colegio.']);
    const draft = await admin.post(
      '/api/messages/drafts',
      composeInput({ recipients: [{ kind: 'course', id: ids.elquiCourse, audience: 'apoderados' }] }),
    );
    expect(draft.status).toBe(422);
    expect(await messageCount()).toBe(before);
  });

  it('refuses another user’s saved list like any foreign id: send, estimate, schedule and drafts', async () => {
    const listOf = (email: string, name: string) =>
      one<{ id: number }>(
        server.db,
        sql`select l.id from recipient_lists l join users u on u.id = l.owner_user_id where u.email = ${email} and l.name = ${name}`,
      );
    const adminList = await listOf('administrador@sanandres.cl', 'Directiva del Centro de Padres');
    const trashed = await listOf('docente@sanandres.cl', 'Reforzamiento de Matemática');
    const own = await listOf('docente@sanandres.cl', 'Olimpiada de Matemática');
    await server.db.execute(sql`update recipient_lists set deleted_at = now() where id = ${trashed.id}`);
    const foreign = ['Algunos destinatarios elegidos no existen o no pertenecen a tu colegio.'];
    const before = await messageCount();
    for (const id of [adminList.id, trashed.id]) {
      const body = composeInput({ recipients: [{ kind: 'recipient-list', id }] });
      expect((await errorsOf(await send(docente, body))).recipients, `send ${id}`).toEqual(foreign);
      expect((await errorsOf(await docente.post('/api/messages/estimate', body))).recipients, `estimate ${id}`).toEqual(foreign);
      const at = new Date(Date.now() + 86_400_000).toISOString();
      const scheduled = await send(docente, { ...body, scheduled_at: at }, randomUUID(), '/api/messages/schedule');
      expect((await errorsOf(scheduled)).recipients, `schedule ${id}`).toEqual(foreign);
      expect((await errorsOf(await docente.post('/api/messages/drafts', body))).recipients, `draft ${id}`).toEqual(foreign);
    }
    // A draft saved with the user's own list cannot be switched to someone else's.
    const draft = (
      (await (
        await docente.post('/api/messages/drafts', composeInput({ recipients: [{ kind: 'recipient-list', id: own.id }] }))
      ).json()) as {
        data: ComposeDraft;
      }
    ).data;
    const put = await docente.fetch(`/api/messages/drafts/${draft.id}`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(composeInput({ recipients: [{ kind: 'recipient-list', id: adminList.id }] })),
    });
    expect((await errorsOf(put)).recipients).toEqual(foreign);
    expect(await messageCount()).toBe(before + 1);

    // The owner still sends to it, and their own list reaches its members.
    expect(
      (await created(await send(admin, composeInput({ recipients: [{ kind: 'recipient-list', id: adminList.id }] })))).recipients,
    ).toBeGreaterThan(0);
    expect(
      (await created(await send(docente, composeInput({ recipients: [{ kind: 'recipient-list', id: own.id }] })))).recipients,
    ).toBeGreaterThan(0);
  });
});

describe('send', () => {
  it('names a guardian of two picked students once, with both children', async () => {
    const [s1, s2] = ids.family.students;
    const result = await created(
      await send(
        admin,
        composeInput({
          recipients: [
            { kind: 'student', id: s1!, audience: 'apoderados' },
            { kind: 'student', id: s2!, audience: 'apoderados' },
            { kind: 'staff', id: ids.docenteStaff },
            { kind: 'staff', id: ids.docenteStaff },
          ],
        }),
      ),
    );
    const recipients = await rows<{ kind: string; ref: number; student_names: string | null; status: string }>(
      server.db,
      sql`select recipient_kind as kind, recipient_ref_id as ref, student_names, status from message_recipients where message_id = ${result.id}`,
    );
    const family = recipients.filter((r) => r.kind === 'apoderado' && r.ref === ids.family.guardian);
    expect(family).toHaveLength(1);
    const names = await rows<{ name: string }>(
      server.db,
      sql`select split_part(first_names, ' ', 1) || ' ' || last_name_father as name from students where id in (${s1}, ${s2}) order by name`,
    );
    expect(family[0]!.student_names).toBe(names.map((n) => n.name).join(', '));
    expect(recipients.filter((r) => r.kind === 'funcionario')).toHaveLength(1);
    expect(new Set(recipients.map((r) => `${r.kind}:${r.ref}`)).size).toBe(recipients.length);
    expect(recipients.every((r) => r.status === 'pending')).toBe(true);
    expect(result.recipients).toBe(recipients.length);
  });

  it('expands audiences, cargos and recipient lists', async () => {
    const db = server.db;
    const roleCount = async (role: number) =>
      count(
        db,
        sql`select count(distinct sg.guardian_id)::int as n from student_guardians sg join students s on s.id = sg.student_id
                    where s.course_id = ${ids.course.id} and sg.role = ${role}`,
      );
    const studentCount = await count(db, sql`select count(*)::int as n from students where course_id = ${ids.course.id}`);
    const estimateOf = async (recipients: RecipientPick[], channels: ('sms' | 'app-mobile')[] = ['app-mobile']) => {
      const res = await admin.post('/api/messages/estimate', composeInput({ channels, content: 'Hola', recipients }));
      expect(res.status).toBe(200);
      return ((await res.json()) as { data: Estimate }).data;
    };
    expect((await estimateOf([coursePick('titulares')])).recipients).toBe(await roleCount(1));
    expect((await estimateOf([coursePick('suplentes')])).recipients).toBe(await roleCount(2));
    // Students have no phone and no app yet (the app is the guardians'): neither channel reaches them.
    const students = await estimateOf([coursePick('estudiantes')], ['sms', 'app-mobile']);
    expect(students.recipients).toBe(studentCount);
    expect(students.channels).toEqual([
      { code: 'app-mobile', deliveries: 0, missing_address: studentCount, opted_out: 0, blocked: 0 },
      { code: 'sms', deliveries: 0, missing_address: studentCount, opted_out: 0, blocked: 0 },
    ]);

    const position = await one<{ id: number; name: string; n: number }>(
      db,
      sql`select p.id, p.name, (select count(*)::int from staff s where s.position_id = p.id) as n from positions p
          where p.institution_id = ${ids.sanAndres} order by n desc, p.id limit 1`,
    );
    const list = await one<{ id: number; name: string; n: number }>(
      db,
      sql`select l.id, l.name, (select count(*)::int from recipient_list_members m where m.list_id = l.id) as n
          from recipient_lists l join users u on u.id = l.owner_user_id
          where u.email = 'administrador@sanandres.cl' and l.deleted_at is null order by l.id limit 1`,
    );
    const result = await created(
      await send(
        admin,
        composeInput({
          recipients: [
            { kind: 'appointment', id: position.id },
            { kind: 'recipient-list', id: list.id },
          ],
        }),
      ),
    );
    const groups = await rows<{ gk: string; gl: string; n: number }>(
      db,
      sql`select group_kind as gk, group_label as gl, count(*)::int as n from message_recipients where message_id = ${result.id}
          group by group_kind, group_label order by min(id)`,
    );
    expect(groups[0]).toEqual({ gk: 'cargo', gl: position.name, n: position.n });
    // List members already reached through the cargo keep the cargo's group: one row per person.
    const listRows = groups.find((g) => g.gk === 'lista')?.n ?? 0;
    expect(position.n + listRows).toBe(result.recipients);
    expect(result.recipients).toBeLessThanOrEqual(position.n + list.n);
    expect(listRows).toBeGreaterThan(0);
  });

  it('writes one delivery per recipient and channel, failing those without an address', async () => {
    const usedBefore = (await quota(admin)).sms.used;
    const body = composeInput({ channels: ['app-mobile', 'e-mail', 'sms'], content: 'Mañana no hay clases.', recipients: [coursePick()] });
    const estimate = ((await (await admin.post('/api/messages/estimate', body)).json()) as { data: Estimate }).data;
    const result = await created(await send(admin, body));
    const guardians = await rows<{ id: number; email: string | null; phone: string | null; app: boolean }>(
      server.db,
      sql`select distinct g.id, g.email, g.phone, g.app_installed_at is not null as app
          from guardians g join student_guardians sg on sg.guardian_id = g.id join students s on s.id = sg.student_id
          where s.course_id = ${ids.course.id}`,
    );
    expect(result.recipients).toBe(guardians.length);
    expect(result.deliveries).toBe(guardians.length * 3);
    const deliveries = await rows<{
      ref: number;
      channel: string;
      address: string | null;
      status: string;
      error: string | null;
      segments: number;
    }>(
      server.db,
      sql`select r.recipient_ref_id as ref, d.channel, d.address, d.status, d.error, d.segments
          from deliveries d join message_recipients r on r.id = d.recipient_id where d.message_id = ${result.id}`,
    );
    expect(deliveries).toHaveLength(guardians.length * 3);
    const byId = new Map(guardians.map((g) => [g.id, g]));
    for (const d of deliveries) {
      const g = byId.get(d.ref)!;
      const expected = d.channel === 'e-mail' ? g.email : d.channel === 'sms' ? g.phone : g.app ? `guardian:${g.id}` : null;
      expect(d.address).toBe(expected);
      expect(d.status).toBe(expected === null ? 'failed' : 'queued');
      expect(d.error).toBe(expected === null ? 'missing_address' : null);
      expect(d.segments).toBe(d.channel === 'sms' && expected !== null ? 1 : 0);
    }
    expect(deliveries.some((d) => d.error === 'missing_address')).toBe(true);
    const smsSent = guardians.filter((g) => g.phone !== null).length;
    expect(result.sms_segments).toBe(smsSent);
    expect((await quota(admin)).sms.used).toBe(usedBefore + smsSent);

    // The estimate said exactly this beforehand.
    expect(estimate.recipients).toBe(result.recipients);
    expect(estimate.channels).toEqual([
      {
        code: 'app-mobile',
        deliveries: guardians.filter((g) => g.app).length,
        missing_address: guardians.filter((g) => !g.app).length,
        opted_out: 0,
        blocked: 0,
      },
      {
        code: 'e-mail',
        deliveries: guardians.filter((g) => g.email).length,
        missing_address: guardians.filter((g) => !g.email).length,
        opted_out: 0,
        blocked: 0,
      },
      { code: 'sms', deliveries: smsSent, missing_address: guardians.length - smsSent, opted_out: 0, blocked: 0 },
    ]);
    expect(estimate.sms).toMatchObject({ segments_per_message: 1, total: smsSent });
    expect(estimate.problems).toEqual([]);
  });

  it('shows the message in the author’s sent folder and the staff recipient’s inbox', async () => {
    const result = await created(
      await send(
        admin,
        composeInput({
          title: 'Consejo de profesores extraordinario',
          recipients: [{ kind: 'staff', id: ids.docenteStaff }, coursePick()],
        }),
      ),
    );
    const sent = await list(admin, 'folder=sent');
    expect(sent.data[0]).toMatchObject({
      id: result.id,
      title: 'Consejo de profesores extraordinario',
      folder: 'sent',
      channels: ['e-mail'],
    });
    expect(sent.data[0]!.counterpart).toMatch(/ y 1 más$/);
    const inbox = await list(docente, 'folder=inbox');
    expect(inbox.data[0]).toMatchObject({ id: result.id, counterpart: ids.adminName, unread: true });
    const detail = ((await (await docente.get(`/api/messages/${result.id}`)).json()) as { data: MessageDetail }).data;
    expect(detail.sender.name).toBe(ids.adminName);
    expect(detail.recipients_summary.total).toBe(result.recipients);
  });

  it('names the sent message after the group reached first, and how many more', async () => {
    const counterpartOf = async (recipients: RecipientPick[]) => {
      const { id } = await created(await send(admin, composeInput({ title: 'Orden de los grupos', recipients })));
      return (await list(admin, 'folder=sent')).data.find((m) => m.id === id)?.counterpart;
    };
    expect(await counterpartOf([coursePick()])).toBe(ids.course.name);
    expect(await counterpartOf([coursePick(), { kind: 'staff', id: ids.docenteStaff }])).toBe(`${ids.course.name} y 1 más`);
    const staffFirst = await counterpartOf([{ kind: 'staff', id: ids.docenteStaff }, coursePick()]);
    expect(staffFirst).toMatch(/ y 1 más$/);
    expect(staffFirst).not.toContain(ids.course.name);
  });

  it('puts a copy in the author’s inbox when copy_to_sender is set', async () => {
    const result = await created(
      await send(
        admin,
        composeInput({ title: 'Con copia para mí', copy_to_sender: true, recipients: [{ kind: 'staff', id: ids.docenteStaff }] }),
      ),
    );
    const inbox = await list(admin, 'folder=inbox');
    expect(inbox.data[0]).toMatchObject({ title: 'Con copia para mí', counterpart: ids.adminName });
    expect(inbox.data[0]!.id).not.toBe(result.id);
  });

  it('is idempotent: the same key answers 200 with the first result and writes nothing', async () => {
    const key = randomUUID();
    const body = composeInput({ title: 'Una sola vez', recipients: [coursePick()] });
    const first = await created(await send(admin, body, key));
    const before = await messageCount();
    const again = await send(admin, body, key);
    expect(again.status).toBe(200);
    expect(((await again.json()) as { data: SendResult }).data).toEqual(first);
    expect(await messageCount()).toBe(before);
  });

  it('is idempotent under two concurrent requests with the same key', async () => {
    const key = randomUUID();
    const body = composeInput({ title: 'Doble clic', recipients: [coursePick()] });
    const [a, b] = await Promise.all([send(admin, body, key), send(admin, body, key)]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    const [ra, rb] = (await Promise.all([a.json(), b.json()])) as { data: SendResult }[];
    expect(ra!.data).toEqual(rb!.data);
    const same = await count(server.db, sql`select count(*)::int as n from messages where idempotency_key = ${key}`);
    expect(same).toBe(1);
  });

  it('refuses the whole send when the quota does not cover it, writing nothing', async () => {
    const db = server.db;
    await db.execute(sql`update institution_quotas set sms_monthly_limit = 1, email_balance = 0 where institution_id = ${ids.sanAndres}`);
    try {
      const q = await quota(admin);
      const before = {
        messages: await messageCount(),
        used: await smsUsed(q.month),
        deliveries: await count(db, sql`select count(*)::int as n from deliveries`),
      };
      const body = composeInput({ channels: ['e-mail', 'sms'], content: 'Hola', recipients: [coursePick()] });
      const res = await send(admin, body);
      expect(res.status).toBe(409);
      expect(await res.json()).toEqual({
        code: 'compose.quota',
        message: 'El saldo o la cuota del colegio no alcanza para este mensaje.',
        errors: { quota: ['sms.quota_exceeded', 'email.insufficient'] },
      });
      expect(await messageCount()).toBe(before.messages);
      expect(await smsUsed(q.month)).toBe(before.used);
      expect(await count(db, sql`select count(*)::int as n from deliveries`)).toBe(before.deliveries);
      const estimate = ((await (await admin.post('/api/messages/estimate', body)).json()) as { data: Estimate }).data;
      expect(estimate.problems).toEqual(['sms.quota_exceeded', 'email.insufficient']);
      expect(estimate.email).toEqual({ total: expect.any(Number), remaining: 0 });
    } finally {
      await db.execute(
        sql`update institution_quotas set sms_monthly_limit = 5000, email_balance = null where institution_id = ${ids.sanAndres}`,
      );
    }
  });

  it('flags picked courses without students in the estimate', async () => {
    const empty = await rows<{ id: number; name: string }>(
      server.db,
      sql`select e.id, e.name from electives e where e.institution_id = ${ids.sanAndres}
          and not exists (select 1 from elective_students es where es.elective_id = e.id)`,
    );
    expect(empty.length).toBeGreaterThan(0);
    const picks: RecipientPick[] = [
      coursePick(),
      ...empty.map((e) => ({ kind: 'elective' as const, id: e.id, audience: 'apoderados' as const })),
    ];
    const res = await admin.post('/api/messages/estimate', composeInput({ recipients: picks }));
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: Estimate };
    expect(data.empty_courses).toEqual(empty.map((e) => ({ id: e.id, nombre: e.name })));
  });
});

describe('drafts', () => {
  it('creates, updates, reopens and sends a draft', async () => {
    const file = await uploadOk(admin, 'Guía.txt', 'text/plain', new TextEncoder().encode('guía'));
    const create = await admin.post('/api/messages/drafts', composeInput({ title: '', content: '', channels: [] }));
    expect(create.status).toBe(201);
    const draft = ((await create.json()) as { data: ComposeDraft }).data;
    expect(draft).toMatchObject({ title: '', recipients: [], attachments: [], reply_to_id: null });
    expect((await list(admin, 'folder=draft')).data[0]!.id).toBe(draft.id);

    const picks: RecipientPick[] = [{ ...coursePick('titulares'), label: `${ids.course.name} · titulares` }];
    const update = await admin.fetch(`/api/messages/drafts/${draft.id}`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(
        composeInput({ title: 'Guía de estudio', recipients: picks, attachment_ids: [file.id], channels: ['e-mail', 'app-mobile'] }),
      ),
    });
    expect(update.status).toBe(200);
    const reopened = ((await (await admin.get(`/api/messages/drafts/${draft.id}`)).json()) as { data: ComposeDraft }).data;
    expect(reopened).toMatchObject({ id: draft.id, title: 'Guía de estudio', recipients: picks, channels: ['app-mobile', 'e-mail'] });
    expect(reopened.attachments.map((a) => a.id)).toEqual([file.id]);
    expect((await list(admin, 'folder=draft')).data[0]).toMatchObject({ id: draft.id, counterpart: ids.course.name });
    expect((await docente.get(`/api/messages/drafts/${draft.id}`)).status).toBe(404);

    const result = await created(
      await send(admin, {
        ...composeInput({ title: 'Guía de estudio', recipients: picks, attachment_ids: [file.id] }),
        draft_id: draft.id,
      }),
    );
    expect(result.id).toBe(draft.id);
    expect(result.kind).toBe('sent');
    expect((await list(admin, 'folder=draft')).data.map((m) => m.id)).not.toContain(draft.id);
    expect((await list(admin, 'folder=sent')).data[0]).toMatchObject({ id: draft.id, has_attachments: true });

    const reopenSent = await admin.get(`/api/messages/drafts/${draft.id}`);
    expect(reopenSent.status).toBe(409);
    const editSent = await admin.fetch(`/api/messages/drafts/${draft.id}`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(composeInput()),
    });
    expect(editSent.status).toBe(409);
    expect(await editSent.json()).toEqual({ code: 'message.illegal_transition', message: 'Solo se pueden editar borradores.' });
    const sendAgain = await send(admin, { ...composeInput({ recipients: picks }), draft_id: draft.id });
    expect(sendAgain.status).toBe(409);
    // Its attachment is now part of a sent message.
    expect((await admin.fetch(`/api/attachments/${file.id}`, { method: 'DELETE' })).status).toBe(409);
  });
});

describe("a student's family as recipients", () => {
  /** A student of the school of `email` with an e-mail, a titular and a suplente, named as the folders name people, and their course. */
  const studentOf = (email: string) =>
    one<{ id: number; name: string; course: string }>(
      server.db,
      sql`select s.id, split_part(s.first_names, ' ', 1) || ' ' || s.last_name_father || ' ' || s.last_name_mother as name,
            c.name as course
          from students s join courses c on c.id = s.course_id join users u on u.institution_id = s.institution_id
          where u.email = ${email} and s.withdrawn_at is null and s.email is not null
            and (select count(distinct role) from student_guardians sg where sg.student_id = s.id) = 2
          order by s.id limit 1`,
    );
  const familyPick = (id: number, audience: Audience): RecipientPick => ({ kind: 'student', id, audience });
  const find = async (client: Client, folder: string, id: number) =>
    (await list(client, `folder=${folder}&limit=100`)).data.find((m) => m.id === id)?.counterpart;
  const summaryOf = async (client: Client, id: number) =>
    ((await (await client.get(`/api/messages/${id}`)).json()) as { data: MessageDetail }).data.recipients_summary.label;

  it('reads "Para Apoderados de …" (with the course) in Drafts, Scheduled and Sent, and the student alone for a message to the student', async () => {
    const student = await studentOf('administrador@sanandres.cl');
    const guardians = `Apoderados de ${student.name} (${student.course})`;

    const draftRes = await admin.post('/api/messages/drafts', composeInput({ recipients: [familyPick(student.id, 'apoderados')] }));
    expect(draftRes.status).toBe(201);
    const draft = ((await draftRes.json()) as { data: ComposeDraft }).data;
    expect(await find(admin, 'draft', draft.id)).toBe(guardians);

    const scheduled = await created(
      await send(
        admin,
        composeInput({
          recipients: [familyPick(student.id, 'titulares')],
          scheduled_at: new Date(Date.now() + 2 * 86_400_000).toISOString(),
        }),
        randomUUID(),
        '/api/messages/schedule',
      ),
    );
    expect(await find(admin, 'scheduled', scheduled.id)).toBe(`Apoderados titulares de ${student.name} (${student.course})`);
    expect(await summaryOf(admin, scheduled.id)).toBe(`Apoderados titulares de ${student.name} (${student.course})`);

    const sent = await created(await send(admin, composeInput({ recipients: [familyPick(student.id, 'suplentes')] })));
    expect(await find(admin, 'sent', sent.id)).toBe(`Apoderados suplentes de ${student.name} (${student.course})`);
    expect(await summaryOf(admin, sent.id)).toBe(`Apoderados suplentes de ${student.name} (${student.course})`);

    const own = await created(await send(admin, composeInput({ recipients: [familyPick(student.id, 'estudiantes')] })));
    expect(await find(admin, 'sent', own.id)).toBe(`${student.name} (${student.course})`);
  });

  it("says it in the Mexican school's words", async () => {
    const student = await studentOf('administrador@benitojuarez.edu.mx');
    const draftRes = await juarez.post('/api/messages/drafts', composeInput({ recipients: [familyPick(student.id, 'apoderados')] }));
    expect(draftRes.status).toBe(201);
    const draft = ((await draftRes.json()) as { data: ComposeDraft }).data;
    expect(await find(juarez, 'draft', draft.id)).toBe(`Padres o tutores de ${student.name} (${student.course})`);
  });
});

describe('seeded drafts', () => {
  it('reopen with their picks and, when sent, keep only the freshly expanded recipients', async () => {
    const seeded = await one<{ id: number }>(
      server.db,
      sql`select m.id from messages m join mailbox_entries e on e.message_id = m.id and e.user_id = m.author_user_id
          join users u on u.id = m.author_user_id
          where u.email = 'administrador@sanandres.cl' and e.folder = 'draft'
            and exists (select 1 from message_recipients r where r.message_id = m.id) order by m.id limit 1`,
    );
    const draft = ((await (await admin.get(`/api/messages/drafts/${seeded.id}`)).json()) as { data: ComposeDraft }).data;
    expect(draft.recipients.length).toBeGreaterThan(0);
    const res = await send(admin, {
      ...composeInput({ title: draft.title || 'Sin título', content: draft.content, recipients: draft.recipients }),
      draft_id: seeded.id,
    });
    const result = await created(res);
    expect(result.id).toBe(seeded.id);
    const statuses = await rows<{ status: string; n: number }>(
      server.db,
      sql`select status, count(*)::int as n from message_recipients where message_id = ${seeded.id} group by status`,
    );
    expect(statuses).toEqual([{ status: 'pending', n: result.recipients }]);
  });
});

describe('schedule', () => {
  it('schedules, then cancel gives back the SMS segments and the WhatsApp balance', async () => {
    const db = server.db;
    const at = new Date(Date.now() + 3600_000);
    const q = await quota(admin);
    const month = q.month;
    const whatsappBefore = q.whatsapp.remaining!;
    const usedBefore = await smsUsed(month);
    const body = composeInput({
      title: 'Recordatorio programado',
      channels: ['sms', 'whatsapp'],
      content: 'Mañana: reunión.',
      recipients: [coursePick()],
      scheduled_at: at.toISOString(),
    });
    const result = await created(await send(admin, body, randomUUID(), '/api/messages/schedule'));
    expect(result.kind).toBe('scheduled');
    expect(result.sms_segments).toBeGreaterThan(0);
    const whatsapp = await count(
      db,
      sql`select count(*)::int as n from deliveries where message_id = ${result.id} and channel = 'whatsapp' and status = 'queued'`,
    );
    const after = await quota(admin);
    if (after.month === month) {
      expect(after.sms.used).toBe(usedBefore + result.sms_segments);
      expect(after.whatsapp.remaining).toBe(whatsappBefore - whatsapp);
    }
    const scheduled = await list(admin, 'folder=scheduled');
    const entry = scheduled.data.find((m) => m.id === result.id)!;
    expect(entry.date).toBe(at.toISOString());
    const detail = ((await (await admin.get(`/api/messages/${result.id}`)).json()) as { data: MessageDetail }).data;
    expect(detail.scheduled_at).toBe(at.toISOString());
    expect(detail.timezone).toBe('America/Santiago');

    expect((await admin.post(`/api/messages/${result.id}/cancel-schedule`)).status).toBe(200);
    expect(await count(db, sql`select count(*)::int as n from deliveries where message_id = ${result.id}`)).toBe(0);
    expect(await count(db, sql`select count(*)::int as n from message_recipients where message_id = ${result.id}`)).toBe(0);
    expect(await smsUsed(month)).toBe(usedBefore);
    expect((await quota(admin)).whatsapp.remaining).toBe(whatsappBefore);
    // Back in drafts, with the picks to send it again.
    const draft = ((await (await admin.get(`/api/messages/drafts/${result.id}`)).json()) as { data: ComposeDraft }).data;
    expect(draft.recipients).toEqual([coursePick()]);
  });
});

describe('schedule in another month', () => {
  it('counts SMS in the month of scheduled_at, and a purged scheduled message gives them back', async () => {
    const at = new Date(Date.now() + 40 * 86_400_000);
    const monthOf = (d: Date) => {
      const parts = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Santiago', year: 'numeric', month: '2-digit' }).formatToParts(d);
      return `${parts.find((p) => p.type === 'year')!.value}-${parts.find((p) => p.type === 'month')!.value}`;
    };
    const now = monthOf(new Date());
    const later = monthOf(at);
    expect(later).not.toBe(now);
    const [nowBefore, laterBefore] = [await smsUsed(now), await smsUsed(later)];
    const body = composeInput({
      channels: ['sms'],
      content: 'Recuerden la matrícula.',
      recipients: [coursePick()],
      scheduled_at: at.toISOString(),
    });
    const result = await created(await send(admin, body, randomUUID(), '/api/messages/schedule'));
    expect(result.sms_segments).toBeGreaterThan(0);
    expect(await smsUsed(later)).toBe(laterBefore + result.sms_segments);
    expect(await smsUsed(now)).toBe(nowBefore);

    expect((await admin.post('/api/messages/delete', { ids: [result.id] })).status).toBe(200);
    expect((await admin.post('/api/messages/purge', { ids: [result.id] })).status).toBe(200);
    expect(await smsUsed(later)).toBe(laterBefore);
    expect(await count(server.db, sql`select count(*)::int as n from messages where id = ${result.id}`)).toBe(0);
  });
});

describe('GET /api/quota', () => {
  it('answers the school’s month, limit, usage and balances', async () => {
    const q = await quota(juarez);
    expect(q).toEqual({
      month: expect.stringMatching(/^\d{4}-\d{2}$/),
      timezone: 'America/Mexico_City',
      sms: { limit: 0, used: 0, remaining: 0, reserved: 0, low: false },
      email: { remaining: null },
      whatsapp: { remaining: 3000 },
    });
  });
});
