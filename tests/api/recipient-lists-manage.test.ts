// Managing recipient lists (shared/recipient-lists-contract.ts) against the real server on a private seeded
// database: paging and search, create from the picker's selection, rename and share, members, stale members,
// a member's person record with its Spanish field errors, trash / restore / forever, the 409 while a
// scheduled message uses a list, and the 404s: another user's unshared list, a colleague's shared list on
// the owner-only calls, another school's list.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecipientPick } from '../../shared/compose-contract';
import type { NumberedPage } from '../../shared/recipient-lists-contract';
import type { ApiError } from '../../shared/contract';
import { PERSON_ERRORS, PERSON_ERRORS_MX } from '../../shared/person-rules';
import type { RecipientListMember, RecipientListSummary, TrashedRecipientList, UserToEdit } from '../../shared/recipient-lists-contract';
import { RECIPIENT_LISTS_API as API } from '../../shared/recipient-lists-contract';
import { LIST_MESSAGES } from '../../server/recipient-lists/texts';
import { composeInput } from '../fixtures/compose';
import { count, one, rows, send } from './support/compose';
import { signedIn, startServer, type Client, type TestServer } from './support/server';

let server: TestServer;
let admin: Client;
let docente: Client;
let utp: Client;
let elqui: Client;
let juarez: Client;
let sanAndres: number;

beforeAll(async () => {
  server = await startServer();
  const as = signedIn(() => server);
  admin = await as('administrador@sanandres.cl');
  docente = await as('docente@sanandres.cl');
  utp = await as('utp@sanandres.cl');
  elqui = await as('administrador@liceoelqui.cl');
  juarez = await as('administrador@benitojuarez.edu.mx');
  sanAndres = (await one<{ id: number }>(server.db, sql`select id from institutions where name = 'Colegio San Andrés de Ñuñoa'`)).id;
});
afterAll(async () => {
  await server?.close();
});

const api = (path: string) => `/api${path}`;
const call = (client: Client, method: string, path: string, body?: unknown) =>
  client.fetch(api(path), {
    method,
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function ok<T>(res: Response, status = 200): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return JSON.parse(text) as T;
}
async function errorsOf(res: Response, status = 422): Promise<Record<string, string[]>> {
  const body = await ok<ApiError>(res, status);
  return body.errors ?? {};
}

const listId = async (name: string) => (await one<{ id: number }>(server.db, sql`select id from recipient_lists where name = ${name}`)).id;

/** A course of San Andrés with at least `n` enrolled students, and its enrolled students. */
async function courseWith(n: number, skip = 0): Promise<{ id: number; students: number[] }> {
  const course = await one<{ id: number }>(
    server.db,
    sql`select c.id from courses c join students s on s.course_id = c.id and s.withdrawn_at is null
        where c.institution_id = ${sanAndres} and c.group_type = 'curso'
        group by c.id having count(*) >= ${n} order by c.id offset ${skip} limit 1`,
  );
  const students = await rows<{ id: number }>(
    server.db,
    sql`select id from students where course_id = ${course.id} and withdrawn_at is null order by id`,
  );
  return { id: course.id, students: students.map((s) => Number(s.id)) };
}

const create = (client: Client, name: string, picks: RecipientPick[], shared?: boolean) =>
  call(client, 'POST', API.lists, shared === undefined ? { name, picks } : { name, picks, shared });
async function created(client: Client, name: string, picks: RecipientPick[], shared?: boolean): Promise<RecipientListSummary> {
  return (await ok<{ data: RecipientListSummary }>(await create(client, name, picks, shared), 201)).data;
}
const members = async (client: Client, id: number) =>
  (await ok<{ data: RecipientListMember[] }>(await client.get(api(`/recipient-lists/${id}/users`)))).data;

describe('who may call what', () => {
  it('every route needs a session', async () => {
    const anonymous = server.client();
    await anonymous.get('/api/csrf-cookie');
    for (const [method, path] of [
      ['GET', API.lists],
      ['GET', API.trash],
      ['POST', API.lists],
      ['GET', API.list(1)],
      ['PATCH', API.list(1)],
      ['DELETE', API.list(1)],
      ['POST', API.members(1)],
      ['DELETE', API.member(1, 1)],
      ['POST', API.removeStale(1)],
      ['GET', API.user(1, 1)],
      ['PATCH', API.user(1, 1)],
      ['POST', API.restore(1)],
      ['DELETE', API.forever(1)],
    ] as const) {
      const res = await call(anonymous, method, path, method === 'GET' || method === 'DELETE' ? undefined : {});
      expect(res.status, `${method} ${path}`).toBe(401);
    }
  });

  it('another school’s list is a 404 on every route, and so are made-up ids', async () => {
    const id = await listId('Directiva del Centro de Padres');
    const member = (await members(admin, id))[0]!.id;
    for (const client of [elqui, juarez]) {
      for (const [method, path, body] of [
        ['GET', API.list(id)],
        ['GET', `/recipient-lists/${id}/users`],
        ['PATCH', API.list(id), { name: 'Mía' }],
        ['DELETE', API.list(id)],
        ['POST', API.members(id), { picks: [{ kind: 'staff', id: 1 }] }],
        ['DELETE', API.member(id, member)],
        ['POST', API.removeStale(id)],
        ['GET', API.user(id, member)],
        ['PATCH', API.user(id, member), { nombres: 'X' }],
        ['POST', API.restore(id)],
        ['DELETE', API.forever(id)],
      ] as const) {
        expect((await call(client, method, path, body)).status, `${method} ${path}`).toBe(404);
      }
      const listed = await ok<NumberedPage<RecipientListSummary>>(await client.get(api(API.lists)));
      expect(listed.data.map((l) => l.id)).not.toContain(id);
    }
    for (const bad of ['0', 'abc', '99999999', '-1']) expect((await admin.get(api(`/recipient-lists/${bad}`))).status, bad).toBe(404);
    expect((await admin.get(api(API.user(id, 99_999_999)))).status).toBe(404);
  });
});

describe('paged list and search', () => {
  it('appends pages of own and shared lists, newest change first, and filters by name without accents or case', async () => {
    const course = await courseWith(3);
    for (const name of ['Reunión 1', 'Reunion 2', 'REUNIÓN 3', 'Talleres', 'Salida pedagógica']) {
      await created(utp, name, [{ kind: 'course', id: course.id, audience: 'titulares' }]);
    }
    const all = await ok<NumberedPage<RecipientListSummary>>(await utp.get(api(`${API.lists}?per_page=100`)));
    // "Cargar más": page after page until `next` is null gives every list once.
    const seen: RecipientListSummary[] = [];
    let link: string | null = api(`${API.lists}?page=1&per_page=2`);
    while (link) {
      const page: NumberedPage<RecipientListSummary> = await ok(await utp.get(link));
      expect(page.meta.per_page).toBe(2);
      expect(page.meta.total).toBe(all.meta.total);
      seen.push(...page.data);
      link = page.links.next;
    }
    expect(seen.map((l) => l.id)).toEqual(all.data.map((l) => l.id));
    expect(new Set(seen.map((l) => l.id)).size).toBe(seen.length);
    const times = all.data.map((l) => l.updated_at);
    expect([...times].sort().reverse()).toEqual(times);
    // The administrator's shared list is among them, marked as not the user's.
    const shared = all.data.find((l) => l.name === 'Equipo de convivencia escolar')!;
    expect(shared).toMatchObject({ shared: true, is_owner: false, owner_name: expect.any(String) });
    expect(all.data.find((l) => l.name === 'Talleres')).toMatchObject({ shared: false, is_owner: true, stale_count: 0 });

    for (const q of ['reunion', 'REUNIÓN', 'ReUnIoN ']) {
      const found = await ok<NumberedPage<RecipientListSummary>>(await utp.get(api(`${API.lists}?q=${encodeURIComponent(q)}&per_page=2`)));
      expect(found.meta.total, q).toBe(3);
      expect(found.links.next).toBe(`/api/recipient-lists?page=2&per_page=2&q=${encodeURIComponent(q.trim())}`);
    }
    const none = await ok<NumberedPage<RecipientListSummary>>(await utp.get(api(`${API.lists}?q=100%25`)));
    expect(none).toEqual({ data: [], meta: { current_page: 1, last_page: 1, per_page: 15, total: 0 }, links: { next: null, prev: null } });
    const past = await ok<NumberedPage<RecipientListSummary>>(await utp.get(api(`${API.lists}?page=9&per_page=2&q=reunion`)));
    expect(past).toMatchObject({
      data: [],
      meta: { total: 3, last_page: 2 },
      links: { next: null, prev: '/api/recipient-lists?page=2&per_page=2&q=reunion' },
    });
  });

  it('refuses malformed paging and an overlong search with Spanish field errors', async () => {
    expect(await errorsOf(await admin.get(api(`${API.lists}?page=0&per_page=101&q=${'x'.repeat(101)}`)))).toEqual({
      page: [LIST_MESSAGES.page],
      per_page: [LIST_MESSAGES.perPage],
      q: [LIST_MESSAGES.q],
    });
    expect(await errorsOf(await admin.get(api(`${API.trash}?page=x`)))).toEqual({ page: [LIST_MESSAGES.page] });
  });
});

describe('create', () => {
  it('expands the picker’s selection into distinct people, each once, keeping their course', async () => {
    const course = await courseWith(4);
    const [s1] = course.students;
    const titular = await one<{ id: number }>(
      server.db,
      sql`select guardian_id as id from student_guardians where student_id = ${s1} and role = 1`,
    );
    const staffRow = await one<{ id: number }>(
      server.db,
      sql`select id from staff where institution_id = ${sanAndres} order by id limit 1`,
    );
    const picks: RecipientPick[] = [
      { kind: 'course', id: course.id, audience: 'titulares' },
      { kind: 'guardian', id: titular.id }, // already a titular of the course
      { kind: 'student', id: s1!, audience: 'titulares' }, // the same family again
      { kind: 'course', id: course.id, audience: 'estudiantes' },
      { kind: 'staff', id: staffRow.id },
      { kind: 'staff', id: staffRow.id },
    ];
    const list = await created(admin, '  Apoderados   y alumnos ', picks);
    const titulares = await count(
      server.db,
      sql`select count(distinct sg.guardian_id) as n from student_guardians sg
      join students s on s.id = sg.student_id where s.course_id = ${course.id} and s.withdrawn_at is null and sg.role = 1`,
    );
    expect(list).toMatchObject({
      name: 'Apoderados y alumnos',
      users_count: titulares + course.students.length + 1,
      shared: false,
      is_owner: true,
      stale_count: 0,
    });
    const people = await members(admin, list.id);
    expect(people).toHaveLength(list.users_count);
    expect(new Set(people.map((p) => `${p.user_type}:${p.user_id}`)).size).toBe(people.length);
    for (const p of people.filter((p) => p.user_type !== 'funcionario')) {
      expect(p).toMatchObject({ group_id: course.id, stale: null });
      if (p.user_type === 'apoderado') expect(p.device_status).toMatch(/^(blue|green|yellow|red)$/);
    }
    // Each member's document (searched and shown by the list screen) is the person's record's; staff have none.
    const documents = await rows<{ kind: string; id: number; dni: string | null }>(
      server.db,
      sql`
      select 'apoderado' as kind, id, dni from guardians where institution_id = ${sanAndres}
      union all select 'estudiante', id, dni from students where institution_id = ${sanAndres}`,
    );
    const dniOf = new Map(documents.map((d) => [`${d.kind}:${Number(d.id)}`, d.dni]));
    expect(people.map((p) => p.dni)).toEqual(
      people.map((p) => (p.user_type === 'funcionario' ? null : dniOf.get(`${p.user_type}:${p.user_id}`))),
    );
    expect(people.filter((p) => p.dni !== null).length).toBeGreaterThan(0);
    const stored = await rows<{ course_id: number | null }>(
      server.db,
      sql`select course_id from recipient_list_members where list_id = ${list.id} and member_kind <> 'funcionario'`,
    );
    expect(stored.every((r) => Number(r.course_id) === course.id)).toBe(true);
  });

  it('refuses a bad name, a taken name, a bad flag and bad or foreign picks, with Spanish field errors', async () => {
    const course = await courseWith(1);
    const good: RecipientPick[] = [{ kind: 'course', id: course.id, audience: 'apoderados' }];
    const before = await count(server.db, sql`select count(*) as n from recipient_lists`);
    expect(await errorsOf(await create(admin, '   ', good))).toEqual({ name: [LIST_MESSAGES.name] });
    expect(await errorsOf(await create(admin, 'x'.repeat(81), good))).toEqual({ name: [LIST_MESSAGES.nameLong] });
    expect(await errorsOf(await create(admin, 'directiva del centro de padres', good))).toEqual({ name: [LIST_MESSAGES.nameTaken] });
    expect(await errorsOf(await call(admin, 'POST', API.lists, { name: 'Ok', picks: good, shared: 'sí' }))).toEqual({
      shared: [LIST_MESSAGES.shared],
    });
    expect(await errorsOf(await create(admin, 'Ok', []))).toEqual({ picks: [LIST_MESSAGES.picks] });
    expect(await errorsOf(await call(admin, 'POST', API.lists, { name: 'Ok' }))).toEqual({ picks: [LIST_MESSAGES.picksInvalid] });
    expect(await errorsOf(await create(admin, 'Ok', [{ kind: 'course', id: course.id } as never]))).toEqual({
      picks: [LIST_MESSAGES.picksInvalid],
    });
    const foreignCourse = await one<{ id: number }>(server.db, sql`select id from courses where institution_id <> ${sanAndres} limit 1`);
    expect(await errorsOf(await create(admin, 'Ok', [{ kind: 'course', id: foreignCourse.id, audience: 'apoderados' }]))).toEqual({
      picks: ['Algunos destinatarios elegidos no existen o no pertenecen a tu colegio.'],
    });
    const empty = await one<{ id: number }>(
      server.db,
      sql`select e.id from electives e where e.institution_id = ${sanAndres}
      and not exists (select 1 from elective_students es where es.elective_id = e.id) limit 1`,
    );
    expect(await errorsOf(await create(admin, 'Ok', [{ kind: 'elective', id: empty.id, audience: 'apoderados' }]))).toEqual({
      picks: [LIST_MESSAGES.picksEmpty],
    });
    expect(await errorsOf(await call(admin, 'POST', API.lists, 'nada'))).toEqual({
      name: [LIST_MESSAGES.name],
      picks: [LIST_MESSAGES.picks],
    });
    expect(await count(server.db, sql`select count(*) as n from recipient_lists`)).toBe(before);
  });

  it('a list pick copies a visible list’s members; another user’s unshared list is foreign', async () => {
    const shared = await listId('Equipo de convivencia escolar');
    const copy = await created(docente, 'Convivencia (copia)', [{ kind: 'recipient-list', id: shared }]);
    expect(copy.users_count).toBe((await members(admin, shared)).length);
    const unshared = await listId('Directiva del Centro de Padres');
    expect(await errorsOf(await create(docente, 'Robada', [{ kind: 'recipient-list', id: unshared }]))).toEqual({
      picks: ['Algunos destinatarios elegidos no existen o no pertenecen a tu colegio.'],
    });
  });
});

describe('sharing', () => {
  it('a shared list is read and used by colleagues, changed only by its owner; unsharing takes it back', async () => {
    const course = await courseWith(2);
    const list = await created(admin, 'Compartida de prueba', [{ kind: 'course', id: course.id, audience: 'titulares' }], true);
    expect(list.shared).toBe(true);
    expect((await ok<{ data: RecipientListSummary }>(await docente.get(api(API.list(list.id))))).data).toMatchObject({
      is_owner: false,
      shared: true,
    });
    const people = await members(docente, list.id);
    expect((await docente.get(api(API.user(list.id, people[0]!.id)))).status).toBe(200);
    // Owner-only calls: a 404 for the colleague, and nothing changes.
    for (const [method, path, body] of [
      ['PATCH', API.list(list.id), { name: 'Mía' }],
      ['DELETE', API.list(list.id)],
      ['POST', API.members(list.id), { picks: [{ kind: 'course', id: course.id, audience: 'suplentes' }] }],
      ['DELETE', API.member(list.id, people[0]!.id)],
      ['POST', API.removeStale(list.id)],
      ['POST', API.restore(list.id)],
      ['DELETE', API.forever(list.id)],
    ] as const) {
      expect((await call(docente, method, path, body)).status, `${method} ${path}`).toBe(404);
    }
    // A person's data is the school's, not the list's: a teacher may not change it through any list.
    expect((await call(docente, 'PATCH', API.user(list.id, people[0]!.id), { nombres: 'Otro' })).status).toBe(403);
    expect((await members(admin, list.id)).length).toBe(list.users_count);
    // The colleague can send to it.
    const body = composeInput({ recipients: [{ kind: 'recipient-list', id: list.id }] });
    expect((await send(docente, body)).status).toBe(201);

    const unshared = await ok<{ data: RecipientListSummary }>(await call(admin, 'PATCH', API.list(list.id), { shared: false }));
    expect(unshared.data.shared).toBe(false);
    expect((await docente.get(api(API.list(list.id)))).status).toBe(404);
    expect((await docente.get(api(`/recipient-lists/${list.id}/users`))).status).toBe(404);
    expect((await docente.get(api(API.user(list.id, people[0]!.id)))).status).toBe(404);
    expect((await errorsOf(await send(docente, body))).recipients).toEqual([
      'Algunos destinatarios elegidos no existen o no pertenecen a tu colegio.',
    ]);
  });

  it('renames, refusing empty, overlong and taken names and a body with nothing to change', async () => {
    const id = await listId('Delegados de curso Enseñanza Media');
    const before = (await ok<{ data: RecipientListSummary }>(await admin.get(api(API.list(id))))).data;
    const renamed = (await ok<{ data: RecipientListSummary }>(await call(admin, 'PATCH', API.list(id), { name: 'Delegados de Media' })))
      .data;
    expect(renamed).toMatchObject({ id, name: 'Delegados de Media', users_count: before.users_count });
    expect(renamed.updated_at > before.updated_at).toBe(true);
    expect(await errorsOf(await call(admin, 'PATCH', API.list(id), { name: '' }))).toEqual({ name: [LIST_MESSAGES.name] });
    expect(await errorsOf(await call(admin, 'PATCH', API.list(id), { name: 'y'.repeat(81) }))).toEqual({ name: [LIST_MESSAGES.nameLong] });
    expect(await errorsOf(await call(admin, 'PATCH', API.list(id), { name: 'Equipo de Convivencia Escolar' }))).toEqual({
      name: [LIST_MESSAGES.nameTaken],
    });
    expect(await errorsOf(await call(admin, 'PATCH', API.list(id), { shared: 1 }))).toEqual({ shared: [LIST_MESSAGES.shared] });
    expect(await errorsOf(await call(admin, 'PATCH', API.list(id), {}))).toEqual({ name: [LIST_MESSAGES.nothing] });
    // Its own name, in other letters, is not "taken".
    expect((await call(admin, 'PATCH', API.list(id), { name: 'DELEGADOS de media' })).status).toBe(200);
  });
});

describe('members', () => {
  it('adds picks without duplicates and removes one member', async () => {
    const [a, b] = [await courseWith(2, 0), await courseWith(2, 1)];
    const list = await created(admin, 'Dos cursos', [{ kind: 'course', id: a.id, audience: 'estudiantes' }]);
    expect(list.users_count).toBe(a.students.length);
    const grown = (
      await ok<{ data: RecipientListSummary }>(
        await call(admin, 'POST', API.members(list.id), {
          picks: [
            { kind: 'course', id: a.id, audience: 'estudiantes' },
            { kind: 'course', id: b.id, audience: 'estudiantes' },
          ],
        }),
      )
    ).data;
    expect(grown.users_count).toBe(a.students.length + b.students.length);
    expect(await errorsOf(await call(admin, 'POST', API.members(list.id), { picks: [] }))).toEqual({ picks: [LIST_MESSAGES.picks] });
    // Everyone already in: nothing changes, no error; groups with nobody in them: said so.
    const same = await ok<{ data: RecipientListSummary }>(
      await call(admin, 'POST', API.members(list.id), { picks: [{ kind: 'course', id: b.id, audience: 'estudiantes' }] }),
    );
    expect(same.data).toMatchObject({ users_count: grown.users_count, updated_at: grown.updated_at });
    const empty = await one<{ id: number }>(
      server.db,
      sql`select e.id from electives e where e.institution_id = ${sanAndres}
      and not exists (select 1 from elective_students es where es.elective_id = e.id) limit 1`,
    );
    expect(
      await errorsOf(
        await call(admin, 'POST', API.members(list.id), { picks: [{ kind: 'elective', id: empty.id, audience: 'apoderados' }] }),
      ),
    ).toEqual({ picks: [LIST_MESSAGES.picksEmpty] });

    const first = (await members(admin, list.id))[0]!;
    expect((await call(admin, 'DELETE', API.member(list.id, first.id))).status).toBe(204);
    expect((await members(admin, list.id)).map((m) => m.id)).not.toContain(first.id);
    expect((await call(admin, 'DELETE', API.member(list.id, first.id))).status).toBe(404);
    // A member of another list is not this list's.
    const other = (await members(admin, await listId('Directiva del Centro de Padres')))[0]!;
    expect((await call(admin, 'DELETE', API.member(list.id, other.id))).status).toBe(404);
    expect((await ok<{ data: RecipientListSummary }>(await admin.get(api(API.list(list.id))))).data.users_count).toBe(
      grown.users_count - 1,
    );
  });

  it('flags members no longer enrolled or in another course, removes them on request, and course picks skip them', async () => {
    const id = await listId('Directiva del Centro de Padres');
    const summary = (await ok<{ data: RecipientListSummary }>(await admin.get(api(API.list(id))))).data;
    expect(summary.stale_count).toBe(3);
    const people = await members(admin, id);
    expect(people.filter((p) => p.stale === 'not_enrolled')).toHaveLength(2);
    expect(people.filter((p) => p.stale === 'course_changed')).toHaveLength(1);

    // A student who leaves now: course picks no longer reach them, lists holding them flag them.
    const course = await courseWith(3, 2);
    const list = await created(admin, 'Curso que cambia', [{ kind: 'course', id: course.id, audience: 'estudiantes' }]);
    const [leaving, moving] = course.students;
    await server.db.execute(sql`update students set withdrawn_at = now() where id = ${leaving}`);
    const otherCourse = await courseWith(1, 5);
    await server.db.execute(sql`update students set course_id = ${otherCourse.id} where id = ${moving}`);
    const again = await members(admin, list.id);
    expect(again.find((p) => p.user_id === leaving)!.stale).toBe('not_enrolled');
    expect(again.find((p) => p.user_id === moving)!.stale).toBe('course_changed');
    const fresh = await created(admin, 'Curso actual', [{ kind: 'course', id: course.id, audience: 'estudiantes' }]);
    expect(fresh.users_count).toBe(course.students.length - 2);

    const removed = await ok<{ data: { removed: number } }>(await call(admin, 'POST', API.removeStale(id)));
    expect(removed.data.removed).toBe(3);
    expect((await ok<{ data: RecipientListSummary }>(await admin.get(api(API.list(id))))).data).toMatchObject({
      stale_count: 0,
      users_count: summary.users_count - 3,
    });
    expect((await ok<{ data: { removed: number } }>(await call(admin, 'POST', API.removeStale(id)))).data.removed).toBe(0);
  });
});

describe('a member’s person record', () => {
  async function guardianMember(client: Client, list: number) {
    return (await members(client, list)).find((p) => p.user_type === 'apoderado' && p.stale === null)!;
  }

  it('reads the SPEC “User to edit” fields', async () => {
    const id = await listId('Reforzamiento de Matemática');
    const m = await guardianMember(docente, id);
    const g = await one<{
      first_names: string;
      last_name_father: string;
      last_name_mother: string;
      dni: string;
      phone: string | null;
      email: string | null;
    }>(server.db, sql`select * from guardians where id = ${m.user_id}`);
    const expected = {
      user_type: 'apoderado',
      id: m.user_id,
      ficha_adulto_id: m.user_id,
      ficha_estudiante_id: m.student_id,
      fono_celular: g.phone,
      email: g.email,
      dni: g.dni,
      tipo_documento_id: 1,
      nombres: g.first_names,
      apellido_paterno: g.last_name_father,
      apellido_materno: g.last_name_mother,
      name: m.name,
    };
    // The teacher reads the record but may not change it; an administrator may.
    expect((await ok<{ data: UserToEdit }>(await docente.get(api(API.user(id, m.id))))).data).toEqual({ ...expected, can_edit: false });
    const shared = await created(admin, 'Para leer la ficha', [{ kind: 'guardian', id: m.user_id }]);
    const mine = (await members(admin, shared.id))[0]!;
    expect((await ok<{ data: UserToEdit }>(await admin.get(api(API.user(shared.id, mine.id))))).data).toEqual({
      ...expected,
      ficha_estudiante_id: mine.student_id,
      can_edit: true,
    });
  });

  it('refuses bad values field by field, changing nothing; a good edit reaches every list and the picker', async () => {
    const id = await listId('Reforzamiento de Matemática');
    const inTheirs = await guardianMember(docente, id);
    // The administrator reaches the same guardian through a list of their own.
    const own = await created(admin, 'Ficha de una apoderada', [{ kind: 'guardian', id: inTheirs.user_id }]);
    const m = (await members(admin, own.id))[0]!;
    const before = await one<Record<string, unknown>>(server.db, sql`select * from guardians where id = ${m.user_id}`);
    const edit = (body: object) => call(admin, 'PATCH', API.user(own.id, m.id), body);
    expect(
      await errorsOf(
        await edit({
          nombres: ' ',
          apellido_paterno: '',
          email: 'ana@',
          fono_celular: '+49 151 2345 6789',
          dni: '12.345.678-4',
          tipo_documento_id: 1,
        }),
      ),
    ).toEqual({
      nombres: [PERSON_ERRORS.nombresRequired],
      apellido_paterno: [PERSON_ERRORS.apellidoRequired],
      email: [PERSON_ERRORS.email],
      fono_celular: [PERSON_ERRORS.phonePrefix],
      dni: [PERSON_ERRORS.rutCheck],
    });
    expect(await errorsOf(await edit({ fono_celular: '+56 2 2345 6789' }))).toEqual({ fono_celular: [PERSON_ERRORS.phoneNotMobile] });
    expect(await errorsOf(await edit({ fono_celular: '+56 9 12' }))).toEqual({ fono_celular: [PERSON_ERRORS.phoneShape] });
    expect(await errorsOf(await edit({ fono_celular: '+52 00 0000 0000' }))).toEqual({ fono_celular: [PERSON_ERRORS.phoneInvalid] });
    expect(await errorsOf(await edit({ dni: 'HEGG560427MVZRRL04', tipo_documento_id: 7 }))).toEqual({
      tipo_documento_id: [PERSON_ERRORS.documentType],
    });
    expect(await one(server.db, sql`select * from guardians where id = ${m.user_id}`)).toEqual(before);

    const res = await ok<{ data: UserToEdit; message: string }>(
      await edit({
        nombres: ' Carmen  Gloria ',
        fono_celular: '9 8765 4321',
        email: 'CG@Example.cl',
        dni: '10.000.013-k',
        tipo_documento_id: 1,
      }),
    );
    expect(res.data).toMatchObject({
      nombres: 'Carmen Gloria',
      fono_celular: '+56987654321',
      email: 'cg@example.cl',
      dni: '10000013-K',
      tipo_documento_id: 1,
    });
    expect(res.message).toBe(LIST_MESSAGES.personSaved(res.data.name));
    expect(res.message).toContain('todas las listas y en los próximos mensajes');
    // The same guardian in another user's list.
    const elsewhere = (await members(docente, id)).find((p) => p.user_id === m.user_id && p.user_type === 'apoderado')!;
    expect(elsewhere).toMatchObject({ name: res.data.name, phone: '+56987654321', email: 'cg@example.cl', dni: '10000013-K' });
    const picker = (
      await ok<{ data: { courses: { apoderados: { id: number; ficha_apoderado: { fono_celular: string | null } }[] }[] } }>(
        await admin.get('/api/recipients'),
      )
    ).data;
    const card = picker.courses.flatMap((c) => c.apoderados).find((g) => g.id === m.user_id)!;
    expect(card.ficha_apoderado.fono_celular).toBe('+56987654321');
    // Emptying the e-mail clears it.
    expect((await ok<{ data: UserToEdit }>(await edit({ email: '' }))).data.email).toBeNull();
  });

  it('students keep no phone; staff records are changed by the leadership only', async () => {
    const id = await listId('Reforzamiento de Matemática');
    const child = (await members(docente, id)).find((p) => p.user_type === 'estudiante')!;
    const students = await created(admin, 'Con un estudiante', [{ kind: 'student', id: child.user_id, audience: 'estudiantes' }]);
    const student = (await members(admin, students.id)).find((p) => p.user_type === 'estudiante')!;
    expect(await errorsOf(await call(admin, 'PATCH', API.user(students.id, student.id), { fono_celular: '+56 9 8765 4321' }))).toEqual({
      fono_celular: [PERSON_ERRORS.phoneStudent],
    });

    const staffRow = await one<{ id: number }>(
      server.db,
      sql`select id from staff where institution_id = ${sanAndres} and user_id is null order by id limit 1`,
    );
    const mine = await created(docente, 'Con un colega', [{ kind: 'staff', id: staffRow.id }]);
    const colleague = (await members(docente, mine.id))[0]!;
    const denied = await call(docente, 'PATCH', API.user(mine.id, colleague.id), { email: 'nuevo@sanandres.cl' });
    expect(denied.status).toBe(403);
    expect((await denied.json()) as ApiError).toMatchObject({ code: 'auth.forbidden', message: LIST_MESSAGES.staffEdit });
    const theirs = await created(admin, 'Con un colega (admin)', [{ kind: 'staff', id: staffRow.id }]);
    const member = (await members(admin, theirs.id))[0]!;
    const saved = await ok<{ data: UserToEdit }>(
      await call(admin, 'PATCH', API.user(theirs.id, member.id), { email: 'nuevo@sanandres.cl', fono_celular: '+56 9 5555 1234' }),
    );
    expect(saved.data).toMatchObject({ user_type: 'funcionario', email: 'nuevo@sanandres.cl', fono_celular: '+56955551234', dni: null });
    expect(await errorsOf(await call(admin, 'PATCH', API.user(theirs.id, member.id), { dni: '12345678-5' }))).toEqual({
      dni: [PERSON_ERRORS.staffDocument],
    });
    // As the contact editor sends it: every field, the empty document as nulls.
    const asEditor = {
      nombres: 'Ana',
      apellido_paterno: 'Rojas',
      email: 'otro@sanandres.cl',
      fono_celular: '+56955551234',
      dni: null,
      tipo_documento_id: null,
    };
    expect((await ok<{ data: UserToEdit }>(await call(admin, 'PATCH', API.user(theirs.id, member.id), asEditor))).data).toMatchObject({
      email: 'otro@sanandres.cl',
      dni: null,
    });
  });

  it('checks a CURP and a Mexican mobile in Mexico', async () => {
    const id = await listId('Comité de padres de familia');
    const m = await guardianMember(juarez, id);
    const edit = (body: object) => call(juarez, 'PATCH', API.user(id, m.id), body);
    expect(await errorsOf(await edit({ dni: 'HEGG560427MVZRRL05', tipo_documento_id: 2 }))).toEqual({ dni: [PERSON_ERRORS.curpCheck] });
    expect(await errorsOf(await edit({ dni: 'ABC', tipo_documento_id: 2 }))).toEqual({ dni: [PERSON_ERRORS.curpShape] });
    // Mexican examples in the texts of a Mexican school.
    expect(await errorsOf(await edit({ fono_celular: '12', email: 'x' }))).toEqual({
      fono_celular: [PERSON_ERRORS_MX.phoneShape],
      email: [PERSON_ERRORS_MX.email],
    });
    const saved = await ok<{ data: UserToEdit }>(
      await edit({ dni: 'hegg560427mvzrrl04', tipo_documento_id: 2, fono_celular: '55 1234 5678' }),
    );
    expect(saved.data).toMatchObject({ dni: 'HEGG560427MVZRRL04', tipo_documento_id: 2, fono_celular: '+525512345678' });
  });
});

describe('who may change a family’s data', () => {
  it('a teacher may not, whatever list they own; nothing changes and nothing is recorded', async () => {
    const id = await listId('Reforzamiento de Matemática');
    for (const kind of ['apoderado', 'estudiante'] as const) {
      const m = (await members(docente, id)).find((p) => p.user_type === kind)!;
      const table = kind === 'apoderado' ? sql`guardians` : sql`students`;
      const before = await one<Record<string, unknown>>(server.db, sql`select * from ${table} where id = ${m.user_id}`);
      const denied = await call(docente, 'PATCH', API.user(id, m.id), { nombres: 'Otra', email: 'otra@example.cl' });
      expect(denied.status).toBe(403);
      expect((await denied.json()) as ApiError).toMatchObject({
        code: 'auth.forbidden',
        message: 'Solo la dirección o la administración del colegio puede cambiar los datos de una familia. Pídeles la corrección.',
      });
      expect(await one(server.db, sql`select * from ${table} where id = ${m.user_id}`)).toEqual(before);
      expect(await count(server.db, sql`select count(*)::int as n from contact_changes where person_id = ${m.user_id}`)).toBe(0);
    }
  });

  it('a Mexican teacher reads why in Mexican words', async () => {
    const teacher = await signedIn(() => server)('docente@benitojuarez.edu.mx');
    const id = await listId('Comité de padres de familia');
    const guardian = (await members(juarez, id)).find((p) => p.user_type === 'apoderado')!;
    const own = await created(teacher, 'Padres de un alumno', [{ kind: 'guardian', id: guardian.user_id }]);
    const m = (await members(teacher, own.id))[0]!;
    const denied = await call(teacher, 'PATCH', API.user(own.id, m.id), { nombres: 'Otra' });
    expect(denied.status).toBe(403);
    expect(((await denied.json()) as ApiError).message).toBe(
      'Solo la dirección o la administración de la escuela puede cambiar los datos de una familia. Pídeles la corrección.',
    );
  });

  it('a teacher asks the leadership instead: «Solicitar corrección» is a message in their inbox naming the person', async () => {
    const id = await listId('Reforzamiento de Matemática');
    const m = (await members(docente, id)).find((p) => p.user_type === 'apoderado')!;
    const path = API.correction(id, m.id);
    expect(await errorsOf(await call(docente, 'POST', path, { note: '  ' }))).toEqual({ note: ['Escribe qué dato hay que corregir.'] });
    expect(await errorsOf(await call(docente, 'POST', path, { note: 'x'.repeat(1001) }))).toEqual({
      note: ['La solicitud puede tener hasta 1000 caracteres.'],
    });
    // A list the user cannot see is not there.
    const unshared = await listId('Directiva del Centro de Padres'); // another school's
    expect((await call(docente, 'POST', API.correction(unshared, 1), { note: 'Hola' })).status).toBe(404);

    const before = await one(server.db, sql`select * from guardians where id = ${m.user_id}`);
    const sent = await ok<{ data: { message_id: number }; message: string }>(
      await call(docente, 'POST', path, { note: 'El celular correcto es +56 9 9747 3752.' }),
      201,
    );
    expect(sent.message).toBe('Solicitud enviada a la dirección y la administración del colegio.');
    const message = await one<{ title: string; content: string; kind: string }>(
      server.db,
      sql`select title, content, kind from messages where id = ${sent.data.message_id}`,
    );
    expect(message.kind).toBe('sent');
    expect(message.title).toBe(`Corrección de datos de contacto: ${m.name}`);
    expect(message.content).toContain('El celular correcto es +56 9 9747 3752.');
    expect(message.content).toContain(m.name);
    // In the inbox of every leader with a login, and of nobody else.
    const inboxes = await rows<{ email: string }>(
      server.db,
      sql`select u.email from mailbox_entries e join users u on u.id = e.user_id
          where e.message_id = ${sent.data.message_id} and e.folder = 'inbox' order by u.email`,
    );
    expect(inboxes.map((r) => r.email)).toEqual([
      'administrador@sanandres.cl',
      'corp.utp@sanandres.cl',
      'directora@sanandres.cl',
      'utp@sanandres.cl',
    ]);
    // Asking changes nothing.
    expect(await one(server.db, sql`select * from guardians where id = ${m.user_id}`)).toEqual(before);
  });

  it('an administrator may; each changed field is recorded with who, when, old and new value', async () => {
    const id = await listId('Reforzamiento de Matemática');
    const theirs = (await members(docente, id)).filter((p) => p.user_type === 'apoderado' && p.stale === null)[1]!;
    const own = await created(admin, 'Ficha para el registro', [{ kind: 'guardian', id: theirs.user_id }]);
    const m = (await members(admin, own.id))[0]!;
    const g = await one<{ first_names: string; last_name_mother: string; phone: string | null; email: string | null }>(
      server.db,
      sql`select first_names, last_name_mother, phone, email from guardians where id = ${m.user_id}`,
    );
    const adminId = (await one<{ id: number }>(server.db, sql`select id from users where email = 'administrador@sanandres.cl'`)).id;
    const saved = await ok<{ data: UserToEdit }>(
      await call(admin, 'PATCH', API.user(own.id, m.id), {
        nombres: g.first_names, // unchanged: not recorded
        apellido_materno: ' Núñez  del Río ',
        fono_celular: '+56 9 9747 3752',
        email: g.email,
      }),
    );
    expect(saved.data).toMatchObject({ apellido_materno: 'Núñez del Río', fono_celular: '+56997473752' });
    expect(saved.data.name).toBe(`${g.first_names} ${saved.data.apellido_paterno} Núñez del Río`);
    const changes = await rows<Record<string, unknown>>(
      server.db,
      sql`select institution_id, person_kind, person_id, field, old_value, new_value, changed_by, changed_at
          from contact_changes where person_id = ${m.user_id} and person_kind = 'apoderado' order by field`,
    );
    expect(changes.map(({ changed_at, ...rest }) => rest)).toEqual([
      {
        institution_id: sanAndres,
        person_kind: 'apoderado',
        person_id: m.user_id,
        field: 'apellido_materno',
        old_value: g.last_name_mother,
        new_value: 'Núñez del Río',
        changed_by: adminId,
      },
      {
        institution_id: sanAndres,
        person_kind: 'apoderado',
        person_id: m.user_id,
        field: 'fono_celular',
        old_value: g.phone,
        new_value: '+56997473752',
        changed_by: adminId,
      },
    ]);
    for (const change of changes) expect(Date.now() - new Date(String(change.changed_at)).getTime()).toBeLessThan(60_000);
    // Saving the same values again changes nothing and records nothing.
    await ok(await call(admin, 'PATCH', API.user(own.id, m.id), { apellido_materno: 'Núñez del Río', fono_celular: '+56997473752' }));
    expect(await count(server.db, sql`select count(*)::int as n from contact_changes where person_id = ${m.user_id}`)).toBe(2);
    // The maternal surname shows in every list.
    expect((await members(docente, id)).find((p) => p.id === theirs.id)!.name).toBe(saved.data.name);
  });

  it('checks the maternal surname: optional, at most 80 characters', async () => {
    const id = await listId('Reforzamiento de Matemática');
    const theirs = (await members(docente, id)).filter((p) => p.user_type === 'apoderado' && p.stale === null)[2]!;
    const own = await created(admin, 'Ficha sin segundo apellido', [{ kind: 'guardian', id: theirs.user_id }]);
    const m = (await members(admin, own.id))[0]!;
    expect(await errorsOf(await call(admin, 'PATCH', API.user(own.id, m.id), { apellido_materno: 'x'.repeat(81) }))).toEqual({
      apellido_materno: ['El apellido materno puede tener hasta 80 caracteres.'],
    });
    const saved = await ok<{ data: UserToEdit }>(await call(admin, 'PATCH', API.user(own.id, m.id), { apellido_materno: '  ' }));
    expect(saved.data.apellido_materno).toBe('');
    expect(saved.data.name).toBe(`${saved.data.nombres} ${saved.data.apellido_paterno}`);
    // Every list names them the same way, with no trailing space.
    expect((await members(docente, id)).find((p) => p.id === theirs.id)!.name).toBe(saved.data.name);
  });
});

describe('trash', () => {
  it('trashes with who and when, restores, and deletes forever only from the trash', async () => {
    const course = await courseWith(2);
    const list = await created(docente, 'Para la papelera', [{ kind: 'course', id: course.id, audience: 'titulares' }]);
    expect((await call(docente, 'DELETE', API.forever(list.id))).status).toBe(404); // not in the trash yet
    expect((await call(docente, 'POST', API.restore(list.id))).status).toBe(404);
    expect((await call(docente, 'DELETE', API.list(list.id))).status).toBe(204);
    expect((await docente.get(api(API.list(list.id)))).status).toBe(404);
    expect((await call(docente, 'DELETE', API.list(list.id))).status).toBe(404);
    const listed = await ok<NumberedPage<RecipientListSummary>>(await docente.get(api(API.lists)));
    expect(listed.data.map((l) => l.id)).not.toContain(list.id);
    // A trashed list cannot be sent to.
    expect(
      (await errorsOf(await send(docente, composeInput({ recipients: [{ kind: 'recipient-list', id: list.id }] })))).recipients,
    ).toEqual(['Algunos destinatarios elegidos no existen o no pertenecen a tu colegio.']);

    const trash = await ok<NumberedPage<TrashedRecipientList>>(await docente.get(api(`${API.trash}?q=PAPELERA`)));
    expect(trash.meta.total).toBe(1);
    const docenteName = (await one<{ name: string }>(server.db, sql`select name from users where email = 'docente@sanandres.cl'`)).name;
    expect(trash.data[0]).toMatchObject({ id: list.id, deleted_by_name: docenteName, is_owner: true, users_count: list.users_count });
    expect(Date.now() - new Date(trash.data[0]!.deleted_at).getTime()).toBeLessThan(60_000);
    // Another user's trash never shows it, nor can they restore it.
    expect((await ok<NumberedPage<TrashedRecipientList>>(await admin.get(api(API.trash)))).data.map((l) => l.id)).not.toContain(list.id);
    expect((await call(admin, 'POST', API.restore(list.id))).status).toBe(404);
    // The seed's trashed list is in its owner's trash.
    expect((await ok<NumberedPage<TrashedRecipientList>>(await admin.get(api(API.trash)))).data.map((l) => l.name)).toContain(
      'Paseo de fin de año 2025',
    );

    const restored = await ok<{ data: RecipientListSummary }>(await call(docente, 'POST', API.restore(list.id)));
    expect(restored.data).toMatchObject({ id: list.id, name: 'Para la papelera', users_count: list.users_count });
    expect((await docente.get(api(API.list(list.id)))).status).toBe(200);

    expect((await call(docente, 'DELETE', API.list(list.id))).status).toBe(204);
    expect((await call(admin, 'DELETE', API.forever(list.id))).status).toBe(404);
    expect((await call(docente, 'DELETE', API.forever(list.id))).status).toBe(204);
    expect(await count(server.db, sql`select count(*) as n from recipient_lists where id = ${list.id}`)).toBe(0);
    expect(await count(server.db, sql`select count(*) as n from recipient_list_members where list_id = ${list.id}`)).toBe(0);
    expect((await call(docente, 'POST', API.restore(list.id))).status).toBe(404);
  });

  it('refuses to trash a list a scheduled message uses, naming the message, until it is cancelled', async () => {
    const course = await courseWith(2);
    const list = await created(admin, 'Programada', [{ kind: 'course', id: course.id, audience: 'titulares' }], true);
    const at = new Date(Date.now() + 3 * 86_400_000);
    const scheduled = await send(
      admin,
      composeInput({ title: 'Citación a reunión', recipients: [{ kind: 'recipient-list', id: list.id }], scheduled_at: at.toISOString() }),
      randomUUID(),
      '/api/messages/schedule',
    );
    expect(scheduled.status).toBe(201);
    const messageId = (
      await one<{ id: number }>(server.db, sql`select id from messages where title = 'Citación a reunión' and kind = 'scheduled'`)
    ).id;

    const refused = await call(admin, 'DELETE', API.list(list.id));
    expect(refused.status).toBe(409);
    const body = (await refused.json()) as ApiError;
    expect(body.code).toBe('list.scheduled');
    expect(body.errors!.list![0]).toBe(body.message);
    // The owner's own scheduled message is named by id too, so the screen links to it.
    expect(body.errors!.message_id).toEqual([String(messageId)]);
    expect(body.message).toMatch(
      /^No puedes eliminar esta lista: la usa el mensaje programado «Citación a reunión» para el \d{1,2} de [a-z]+ de \d{4} a las \d{2}:\d{2} \(hora [^)]*Chile\)\. Cancela esa programación/,
    );
    const local = new Intl.DateTimeFormat('es-CL', {
      timeZone: 'America/Santiago',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(at);
    expect(body.message).toContain(local);
    expect((await admin.get(api(API.list(list.id)))).status).toBe(200);

    // A colleague's schedule of the shared list: the owner is told whose it is.
    await send(
      docente,
      composeInput({
        title: 'Taller de padres',
        recipients: [{ kind: 'recipient-list', id: list.id }],
        scheduled_at: new Date(Date.now() + 86_400_000).toISOString(),
      }),
      randomUUID(),
      '/api/messages/schedule',
    );
    const colleague = (await (await call(admin, 'DELETE', API.list(list.id))).json()) as ApiError;
    expect(colleague.message).toMatch(/«Taller de padres» de .+ para el .*Pide que cancelen esa programación/);
    // A colleague's message is not the owner's to open: no id to link to.
    expect(colleague.errors!.message_id).toBeUndefined();
    const other = (await one<{ id: number }>(server.db, sql`select id from messages where title = 'Taller de padres'`)).id;
    expect((await docente.post(`/api/messages/${other}/cancel-schedule`)).status).toBe(200);

    expect((await admin.post(`/api/messages/${messageId}/cancel-schedule`)).status).toBe(200);
    expect((await call(admin, 'DELETE', API.list(list.id))).status).toBe(204);
  });
});
