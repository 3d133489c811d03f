// Every action the audit log covers, done through the real API, writes exactly one entry: the right code,
// who did it (or no one, for a refused sign-in), the school (none for an address no account has), the
// caller's address, the subject and the detail, and never an e-mail, a phone, a RUT or a name.
import { and, asc, eq, gt, isNull, max, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROSTER_API } from '../../shared/roster-contract';
import type { RosterImport, RosterReadAnswer } from '../../shared/roster-contract';
import { rutCheckDigit } from '../../shared/person-rules';
import { auditEvents } from '../../server/db/schema/audit';
import { users } from '../../server/db/schema/auth';
import { guardians, studentGuardians, students } from '../../server/db/schema/school';
import { startProvider, type TestProvider } from '../fixtures/oidc';
import { pngFile } from '../fixtures/images';
import { folderIds } from './support/mail';
import { signedIn, startServer, type TestServer } from './support/server';
import { sendJson, userIdOf } from './support/staff';

const ADMIN = 'administrador@sanandres.cl';
const TEACHER = 'docente@sanandres.cl';
const PUBLIC_URL = 'https://hermes.sanandres.example';
const CALLBACK = `${PUBLIC_URL}/api/sso/callback`;

let server: TestServer;
let provider: TestProvider;
const as = signedIn(() => server);
let school: number;
let adminId: number;

type Entry = typeof auditEvents.$inferSelect;

async function lastId(): Promise<number> {
  const [row] = await server.db.select({ id: max(auditEvents.id) }).from(auditEvents);
  return Number(row?.id ?? 0);
}

/** The entries written since `since`, oldest first. */
const entriesSince = (since: number): Promise<Entry[]> =>
  server.db.select().from(auditEvents).where(gt(auditEvents.id, since)).orderBy(asc(auditEvents.id));

/** Nothing personal: no address, no phone or RUT (runs of digits), none of the `names` given. */
function expectNothingPersonal(entry: Entry, names: readonly string[] = []): void {
  const text = JSON.stringify({ ...entry, at: null });
  expect(text).not.toMatch(/@/);
  expect(text).not.toMatch(/\d{7,}/);
  for (const name of names) expect(text.toLowerCase()).not.toContain(name.toLowerCase());
}

/** Runs `act` and answers the one entry it wrote, checked against `expected` and for personal data. */
async function theEntryOf(
  act: () => Promise<unknown>,
  expected: {
    action: string;
    actor: number | null;
    institution: number | null;
    subject?: { kind: string; id: number } | null;
    detail?: Record<string, unknown>;
  },
  names: readonly string[] = [],
): Promise<Entry> {
  const since = await lastId();
  await act();
  const written = await entriesSince(since);
  expect(written.map((e) => e.action)).toEqual([expected.action]);
  const entry = written[0]!;
  expect(entry.actorUserId).toBe(expected.actor);
  expect(entry.institutionId).toBe(expected.institution);
  expect(entry.ip).toBeTruthy();
  if (expected.subject !== undefined) {
    expect(expected.subject === null ? null : { kind: entry.subjectKind, id: entry.subjectId }).toEqual(expected.subject);
  }
  if (expected.detail) expect(entry.detail).toMatchObject(expected.detail);
  expectNothingPersonal(entry, names);
  return entry;
}

/** The first enrolled student of the school with a guardian who has a phone (the people tests change them). */
async function aStudentWithGuardian() {
  const [row] = await server.db
    .select({ student: students.id, guardian: guardians.id, courseId: students.courseId })
    .from(students)
    .innerJoin(studentGuardians, eq(studentGuardians.studentId, students.id))
    .innerJoin(guardians, eq(guardians.id, studentGuardians.guardianId))
    .where(and(eq(students.institutionId, school), isNull(students.withdrawnAt), sql`${guardians.phone} is not null`))
    .orderBy(asc(students.id))
    .limit(1);
  return row!;
}

const ok = async (res: Promise<Response>, status = 200) => {
  const answered = await res;
  expect(answered.status, await answered.clone().text()).toBe(status);
  return answered;
};

beforeAll(async () => {
  server = await startServer({ config: { publicUrl: PUBLIC_URL } });
  provider = await startProvider(CALLBACK);
  adminId = await userIdOf(server.db, ADMIN);
  const [row] = await server.db.select({ institutionId: users.institutionId }).from(users).where(eq(users.id, adminId));
  school = row!.institutionId;
});
afterAll(async () => {
  await provider?.close();
  await server?.close();
});

describe('signing in and out', () => {
  it('records a sign-in with who and how, and the sign-out', async () => {
    const client = server.client();
    await client.get('/api/csrf-cookie');
    const entry = await theEntryOf(() => ok(client.login(ADMIN)), {
      action: 'session.signed_in',
      actor: adminId,
      institution: school,
      subject: { kind: 'usuario', id: adminId },
      detail: { method: 'password' },
    });
    expect(entry.detail?.session_id).toEqual(expect.any(Number));
    await theEntryOf(() => ok(client.get('/api/logout')), {
      action: 'session.signed_out',
      actor: adminId,
      institution: school,
      subject: { kind: 'usuario', id: adminId },
      detail: { session_id: entry.detail!.session_id },
    });
  });

  it('records a wrong password against the account, and an unknown address with no school and no subject', async () => {
    const client = server.client();
    await client.get('/api/csrf-cookie');
    await theEntryOf(() => ok(client.login(ADMIN, 'no-es-la-clave'), 401), {
      action: 'session.sign_in_failed',
      actor: null,
      institution: school,
      subject: { kind: 'usuario', id: adminId },
      detail: { method: 'password', reason: 'invalid_credentials' },
    });
    await theEntryOf(
      () => ok(client.login('nadie.conocido@ejemplo.cl', 'cualquiera'), 401),
      {
        action: 'session.sign_in_failed',
        actor: null,
        institution: null,
        subject: null,
        detail: { method: 'password', reason: 'invalid_credentials' },
      },
      ['nadie.conocido'],
    );
  });

  it('records the SSO settings by field name, then a sign-in through the provider and a refused one', async () => {
    const admin = await as(ADMIN);
    const body = {
      provider: 'google',
      issuer: provider.issuer,
      client_id: provider.clientId,
      client_secret: provider.clientSecret,
      domain: 'sanandres.cl',
      enabled: true,
    };
    const entry = await theEntryOf(
      () => ok(sendJson(admin, 'PUT', '/api/sso/settings', body)),
      { action: 'sso.changed', actor: adminId, institution: school, subject: { kind: 'colegio', id: school } },
      [provider.clientSecret, provider.clientId],
    );
    expect(entry.detail?.fields).toEqual(expect.arrayContaining(['enabled', 'clientSecret']));

    const through = async (email: string) => {
      const client = server.client();
      await client.get('/api/csrf-cookie');
      const left = await client.get('/api/sso/start?provider=google');
      provider.signInAs({ sub: `sub-${email}`, email, email_verified: true });
      const back = await provider.walk(left.headers.get('location')!);
      return client.get(`${back.pathname}${back.search}`);
    };
    const teacherId = await userIdOf(server.db, TEACHER);
    await theEntryOf(() => ok(through(TEACHER), 302), {
      action: 'session.signed_in',
      actor: teacherId,
      institution: school,
      subject: { kind: 'usuario', id: teacherId },
      detail: { method: 'sso' },
    });
    await theEntryOf(() => ok(through('nadie@sanandres.cl'), 302), {
      action: 'session.sign_in_failed',
      actor: null,
      institution: school,
      subject: null,
      detail: { method: 'sso', reason: 'unknown' },
    });
  });
});

describe('staff accounts', () => {
  it('records an invitation, a change of roles and device, a deactivation and a reactivation', async () => {
    const admin = await as(ADMIN);
    let invited = 0;
    const entry = await theEntryOf(
      async () => {
        const res = await ok(
          sendJson(admin, 'POST', '/api/staff/invitations', {
            people: [{ name: 'Rosa Auditada Pérez', email: 'rosa.auditada@sanandres.cl', role: 'docente' }],
          }),
        );
        invited = ((await res.json()) as { data: { id: number }[] }).data[0]!.id;
      },
      { action: 'staff.invited', actor: adminId, institution: school, detail: { roles_after: ['docente'] } },
      ['Rosa', 'Auditada'],
    );
    expect(entry.subjectId).toBe(invited);
    await theEntryOf(() => ok(sendJson(admin, 'PATCH', `/api/staff/${invited}`, { roles: ['colegio-utp'], device: 'latam' })), {
      action: 'staff.changed',
      actor: adminId,
      institution: school,
      subject: { kind: 'usuario', id: invited },
      detail: { fields: ['roles', 'device'], roles_before: ['docente'], roles_after: ['colegio-utp'], device_after: 'latam' },
    });
    await theEntryOf(() => ok(sendJson(admin, 'POST', `/api/staff/${invited}/deactivate`)), {
      action: 'staff.deactivated',
      actor: adminId,
      institution: school,
      subject: { kind: 'usuario', id: invited },
      detail: { roles_before: ['colegio-utp'] },
    });
    await theEntryOf(() => ok(sendJson(admin, 'POST', `/api/staff/${invited}/reactivate`)), {
      action: 'staff.reactivated',
      actor: adminId,
      institution: school,
      subject: { kind: 'usuario', id: invited },
    });
  });

  it('records one view of the staff list, with how many it showed', async () => {
    const admin = await as(ADMIN);
    await theEntryOf(() => ok(admin.get('/api/staff?per_page=5')), {
      action: 'person.contacts_viewed',
      actor: adminId,
      institution: school,
      subject: null,
      detail: { view: 'staff_list', people: 5, page: 1 },
    });
  });
});

describe('people', () => {
  it('records an edit with the field names only (contact_changes keeps the values)', async () => {
    const admin = await as(ADMIN);
    const { guardian } = await aStudentWithGuardian();
    await theEntryOf(
      () => ok(sendJson(admin, 'PATCH', `/api/people/apoderado/${guardian}`, { nombres: 'Clotilde', email: 'clotilde.nueva@correo.cl' })),
      {
        action: 'person.changed',
        actor: adminId,
        institution: school,
        subject: { kind: 'apoderado', id: guardian },
        detail: { fields: ['nombres', 'email'] },
      },
      ['Clotilde'],
    );
  });

  it('records a withdrawal, and the return as a change of standing', async () => {
    const admin = await as(ADMIN);
    const { student } = await aStudentWithGuardian();
    await theEntryOf(() => ok(sendJson(admin, 'POST', `/api/people/estudiante/${student}/withdrawal`)), {
      action: 'person.withdrawn',
      actor: adminId,
      institution: school,
      subject: { kind: 'estudiante', id: student },
      detail: { fields: ['estado'] },
    });
    await theEntryOf(() => ok(sendJson(admin, 'DELETE', `/api/people/estudiante/${student}/withdrawal`)), {
      action: 'person.changed',
      actor: adminId,
      institution: school,
      subject: { kind: 'estudiante', id: student },
      detail: { fields: ['estado'], to: 'matriculado' },
    });
  });

  it('records one view of a page of the people list, not one per person', async () => {
    const admin = await as(ADMIN);
    const { courseId } = await aStudentWithGuardian();
    const entry = await theEntryOf(() => ok(admin.get(`/api/people?kind=apoderado&course_id=${courseId}&per_page=10`)), {
      action: 'person.contacts_viewed',
      actor: adminId,
      institution: school,
      subject: null,
      detail: { view: 'people_list', course_id: courseId, page: 1 },
    });
    expect(entry.detail?.people).toBeGreaterThan(0);
  });

  it('records the course page and the call list as views, and the call list CSV as an export', async () => {
    const admin = await as(ADMIN);
    const { courseId } = await aStudentWithGuardian();
    await theEntryOf(() => ok(admin.get(`/api/dashboard/connectivity/courses/${courseId}`)), {
      action: 'person.contacts_viewed',
      actor: adminId,
      institution: school,
      detail: { view: 'course_connectivity', course_id: courseId },
    });
    const since = await lastId();
    const list = (await (await ok(admin.get(`/api/dashboard/connectivity/courses/${courseId}/call-list?messages=5`))).json()) as {
      data: { rows: unknown[] };
    };
    const views = await entriesSince(since);
    expect(views.map((e) => e.detail)).toEqual(
      list.data.rows.length === 0 ? [] : [{ view: 'call_list', people: list.data.rows.length, course_id: courseId, messages: 5 }],
    );
    await theEntryOf(() => ok(admin.get(`/api/dashboard/connectivity/courses/${courseId}/call-list?messages=5&format=csv`)), {
      action: 'export.call_list',
      actor: adminId,
      institution: school,
      detail: { format: 'csv', course_id: courseId, messages: 5, rows: list.data.rows.length },
    });
  });
});

describe('roster imports', () => {
  const run = (body: number) => `${body}-${rutCheckDigit(body)}`;
  const HEADER = 'RUN;Nombres;Apellido paterno;Apellido materno;Curso;Nombre apoderado;RUT apoderado;Relación;Celular;Correo';
  const line = (n: number) =>
    `${run(31_000_000 + n)};Alumno ${n};Pérez;Soto;1° Básico Z;Madre ${n} Soto Lagos;${run(15_000_000 + n)};Madre;9 8765 43${String(n).padStart(2, '0')};madre${n}@correo.cl`;

  it('records one entry for an applied import, with its counts, and its CSV downloads as exports', async () => {
    const admin = await as(ADMIN);
    const form = new FormData();
    form.set(
      'file',
      new Blob([`${[HEADER, line(1), line(2), `${run(31_000_099)}0;Malo;Pérez;Soto;1° Básico Z;;;;;`].join('\n')}\n`]),
      'nomina.csv',
    );
    const since = await lastId();
    const read = (await (await ok(admin.fetch(`/api${ROSTER_API.imports}`, { method: 'POST', body: form }))).json()) as RosterReadAnswer;
    const preview = (read as { import: RosterImport }).import;
    const withdrawnByHand = (await aStudentWithGuardian()).student;
    expect(await entriesSince(since)).toEqual([]);

    await theEntryOf(() => ok(admin.get(`/api${ROSTER_API.problems(preview.id)}`)), {
      action: 'export.csv',
      actor: adminId,
      institution: school,
      subject: { kind: 'importacion', id: preview.id },
      detail: { export: 'roster_problems', import_id: preview.id },
    });
    const entry = await theEntryOf(
      // The people tests withdrew this student and took them back by hand: keep that.
      () =>
        ok(
          sendJson(admin, 'POST', `/api${ROSTER_API.apply(preview.id)}`, { conflicts: { [`student:${withdrawnByHand}:estado`]: 'keep' } }),
        ),
      {
        action: 'roster.imported',
        actor: adminId,
        institution: school,
        subject: { kind: 'importacion', id: preview.id },
        detail: { students_added: 2, guardians_added: 2, courses_added: 1 },
      },
      ['Alumno 1', 'Madre 1'],
    );
    expect(entry.detail?.students_withdrawn).toBeGreaterThan(100);
    await theEntryOf(() => ok(admin.get(`/api${ROSTER_API.imports}.csv`)), {
      action: 'export.csv',
      actor: adminId,
      institution: school,
      subject: null,
      detail: { export: 'roster_imports' },
    });
  });
});

describe('settings', () => {
  const colegio = () => ({ kind: 'colegio', id: school });

  it('records the school settings by field name', async () => {
    const admin = await as(ADMIN);
    await theEntryOf(() => ok(sendJson(admin, 'PATCH', '/api/school', { home_url: 'https://www.sanandres.example/inicio' })), {
      action: 'settings.changed',
      actor: adminId,
      institution: school,
      subject: colegio(),
      detail: { settings: 'school', fields: ['home_url'] },
    });
  });

  it('records a logo put and removed', async () => {
    const admin = await as(ADMIN);
    const form = new FormData();
    form.append('file', new Blob([pngFile(64, 64)], { type: 'image/png' }), 'logo.png');
    await theEntryOf(() => ok(admin.fetch('/api/school/logo', { method: 'PUT', body: form })), {
      action: 'settings.changed',
      actor: adminId,
      institution: school,
      subject: colegio(),
      detail: { settings: 'logo', fields: ['logo'] },
    });
    await theEntryOf(() => ok(sendJson(admin, 'DELETE', '/api/school/logo'), 204), {
      action: 'settings.changed',
      actor: adminId,
      institution: school,
      subject: colegio(),
      detail: { settings: 'logo', fields: ['logo'], removed: true },
    });
  });

  it('records the SMS signature and the quota settings by field name', async () => {
    const admin = await as(ADMIN);
    const [signature] = ((await (await admin.get('/api/institutions-signatures')).json()) as { data: { id: number }[] }).data;
    await theEntryOf(
      () => ok(sendJson(admin, 'PATCH', `/api/institutions-signatures/${signature!.id}`, { signature: 'CSAN', is_active: 1 })),
      {
        action: 'settings.changed',
        actor: adminId,
        institution: school,
        subject: colegio(),
        detail: { settings: 'signature', signature_id: signature!.id, fields: ['signature'] },
      },
    );
    await theEntryOf(() => ok(sendJson(admin, 'PATCH', '/api/quota/settings', { alert_percent: 25 })), {
      action: 'settings.changed',
      actor: adminId,
      institution: school,
      subject: colegio(),
      detail: { settings: 'quota', fields: ['alert_percent'] },
    });
  });
});

describe('messages', () => {
  it('records one purge from the trash with the messages’ ids', async () => {
    const admin = await as(ADMIN);
    const trash = await folderIds(server.db, ADMIN, 'trash');
    expect(trash.length).toBeGreaterThan(0);
    const entry = await theEntryOf(() => ok(admin.post('/api/messages/purge', { ids: trash })), {
      action: 'message.purged',
      actor: adminId,
      institution: school,
      subject: null,
    });
    expect(entry.detail?.message_ids).toHaveLength(trash.length);
  });
});
