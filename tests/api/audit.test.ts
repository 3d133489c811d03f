// The audit log's screen API (GET /api/audit, GET /api/audit/export.csv) against the real server: who may
// read it, one school's entries only, newest first, paged, filtered by action, person, actor and days in the
// school's zone, live names (a gone person or account has none), the CSV and its own `audit.exported`
// entry, clear 422s, and the database refusing to change or delete an entry outside the retention sweep.
import { and, eq, sql } from 'drizzle-orm';
import { is } from 'superstruct';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditPage, AuditRow } from '../../shared/audit-contract';
import { AuditPageStruct } from '../../shared/audit-structs';
import { recordAudit, systemActor, type AuditActor } from '../../server/audit/record';
import { auditEvents } from '../../server/db/schema/audit';
import { users } from '../../server/db/schema/auth';
import { guardians, students } from '../../server/db/schema/school';
import { rowsOf } from '../../server/db/sql';
import { userIdOf } from './support/staff';
import { signedIn, startServer, type Client, type TestServer } from './support/server';

const ADMIN = 'administrador@sanandres.cl';
const DIRECTOR = 'directora@sanandres.cl';
const TEACHER = 'docente@sanandres.cl';
const ELQUI_ADMIN = 'administrador@liceoelqui.cl';

let server: TestServer;
const as = signedIn(() => server);

let school = 0;
let elqui = 0;
let adminId = 0;
let directorId = 0;
let guardianId = 0;
let guardianName = '';
let studentId = 0;
/** Ids of the entries seeded in 2025 (far from anything the server records while the tests run). */
const seeded: Record<string, number> = {};

/** Only the seeded year: entries the app records as the tests run (sign-ins, exports) stay out. */
const YEAR = 'from=2025-01-01&to=2025-12-31';

async function page(client: Client, query: string): Promise<AuditPage> {
  const res = await client.get(`/api/audit?${query}`);
  expect(res.status, await res.clone().text()).toBe(200);
  const body: unknown = await res.json();
  expect(is(body, AuditPageStruct)).toBe(true);
  return body as AuditPage;
}

const ids = (rows: AuditRow[]) => rows.map((row) => row.id);

/** An entry at a given instant (recordAudit always writes now; INSERT is what the log allows). */
async function at(instant: string, actor: AuditActor, values: Partial<typeof auditEvents.$inferInsert> & { action: string }) {
  const [row] = await server.db
    .insert(auditEvents)
    .values({ institutionId: actor.institutionId, actorUserId: actor.actorUserId, ip: actor.ip, at: new Date(instant), ...values })
    .returning({ id: auditEvents.id });
  return row!.id;
}

beforeAll(async () => {
  server = await startServer();
  const db = server.db;
  adminId = await userIdOf(db, ADMIN);
  directorId = await userIdOf(db, DIRECTOR);
  const [admin] = await db.select({ institutionId: users.institutionId }).from(users).where(eq(users.id, adminId));
  school = admin!.institutionId;
  const [other] = await db.select({ institutionId: users.institutionId }).from(users).where(eq(users.email, ELQUI_ADMIN));
  elqui = other!.institutionId;
  const [guardian] = await db
    .select({ id: guardians.id, first: guardians.firstNames, father: guardians.lastNameFather, mother: guardians.lastNameMother })
    .from(guardians)
    .where(eq(guardians.institutionId, school))
    .limit(1);
  guardianId = guardian!.id;
  guardianName = `${guardian!.first} ${guardian!.father} ${guardian!.mother}`.trim();
  const [student] = await db.select({ id: students.id }).from(students).where(eq(students.institutionId, school)).limit(1);
  studentId = student!.id;

  const admin_ = { institutionId: school, actorUserId: adminId, ip: '10.0.0.1' };
  const director = { institutionId: school, actorUserId: directorId, ip: '10.0.0.2' };
  // Oldest first. 2025-03-10 02:30 UTC is still the 9th in Santiago (UTC-3 until April 6, then UTC-4).
  seeded.signIn = await at('2025-03-01T12:00:00Z', admin_, { action: 'session.signed_in', subjectKind: 'usuario', subjectId: adminId });
  seeded.lateNight = await at('2025-03-10T02:30:00Z', director, {
    action: 'person.contacts_viewed',
    subjectKind: 'apoderado',
    subjectId: guardianId,
  });
  seeded.changed = await at('2025-03-10T15:00:00Z', admin_, {
    action: 'person.changed',
    subjectKind: 'estudiante',
    subjectId: studentId,
    detail: { fields: ['email'] },
  });
  seeded.gone = await at('2025-04-01T12:00:00Z', director, { action: 'person.erased', subjectKind: 'apoderado', subjectId: 999_999 });
  seeded.goneActor = await at(
    '2025-04-02T12:00:00Z',
    { institutionId: school, actorUserId: 999_998, ip: '10.0.0.3' },
    {
      action: 'export.csv',
    },
  );
  seeded.system = await at('2025-05-01T04:00:00Z', systemActor(school), {
    action: 'retention.applied',
    detail: { mensajes: 3, fecha: '2025-05-01T04:00:00.000Z' },
  });
  seeded.failed = await at(
    '2025-05-02T12:00:00Z',
    { institutionId: school, actorUserId: null, ip: '10.9.9.9' },
    {
      action: 'session.sign_in_failed',
      detail: { method: 'password', reason: 'invalid_credentials' },
    },
  );
  seeded.formula = await at('2025-05-03T12:00:00Z', admin_, {
    action: 'export.call_list',
    // A key no writer uses (an older entry's) reads in a generic form; its value is not a formula.
    detail: { format: 'csv', rows: 2, course: '=1+1' },
  });
  // Another school's entries, one about the same ids.
  seeded.elqui = await at(
    '2025-03-05T12:00:00Z',
    { institutionId: elqui, actorUserId: adminId, ip: '10.1.1.1' },
    {
      action: 'person.changed',
      subjectKind: 'apoderado',
      subjectId: guardianId,
    },
  );
  seeded.none = await at('2025-03-06T12:00:00Z', systemActor(null), { action: 'session.sign_in_failed' });
  // And one written the way the app writes them, now.
  await recordAudit(db, admin_, { action: 'settings.changed', subject: { kind: 'colegio', id: school }, detail: { fields: ['name'] } });
});

afterAll(async () => {
  await server?.close();
});

describe('who may read the log', () => {
  it('answers 401 without a session and 403 to a teacher, for the list and the CSV', async () => {
    const anonymous = server.client();
    expect((await anonymous.get('/api/audit')).status).toBe(401);
    for (const path of ['/api/audit', '/api/audit/export.csv']) {
      const res = await (await as(TEACHER)).get(path);
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({
        code: 'auth.forbidden',
        message: 'Solo la administración de la institución puede ver el registro de auditoría.',
      });
    }
  });

  it('lets the administration in (administrator and director)', async () => {
    expect((await page(await as(ADMIN), YEAR)).meta.total).toBe(8);
    expect((await page(await as(DIRECTOR), YEAR)).meta.total).toBe(8);
  });

  it('has no route to change or delete an entry', async () => {
    const client = await as(ADMIN);
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      for (const path of ['/api/audit', `/api/audit/${seeded.signIn}`]) {
        const res = await client.fetch(path, { method, headers: { 'Content-Type': 'application/json' }, body: '{}' });
        expect([404, 405]).toContain(res.status);
      }
    }
    const [still] = await server.db.select().from(auditEvents).where(eq(auditEvents.id, seeded.signIn!));
    expect(still?.action).toBe('session.signed_in');
  });
});

describe('the list', () => {
  it("shows the school's entries newest first, never another school's", async () => {
    const body = await page(await as(ADMIN), YEAR);
    expect(ids(body.data)).toEqual([
      seeded.formula,
      seeded.failed,
      seeded.system,
      seeded.goneActor,
      seeded.gone,
      seeded.changed,
      seeded.lateNight,
      seeded.signIn,
    ]);
    const elquiBody = await page(await as(ELQUI_ADMIN), YEAR);
    expect(ids(elquiBody.data)).toEqual([seeded.elqui]);
    // The other school's entry names a guardian of San Andrés: not joined across schools.
    expect(elquiBody.data[0]?.subject).toEqual({ kind: 'apoderado', id: guardianId, name: null });
    // Nor does the other school see San Andrés' entries by filtering on their ids.
    const filtered = await page(await as(ELQUI_ADMIN), `subject_kind=apoderado&subject_id=${guardianId}`);
    expect(ids(filtered.data)).toEqual([seeded.elqui]);
  });

  it('names the actor and the subject from the live rows, and says who is gone', async () => {
    const body = await page(await as(ADMIN), YEAR);
    const byId = new Map(body.data.map((row) => [row.id, row]));
    const [admin] = await server.db.select({ name: users.name }).from(users).where(eq(users.id, adminId));
    expect(byId.get(seeded.signIn!)).toEqual({
      id: seeded.signIn,
      at: '2025-03-01T12:00:00.000Z',
      action: 'session.signed_in',
      actor: { kind: 'user', id: adminId, name: admin!.name },
      ip: '10.0.0.1',
      subject: { kind: 'usuario', id: adminId, name: admin!.name },
      detail: null,
    });
    expect(byId.get(seeded.lateNight!)?.subject).toEqual({ kind: 'apoderado', id: guardianId, name: guardianName });
    expect(byId.get(seeded.changed!)?.detail).toEqual({ fields: ['email'] });
    expect(byId.get(seeded.gone!)?.subject).toEqual({ kind: 'apoderado', id: 999_999, name: null });
    expect(byId.get(seeded.goneActor!)?.actor).toEqual({ kind: 'user', id: 999_998, name: null });
    expect(byId.get(seeded.system!)?.actor).toEqual({ kind: 'system', id: null, name: null });
    expect(byId.get(seeded.failed!)?.actor).toEqual({ kind: 'anonymous', id: null, name: null });
    // An entry written now by recordAudit, about the school itself.
    const now = await page(await as(ADMIN), 'action=settings.changed');
    expect(now.data[0]?.subject?.kind).toBe('colegio');
    expect(now.data[0]?.subject?.name).toEqual(expect.any(String));
  });

  it('pages with links that keep the filters', async () => {
    const client = await as(ADMIN);
    const first = await page(client, `${YEAR}&per_page=3`);
    expect(first.meta).toEqual({ current_page: 1, last_page: 3, per_page: 3, total: 8 });
    expect(first.links.prev).toBeNull();
    expect(first.links.next).toBe('/api/audit?page=2&per_page=3&from=2025-01-01&to=2025-12-31');
    const second = await page(client, first.links.next!.replace('/api/audit?', ''));
    const third = await page(client, `${YEAR}&per_page=3&page=3`);
    expect([...ids(first.data), ...ids(second.data), ...ids(third.data)]).toEqual(ids((await page(client, YEAR)).data));
    expect(third.links.next).toBeNull();
    const past = await page(client, `${YEAR}&per_page=3&page=9`);
    expect(past.data).toEqual([]);
    expect(past.meta.total).toBe(8);
  });
});

describe('filters', () => {
  it('by one action or several', async () => {
    const client = await as(ADMIN);
    expect(ids((await page(client, `${YEAR}&action=person.changed`)).data)).toEqual([seeded.changed]);
    expect(ids((await page(client, `${YEAR}&action=person.erased,session.signed_in`)).data)).toEqual([seeded.gone, seeded.signIn]);
  });

  it('by the person an entry is about, and by who did it', async () => {
    const client = await as(ADMIN);
    expect(ids((await page(client, `subject_kind=apoderado&subject_id=${guardianId}`)).data)).toEqual([seeded.lateNight]);
    expect(ids((await page(client, `subject_kind=estudiante&subject_id=${studentId}`)).data)).toEqual([seeded.changed]);
    expect(ids((await page(client, `${YEAR}&actor_id=${directorId}`)).data)).toEqual([seeded.gone, seeded.lateNight]);
    expect(ids((await page(client, `${YEAR}&actor_id=${directorId}&action=person.erased`)).data)).toEqual([seeded.gone]);
    expect(ids((await page(client, `actor_id=${directorId}&subject_kind=apoderado&subject_id=${guardianId}`)).data)).toEqual([
      seeded.lateNight,
    ]);
  });

  it("by days in the school's time zone, both ends included", async () => {
    const client = await as(ADMIN);
    // 02:30 UTC on the 10th is 23:30 on the 9th in Santiago.
    expect(ids((await page(client, 'from=2025-03-09&to=2025-03-09')).data)).toEqual([seeded.lateNight]);
    expect(ids((await page(client, 'from=2025-03-10&to=2025-03-10')).data)).toEqual([seeded.changed]);
    expect(ids((await page(client, 'from=2025-04-01&to=2025-04-02')).data)).toEqual([seeded.goneActor, seeded.gone]);
    expect(ids((await page(client, 'from=2025-05-02&to=2025-12-31')).data)).toEqual([seeded.formula, seeded.failed]);
    expect(ids((await page(client, 'to=2025-03-01')).data)).toEqual([seeded.signIn]);
  });

  it('answers bad values with each field in Spanish', async () => {
    const client = await as(ADMIN);
    const res = await client.get(
      '/api/audit?action=session.signed_in,borrar&subject_kind=alumno&subject_id=0&actor_id=x&from=2025-02-30&to=ayer&page=0&per_page=500',
    );
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      code: 'validation.failed',
      message: 'Los datos enviados no son válidos.',
      errors: {
        action: ['La acción no es una de las que registra la auditoría.'],
        subject_kind: ['El tipo de persona o elemento no es válido.'],
        subject_id: ['El identificador de la persona o elemento debe ser un número entero positivo.'],
        actor_id: ['El identificador de quien actuó debe ser un número entero positivo.'],
        from: ['La fecha debe tener el formato AAAA-MM-DD y ser una fecha real.'],
        to: ['La fecha debe tener el formato AAAA-MM-DD y ser una fecha real.'],
        page: ['La página debe ser un número entero entre 1 y 100000.'],
        per_page: ['La cantidad por página debe ser un número entero entre 1 y 100.'],
      },
    });
    const pair = await client.get('/api/audit?subject_id=4');
    expect((await pair.json()).errors).toEqual({ subject_kind: ['Indica a la vez el tipo y el identificador de la persona o elemento.'] });
    const range = await client.get('/api/audit?from=2025-03-10&to=2025-03-09');
    expect((await range.json()).errors).toEqual({ to: ['La fecha «hasta» no puede ser anterior a la fecha «desde».'] });
    const csv = await client.get('/api/audit/export.csv?action=nada');
    expect(csv.status).toBe(422);
  });
});

describe('the CSV export', () => {
  it('holds the filtered entries as a spreadsheet opens them, and is itself written to the log', async () => {
    const client = await as(DIRECTOR);
    const res = await client.get(
      `/api/audit/export.csv?${YEAR}&action=person.erased,export.csv,retention.applied,export.call_list,session.sign_in_failed`,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="registro-de-auditoria-\d{4}-\d{2}-\d{2}\.csv"/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder()
      .decode(bytes)
      .replace(/^\uFEFF/, '')
      .split('\r\n');
    expect(lines).toEqual([
      'Fecha;Acción;Código;Quién;Dirección IP;Sobre;Tipo;Id;Detalle',
      `2025-05-03 08:00;Exportación de lista de llamados;export.call_list;${await nameOf(adminId)};10.0.0.1;;;;Formato=CSV · Filas=2 · Course==1+1`,
      '2025-05-02 08:00;Inicio de sesión fallido;session.sign_in_failed;Sin sesión;10.9.9.9;;;;Forma de ingreso=Contraseña · Motivo=Correo o contraseña incorrectos',
      '2025-05-01 00:00;Aplicación de plazos de conservación;retention.applied;Sistema;;;;;Mensajes=3 · Fecha=2025-05-01T04:00:00.000Z',
      '2025-04-02 09:00;Exportación CSV;export.csv;Cuenta eliminada;10.0.0.3;;;;',
      `2025-04-01 09:00;Supresión de una persona;person.erased;${await nameOf(directorId)};10.0.0.2;Persona eliminada;apoderado;999999;`,
      '',
    ]);
    const [record] = await server.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'audit.exported'), eq(auditEvents.actorUserId, directorId)));
    expect(record).toMatchObject({
      institutionId: school,
      actorUserId: directorId,
      subjectKind: null,
      subjectId: null,
      detail: {
        rows: 5,
        action: 'person.erased,export.csv,retention.applied,export.call_list,session.sign_in_failed',
        from: '2025-01-01',
        to: '2025-12-31',
      },
    });
    expect(record?.ip).toEqual(expect.any(String));
    // And the screen lists it.
    const listed = await page(await as(ADMIN), 'action=audit.exported');
    expect(listed.data[0]?.actor).toEqual({ kind: 'user', id: directorId, name: await nameOf(directorId) });
  });
});

async function nameOf(userId: number): Promise<string> {
  const [row] = await server.db.select({ name: users.name }).from(users).where(eq(users.id, userId));
  return row!.name;
}

describe('append-only in the database', () => {
  it('refuses UPDATE and DELETE of an entry', async () => {
    await expect(server.db.execute(sql`update audit_events set action = 'export.csv' where id = ${seeded.signIn}`)).rejects.toThrow();
    await expect(server.db.execute(sql`delete from audit_events where id = ${seeded.signIn}`)).rejects.toThrow();
    // Even inside a transaction, unless it says it is the retention sweep.
    await expect(
      server.db.transaction(async (tx) => {
        await tx.execute(sql`delete from audit_events where id = ${seeded.signIn}`);
      }),
    ).rejects.toThrow();
    const rows = rowsOf<{ action: string }>(await server.db.execute(sql`select action from audit_events where id = ${seeded.signIn}`));
    expect(rows).toEqual([{ action: 'session.signed_in' }]);
  });

  it('allows DELETE inside a transaction that sets hermes.audit_purge, and only there', async () => {
    await server.db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('hermes.audit_purge', 'on', true)`);
      await tx.execute(sql`delete from audit_events where id = ${seeded.none}`);
    });
    const gone = rowsOf(await server.db.execute(sql`select id from audit_events where id = ${seeded.none}`));
    expect(gone).toEqual([]);
    // The setting lasted for that transaction only.
    await expect(server.db.execute(sql`delete from audit_events where id = ${seeded.elqui}`)).rejects.toThrow();
    // UPDATE stays refused even there.
    await expect(
      server.db.transaction(async (tx) => {
        await tx.execute(sql`select set_config('hermes.audit_purge', 'on', true)`);
        await tx.execute(sql`update audit_events set ip = null where id = ${seeded.elqui}`);
      }),
    ).rejects.toThrow();
  });
});
