// Erasure of a guardian, a student and a staff member on the seeded school (server/privacy-requests/): the
// preview counts what goes, the confirmation word is required, and afterwards no text or jsonb column of any
// table holds their names, RUT, phone or e-mail, while the dashboards (activity, ranking, connectivity) and the
// reception totals of the messages they received answer exactly as before. Twice is a 409; another school's
// person a 404; a teacher a 403; the audit log has the entry with counts and nothing personal.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fold } from '../../shared/fold';
import { deliveryKey } from '../../server/delivery/channel';
import { deliveryMessageId, outboxFileName } from '../../server/delivery/email';
import { simulatorMessageFile } from '../../server/delivery/simulator';
import { newsSearchText } from '../../server/news/write';
import type { ErasurePreview, ErasureResult, PrivacyPersonKind } from '../../shared/privacy-requests-contract';
import { one, rows } from './support/compose';
import { startServer, type Client, type TestServer } from './support/server';

let server: TestServer;
let admin: Client;
let teacher: Client;
const ids = { school: 0, admin: 0 };

interface Identity {
  first_names: string;
  last_name_father: string;
  last_name_mother: string;
  dni: string | null;
  email: string | null;
  phone: string | null;
}

/** The strings a trace of the person would contain: full names (as written and folded), RUT, phone, e-mail. */
function tracesOf(p: Identity): string[] {
  const firstWord = p.first_names.split(' ')[0]!;
  const names = [
    `${p.first_names} ${p.last_name_father} ${p.last_name_mother}`,
    `${firstWord} ${p.last_name_father} ${p.last_name_mother}`,
  ];
  return [
    ...new Set([...names, ...names.map(fold), p.dni, p.email, p.phone].filter((v): v is string => typeof v === 'string' && v !== '')),
  ];
}

/** Every text-like column of every table, with the rows that hold one of `traces` (ILIKE, case-insensitive). */
async function wholeDatabaseHits(traces: readonly string[]): Promise<string[]> {
  const columns = await rows<{ table_name: string; column_name: string }>(
    server.db,
    sql`select c.table_name, c.column_name from information_schema.columns c
        join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
        where c.table_schema = 'public' and c.data_type in ('text', 'character varying', 'jsonb', 'json', 'ARRAY', 'USER-DEFINED')
        order by c.table_name, c.column_name`,
  );
  expect(columns.length).toBeGreaterThan(40);
  const patterns = `{${traces.map((t) => `"%${t.replace(/["\\]/g, '\\$&')}%"`).join(',')}}`;
  const hits: string[] = [];
  for (const { table_name, column_name } of columns) {
    const found = await one<{ n: number }>(
      server.db,
      sql`select count(*)::int as n from ${sql.identifier(table_name)} where ${sql.identifier(column_name)}::text ilike any(${patterns}::text[])`,
    );
    if (Number(found.n) > 0) hits.push(`${table_name}.${column_name}: ${found.n}`);
  }
  return hits;
}

async function json<T>(res: Response, status = 200): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return ((await res.json()) as { data: T }).data;
}

/** The summary without its device mix of today's roster, compared on its own by `asIfGone`. */
function withoutToday(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutToday);
  if (typeof value !== 'object' || value === null) return value;
  if ('blue' in value && 'red' in value) return 'device mix of today';
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutToday(v)]));
}

/** The device mixes of a summary. */
function deviceMixes(value: unknown): unknown[] {
  if (typeof value !== 'object' || value === null) return [];
  if ('blue' in value && 'red' in value) return [value];
  return Object.values(value).flatMap(deviceMixes);
}

/**
 * What today's roster says (the summary's device mix, connectivity with its reach, devices and
 * coverage) if the person had left the school: a guardian's links to their students removed, a student
 * withdrawn; then put back. An erased person counts as one who left (decision 0271).
 */
async function asIfGone(kind: PrivacyPersonKind, id: number): Promise<unknown> {
  const get = async (url: string) => json<unknown>(await admin.get(url));
  const read = async () => ({
    devices: deviceMixes(await get('/api/dashboard/summary')),
    connectivity: await get('/api/dashboard/connectivity'),
  });
  if (kind === 'apoderado') {
    const links = await rows<Record<string, unknown>>(server.db, sql`select * from student_guardians where guardian_id = ${id}`);
    await server.db.execute(sql`delete from student_guardians where guardian_id = ${id}`);
    const gone = await read();
    await server.db.execute(
      sql`insert into student_guardians select * from json_populate_recordset(null::student_guardians, ${JSON.stringify(links)}::json)`,
    );
    return gone;
  }
  if (kind === 'estudiante') {
    await server.db.execute(sql`update students set withdrawn_at = now() where id = ${id}`);
    const gone = await read();
    await server.db.execute(sql`update students set withdrawn_at = null where id = ${id}`);
    return gone;
  }
  return read();
}

/** What the dashboards and the receptions of `messageIds` (the administrator's) say: totals, not the rows' names. */
async function figures(messageIds: readonly number[]): Promise<unknown> {
  const get = async (url: string) => json<unknown>(await admin.get(url));
  const reception = [];
  for (const id of messageIds) {
    const res = await admin.get(`/api/messages/${id}/reception`);
    expect(res.status).toBe(200);
    const page = (await res.json()) as { meta: { total: number; counts: unknown; progress: unknown } };
    reception.push({ total: page.meta.total, counts: page.meta.counts, progress: page.meta.progress });
  }
  return {
    summary: withoutToday(await get('/api/dashboard/summary')),
    staff: await get('/api/dashboard/users'),
    rankingCourses: await get('/api/ranking/courses'),
    rankingUsers: await get('/api/ranking/users'),
    reception,
  };
}

const identityOf = (kind: PrivacyPersonKind, id: number) => {
  const table = { apoderado: 'guardians', estudiante: 'students', funcionario: 'staff' }[kind];
  const dni = kind === 'funcionario' ? sql`null::text` : sql`dni`;
  const phone = kind === 'estudiante' ? sql`null::text` : sql`phone`;
  return one<Identity>(
    server.db,
    sql`select first_names, last_name_father, last_name_mother, ${dni} as dni, email, ${phone} as phone
        from ${sql.identifier(table)} where id = ${id}`,
  );
};

const receivedBy = async (kind: PrivacyPersonKind, id: number) =>
  (
    await rows<{ message_id: number }>(
      server.db,
      sql`select distinct r.message_id from message_recipients r join messages m on m.id = r.message_id
          where r.recipient_kind = ${kind} and r.recipient_ref_id = ${id} and m.kind = 'sent' and m.author_user_id = ${ids.admin}
          order by r.message_id limit 5`,
    )
  ).map((r) => Number(r.message_id));

/** Erases the person through the API, after its preview, checking the whole database and the figures. */
async function eraseAndCheck(kind: PrivacyPersonKind, id: number, extra: readonly string[] = []): Promise<ErasureResult> {
  const identity = await identityOf(kind, id);
  const traces = [...tracesOf(identity), ...extra];
  expect(await wholeDatabaseHits(traces), 'the seed holds the person somewhere').not.toEqual([]);
  const received = await receivedBy(kind, id);
  const before = await figures(received);
  const gone = await asIfGone(kind, id);

  const preview = await json<ErasurePreview>(await admin.get(`/api/privacy/people/${kind}/${id}/erasure`));
  expect(preview.confirmacion).toBe('ELIMINAR');
  expect((await admin.post(`/api/privacy/people/${kind}/${id}/erasure`, { confirmacion: 'si' })).status).toBe(422);
  const result = await json<ErasureResult>(await admin.post(`/api/privacy/people/${kind}/${id}/erasure`, { confirmacion: 'ELIMINAR' }));
  expect(result.conteos).toEqual(preview.conteos);

  expect(await wholeDatabaseHits(traces)).toEqual([]);
  // The same figures; a staff member's name in the rankings is the label now.
  const label = { apoderado: 'Apoderado eliminado', estudiante: 'Estudiante eliminado', funcionario: 'Funcionario eliminado' }[kind];
  const renamed = traces.reduce((text, trace) => text.replaceAll(JSON.stringify(trace).slice(1, -1), label), JSON.stringify(before));
  expect(await figures(received)).toEqual(JSON.parse(renamed));
  expect(await asIfGone('funcionario', id), 'today’s roster: as if they had left the school').toEqual(
    JSON.parse(traces.reduce((text, trace) => text.replaceAll(JSON.stringify(trace).slice(1, -1), label), JSON.stringify(gone))),
  );
  const audit = await one<{ actor_user_id: number; detail: Record<string, unknown> }>(
    server.db,
    sql`select actor_user_id, detail from audit_events where action = 'person.erased' and subject_kind = ${kind} and subject_id = ${id}`,
  );
  expect(audit.actor_user_id).toBe(ids.admin);
  expect(audit.detail).toEqual(result.conteos);

  // Twice: nothing left to erase, said in Spanish.
  const again = await admin.post(`/api/privacy/people/${kind}/${id}/erasure`, { confirmacion: 'ELIMINAR' });
  expect(again.status).toBe(409);
  expect(((await again.json()) as { message: string }).message).toMatch(/ya fue eliminada/);
  expect((await admin.get(`/api/privacy/people/${kind}/${id}/erasure`)).status).toBe(409);
  return result;
}

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
});
afterAll(() => server.close());

describe('who may', () => {
  it('a teacher is refused, another school’s person is not found, an unknown kind neither', async () => {
    const guardian = await one<{ id: number }>(
      server.db,
      sql`select id from guardians where institution_id = ${ids.school} order by id limit 1`,
    );
    const foreign = await one<{ id: number }>(
      server.db,
      sql`select id from guardians where institution_id <> ${ids.school} order by id limit 1`,
    );
    expect((await teacher.get(`/api/privacy/people/apoderado/${guardian.id}/erasure`)).status).toBe(403);
    expect((await teacher.post(`/api/privacy/people/apoderado/${guardian.id}/erasure`, { confirmacion: 'ELIMINAR' })).status).toBe(403);
    expect((await admin.get(`/api/privacy/people/apoderado/${foreign.id}/erasure`)).status).toBe(404);
    expect((await admin.post(`/api/privacy/people/apoderado/${foreign.id}/erasure`, { confirmacion: 'ELIMINAR' })).status).toBe(404);
    expect((await admin.get(`/api/privacy/people/vecino/${guardian.id}/erasure`)).status).toBe(404);
  });
});

describe('erasing a guardian', () => {
  it('leaves no trace of them anywhere and every figure as it was', async () => {
    // A guardian who received the school year's messages, with a phone no one else has.
    const g = await one<{ id: number; phone: string; message_id: number; author: number }>(
      server.db,
      sql`select g.id, g.phone, r.message_id, m.author_user_id as author from guardians g
          join message_recipients r on r.recipient_kind = 'apoderado' and r.recipient_ref_id = g.id
          join messages m on m.id = r.message_id and m.kind = 'sent' and m.author_user_id = ${ids.admin}
          where g.institution_id = ${ids.school} and g.phone is not null and g.email is not null and g.dni is not null
            and (select count(*) from guardians o where o.phone = g.phone) = 1
            and (select count(*) from guardians o where o.first_names = g.first_names and o.last_name_father = g.last_name_father
              and o.last_name_mother = g.last_name_mother) = 1
          order by (select count(*) from message_recipients x where x.recipient_kind = 'apoderado' and x.recipient_ref_id = g.id) desc, g.id
          limit 1`,
    );
    const who = await identityOf('apoderado', g.id);
    const name = `${who.first_names} ${who.last_name_father} ${who.last_name_mother}`;
    // An e-mail and a phone they had before, kept only by their contact history (and copied elsewhere below).
    const oldEmail = `antiguo-${g.id}@example.cl`;
    const oldPhone = `+5698${String(700000 + g.id).padStart(7, '0')}`;
    expect(
      await rows(server.db, sql`select 1 from guardians where phone = ${oldPhone} union all select 1 from staff where phone = ${oldPhone}`),
    ).toEqual([]);
    // Their reply (sent now: in this month's figures, which must not move, decision 0278) with an attachment
    // (a file on disk), an app session, a push subscription, a sign-in code, an opt-out, an inbound SMS, a
    // contact change, a list membership and a throttled sign-in.
    const reply = await one<{ id: number }>(
      server.db,
      sql`insert into messages (institution_id, sender_kind, sender_ref_id, sender_name, title, content, kind, sent_at, reply_to_id, search)
          values (${ids.school}, 'apoderado', ${g.id}, ${name}, 'Re: aviso', ${`Soy ${name}, mi RUT ${who.dni}`}, 'sent', now(), ${g.message_id},
            ${fold(`re: aviso soy ${name}`)}) returning id`,
    );
    await server.db.execute(sql`insert into mailbox_entries (user_id, institution_id, message_id, folder, sort_at, counterpart, counterpart_search)
      values (${g.author}, ${ids.school}, ${reply.id}, 'inbox', now(), ${name}, ${fold(name)})`);
    const key = `2026/11/erasure-test-${g.id}`;
    await server.db.execute(sql`insert into message_attachments (message_id, institution_id, name, size, content_type, storage_key)
      values (${reply.id}, ${ids.school}, ${`certificado ${name}.pdf`}, 4, 'application/pdf', ${key})`);
    const { AttachmentStore } = await import('../../server/storage/attachments');
    const store = new AttachmentStore(server.attachmentsDir);
    await store.put(key, new Uint8Array([1, 2, 3, 4]));
    expect(existsSync(path.join(server.attachmentsDir, ...key.split('/')))).toBe(true);
    await server.db.execute(sql`insert into app_tokens (institution_id, person_kind, person_id, phone, token_hash, expires_at)
      values (${ids.school}, 'apoderado', ${g.id}, ${g.phone}, ${`hash-${g.id}`}, now() + interval '30 days')`);
    await server.db.execute(sql`insert into push_subscriptions (institution_id, guardian_id, endpoint, p256dh, auth, user_agent)
      values (${ids.school}, ${g.id}, ${`https://push.example/${g.id}`}, 'key', 'auth', 'Android')`);
    await server.db.execute(
      sql`insert into app_login_codes (phone, code_hash, expires_at) values (${g.phone}, 'code', now() + interval '5 minutes')`,
    );
    await server.db.execute(sql`insert into channel_opt_outs (channel, phone, opted_out_at) values ('whatsapp', ${g.phone}, now())`);
    await server.db.execute(sql`insert into channel_opt_out_events (channel, phone, kind, body, provider, provider_id, at)
      values ('whatsapp', ${g.phone}, 'out', 'BAJA', 'meta', ${`wamid-${g.id}`}, now())`);
    await server.db.execute(sql`insert into inbound_messages (channel, phone, provider, provider_id, received_at, body, outcome)
      values ('sms', ${g.phone}, 'twilio', ${`SM-${g.id}`}, now(), ${`Hola, soy ${name}`}, 'school_inbox')`);
    await server.db.execute(sql`insert into contact_changes (institution_id, person_kind, person_id, field, old_value, new_value, changed_by)
      values (${ids.school}, 'apoderado', ${g.id}, 'email', ${oldEmail}, ${who.email}, ${ids.admin})`);
    await server.db.execute(sql`insert into contact_changes (institution_id, person_kind, person_id, field, old_value, new_value, changed_by)
      values (${ids.school}, 'apoderado', ${g.id}, 'fono_celular', ${oldPhone}, ${g.phone}, ${ids.admin})`);
    await server.db
      .execute(sql`insert into rate_limit_hits (scope, key, at) values ('app-code', ${g.phone}, now())`)
      .catch(() => undefined);
    await server.db
      .execute(sql`insert into provider_sim_messages (id, reference, channel, "to", body, created_at, status)
      values (${`sim-${g.id}`}, 'hermes-0-0', 'sms', ${g.phone}, ${`Hola ${name}`}, now(), 'delivered')`)
      .catch(() => undefined);
    await server.db.execute(sql`update messages set recipient_picks = ${JSON.stringify([{ kind: 'guardian', id: g.id, label: name }])}::jsonb
      where id = ${g.message_id}`);

    const preview = await json<ErasurePreview>(await admin.get(`/api/privacy/people/apoderado/${g.id}/erasure`));
    expect(preview.conteos).toMatchObject({ mensajes_escritos: 1, adjuntos: 1, historial_contacto: 2 });
    expect(preview.conteos.mensajes_recibidos).toBeGreaterThan(0);
    expect(preview.conteos.sesiones).toBeGreaterThanOrEqual(3);
    expect(preview.conteos.mensajes_entrantes).toBeGreaterThanOrEqual(2);

    // A teacher wrote about them in capitals, the RUT with dots and the phone as said at home.
    const digits = who.dni!.replace(/[^0-9Kk]/g, '');
    const dotted = `${digits.slice(0, -1).replace(/\B(?=(\d{3})+(?!\d))/g, '.')}-${digits.slice(-1)}`;
    const national = g.phone.startsWith('+569') ? `9 ${g.phone.slice(4, 8)} ${g.phone.slice(8)}` : g.phone.slice(1);
    await server.db.execute(sql`insert into messages (institution_id, author_user_id, sender_kind, sender_ref_id, sender_name, title, content, kind, search)
      values (${ids.school}, ${ids.admin}, 'funcionario', ${ids.admin}, 'Docente', 'Nota',
        ${`Reunión con ${name.toUpperCase()} (RUT ${dotted}, fono ${national})`}, 'draft', 'nota')`);

    // What staff wrote about them outside messages: a news post, a template (and another already named as the
    // scrubbed one will be), a list, a file attached to the administrator's message, an SMS from another phone;
    // and copies of the e-mail and phone they had before, which only their contact history still names.
    await server.db.execute(sql`update messages set content = content || ${` Antes escribía desde ${oldEmail}.`}
      where institution_id = ${ids.school} and title = 'Nota' and kind = 'draft' and content ilike ${`%${name}%`}`);
    await server.db.execute(sql`insert into rate_limit_hits (scope, key, at) values ('app-code', ${oldPhone}, now())`);
    const postTitle = `Felicitaciones a ${name}`;
    const postBody = `Premio para ${name.toUpperCase()} (RUT ${dotted}). Contacto: ${national}`;
    const post = await one<{ id: number }>(
      server.db,
      sql`insert into news_posts (institution_id, author_user_id, title, body, search, audience_scope, publish_at)
          values (${ids.school}, ${ids.admin}, ${postTitle}, ${postBody}, ${newsSearchText(postTitle, postBody)}, 'school', now()) returning id`,
    );
    const templateName = `Citación ${name}`;
    const templateContent = `Estimado(a) ${name.toUpperCase()}, le escribimos a ${who.email}.`;
    const template = await one<{ id: number }>(
      server.db,
      sql`insert into templates (repository, institution_id, owner_user_id, name, name_key, content, search)
          values ('mis-plantillas', ${ids.school}, ${ids.admin}, ${templateName}, ${fold(templateName)}, ${templateContent},
            ${fold(`${templateName}\n${templateContent}`)}) returning id`,
    );
    await server.db.execute(sql`insert into templates (repository, institution_id, owner_user_id, name, name_key, content, search)
      values ('mis-plantillas', ${ids.school}, ${ids.admin}, 'Citación Apoderado eliminado', ${fold('Citación Apoderado eliminado')}, 'Otra',
        ${fold('Citación Apoderado eliminado\nOtra')})`);
    await server.db.execute(sql`insert into recipient_lists (institution_id, owner_user_id, name)
      values (${ids.school}, ${ids.admin}, ${`Familia de ${name}`})`);
    const certificate = await one<{ id: number }>(
      server.db,
      sql`insert into message_attachments (message_id, institution_id, owner_user_id, name, size, content_type, storage_key)
          values (${g.message_id}, ${ids.school}, ${ids.admin}, ${`Certificado ${name}.pdf`}, 4, 'application/pdf', ${`2026/11/other-${g.id}`})
          returning id`,
    );
    const neighbour = await one<{ id: number }>(
      server.db,
      sql`insert into inbound_messages (channel, phone, provider, provider_id, received_at, body, outcome)
          values ('sms', '+56900000042', 'twilio', ${`SM-neighbour-${g.id}`}, now(), ${`Soy vecina de ${name}, su fono es ${national}`}, 'school_inbox')
          returning id`,
    );
    await server.db.execute(sql`insert into inbound_message_targets (inbound_id, message_id, institution_id)
      values (${neighbour.id}, ${g.message_id}, ${ids.school})`);

    // A deployment without SMTP or an SMS provider keeps files in the outbox: the .eml of an e-mail to them, the
    // simulator's text of an SMS to their phone; another family's e-mail stays.
    const mails = await rows<{ id: number; generation: number; theirs: boolean }>(
      server.db,
      sql`(select d.id, d.generation, true as theirs from deliveries d join message_recipients r on r.id = d.recipient_id
            where r.recipient_kind = 'apoderado' and r.recipient_ref_id = ${g.id} and d.channel = 'e-mail' order by d.id limit 1)
          union all
          (select d.id, d.generation, false from deliveries d join message_recipients r on r.id = d.recipient_id
            where not (r.recipient_kind = 'apoderado' and r.recipient_ref_id = ${g.id}) and d.channel = 'e-mail' order by d.id limit 1)`,
    );
    expect(mails.map((m) => m.theirs)).toEqual([true, false]);
    const emlOf = (m: { id: number; generation: number }) =>
      path.join(server.outboxDir, outboxFileName(deliveryMessageId(deliveryKey(Number(m.id), Number(m.generation)))));
    const simFile = simulatorMessageFile(server.outboxDir, `sim-${g.id}`);
    mkdirSync(path.dirname(simFile), { recursive: true });
    writeFileSync(emlOf(mails[0]!), `To: ${who.email}\nSubject: Aviso\n\nHola ${name}\n`);
    writeFileSync(emlOf(mails[1]!), 'To: otra@example.cl\nSubject: Aviso\n\nHola\n');
    writeFileSync(simFile, `Para: ${g.phone}\n\nHola ${name}\n`);

    // A phone their history says they had and another guardian has now (moved to the right parent) is not theirs.
    const holder = await one<{ phone: string }>(
      server.db,
      sql`select phone from guardians where institution_id = ${ids.school} and id <> ${g.id} and phone is not null
            and phone <> ${g.phone} order by id limit 1`,
    );
    await server.db.execute(sql`insert into contact_changes (institution_id, person_kind, person_id, field, old_value, new_value, changed_by)
      values (${ids.school}, 'apoderado', ${g.id}, 'fono_celular', ${holder.phone}, ${oldPhone}, ${ids.admin})`);
    const holderNote = await one<{ id: number }>(
      server.db,
      sql`insert into messages (institution_id, author_user_id, sender_kind, sender_ref_id, sender_name, title, content, kind, search)
          values (${ids.school}, ${ids.admin}, 'funcionario', ${ids.admin}, 'Docente', 'Fono', ${`Llamar al ${holder.phone}`}, 'draft', 'fono')
          returning id`,
    );

    await eraseAndCheck('apoderado', g.id, [dotted, national, oldEmail, oldPhone]);
    expect(await one(server.db, sql`select content from messages where id = ${holderNote.id}`)).toEqual({
      content: `Llamar al ${holder.phone}`,
    });
    expect([existsSync(emlOf(mails[0]!)), existsSync(simFile), existsSync(emlOf(mails[1]!))]).toEqual([false, false, true]);
    // The folded columns follow their scrubbed text, as their writers compute them.
    const scrubbedPost = await one<{ title: string; body: string; search: string }>(
      server.db,
      sql`select title, body, search from news_posts where id = ${post.id}`,
    );
    expect(scrubbedPost.title).toBe('Felicitaciones a Apoderado eliminado');
    expect(scrubbedPost.search).toBe(newsSearchText(scrubbedPost.title, scrubbedPost.body));
    const scrubbedTemplate = await one<{ name: string; name_key: string; content: string; search: string }>(
      server.db,
      sql`select name, name_key, content, search from templates where id = ${template.id}`,
    );
    expect(scrubbedTemplate.name).toBe('Citación Apoderado eliminado (2)');
    expect(scrubbedTemplate.name_key).toBe(fold(scrubbedTemplate.name));
    expect(scrubbedTemplate.search).toBe(fold(`${scrubbedTemplate.name}\n${scrubbedTemplate.content}`));
    expect(await one(server.db, sql`select name from message_attachments where id = ${certificate.id}`)).toEqual({
      name: 'Certificado Apoderado eliminado.pdf',
    });
    expect(existsSync(path.join(server.attachmentsDir, ...key.split('/')))).toBe(false);
    expect(await rows(server.db, sql`select id from messages where id = ${reply.id}`)).toEqual([]);
    const row = await one<{ first_names: string; erased: boolean }>(
      server.db,
      sql`select first_names, erased_at is not null as erased from guardians where id = ${g.id}`,
    );
    expect(row).toEqual({ first_names: 'Apoderado eliminado', erased: true });
    // The recipient rows stay, under the label: "1 apoderado", not a name.
    const names = await rows<{ display_name: string }>(
      server.db,
      sql`select distinct display_name from message_recipients where recipient_kind = 'apoderado' and recipient_ref_id = ${g.id}`,
    );
    expect(names).toEqual([{ display_name: 'Apoderado eliminado' }]);
    // No one to phone: out of their students' course pages and call lists (JSON and CSV), like one who left.
    const courses = await rows<{ course_id: number }>(
      server.db,
      sql`select distinct s.course_id from student_guardians sg join students s on s.id = sg.student_id
          where sg.guardian_id = ${g.id} and s.withdrawn_at is null`,
    );
    expect(courses.length).toBeGreaterThan(0);
    for (const { course_id } of courses) {
      const page = await json<{ students: { guardians: { id: number }[] }[] }>(
        await admin.get(`/api/dashboard/connectivity/courses/${course_id}`),
      );
      expect(page.students.flatMap((st) => st.guardians.map((o) => o.id))).not.toContain(g.id);
      const list = JSON.stringify(await json<unknown>(await admin.get(`/api/dashboard/connectivity/courses/${course_id}/call-list`)));
      expect(list).not.toContain('Apoderado eliminado');
      const csv = await admin.get(`/api/dashboard/connectivity/courses/${course_id}/call-list?format=csv`);
      expect(csv.status).toBe(200);
      expect(await csv.text()).not.toContain('Apoderado eliminado');
    }
  }, 120_000);
});

describe('erasing a student', () => {
  it('leaves no trace of them anywhere and every figure as it was', async () => {
    const s = await one<{ id: number }>(
      server.db,
      sql`select s.id from students s where s.institution_id = ${ids.school} and s.withdrawn_at is null and s.dni is not null
            and (select count(*) from students o where o.first_names = s.first_names and o.last_name_father = s.last_name_father
              and o.last_name_mother = s.last_name_mother) = 1
          order by s.id limit 1`,
    );
    await server.db.execute(sql`update students set email = ${`alumno${s.id}@example.cl`} where id = ${s.id}`);
    // A roster file's line with their fields one by one, the RUT with dots and their birth date.
    const who = await identityOf('estudiante', s.id);
    const digits = who.dni!.replace(/[^0-9Kk]/g, '');
    const dotted = `${Number(digits.slice(0, -1)).toLocaleString('es-CL')}-${digits.slice(-1)}`;
    const line = {
      line: 3,
      student: {
        first_names: who.first_names,
        last_name_father: who.last_name_father,
        last_name_mother: who.last_name_mother,
        dni: dotted,
        birth_date: '2012-03-04',
      },
      guardian: null,
    };
    const imported = await one<{ id: number }>(
      server.db,
      sql`insert into roster_imports (institution_id, file_name, file_hash, school_year, state, counts, rows, problems, people, roster_stamp)
          values (${ids.school}, 'nomina.xlsx', 'hash', 2026, 'applied', '{"rows": 1}'::jsonb, ${JSON.stringify([line])}::jsonb,
            '[]'::jsonb, ${JSON.stringify([{ kind: 'student', id: s.id, name: 'x', document: dotted, changes: [{ field: 'nombres', from: who.first_names, to: 'Otro', manual: false }] }])}::jsonb, 'stamp')
          returning id`,
    );
    await eraseAndCheck('estudiante', s.id);
    const left = await one<{ text: string; digits: string; counts: unknown }>(
      server.db,
      sql`select rows::text || problems::text || people::text as text, regexp_replace(rows::text || people::text, '[^0-9Kk]', '', 'g') as digits,
            counts from roster_imports where id = ${imported.id}`,
    );
    expect(left.digits).not.toContain(digits);
    expect(left.text).not.toContain(who.first_names);
    expect(left.text).not.toContain('2012-03-04');
    expect(left.counts).toEqual({ rows: 1 });
  }, 120_000);
});

describe('erasing a staff member', () => {
  it('leaves no trace of them, their login is gone and every figure as it was', async () => {
    const st = await one<{ id: number; user_id: number; email: string }>(
      server.db,
      sql`select st.id, st.user_id, u.email from staff st join users u on u.id = st.user_id
          where st.institution_id = ${ids.school} and u.email not in ('administrador@sanandres.cl', 'docente@sanandres.cl')
            and u.status = 'active' and exists (select 1 from messages m where m.author_user_id = u.id and m.kind = 'sent')
            and (select count(*) from staff o where o.first_names = st.first_names and o.last_name_father = st.last_name_father
              and o.last_name_mother = st.last_name_mother) = 1
          order by st.id limit 1`,
    );
    const colleague = server.client();
    expect((await colleague.login(st.email)).status).toBe(200);
    // Their login's name and e-mail drifted from the staff row (the people editor never updates users): the
    // throttled sign-ins and the staff changes hold the login's.
    const loginName = 'Ximena Valdivieso Irarrázaval';
    expect(await rows(server.db, sql`select 1 from users where name ilike ${`%${loginName}%`}`)).toEqual([]);
    await server.db.execute(sql`update users set name = ${loginName} where id = ${st.user_id}`);
    await server.db.execute(sql`update staff set email = ${`personal-${st.id}@example.cl`} where id = ${st.id}`);
    await server.db.execute(sql`insert into rate_limit_hits (scope, key, at) values ('login', ${`${st.email}|127.0.0.1`}, now())`);
    await server.db.execute(sql`insert into user_changes (institution_id, subject_user_id, actor_user_id, action, detail)
      values (${ids.school}, ${st.user_id}, ${ids.admin}, 'invited', ${JSON.stringify({ nombre: loginName, email: st.email })}::jsonb)`);
    // Their account e-mails in the outbox (no SMTP): an invitation to the login's address goes, another's stays.
    mkdirSync(server.outboxDir, { recursive: true });
    const invitation = path.join(server.outboxDir, `invitacion-${st.id}.eml`);
    const another = path.join(server.outboxDir, `invitacion-otra-${st.id}.eml`);
    writeFileSync(invitation, `From: hermes@example.cl\nTo: ${st.email}\nSubject: Invitación\n\nHola ${loginName}\n`);
    writeFileSync(another, 'From: hermes@example.cl\nTo: otra@example.cl\nSubject: Invitación\n\nHola\n');
    await eraseAndCheck('funcionario', st.id, [loginName, fold(loginName), st.email]);
    expect([existsSync(invitation), existsSync(another)]).toEqual([false, true]);
    expect((await colleague.get('/api/user')).status).toBe(401);
    expect((await server.client().login(st.email)).status).toBe(401);
    const user = await one<{ status: string; password_hash: string | null; email: string }>(
      server.db,
      sql`select status, password_hash, email from users where id = ${st.user_id}`,
    );
    expect(user).toEqual({ status: 'deactivated', password_hash: null, email: `eliminado-${st.user_id}@eliminado.invalid` });
  }, 120_000);
});

describe('a phone shared with a guardian of another school', () => {
  it('keeps that school’s inbound text, its app session and its rows out of the preview', async () => {
    const { authenticate, openSession } = await import('../../server/app-api/tokens');
    const g = await one<{ id: number; phone: string }>(
      server.db,
      sql`select g.id, g.phone from guardians g where g.institution_id = ${ids.school} and g.phone is not null and g.erased_at is null
            and (select count(*) from guardians o where o.phone = g.phone) = 1
          order by g.id desc limit 1`,
    );
    const other = await one<{ id: number; institution_id: number }>(
      server.db,
      sql`select g.id, g.institution_id from guardians g join institutions i on i.id = g.institution_id
          where i.name = 'Liceo Bicentenario Valle del Elqui' and g.erased_at is null order by g.id limit 1`,
    );
    const before = await json<ErasurePreview>(await admin.get(`/api/privacy/people/apoderado/${g.id}/erasure`));
    await server.db.execute(sql`update guardians set phone = ${g.phone} where id = ${other.id}`);
    const text = await one<{ id: number }>(
      server.db,
      sql`insert into messages (institution_id, sender_kind, sender_ref_id, sender_name, title, content, kind, sent_at, search)
          values (${other.institution_id}, 'apoderado', ${other.id}, 'Apoderado de Elqui', 'SMS', 'Hola Elqui', 'sent', now(), 'sms hola elqui')
          returning id`,
    );
    const inbound = await one<{ id: number }>(
      server.db,
      sql`insert into inbound_messages (channel, phone, provider, provider_id, received_at, body, outcome)
          values ('sms', ${g.phone}, 'twilio', ${`SM-shared-${g.id}`}, now(), 'Hola Elqui', 'school_inbox') returning id`,
    );
    await server.db.execute(sql`insert into inbound_message_targets (inbound_id, message_id, institution_id, guardian_id)
      values (${inbound.id}, ${text.id}, ${other.institution_id}, ${other.id})`);
    const { token } = await openSession(server.db, { id: other.id, institutionId: other.institution_id, phone: g.phone }, new Date());
    await server.db.execute(
      sql`insert into app_login_codes (phone, code_hash, expires_at) values (${g.phone}, 'shared-code', now() + interval '5 minutes')`,
    );

    const preview = await json<ErasurePreview>(await admin.get(`/api/privacy/people/apoderado/${g.id}/erasure`));
    expect(preview.conteos).toEqual(before.conteos);
    const result = await json<ErasureResult>(
      await admin.post(`/api/privacy/people/apoderado/${g.id}/erasure`, { confirmacion: 'ELIMINAR' }),
    );
    expect(result.conteos).toEqual(preview.conteos);

    expect(await rows(server.db, sql`select id from inbound_messages where id = ${inbound.id}`)).toHaveLength(1);
    expect(await rows(server.db, sql`select id from inbound_message_targets where inbound_id = ${inbound.id}`)).toHaveLength(1);
    expect(await rows(server.db, sql`select phone from app_login_codes where code_hash = 'shared-code'`)).toHaveLength(1);
    expect((await authenticate(server.db, token, new Date()))?.guardianId).toBe(other.id);

    // The people editor cannot put a name back on them.
    const edit = await admin.fetch(`/api/people/apoderado/${g.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ nombres: 'Juan' }),
    });
    expect(edit.status).toBe(409);
    const body = (await edit.json()) as { code: string; message: string };
    expect(body.code).toBe('privacy.erased');
    expect(body.message).toMatch(/eliminada/);
  });
});

describe('a Mexican school', () => {
  it('calls the erased person in its own words', async () => {
    const mx = server.client();
    expect((await mx.login('administrador@benitojuarez.edu.mx')).status).toBe(200);
    const g = await one<{ id: number }>(
      server.db,
      sql`select g.id from guardians g join institutions i on i.id = g.institution_id
          where i.country = 'MX' and g.erased_at is null order by g.id desc limit 1`,
    );
    // The confirmation as typed, with its spaces.
    expect((await mx.post(`/api/privacy/people/apoderado/${g.id}/erasure`, { confirmacion: ' ELIMINAR ' })).status).toBe(200);
    const row = await one<{ first_names: string }>(server.db, sql`select first_names from guardians where id = ${g.id}`);
    expect(row.first_names).toBe('Padre o tutor eliminado');
    const names = await rows<{ display_name: string }>(
      server.db,
      sql`select distinct display_name from message_recipients where recipient_kind = 'apoderado' and recipient_ref_id = ${g.id}`,
    );
    expect(names.every((n) => n.display_name === 'Padre o tutor eliminado')).toBe(true);
  });
});

describe('the routes', () => {
  it('an unknown path under a person is not found, even for a teacher', async () => {
    expect((await admin.get('/api/privacy/people/apoderado/1/nada')).status).toBe(404);
    expect((await teacher.get('/api/privacy/people/apoderado/1/nada')).status).toBe(404);
  });
});

describe('the school’s administrators', () => {
  it('an administrator cannot erase themselves, nor the school’s last active administrator', async () => {
    const own = await one<{ id: number }>(server.db, sql`select id from staff where user_id = ${ids.admin}`);
    const self = await json<ErasurePreview>(await admin.get(`/api/privacy/people/funcionario/${own.id}/erasure`));
    expect(self.impedimento?.codigo).toBe('privacy.self');
    const refused = await admin.post(`/api/privacy/people/funcionario/${own.id}/erasure`, { confirmacion: 'ELIMINAR' });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { code: string }).code).toBe('privacy.self');

    // One administrator left in the school; a colleague made director asks to erase them.
    await server.db.execute(sql`delete from user_roles r using users u where u.id = r.user_id and u.institution_id = ${ids.school}
      and u.id <> ${ids.admin} and r.code = 'colegio-administrador'`);
    await server.db.execute(sql`insert into user_roles (user_id, code, name) select id, 'colegio-director', 'Director' from users
      where email = 'docente@sanandres.cl' on conflict do nothing`);
    const director = server.client();
    expect((await director.login('docente@sanandres.cl')).status).toBe(200);
    const preview = await json<ErasurePreview>(await director.get(`/api/privacy/people/funcionario/${own.id}/erasure`));
    expect(preview.impedimento).toMatchObject({ codigo: 'staff.last_admin' });
    const last = await director.post(`/api/privacy/people/funcionario/${own.id}/erasure`, { confirmacion: 'ELIMINAR' });
    expect(last.status).toBe(409);
    const body = (await last.json()) as { code: string; message: string };
    expect(body.code).toBe('staff.last_admin');
    expect(body.message).toMatch(/al menos un administrador/);
    expect((await server.client().login('administrador@sanandres.cl')).status).toBe(200);
    expect(
      (await one<{ erased: boolean }>(server.db, sql`select erased_at is not null as erased from staff where id = ${own.id}`)).erased,
    ).toBe(false);
  });
});
