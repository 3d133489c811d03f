// What compose reads (compose-contract.ts): channels, channel permissions, the recipient picker's data with
// device status and empty groups, saved recipient lists with their members, and the SMS signature with its
// update rules. Every read is scoped to the signed-in user's school (and lists to their owner).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import { DEMO_SCHOOLS } from '../../shared/demo';
import type { Channel, CommunicationPermission, RecipientCourse, RecipientGroups, Recipients } from '../../shared/compose-contract';
import type { NumberedPage, RecipientList, RecipientListMember } from '../../shared/recipient-lists-contract';
import type { Signature } from '../../shared/signature-contract';
import type { ApiError, Course } from '../../shared/contract';
import { users } from '../../server/db/schema/auth';
import { recipientListMembers, recipientLists, userChannelPermissions } from '../../server/db/schema/compose';
import { deliveries } from '../../server/db/schema/delivery';
import { institutions } from '../../server/db/schema/institutions';
import { messageRecipients, messages } from '../../server/db/schema/messages';
import { guardians, staff, studentGuardians, students } from '../../server/db/schema/school';
import { refreshDeviceMisses } from '../../server/reception/status';
import { startServer, type Client, type TestServer } from './support/server';

let server: TestServer;
let admin: Client;
let docente: Client;
let elqui: Client;
let juarez: Client;
const schoolId: Record<keyof typeof DEMO_SCHOOLS, number> = { sanAndres: 0, elqui: 0, juarez: 0 };

beforeAll(async () => {
  server = await startServer();
  admin = server.client();
  docente = server.client();
  elqui = server.client();
  juarez = server.client();
  expect((await admin.login('administrador@sanandres.cl')).status).toBe(200);
  expect((await docente.login('docente@sanandres.cl')).status).toBe(200);
  expect((await elqui.login('administrador@liceoelqui.cl')).status).toBe(200);
  expect((await juarez.login('administrador@benitojuarez.edu.mx')).status).toBe(200);
  for (const [key, name] of Object.entries(DEMO_SCHOOLS) as [keyof typeof DEMO_SCHOOLS, string][]) {
    const [row] = await server.db.select({ id: institutions.id }).from(institutions).where(eq(institutions.name, name));
    schoolId[key] = row!.id;
  }
});
afterAll(async () => {
  await server?.close();
});

async function json<T>(client: Client, path: string, init?: RequestInit): Promise<T> {
  const res = await client.fetch(path, init);
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

const patch = (client: Client, path: string, body: unknown) =>
  client.fetch(path, { method: 'PATCH', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

/** An independent Spanish collator: the server's order must agree with it. */
const es = new Intl.Collator('es', { sensitivity: 'base', numeric: true });
const expectSorted = (names: string[], label: string) => {
  for (let i = 1; i < names.length; i++) {
    expect(es.compare(names[i - 1]!, names[i]!), `${label}: ${names[i - 1]} ≤ ${names[i]}`).toBeLessThanOrEqual(0);
  }
};

const userId = async (email: string) => (await server.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]!.id;

describe('sessions', () => {
  it('every compose read requires a signed-in user', async () => {
    const anonymous = server.client();
    for (const path of [
      '/api/channels',
      '/api/communication-permission/user',
      '/api/recipients',
      '/api/recipients/courses',
      '/api/recipient-lists',
      '/api/recipient-lists/1/users',
      '/api/institutions-signatures',
    ]) {
      const res = await anonymous.get(path);
      expect(res.status, path).toBe(401);
      expect(((await res.json()) as ApiError).code).toBe('auth.unauthenticated');
    }
    await anonymous.get('/api/csrf-cookie');
    expect((await patch(anonymous, '/api/institutions-signatures/1', { signature: 'ABC', is_active: 1 })).status).toBe(401);
  });
});

describe('GET /api/channels', () => {
  it('answers the four channels with what each school contracted', async () => {
    const { data } = await json<{ data: Channel[] }>(admin, '/api/channels');
    expect(data).toEqual([
      { id: 1, code: 'app-mobile', enabled_by_institution: true },
      { id: 2, code: 'e-mail', enabled_by_institution: true },
      { id: 3, code: 'sms', enabled_by_institution: true },
      { id: 4, code: 'whatsapp', enabled_by_institution: true },
    ]);
    const other = async (client: Client) =>
      (await json<{ data: Channel[] }>(client, '/api/channels')).data.map((c) => [c.code, c.enabled_by_institution]);
    expect(await other(elqui)).toEqual([
      ['app-mobile', true],
      ['e-mail', true],
      ['sms', true],
      ['whatsapp', false],
    ]);
    expect(await other(juarez)).toEqual([
      ['app-mobile', true],
      ['e-mail', true],
      ['sms', false],
      ['whatsapp', true],
    ]);
  });
});

describe('GET /api/communication-permission/user', () => {
  const enabled = async (client: Client) =>
    (await json<{ data: CommunicationPermission }>(client, '/api/communication-permission/user')).data.institution_channel_permissions;

  it('lists the user’s permission for each channel: admins all contracted, teachers no WhatsApp', async () => {
    expect(await enabled(admin)).toEqual([
      { channel_id: 1, enabled: true },
      { channel_id: 2, enabled: true },
      { channel_id: 3, enabled: true },
      { channel_id: 4, enabled: true },
    ]);
    expect(await enabled(docente)).toEqual([
      { channel_id: 1, enabled: true },
      { channel_id: 2, enabled: true },
      { channel_id: 3, enabled: true },
      { channel_id: 4, enabled: false },
    ]);
    expect((await enabled(juarez)).map((p) => p.enabled)).toEqual([true, true, false, true]);
  });

  it('treats a missing permission row as not permitted', async () => {
    const client = server.client();
    expect((await client.login('docente@liceoelqui.cl')).status).toBe(200);
    expect((await enabled(client)).map((p) => p.enabled)).toEqual([true, true, true, false]);
    const id = await userId('docente@liceoelqui.cl');
    await server.db
      .delete(userChannelPermissions)
      .where(and(eq(userChannelPermissions.userId, id), inArray(userChannelPermissions.channel, ['e-mail', 'sms'])));
    expect(await enabled(client)).toEqual([
      { channel_id: 1, enabled: true },
      { channel_id: 2, enabled: false },
      { channel_id: 3, enabled: false },
      { channel_id: 4, enabled: false },
    ]);
  });
});

describe('GET /api/recipients', () => {
  let sa: Recipients;
  beforeAll(async () => {
    sa = (await json<{ data: Recipients }>(admin, '/api/recipients')).data;
  });

  const regular = () => sa.courses.filter((c) => c.grupo_type === 'curso');
  const electiveGroups = () => sa.courses.filter((c) => c.grupo_type === 'electivo');

  it('lists the regular courses in level order, then the electives by name', async () => {
    const { data: courseList } = await json<{ data: Course[] }>(admin, '/api/courses');
    expect(regular().map((c) => [c.id, c.nombre, c.level_id])).toEqual(courseList.map((c) => [c.id, c.nombre, c.level.id]));
    const firstElective = sa.courses.findIndex((c) => c.grupo_type === 'electivo');
    expect(firstElective).toBe(courseList.length);
    expect(sa.courses.slice(firstElective).every((c) => c.grupo_type === 'electivo')).toBe(true);
    expect(electiveGroups().map((c) => c.nombre)).toEqual([
      'Electivo Biología Celular',
      'Electivo Filosofía Política',
      'Electivo Límites, Derivadas e Integrales',
      'Taller de Cerámica',
      'Taller de Fútbol',
      'Taller de Robótica',
      'Taller de Teatro',
    ]);
    for (const e of electiveGroups()) expect(e.level_id).toBeNull();
  });

  it('names every enrolled student of the school once in its course, sorted by name', async () => {
    const dbStudents = await server.db
      .select({
        id: students.id,
        courseId: students.courseId,
        first: students.firstNames,
        father: students.lastNameFather,
        mother: students.lastNameMother,
      })
      .from(students)
      .where(and(eq(students.institutionId, schoolId.sanAndres), isNull(students.withdrawnAt)));
    const listed = regular().flatMap((c) => c.estudiantes.map((s) => ({ ...s, courseId: c.id })));
    // The seed's 800 students, less the 2 who left the school since a list was made (server/seed/compose.ts).
    expect(listed).toHaveLength(798);
    expect(listed.map((s) => s.id).sort((a, b) => a - b)).toEqual(dbStudents.map((s) => s.id).sort((a, b) => a - b));
    const byId = new Map(dbStudents.map((s) => [s.id, s]));
    for (const s of listed) {
      const row = byId.get(s.id)!;
      expect(s.name).toBe(`${row.first} ${row.father} ${row.mother}`);
      expect(s.courseId).toBe(row.courseId);
    }
    for (const c of sa.courses)
      expectSorted(
        c.estudiantes.map((s) => s.name),
        c.nombre,
      );
  });

  it('lists each course’s guardians, one entry per guardian and student, with role and contact card', async () => {
    const links = await server.db
      .select({ studentId: studentGuardians.studentId, guardianId: studentGuardians.guardianId, role: studentGuardians.role })
      .from(studentGuardians)
      .innerJoin(students, eq(students.id, studentGuardians.studentId))
      .where(and(eq(students.institutionId, schoolId.sanAndres), isNull(students.withdrawnAt)));
    const guardianRows = await server.db.select().from(guardians).where(eq(guardians.institutionId, schoolId.sanAndres));
    const guardianById = new Map(guardianRows.map((g) => [g.id, g]));
    const all = regular().flatMap((c) => c.apoderados);
    expect(all).toHaveLength(links.length);
    const key = (g: { student_id: number; id: number; rol_adulto_id: number }) => `${g.student_id}:${g.id}:${g.rol_adulto_id}`;
    expect(new Set(all.map(key))).toEqual(new Set(links.map((l) => `${l.studentId}:${l.guardianId}:${l.role}`)));
    for (const c of regular()) {
      const mine = new Set(c.estudiantes.map((s) => s.id));
      for (const g of c.apoderados) expect(mine.has(g.student_id), c.nombre).toBe(true);
      // Every student has exactly one titular.
      expect(c.apoderados.filter((g) => g.rol_adulto_id === 1)).toHaveLength(c.estudiantes.length);
    }
    for (const g of all.slice(0, 200)) {
      const row = guardianById.get(g.id)!;
      expect(g.ficha_apoderado).toEqual({
        email: row.email,
        user_id: row.appInstalledAt ? row.id : null,
        name: `${row.firstNames} ${row.lastNameFather} ${row.lastNameMother}`,
        fono_celular: row.phone,
        user_type: 'apoderado',
      });
    }
  });

  it('computes each guardian’s device status: blue with the app, green with a mobile only, red with neither, yellow after 3 misses', async () => {
    const guardianRows = await server.db.select().from(guardians).where(eq(guardians.institutionId, schoolId.sanAndres));
    const byId = new Map(guardianRows.map((g) => [g.id, g]));
    const seen = new Set<string>();
    for (const c of sa.courses) {
      for (const g of c.apoderados) {
        const row = byId.get(g.id)!;
        // SPEC §3: red without app or mobile; else yellow when the last 3 device deliveries missed (the seeded
        // school year has such numbers); else blue with the app, green with the mobile only.
        const expected =
          !row.appInstalledAt && !row.phone ? 'red' : row.deviceMisses >= 3 ? 'yellow' : row.appInstalledAt ? 'blue' : 'green';
        expect(g.device_status, `guardian ${g.id}`).toBe(expected);
        seen.add(g.device_status);
      }
    }
    expect([...seen].sort()).toEqual(['blue', 'green', 'red', 'yellow']);
  });

  it('turns a guardian yellow when their last 3 finished device deliveries were not received', async () => {
    const db = server.db;
    const course = regular()[3]!;
    const target = course.apoderados.find((g) => g.device_status === 'blue')!;
    const author = await userId('administrador@sanandres.cl');
    const [message] = await db
      .insert(messages)
      .values({
        institutionId: schoolId.sanAndres,
        authorUserId: author,
        senderKind: 'funcionario',
        senderRefId: author,
        senderName: 'Prueba',
        title: 'Prueba',
        content: 'Prueba',
        kind: 'sent',
        search: 'prueba',
        sentAt: new Date(),
      })
      .returning({ id: messages.id });
    const deliver = async (
      channel: 'sms' | 'app-mobile' | 'whatsapp' | 'e-mail',
      status: typeof deliveries.$inferInsert.status,
      minutesAgo: number,
      error: string | null = null,
    ) => {
      const [recipient] = await db
        .insert(messageRecipients)
        .values({
          messageId: message!.id,
          recipientKind: 'apoderado',
          recipientRefId: target.id,
          displayName: 'x',
          groupKind: 'curso',
          groupLabel: course.nombre,
          status: 'pending',
        })
        .returning({ id: messageRecipients.id });
      await db.insert(deliveries).values({
        messageId: message!.id,
        recipientId: recipient!.id,
        channel,
        address: '+56911111111',
        status,
        error,
        createdAt: new Date(Date.now() - minutesAgo * 60_000),
      });
      // What the delivery engine does as deliveries end; GET /recipients only reads its result.
      await refreshDeviceMisses(db, [target.id]);
    };
    const statusOf = async () => {
      const { data } = await json<{ data: Recipients }>(admin, '/api/recipients');
      return data.courses.find((c) => c.id === course.id)!.apoderados.find((g) => g.id === target.id)!.device_status;
    };

    await deliver('sms', 'not_received', 50);
    await deliver('app-mobile', 'error', 40);
    expect(await statusOf()).toBe('blue'); // two are not three
    // In-flight deliveries, e-mail and rows that never had an address say nothing about the device.
    await deliver('e-mail', 'failed', 35);
    await deliver('sms', 'failed', 34, 'missing_address');
    // Nor does our side failing: the provider down, or refusing our credentials.
    await deliver('sms', 'failed', 33, 'unreachable');
    await deliver('whatsapp', 'failed', 32, 'provider_auth');
    await deliver('whatsapp', 'queued', 1);
    expect(await statusOf()).toBe('blue');
    await deliver('whatsapp', 'failed', 30);
    expect(await statusOf()).toBe('yellow');
    await deliver('sms', 'received', 20);
    expect(await statusOf()).toBe('blue');
  });

  it('flags the elective nobody is enrolled in with no students and no guardians', () => {
    const empty = sa.courses.filter((c) => c.estudiantes.length === 0);
    expect(empty.map((c) => [c.nombre, c.grupo_type, c.apoderados.length])).toEqual([['Taller de Cerámica', 'electivo', 0]]);
    const futbol = electiveGroups().find((c) => c.nombre === 'Taller de Fútbol')!;
    expect(futbol.estudiantes.length).toBeGreaterThan(5);
    expect(futbol.apoderados.filter((g) => g.rol_adulto_id === 1)).toHaveLength(futbol.estudiantes.length);
  });

  it('groups all of the school’s staff by cargo, with their login when they have one', async () => {
    const staffRows = await server.db.select().from(staff).where(eq(staff.institutionId, schoolId.sanAndres));
    const listed = sa.appointments.flatMap((a) => a.users.map((u) => ({ ...u, appointment: a.id })));
    expect(listed).toHaveLength(staffRows.length);
    expect(new Set(listed.map((u) => u.user_id)).size).toBe(staffRows.length);
    const byId = new Map(staffRows.map((s) => [s.id, s]));
    for (const u of listed) {
      const row = byId.get(u.user_id)!;
      expect(u).toEqual({
        user_id: row.id,
        name: `${row.firstNames} ${row.lastNameFather} ${row.lastNameMother}`,
        cargo_id: row.positionId,
        email: row.email,
        login_user_id: row.userId,
        appointment: row.positionId,
      });
    }
    expectSorted(
      sa.appointments.map((a) => a.nombre),
      'appointments',
    );
    for (const a of sa.appointments)
      expectSorted(
        a.users.map((u) => u.name),
        a.nombre,
      );
    const directora = sa.appointments.find((a) => a.nombre === 'Directora')!;
    expect(directora.users).toEqual([
      expect.objectContaining({ name: 'María Isabel Núñez Peña', login_user_id: await userId('directora@sanandres.cl') }),
    ]);
  });

  it('lists the levels in school order with their courses', async () => {
    expect(sa.levels.map((l) => l.nombre)).toEqual([
      'Pre-kínder',
      'Kínder',
      '1° Básico',
      '2° Básico',
      '3° Básico',
      '4° Básico',
      '5° Básico',
      '6° Básico',
      '7° Básico',
      '8° Básico',
      'I Medio',
      'II Medio',
      'III Medio',
      'IV Medio',
    ]);
    expect(sa.levels.flatMap((l) => l.course_ids)).toEqual(regular().map((c) => c.id));
    for (const l of sa.levels) {
      expect(l.course_ids).toHaveLength(2);
      for (const id of l.course_ids) expect(regular().find((c) => c.id === id)!.level_id).toBe(l.id);
    }
  });

  it('shows another school only its own people', async () => {
    const other = (await json<{ data: Recipients }>(elqui, '/api/recipients')).data;
    const elquiStudents = await server.db.select({ id: students.id }).from(students).where(eq(students.institutionId, schoolId.elqui));
    const ids = (r: Recipients) => r.courses.flatMap((c: RecipientCourse) => c.estudiantes.map((s) => s.id));
    expect(new Set(ids(other))).toEqual(new Set(elquiStudents.map((s) => s.id)));
    const saStudents = new Set(ids(sa));
    expect(ids(other).some((id) => saStudents.has(id))).toBe(false);
    const saGuardians = new Set(sa.courses.flatMap((c) => c.apoderados.map((g) => g.id)));
    expect(other.courses.flatMap((c) => c.apoderados).some((g) => saGuardians.has(g.id))).toBe(false);
    const saStaff = new Set(sa.appointments.flatMap((a) => a.users.map((u) => u.user_id)));
    expect(other.appointments.flatMap((a) => a.users).some((u) => saStaff.has(u.user_id))).toBe(false);
    expect(other.levels.map((l) => l.nombre)).toEqual(['7° Básico', '8° Básico', 'I Medio', 'II Medio', 'III Medio', 'IV Medio']);
    expect(other.courses.filter((c) => c.grupo_type === 'electivo').map((c) => c.nombre)).toEqual([
      'Electivo Química Orgánica',
      'Taller de Astronomía',
    ]);
  });

  it('answers 304 to a revalidation when nothing changed', async () => {
    const first = await admin.get('/api/recipients');
    expect(first.status).toBe(200);
    const tag = first.headers.get('ETag');
    expect(tag).toBeTruthy();
    expect(first.headers.get('Cache-Control')).toBe('private, no-cache');
    await first.arrayBuffer();
    const again = await admin.get('/api/recipients', { headers: { 'If-None-Match': tag! } });
    expect(again.status).toBe(304);
    // Another school's data has another tag.
    const other = await elqui.get('/api/recipients', { headers: { 'If-None-Match': tag! } });
    expect(other.status).toBe(200);
  });
});

describe('GET /api/recipients/courses', () => {
  it("answers the directory's levels and groups without their people, in the directory's order, for each school", async () => {
    for (const client of [admin, elqui]) {
      const whole = (await json<{ data: Recipients }>(client, '/api/recipients')).data;
      const { data } = await json<{ data: RecipientGroups }>(client, '/api/recipients/courses');
      expect(data.levels).toEqual(whole.levels);
      expect(data.courses).toEqual(whole.courses.map(({ id, nombre, grupo_type, level_id }) => ({ id, nombre, grupo_type, level_id })));
      expect(data.courses.length).toBeGreaterThan(0);
    }
  });
});

describe('GET /api/recipient-lists', () => {
  const page = (client: Client, query: string) => json<NumberedPage<RecipientList>>(client, `/api/recipient-lists${query}`);

  it('pages through the user’s own lists, newest first, with member counts and links', async () => {
    const first = await page(admin, '');
    expect(first.meta).toEqual({ current_page: 1, last_page: 1, per_page: 15, total: 3 });
    expect(first.links).toEqual({ next: null, prev: null });
    expect(first.data.map((l) => l.name)).toEqual([
      'Delegados de curso Enseñanza Media',
      'Equipo de convivencia escolar',
      'Directiva del Centro de Padres',
    ]);
    for (const l of first.data) {
      const [row] = await server.db.select({ n: count() }).from(recipientListMembers).where(eq(recipientListMembers.listId, l.id));
      expect(l.users_count, l.name).toBe(row!.n);
      expect(l.users_count).toBeGreaterThan(0);
    }

    // Walk it one by one, following the links as the SPA does.
    const walked: RecipientList[] = [];
    let link: string | null = '/api/recipient-lists?page=1&per_page=1';
    let pages = 0;
    while (link) {
      const p: NumberedPage<RecipientList> = await json(admin, link);
      pages++;
      expect(p.meta).toEqual({ current_page: pages, last_page: 3, per_page: 1, total: 3 });
      expect(p.data).toHaveLength(1);
      expect(p.links.prev).toBe(pages === 1 ? null : `/api/recipient-lists?page=${pages - 1}&per_page=1`);
      walked.push(...p.data);
      link = p.links.next;
      if (link) expect(link).toBe(`/api/recipient-lists?page=${pages + 1}&per_page=1`);
    }
    expect(walked).toEqual(first.data);

    const two = await page(admin, '?page=2&per_page=2');
    expect(two.data).toEqual(first.data.slice(2));
    expect(two.links).toEqual({ next: null, prev: '/api/recipient-lists?page=1&per_page=2' });
    const past = await page(admin, '?page=9&per_page=2');
    expect(past.data).toEqual([]);
    expect(past.meta).toEqual({ current_page: 9, last_page: 2, per_page: 2, total: 3 });
    expect(past.links).toEqual({ next: null, prev: '/api/recipient-lists?page=2&per_page=2' });
  });

  it('shows each user only their lists and those shared with the school, never the trashed ones', async () => {
    // "Equipo de convivencia escolar" is the administrator's, shared with the school's staff.
    expect((await page(docente, '')).data.map((l) => l.name)).toEqual([
      'Olimpiada de Matemática',
      'Reforzamiento de Matemática',
      'Equipo de convivencia escolar',
    ]);
    expect((await page(juarez, '')).data.map((l) => l.name)).toEqual(['Comité de padres de familia']);
    const none = await page(elqui, '');
    expect(none).toEqual({ data: [], meta: { current_page: 1, last_page: 1, per_page: 15, total: 0 }, links: { next: null, prev: null } });
  });

  it('refuses malformed paging with 422 and Spanish messages', async () => {
    for (const [query, field] of [
      ['?page=0', 'page'],
      ['?page=abc', 'page'],
      ['?page=-1', 'page'],
      ['?page=1.5', 'page'],
      ['?per_page=0', 'per_page'],
      ['?per_page=101', 'per_page'],
      ['?per_page=x', 'per_page'],
    ] as const) {
      const res = await admin.get(`/api/recipient-lists${query}`);
      expect(res.status, query).toBe(422);
      const body = (await res.json()) as ApiError;
      expect(body.code).toBe('validation.failed');
      expect(body.message).toBe('Los datos enviados no son válidos.');
      expect(Object.keys(body.errors!), query).toEqual([field]);
    }
    const both = (await (await admin.get('/api/recipient-lists?page=0&per_page=500')).json()) as ApiError;
    expect(both.errors).toEqual({
      page: ['La página debe ser un número entero entre 1 y 100000.'],
      per_page: ['La cantidad por página debe ser un número entero entre 1 y 100.'],
    });
    expect((await admin.get('/api/recipient-lists?per_page=100')).status).toBe(200);
  });
});

describe('GET /api/recipient-lists/:id/users', () => {
  const listId = async (name: string) =>
    (await server.db.select({ id: recipientLists.id }).from(recipientLists).where(eq(recipientLists.name, name)))[0]!.id;
  const members = (client: Client, id: number) => json<{ data: RecipientListMember[] }>(client, `/api/recipient-lists/${id}/users`);

  it('lists guardians with their student (named) and course, and staff with their cargo', async () => {
    const id = await listId('Directiva del Centro de Padres');
    const { data } = await members(admin, id);
    const rows = await server.db
      .select()
      .from(recipientListMembers)
      .where(eq(recipientListMembers.listId, id))
      .orderBy(asc(recipientListMembers.id));
    expect(data).toHaveLength(rows.length);
    expectSorted(
      data.map((u) => u.name),
      'members',
    );
    const guardianMembers = data.filter((u) => u.user_type === 'apoderado');
    expect(guardianMembers.length).toBe(7);
    for (const u of guardianMembers) {
      const row = rows.find((r) => r.id === u.id)!;
      const [g] = await server.db.select().from(guardians).where(eq(guardians.id, row.memberRefId));
      const [s] = await server.db
        .select({
          id: students.id,
          courseId: students.courseId,
          withdrawnAt: students.withdrawnAt,
          name: sql<string>`${students.firstNames} || ' ' || ${students.lastNameFather} || ' ' || ${students.lastNameMother}`,
        })
        .from(students)
        .where(eq(students.id, row.studentId!));
      const regularCourse = (await json<{ data: Course }>(admin, `/api/courses/${s!.courseId}`)).data;
      expect(u).toEqual({
        id: row.id,
        user_id: g!.id,
        user_type: 'apoderado',
        name: `${g!.firstNames} ${g!.lastNameFather} ${g!.lastNameMother}`,
        email: g!.email,
        phone: g!.phone,
        list_id: id,
        list_name: 'Directiva del Centro de Padres',
        nombre_rol: 'Apoderado titular',
        group_id: s!.courseId,
        group_type: 'curso',
        rol_adulto_id: 1,
        student_id: s!.id,
        student_name: s!.name,
        course: regularCourse.nombre,
        dni: g!.dni,
        device_status: expect.stringMatching(/^(blue|green|yellow|red)$/),
        stale: s!.withdrawnAt ? 'not_enrolled' : row.courseId !== s!.courseId ? 'course_changed' : null,
      });
    }
    const staffMembers = data.filter((u) => u.user_type === 'funcionario');
    expect(staffMembers.map((u) => u.nombre_rol).sort()).toEqual(['Directora', 'Orientadora']);
    for (const u of staffMembers) {
      expect(u).toMatchObject({
        rol_adulto_id: null,
        student_id: null,
        student_name: null,
        course: null,
        group_type: 'cargo',
        group_id: expect.any(Number),
      });
      expect(u.email).toMatch(/@sanandres\.cl$/);
    }
  });

  it('names substitutes, students and Mexican guardians as each school says it', async () => {
    const { data } = await members(admin, await listId('Delegados de curso Enseñanza Media'));
    const roles = new Set(data.map((u) => `${u.user_type}:${u.nombre_rol}`));
    expect(roles).toEqual(new Set(['apoderado:Apoderado suplente', 'estudiante:Estudiante', 'funcionario:Jefa de UTP']));
    for (const u of data.filter((u) => u.user_type === 'estudiante')) {
      // A student member is the student: the name says who, no second name.
      expect(u).toMatchObject({ student_id: u.user_id, student_name: null, rol_adulto_id: null, group_type: 'curso', phone: null });
      expect(u.course).toMatch(/^(I|II|III|IV) Medio [A-Z]$/);
    }
    for (const u of data.filter((u) => u.user_type === 'apoderado')) expect(u.rol_adulto_id).toBe(2);
    const mx = await members(juarez, await listId('Comité de padres de familia'));
    expect(mx.data.filter((u) => u.user_type === 'apoderado').every((u) => u.nombre_rol === 'Tutor titular')).toBe(true);
    expect(mx.data.filter((u) => u.user_type === 'apoderado')).toHaveLength(6);
  });

  it('answers 404 for another user’s, another school’s, trashed or made-up lists', async () => {
    const docenteList = await listId('Reforzamiento de Matemática');
    expect((await docente.get(`/api/recipient-lists/${docenteList}/users`)).status).toBe(200);
    for (const [client, id] of [
      [admin, docenteList],
      [admin, await listId('Comité de padres de familia')],
      [juarez, await listId('Equipo de convivencia escolar')],
      [admin, await listId('Paseo de fin de año 2025')],
    ] as const) {
      const res = await client.get(`/api/recipient-lists/${id}/users`);
      expect(res.status, String(id)).toBe(404);
      expect(await res.json()).toEqual({ message: 'El recurso solicitado no existe.', code: 'not_found' });
    }
    for (const id of ['999999', '0', 'abc', '-3']) expect((await admin.get(`/api/recipient-lists/${id}/users`)).status, id).toBe(404);
  });
});

describe('/api/institutions-signatures', () => {
  const signatures = async (client: Client) => (await json<{ data: Signature[] }>(client, '/api/institutions-signatures')).data;

  it('lists the school’s own signature', async () => {
    const [sa] = await signatures(admin);
    expect(await signatures(admin)).toEqual([
      { id: sa!.id, device: 'cl', domain: 'cl', institution_id: schoolId.sanAndres, is_active: true, signature: 'CSA' },
    ]);
    expect(await signatures(docente)).toEqual([sa]);
    expect(await signatures(juarez)).toEqual([
      { id: expect.any(Number), device: 'latam', domain: 'mx', institution_id: schoolId.juarez, is_active: false, signature: 'ESBJ' },
    ]);
  });

  it('lets an admin change it; 3 and 4 characters are accepted', async () => {
    const [sig] = await signatures(elqui);
    const ok3 = await patch(elqui, `/api/institutions-signatures/${sig!.id}`, { signature: 'LBV', is_active: 1 });
    expect(ok3.status).toBe(200);
    expect(await ok3.json()).toEqual({ data: { ...sig, signature: 'LBV', is_active: true } });
    const ok4 = await patch(elqui, `/api/institutions-signatures/${sig!.id}`, { signature: ' Ñuño ', is_active: 0 });
    expect(ok4.status).toBe(200);
    expect((await ok4.json()).data).toEqual({ ...sig, signature: 'Ñuño', is_active: false });
    expect(await signatures(elqui)).toEqual([{ ...sig, signature: 'Ñuño', is_active: false }]);
  });

  it('refuses 2 or 5 characters, unsendable characters and a bad is_active, keeping the previous signature', async () => {
    const [sig] = await signatures(juarez);
    const path = `/api/institutions-signatures/${sig!.id}`;
    for (const [body, errors] of [
      [{ signature: 'AB', is_active: 1 }, { signature: ['La firma debe tener entre 3 y 4 caracteres.'] }],
      [{ signature: 'ABCDE', is_active: 1 }, { signature: ['La firma debe tener entre 3 y 4 caracteres.'] }],
      [{ signature: '   ', is_active: 1 }, { signature: ['La firma debe tener entre 3 y 4 caracteres.'] }],
      [{ is_active: 1 }, { signature: ['La firma debe tener entre 3 y 4 caracteres.'] }],
      [
        { signature: 'A😀B', is_active: 1 },
        { signature: ['La firma solo puede tener letras, números y signos que se puedan enviar por SMS, sin espacios.'] },
      ],
      [
        { signature: 'A B', is_active: 1 },
        { signature: ['La firma solo puede tener letras, números y signos que se puedan enviar por SMS, sin espacios.'] },
      ],
      [{ signature: 'ABC', is_active: 2 }, { is_active: ['El estado de la firma debe ser 1 (activa) o 0 (inactiva).'] }],
      [{ signature: 'ABC' }, { is_active: ['El estado de la firma debe ser 1 (activa) o 0 (inactiva).'] }],
      [{ signature: 'ABC', is_active: '1' }, { is_active: ['El estado de la firma debe ser 1 (activa) o 0 (inactiva).'] }],
    ] as const) {
      const res = await patch(juarez, path, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(await res.json()).toEqual({ message: 'Los datos enviados no son válidos.', code: 'validation.failed', errors });
    }
    const notJson = await juarez.fetch(path, { method: 'PATCH', headers: { 'Content-Type': 'application/json' }, body: '{' });
    expect(notJson.status).toBe(422);
    expect(await signatures(juarez)).toEqual([sig]);
  });

  it('refuses non-admin users with 403, and other schools’ signatures with 404', async () => {
    const [sa] = await signatures(admin);
    const res = await patch(docente, `/api/institutions-signatures/${sa!.id}`, { signature: 'ABC', is_active: 1 });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ message: 'No tienes permiso para modificar la firma de la institución.', code: 'auth.forbidden' });
    const [mx] = await signatures(juarez);
    const foreign = await patch(admin, `/api/institutions-signatures/${mx!.id}`, { signature: 'ABC', is_active: 1 });
    expect(foreign.status).toBe(404);
    expect((await patch(admin, '/api/institutions-signatures/999999', { signature: 'ABC', is_active: 1 })).status).toBe(404);
    expect(await signatures(admin)).toEqual([sa]);
    expect(await signatures(juarez)).toEqual([mx]);
    // Without the CSRF header an update never reaches the handler.
    const csrf = await admin.fetch(`/api/institutions-signatures/${sa!.id}`, {
      method: 'PATCH',
      csrf: false,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ signature: 'ABC', is_active: 1 }),
    });
    expect(csrf.status).toBe(419);
  });
});
