// The staff accounts API (shared/staff-contract.ts) against the real server: who may call it, the list
// (search, state, sort, pages), roles and device, deactivation and reactivation with their rules (oneself,
// the last administrator), a deactivated user's open session, and the record of every change. The
// invitations have their own file (staff-invitations.test.ts).
import { and, asc, eq, sql } from 'drizzle-orm';
import { is } from 'superstruct';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoleCode } from '../../shared/codes';
import type { ApiError } from '../../shared/contract';
import type {
  Deactivated,
  HandoverList,
  HandoverMessage,
  StaffChange,
  StaffMember,
  StaffPage,
  StaffQuery,
} from '../../shared/staff-contract';
import { DeactivatedBodyStruct, HandoverBodyStruct, StaffMemberBodyStruct, StaffPageStruct } from '../../shared/staff-structs';
import { sessions, userPolicies, userRoles, users } from '../../server/db/schema/auth';
import { userChanges } from '../../server/db/schema/staff';
import { rowsOf } from '../../server/db/sql';
import { changeAccount, deactivateAccount, reactivateAccount } from '../../server/staff/accounts';
import { sendJson, userIdOf } from './support/staff';
import { signedIn, startServer, type Client, type TestServer } from './support/server';

const ADMIN = 'administrador@sanandres.cl';
const DIRECTOR = 'directora@sanandres.cl';
const TEACHER = 'docente@sanandres.cl';
const ELQUI_ADMIN = 'administrador@liceoelqui.cl';
const ELQUI_TEACHER = 'docente@liceoelqui.cl';
const FORBIDDEN = { code: 'auth.forbidden', message: 'Solo la administración de la institución puede gestionar las cuentas del personal.' };
const UNAUTHENTICATED = { code: 'auth.unauthenticated', message: 'No autenticado.' };
const NOT_FOUND = { code: 'not_found', message: 'El recurso solicitado no existe.' };
const INVALID_CREDENTIALS = { code: 'auth.invalid_credentials', message: 'Estas credenciales no coinciden con nuestros registros.' };

let server: TestServer;
const as = signedIn(() => server);

const send = sendJson;

const idOf = (email: string): Promise<number> => userIdOf(server.db, email);

async function changesOf(userId: number) {
  return server.db
    .select({
      action: userChanges.action,
      actor: userChanges.actorUserId,
      detail: userChanges.detail,
      institutionId: userChanges.institutionId,
    })
    .from(userChanges)
    .where(eq(userChanges.subjectUserId, userId))
    .orderBy(asc(userChanges.id));
}

/** A page of the list, checked against the contract's struct (what the screen checks it with). */
async function page(client: Client, query: string | StaffQuery = ''): Promise<StaffPage> {
  const search = typeof query === 'string' ? query : `?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`;
  const res = await client.get(`/api/staff${search}`);
  expect(res.status, await res.clone().text()).toBe(200);
  const body: unknown = await res.json();
  expect(is(body, StaffPageStruct)).toBe(true);
  return body as StaffPage;
}

/** `PATCH /api/staff/:id` with the contract's body. */
const patch = (client: Client, id: number, change: StaffChange) => send(client, 'PATCH', `/api/staff/${id}`, change);

/** A fresh client signed in as `email` (its own session, apart from the shared ones of `as`). */
async function freshSession(email: string, password?: string): Promise<Client> {
  const client = server.client();
  const res = await client.login(email, password);
  expect(res.status).toBe(200);
  return client;
}

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

describe('who may call the staff API', () => {
  const calls = (id: number): [string, string, unknown?][] => [
    ['GET', '/api/staff'],
    ['GET', `/api/staff/${id}`],
    ['POST', '/api/staff/invitations', { people: [{ name: 'Nadie Nunca', email: 'nadie@sanandres.cl', role: 'docente' }] }],
    ['PATCH', `/api/staff/${id}`, { device: 'latam' }],
    ['POST', `/api/staff/${id}/invitation`],
    ['DELETE', `/api/staff/${id}/invitation`],
    ['GET', `/api/staff/${id}/handover`],
    ['POST', `/api/staff/${id}/deactivate`],
    ['POST', `/api/staff/${id}/reactivate`],
  ];

  it('answers 401 without a session, on every call', async () => {
    const anonymous = server.client();
    await anonymous.get('/api/csrf-cookie');
    for (const [method, path, body] of calls(await idOf(TEACHER))) {
      const res = await send(anonymous, method, path, body);
      expect([method, path, res.status]).toEqual([method, path, 401]);
      expect(await res.json()).toEqual(UNAUTHENTICATED);
    }
  });

  it('answers 403 with its own message to a teacher and to a director (admin roles are not the administrator)', async () => {
    for (const email of [TEACHER, DIRECTOR]) {
      const client = await as(email);
      for (const [method, path, body] of calls(await idOf(ADMIN))) {
        const res = await send(client, method, path, body);
        expect([email, method, path, res.status]).toEqual([email, method, path, 403]);
        expect(await res.json()).toEqual(FORBIDDEN);
      }
    }
    // Nothing of it happened.
    expect(await server.db.select().from(users).where(eq(users.email, 'nadie@sanandres.cl'))).toEqual([]);
  });

  it('answers 404 for another school’s account, a malformed id and no one’s id, and changes nothing', async () => {
    const admin = await as(ADMIN);
    const foreign = await idOf(ELQUI_TEACHER);
    for (const id of [String(foreign), 'abc', '0', '2147483647']) {
      for (const [method, path, body] of calls(1).filter(([, p]) => p !== '/api/staff' && p !== '/api/staff/invitations')) {
        const res = await send(admin, method, path.replace('/1', `/${id}`), body);
        expect([method, path, id, res.status]).toEqual([method, path, id, 404]);
        expect(await res.json()).toEqual(NOT_FOUND);
      }
    }
    const [elqui] = await server.db.select({ device: users.device, status: users.status }).from(users).where(eq(users.id, foreign));
    expect(elqui).toEqual({ device: 'cl', status: 'active' });
    expect(await changesOf(foreign)).toEqual([]);
  });

  it('an unknown path under /api/staff is a 404 even without a session', async () => {
    const res = await server.client().get('/api/staff/1/nada');
    expect(res.status).toBe(404);
  });
});

describe('GET /api/staff', () => {
  it('lists the school’s accounts only, each with its roles, device, access, last sign-in and state', async () => {
    const admin = await as(ADMIN);
    const all = await page(admin, '?per_page=100');
    const emails = all.data.map((m) => m.email);
    expect(emails).toContain(TEACHER);
    expect(emails).not.toContain(ELQUI_ADMIN);
    expect(emails.every((e) => !e.endsWith('liceoelqui.cl') && !e.endsWith('benitojuarez.edu.mx'))).toBe(true);
    const [count] = rowsOf<{ n: number }>(
      await server.db.execute(
        sql`select count(*)::int as n from users u join institutions i on i.id = u.institution_id where i.name = 'Colegio San Andrés de Ñuñoa'`,
      ),
    );
    expect(all.meta.total).toBe(count!.n);

    const teacher = (await page(admin, `?q=${encodeURIComponent(TEACHER)}`)).data;
    expect(teacher).toEqual([
      {
        id: await idOf(TEACHER),
        name: 'Camila Fernanda Muñoz Herrera',
        email: TEACHER,
        roles: ['docente'],
        device: 'cl',
        access: true,
        // Signed in by the 403 checks above.
        last_sign_in_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
        state: 'active',
        invitation_state: null,
        invitation_expires_at: null,
        is_self: false,
      },
    ]);
    const self = (await page(admin, `?q=${encodeURIComponent(ADMIN)}`)).data[0]!;
    expect(self).toMatchObject({ email: ADMIN, roles: ['colegio-administrador'], device: 'latam', is_self: true, state: 'active' });
    // Signed in a moment ago (this client's sign-in).
    expect(Date.now() - Date.parse(self.last_sign_in_at!)).toBeLessThan(60_000);
    const noAccess = (await page(admin, '?q=sinacceso')).data;
    expect(noAccess.map((m) => [m.email, m.access])).toEqual([['sinacceso@sanandres.cl', false]]);
  });

  it('finds by name and e-mail ignoring case and accents', async () => {
    const admin = await as(ADMIN);
    expect((await page(admin, '?q=MUNOZ%20herrera')).data.map((m) => m.email)).toContain(TEACHER);
    expect((await page(admin, '?q=Ib%C3%A1%C3%B1ez')).data.map((m) => m.email)).toContain('docente.latam@sanandres.cl');
    expect((await page(admin, '?q=liceoelqui')).meta.total).toBe(0);
    // LIKE's wildcards are plain characters here.
    expect((await page(admin, '?q=%25')).meta.total).toBe(0);
  });

  it('sorts by name, e-mail, last sign-in and state, either way', async () => {
    const admin = await as(ADMIN);
    const byEmail = (await page(admin, '?sort=email&per_page=100')).data.map((m) => m.email);
    expect(byEmail).toEqual([...byEmail].sort());
    const byEmailDesc = (await page(admin, { sort: 'email', order: 'desc', per_page: 100 })).data.map((m) => m.email);
    expect(byEmailDesc).toEqual([...byEmail].reverse());

    const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    const byName = (await page(admin, '?per_page=100')).data.map((m) => fold(m.name));
    expect(byName).toEqual([...byName].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));

    await freshSession(TEACHER);
    const recent = (await page(admin, '?sort=last_sign_in&order=desc&per_page=100')).data;
    expect(recent[0]!.email).toBe(TEACHER);
    const signedInCount = recent.filter((m) => m.last_sign_in_at !== null).length;
    // Never signed in goes last both ways.
    expect(recent.slice(signedInCount).every((m) => m.last_sign_in_at === null)).toBe(true);
    const oldest = (await page(admin, '?sort=last_sign_in&order=asc&per_page=100')).data;
    expect(oldest.slice(0, signedInCount).map((m) => m.email)).toEqual(
      recent
        .slice(0, signedInCount)
        .map((m) => m.email)
        .reverse(),
    );
    expect(oldest.slice(signedInCount).every((m) => m.last_sign_in_at === null)).toBe(true);
  });

  it('pages with links that keep the query', async () => {
    const admin = await as(ADMIN);
    const first = await page(admin, '?per_page=2&sort=email&q=sanandres.cl');
    const second = await page(admin, '?per_page=2&sort=email&q=sanandres.cl&page=2');
    expect(first.meta).toEqual({ current_page: 1, last_page: Math.ceil(first.meta.total / 2), per_page: 2, total: first.meta.total });
    expect(first.links).toEqual({ next: '/api/staff?page=2&per_page=2&sort=email&order=asc&q=sanandres.cl', prev: null });
    expect(second.links.prev).toBe('/api/staff?page=1&per_page=2&sort=email&order=asc&q=sanandres.cl');
    expect(second.data[0]!.email > first.data[1]!.email).toBe(true);
    const beyond = await page(admin, '?per_page=2&page=100000');
    expect(beyond.data).toEqual([]);
    expect(beyond.meta.total).toBe(first.meta.total + (await page(admin, '?per_page=1')).meta.total - first.meta.total);
  });

  it('answers 422 with a Spanish message for each bad parameter', async () => {
    const admin = await as(ADMIN);
    const res = await admin.get(`/api/staff?page=0&per_page=101&state=jubilado&sort=edad&order=arriba&q=${'a'.repeat(101)}`);
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      code: 'validation.failed',
      message: 'Los datos enviados no son válidos.',
      errors: {
        page: ['La página debe ser un número entero entre 1 y 100000.'],
        per_page: ['La cantidad por página debe ser un número entero entre 1 y 100.'],
        q: ['La búsqueda puede tener hasta 100 caracteres.'],
        state: ['El estado debe ser invitado, activo o desactivado.'],
        sort: ['El orden debe ser por nombre, correo, último ingreso o estado.'],
        order: ['El sentido del orden debe ser ascendente o descendente.'],
      },
    });
  });

  it('filters by state', async () => {
    const admin = await as(ADMIN);
    const active = await page(admin, '?state=active&per_page=100');
    expect(active.data.every((m) => m.state === 'active')).toBe(true);
    expect((await page(admin, '?state=deactivated')).data.every((m) => m.state === 'deactivated')).toBe(true);
  });
});

describe('PATCH /api/staff/:id', () => {
  it('changes roles and device, keeps the admin policies in step and records each change', async () => {
    const admin = await as(ADMIN);
    const id = await idOf('utp@sanandres.cl');
    const res = await patch(admin, id, { roles: ['docente', 'colegio-utp', 'docente'], device: 'latam' });
    expect(res.status).toBe(200);
    const body: unknown = await res.json();
    expect(is(body, StaffMemberBodyStruct)).toBe(true);
    const { data } = body as { data: StaffMember };
    expect(data).toMatchObject({ id, roles: ['colegio-utp', 'docente'], device: 'latam' });
    expect(await changesOf(id)).toEqual([
      {
        action: 'roles.changed',
        actor: await idOf(ADMIN),
        detail: { from: ['colegio-utp'], to: ['colegio-utp', 'docente'] },
        institutionId: expect.any(Number),
      },
      { action: 'device.changed', actor: await idOf(ADMIN), detail: { from: 'cl', to: 'latam' }, institutionId: expect.any(Number) },
    ]);

    // Down to teacher: the data screens' policies go with the admin role.
    const down = await send(admin, 'PATCH', `/api/staff/${id}`, { roles: ['docente'] });
    expect(down.status).toBe(200);
    const policies = await server.db.select({ name: userPolicies.name }).from(userPolicies).where(eq(userPolicies.userId, id));
    expect(policies.map((p) => p.name).sort()).toEqual(['hermes-acceder-sistema', 'hermes-enviar-mensajes', 'hermes-gestionar-plantillas']);
    const roles = await server.db.select({ code: userRoles.code, name: userRoles.name }).from(userRoles).where(eq(userRoles.userId, id));
    expect(roles).toEqual([{ code: 'docente', name: 'Docente' }]);
    // The same roles again changes nothing and records nothing.
    await send(admin, 'PATCH', `/api/staff/${id}`, { roles: ['docente'], device: 'latam' });
    expect((await changesOf(id)).map((c) => c.action)).toEqual(['roles.changed', 'device.changed', 'roles.changed']);
  });

  it('channels follow the roles: a teacher made UTP may use WhatsApp, as a seeded UTP may; made teacher again, no longer', async () => {
    const admin = await as(ADMIN);
    const [teacher] = rowsOf<{ id: number }>(
      await server.db.execute(sql`
        select u.id from users u join institutions i on i.id = u.institution_id
        where i.name = 'Colegio San Andrés de Ñuñoa' and u.status = 'active' and u.email <> 'docente@sanandres.cl'
          and exists (select 1 from user_roles r where r.user_id = u.id and r.code = 'docente')
          and not exists (select 1 from user_roles r where r.user_id = u.id and r.code <> 'docente')
        order by u.id limit 1`),
    );
    const id = Number(teacher!.id);
    const whatsapp = async () => {
      const rows = rowsOf<{ enabled: boolean }>(
        await server.db.execute(sql`select enabled from user_channel_permissions where user_id = ${id} and channel = 'whatsapp'`),
      );
      return rows.map((row) => row.enabled);
    };
    // San Andrés contracts WhatsApp; the seed opens it to its admin roles only.
    expect(await whatsapp()).toEqual([false]);
    expect((await patch(admin, id, { roles: ['colegio-utp'] })).status).toBe(200);
    expect(await whatsapp()).toEqual([true]);
    expect((await patch(admin, id, { roles: ['docente'] })).status).toBe(200);
    expect(await whatsapp()).toEqual([false]);
  });

  it('a role taken away counts at the user’s next request', async () => {
    const admin = await as(ADMIN);
    const id = await idOf('corp.utp@sanandres.cl');
    const colleague = await freshSession('corp.utp@sanandres.cl');
    expect((await colleague.get('/api/dashboard/summary')).status).not.toBe(403);
    expect((await send(admin, 'PATCH', `/api/staff/${id}`, { roles: ['docente'] })).status).toBe(200);
    expect((await colleague.get('/api/dashboard/summary')).status).toBe(403);
  });

  it('answers 422 for roles and devices that are not, and for nothing to change', async () => {
    const admin = await as(ADMIN);
    const id = await idOf(TEACHER);
    const roles = ['Elige al menos un rol válido: administrador, director, jefe de UTP, UTP de corporación o docente.'];
    for (const [body, errors] of [
      [{ roles: [] }, { roles }],
      [{ roles: ['rector'] }, { roles }],
      [{ roles: 'docente' }, { roles }],
      [{ device: 'pc' }, { device: ['El dispositivo debe ser latam o cl.'] }],
      [{}, { roles: ['Indica los roles o el dispositivo que quieres cambiar.'] }],
      [null, { roles: ['Indica los roles o el dispositivo que quieres cambiar.'] }],
    ] as const) {
      const res = await send(admin, 'PATCH', `/api/staff/${id}`, body);
      expect([body, res.status]).toEqual([body, 422]);
      expect(((await res.json()) as ApiError).errors).toEqual(errors);
    }
    expect(await changesOf(id)).toEqual([]);
  });

  it('refuses an administrator their own admin role, and keeps it', async () => {
    const admin = await as(ADMIN);
    const id = await idOf(ADMIN);
    const res = await send(admin, 'PATCH', `/api/staff/${id}`, { roles: ['docente'] });
    expect(res.status).toBe(422);
    expect(((await res.json()) as ApiError).errors).toEqual({
      roles: ['No puedes quitarte tu propio rol de administrador. Pídeselo a otro administrador de la institución.'],
    });
    // Adding a role to oneself is fine.
    const more = await send(admin, 'PATCH', `/api/staff/${id}`, { roles: ['colegio-administrador', 'docente'] });
    expect(more.status).toBe(200);
    expect(((await more.json()) as { data: StaffMember }).data.roles).toEqual(['colegio-administrador', 'docente']);
  });
});

describe('the last administrator', () => {
  it('two administrators taking each other’s admin role at once leave one of them administrator', async () => {
    const admin = await as(ADMIN);
    const other = 'docente.latam@sanandres.cl';
    const otherId = await idOf(other);
    const adminId = await idOf(ADMIN);
    expect((await send(admin, 'PATCH', `/api/staff/${otherId}`, { roles: ['colegio-administrador'] })).status).toBe(200);
    const second = await freshSession(other);
    const [a, b] = await Promise.all([
      send(admin, 'PATCH', `/api/staff/${otherId}`, { roles: ['docente'] }),
      send(second, 'PATCH', `/api/staff/${adminId}`, { roles: ['docente'] }),
    ]);
    // One goes first; the other is refused: as the last administrator, or (the first done before it is even
    // read, as PGlite serves one request at a time) as no administrator any more.
    const statuses = [a.status, b.status].sort();
    expect(statuses[0]).toBe(200);
    expect([403, 422]).toContain(statuses[1]);
    if (statuses[1] === 422) {
      expect(((await (a.status === 422 ? a : b).json()) as ApiError).errors).toEqual({
        roles: ['La institución debe tener al menos un administrador activo: asigna el rol a otra persona antes.'],
      });
    }
    const admins = await server.db
      .select({ email: users.email })
      .from(userRoles)
      .innerJoin(users, eq(users.id, userRoles.userId))
      .where(and(eq(userRoles.code, 'colegio-administrador'), sql`${users.email} like '%@sanandres.cl'`));
    expect(admins).toHaveLength(1);
    // Whoever is left gives the role back, so the rest of the file has its administrator.
    if (admins[0]!.email !== ADMIN) {
      expect((await send(second, 'PATCH', `/api/staff/${adminId}`, { roles: ['colegio-administrador'] })).status).toBe(200);
      expect((await send(admin, 'PATCH', `/api/staff/${otherId}`, { roles: ['docente'] })).status).toBe(200);
    }
  });

  it('two administrators deactivating each other at once leave one of them', async () => {
    const admin = await as(ADMIN);
    const other = 'directora@sanandres.cl';
    const otherId = await idOf(other);
    const adminId = await idOf(ADMIN);
    expect((await send(admin, 'PATCH', `/api/staff/${otherId}`, { roles: ['colegio-administrador', 'colegio-director'] })).status).toBe(
      200,
    );
    const second = await freshSession(other);
    const [a, b] = await Promise.all([
      send(admin, 'POST', `/api/staff/${otherId}/deactivate`),
      send(second, 'POST', `/api/staff/${adminId}/deactivate`),
    ]);
    const statuses = [a.status, b.status].sort();
    // The first deactivation ends the other's session: the second is refused as the last admin, or as a
    // session that is no more (401, or 419 as its CSRF token was bound to it).
    expect(statuses[0]).toBe(200);
    expect([401, 409, 419]).toContain(statuses[1]);
    if (statuses[1] === 409) {
      expect(await (a.status === 409 ? a : b).json()).toEqual({
        code: 'staff.last_admin',
        message: 'La institución debe tener al menos un administrador activo: no puedes desactivar al último.',
      });
    }
    const [left] = rowsOf<{ n: number }>(
      await server.db.execute(sql`select count(*)::int as n from users u join user_roles r on r.user_id = u.id
        where r.code = 'colegio-administrador' and u.status = 'active' and u.email like '%@sanandres.cl'`),
    );
    expect(left!.n).toBe(1);
    // Back as before for the rest of the file.
    const survivor = a.status === 200 ? admin : second;
    const gone = a.status === 200 ? otherId : adminId;
    expect((await send(survivor, 'POST', `/api/staff/${gone}/reactivate`)).status).toBe(200);
    // The file's administrator client signs in again: its session ended if it was the one deactivated.
    admin.jar.clear();
    expect((await admin.login(ADMIN)).status).toBe(200);
    expect((await send(admin, 'PATCH', `/api/staff/${otherId}`, { roles: ['colegio-director'] })).status).toBe(200);
  });
});

describe('the last administrator, past the sign-in checks', () => {
  // The HTTP checks above run on sessions; here both changes are already past them and meet only in the
  // database, where the school's lock orders them.
  it('of two changes taking each other’s admin role, the second is refused', async () => {
    const [school] = await server.db.select({ id: users.institutionId }).from(users).where(eq(users.email, ADMIN));
    const a = await idOf(ADMIN);
    const b = await idOf('docente.latam@sanandres.cl');
    const admin = await as(ADMIN);
    expect((await send(admin, 'PATCH', `/api/staff/${b}`, { roles: ['colegio-administrador', 'docente'] })).status).toBe(200);
    const drop = { roles: ['docente'] as RoleCode[], device: null };
    const outcomes = await Promise.all([
      changeAccount(server.db, { userId: a, institutionId: school!.id }, b, drop),
      changeAccount(server.db, { userId: b, institutionId: school!.id }, a, drop),
    ]);
    expect(outcomes.map((o) => o.kind).sort()).toEqual(['done', 'invalid']);
    expect(outcomes.find((o) => o.kind === 'invalid')).toEqual({
      kind: 'invalid',
      errors: { roles: ['La institución debe tener al menos un administrador activo: asigna el rol a otra persona antes.'] },
    });
    const left = await server.db
      .select({ id: userRoles.userId })
      .from(userRoles)
      .where(and(eq(userRoles.code, 'colegio-administrador'), sql`${userRoles.userId} in (${a}, ${b})`));
    expect(left).toHaveLength(1);
    // The school as it was.
    const keep = { roles: ['colegio-administrador'] as RoleCode[], device: null };
    await changeAccount(server.db, { userId: left[0]!.id, institutionId: school!.id }, a, keep);
    await changeAccount(server.db, { userId: a, institutionId: school!.id }, b, { roles: ['docente'], device: null });
  });

  it('of two deactivations of each other, the second is refused', async () => {
    const [school] = await server.db.select({ id: users.institutionId }).from(users).where(eq(users.email, ADMIN));
    const a = await idOf(ADMIN);
    const b = await idOf('docente.latam@sanandres.cl');
    await changeAccount(server.db, { userId: a, institutionId: school!.id }, b, { roles: ['colegio-administrador'], device: null });
    const outcomes = await Promise.all([
      deactivateAccount(server.db, { userId: a, institutionId: school!.id }, b),
      deactivateAccount(server.db, { userId: b, institutionId: school!.id }, a),
    ]);
    expect(outcomes.map((o) => o.kind).sort()).toEqual(['conflict', 'done']);
    expect(outcomes.find((o) => o.kind === 'conflict')).toEqual({
      kind: 'conflict',
      code: 'staff.last_admin',
      message: 'La institución debe tener al menos un administrador activo: no puedes desactivar al último.',
    });
    // The school as it was.
    const gone = outcomes[0]!.kind === 'done' ? b : a;
    const stays = gone === a ? b : a;
    await reactivateAccount(server.db, { userId: stays, institutionId: school!.id }, gone);
    await changeAccount(server.db, { userId: a, institutionId: school!.id }, b, { roles: ['docente'], device: null });
    // Which one goes is the database's choice: when it is the file's administrator, their sessions ended, so
    // the file's administrator client signs in again (the tests after this one use it).
    const admin = await as(ADMIN);
    admin.jar.clear();
    expect((await admin.login(ADMIN)).status).toBe(200);
  });
});

describe('deactivation', () => {
  it('ends the person’s sessions at once, refuses their sign-in and names what to hand over', async () => {
    const admin = await as(ADMIN);
    const email = 'utp@sanandres.cl';
    const id = await idOf(email);
    const open = await freshSession(email);
    expect((await open.get('/api/user')).status).toBe(200);
    const res = await send(admin, 'POST', `/api/staff/${id}/deactivate`);
    expect(res.status).toBe(200);
    const deactivated: unknown = await res.json();
    expect(is(deactivated, DeactivatedBodyStruct)).toBe(true);
    const { data } = deactivated as { data: Deactivated };
    expect(data.member).toMatchObject({ id, state: 'deactivated' });

    const lists = rowsOf<{ id: number; name: string }>(
      await server.db.execute(
        sql`select id, name from recipient_lists where owner_user_id = ${id} and shared and deleted_at is null order by id`,
      ),
    );
    const scheduled = rowsOf<{ id: number }>(
      await server.db.execute(sql`select id from messages where author_user_id = ${id} and kind = 'scheduled' order by id`),
    );
    expect(data.handover.shared_lists.map((l) => l.id).sort((x, y) => x - y)).toEqual(lists.map((l) => l.id));
    expect(data.handover.scheduled_messages.map((m) => m.id).sort((x, y) => x - y)).toEqual(scheduled.map((m) => m.id));

    // Out within one request, the refresh too.
    const user = await open.get('/api/user');
    expect(user.status).toBe(401);
    expect(await user.json()).toEqual(UNAUTHENTICATED);
    expect((await open.post('/api/token/refresh')).status).toBe(401);
    expect(await server.db.select().from(sessions).where(eq(sessions.userId, id))).toEqual([]);
    // Signing in gets the answer of a wrong password.
    const login = await server.client().login(email);
    expect(login.status).toBe(401);
    expect(await login.json()).toEqual(INVALID_CREDENTIALS);

    const changes = await changesOf(id);
    expect(changes.at(-1)).toEqual({
      action: 'deactivated',
      actor: await idOf(ADMIN),
      detail: { from: 'active', sessions_ended: 1, revoked_invitation_ids: [] },
      institutionId: expect.any(Number),
    });
    const handover = await admin.get(`/api/staff/${id}/handover`);
    expect(((await handover.json()) as { data: unknown }).data).toEqual(data.handover);

    // Already deactivated.
    const again = await send(admin, 'POST', `/api/staff/${id}/deactivate`);
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ code: 'staff.state', message: 'Esta cuenta ya está desactivada.' });

    // Reactivated: signs in again.
    const back = await send(admin, 'POST', `/api/staff/${id}/reactivate`);
    expect(back.status).toBe(200);
    expect(((await back.json()) as { data: StaffMember }).data.state).toBe('active');
    expect((await server.client().login(email)).status).toBe(200);
    expect((await changesOf(id)).at(-1)).toMatchObject({ action: 'reactivated', actor: await idOf(ADMIN), detail: { to: 'active' } });
    const twice = await send(admin, 'POST', `/api/staff/${id}/reactivate`);
    expect(twice.status).toBe(409);
    expect(await twice.json()).toEqual({ code: 'staff.state', message: 'Esta cuenta no está desactivada.' });
  });

  it('names the shared lists and scheduled messages of someone who has them', async () => {
    const admin = await as(ADMIN);
    const [owner] = rowsOf<{ id: number }>(
      await server.db.execute(sql`select u.id from users u join institutions i on i.id = u.institution_id
        where i.name = 'Colegio San Andrés de Ñuñoa' and u.status = 'active'
          and exists (select 1 from messages m where m.author_user_id = u.id and m.kind = 'scheduled')
        order by u.id limit 1`),
    );
    expect(owner).toBeDefined();
    // A shared list of theirs, written as the list screens would.
    const [list] = rowsOf<{ id: number }>(
      await server.db.execute(sql`insert into recipient_lists (institution_id, owner_user_id, name, shared)
        select institution_id, id, 'Apoderados del taller', true from users where id = ${owner!.id} returning id`),
    );
    const res = await admin.get(`/api/staff/${owner!.id}/handover`);
    expect(res.status).toBe(200);
    const handover: unknown = await res.json();
    expect(is(handover, HandoverBodyStruct)).toBe(true);
    const { data } = handover as { data: Deactivated['handover'] };
    const shared: HandoverList = { id: list!.id, name: 'Apoderados del taller', users_count: 0 };
    expect(data.shared_lists).toContainEqual(shared);
    const scheduled = rowsOf<{ id: number; title: string; scheduled_at: Date | string }>(
      await server.db.execute(sql`select id, title, scheduled_at from messages where author_user_id = ${owner!.id} and kind = 'scheduled'`),
    );
    expect(scheduled.length).toBeGreaterThan(0);
    const expected: HandoverMessage[] = scheduled.map((m) => ({
      id: m.id,
      title: m.title,
      scheduled_at: new Date(m.scheduled_at).toISOString(),
    }));
    expect([...data.scheduled_messages].sort((a, b) => a.id - b.id)).toEqual(expected.sort((a, b) => a.id - b.id));
  });

  it('refuses an administrator deactivating themselves', async () => {
    const admin = await as(ADMIN);
    const res = await send(admin, 'POST', `/api/staff/${await idOf(ADMIN)}/deactivate`);
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({
      code: 'staff.self',
      message: 'No puedes desactivar tu propia cuenta. Pídeselo a otro administrador de la institución.',
    });
    expect((await admin.get('/api/user')).status).toBe(200);
  });

  it('a session of a user no longer active is refused at its next request, whoever changed the row', async () => {
    // Another process (or a session row that outlived the deactivation) is the case: the row changes, the sessions stay.
    const email = 'docente.latam@sanandres.cl';
    const open = await freshSession(email);
    expect((await open.get('/api/user')).status).toBe(200);
    await server.db.update(users).set({ status: 'deactivated' }).where(eq(users.email, email));
    expect(
      await server.db
        .select({ id: sessions.id })
        .from(sessions)
        .where(eq(sessions.userId, await idOf(email))),
    ).not.toEqual([]);
    const res = await open.get('/api/user');
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual(UNAUTHENTICATED);
    expect((await open.post('/api/token/refresh')).status).toBe(401);
    await server.db.update(users).set({ status: 'active' }).where(eq(users.email, email));
  });
});
