// Connectivity of families (shared/dashboard-contract.ts) on a small fixture school this file
// inserts into its private seeded copy: 2 levels, 4 courses (one empty), 8 enrolled students and a withdrawn
// one, 10 guardians covering every device status, and 6 sent messages (+ a scheduled one) whose deliveries
// have chosen statuses and times. Every figure below is counted by hand from the table in `fixture()`.
//
// Coverage windows ("the course's last 3 messages sent to it as a group", recipient rows labelled with it):
//   1° Básico A: M4, M3, M2 (not M6, sent to 2° Básico A though Marta is a guardian in both; not M8, sent to
//                Rosa alone) → addressed 5, reached 4 (Marta's SMS failed in all three)
//   1° Básico B: M5 only → addressed 3, reached 1 (Andrés); Tomás's SMS came 25 h later
//   2° Básico A: M6 only → addressed Marta and Inés, reached Inés
//   2° Básico B: no students → 0 / 0, share null
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { ACCESS_POLICY, type ApiError, COOKIE } from '../../shared/contract';
import {
  DASHBOARD_API,
  type CallList,
  type Connectivity,
  type ConnectivityRow,
  type CourseConnectivity,
} from '../../shared/dashboard-contract';
import { DEMO_PASSWORD, DEMO_SCHOOLS } from '../../shared/demo';
import { hashPassword } from '../../server/auth/password';
import { readConnectivity } from '../../server/dashboard/connectivity/figures';
import { rollUpReachedAt } from '../../server/reception/status';
import { createProviderAdapter } from '../../server/delivery/provider';
import type { Outgoing } from '../../server/delivery/channel';
import { userPolicies, userRoles, users } from '../../server/db/schema/auth';
import { deliveries } from '../../server/db/schema/delivery';
import { institutions } from '../../server/db/schema/institutions';
import { institutionChannels, institutionQuotas } from '../../server/db/schema/compose';
import { CHANNEL_CODES } from '../../shared/codes';
import { messageRecipients, messages } from '../../server/db/schema/messages';
import { courses, guardians, levels, studentGuardians, students } from '../../server/db/schema/school';
import { signedIn, startServer, type TestServer } from './support/server';
import { appInUse } from './support/app-use';

let server: TestServer;
const as = signedIn(() => server);
const ADMIN = 'direccion@conectividad.cl';
const TEACHER = 'docente@conectividad.cl';
/** An admin who wrote none of the messages: their reception status is not theirs to open. */
const UTP = 'utp@conectividad.cl';
const STAFF_NAMES: Record<string, string> = {
  [ADMIN]: 'Dirección Conectividad',
  [TEACHER]: 'Paula Jefa de Curso',
  [UTP]: 'Unidad Técnica',
};
const SAN_ANDRES_ADMIN = 'administrador@sanandres.cl';

const HOUR = 3_600_000;
const BASE = Date.UTC(2026, 10, 1, 12, 0, 0);
const day = (n: number) => new Date(BASE + (n - 1) * 24 * HOUR);
const after = (at: Date, hours: number) => new Date(at.getTime() + hours * HOUR);

const ids = {
  school: 0,
  levels: { l1: 0, l2: 0 },
  courses: { a: 0, b: 0, c: 0, d: 0 },
  students: {} as Record<string, number>,
  guardians: {} as Record<string, number>,
  messages: {} as Record<string, number>,
  sanAndresCourse: 0,
};

type G = 'g1' | 'g2' | 'g3' | 'g4' | 'g5' | 'g6' | 'g7' | 'g8' | 'g9' | 'g10';
const GUARDIANS: Record<
  G,
  { first: string; father: string; mother: string; phone: string | null; email: string | null; app: boolean; misses: number }
> = {
  g1: { first: 'Rosa', father: 'Díaz', mother: 'Fuentes', phone: '+56981234561', email: 'rosa.diaz@correo.cl', app: true, misses: 0 }, // blue
  g2: { first: 'Pedro', father: 'Díaz', mother: 'Mora', phone: '+56981234562', email: 'pedro.diaz@correo.cl', app: false, misses: 0 }, // green
  g3: { first: 'Marta', father: 'Vera', mother: 'León', phone: '+56981234563', email: 'marta.vera@correo.cl', app: false, misses: 3 }, // yellow
  g4: { first: 'Jorge', father: 'Soto', mother: 'Ruiz', phone: null, email: 'jorge.soto@correo.cl', app: false, misses: 0 }, // red
  // E.164 (the stored format) but a Santiago landline: the delivery engine never texts it (normalizePhone:
  // not_mobile), so no SMS reach and red, and "Teléfono inválido" on the course page — one rule everywhere.
  g5: { first: 'Lucía', father: 'Muñoz', mother: 'Paz', phone: '+56221234567', email: null, app: false, misses: 0 }, // red
  g6: { first: 'Andrés', father: 'Torres', mother: 'Gil', phone: null, email: 'andres.torres@correo.cl', app: true, misses: 0 }, // blue
  g7: { first: 'Camila', father: 'Araya', mother: 'Ríos', phone: null, email: null, app: false, misses: 0 }, // red
  g8: { first: 'Tomás', father: 'Rojas', mother: 'Vidal', phone: '+56981234564', email: 'tomas.rojas@correo.cl', app: true, misses: 3 }, // yellow
  g9: { first: 'Inés', father: 'Pérez', mother: 'Lara', phone: '+56981234565', email: 'ines.perez@correo.cl', app: false, misses: 0 }, // green
  g10: { first: 'Raúl', father: 'Núñez', mother: 'Cid', phone: '+56987654321', email: 'raul.nunez@correo.cl', app: true, misses: 0 }, // withdrawn child only
};
const nameOf = (g: G) => `${GUARDIANS[g].first} ${GUARDIANS[g].father} ${GUARDIANS[g].mother}`;

// student → course, names, guardians [guardian, role 1 titular | 2 suplente]
const STUDENTS: {
  key: string;
  course: keyof typeof ids.courses;
  first: string;
  father: string;
  mother: string;
  withdrawn?: boolean;
  guardians: [G, 1 | 2][];
}[] = [
  {
    key: 's1',
    course: 'a',
    first: 'Ana',
    father: 'Díaz',
    mother: 'Rojas',
    guardians: [
      ['g1', 1],
      ['g2', 2],
    ],
  },
  {
    key: 's2',
    course: 'a',
    first: 'Benjamín',
    father: 'Soto',
    mother: 'Vera',
    guardians: [
      ['g3', 1],
      ['g4', 2],
    ],
  },
  { key: 's3', course: 'a', first: 'Carla', father: 'Muñoz', mother: 'Pino', guardians: [['g5', 1]] },
  { key: 'sw', course: 'a', first: 'Diego', father: 'Núñez', mother: 'Cid', withdrawn: true, guardians: [['g10', 1]] },
  { key: 's4', course: 'b', first: 'Elena', father: 'Torres', mother: 'Lagos', guardians: [['g6', 1]] },
  {
    key: 's5',
    course: 'b',
    first: 'Felipe',
    father: 'Rojas',
    mother: 'Araya',
    guardians: [
      ['g7', 1],
      ['g8', 2],
    ],
  },
  { key: 's6', course: 'c', first: 'Gabriel', father: 'Soto', mother: 'Vera', guardians: [['g3', 1]] },
  { key: 's7', course: 'c', first: 'Hugo', father: 'Pérez', mother: 'Lara', guardians: [['g9', 1]] },
];

type Channel = 'app-mobile' | 'e-mail' | 'sms' | 'whatsapp';
type Del = {
  g: G;
  channel: Channel;
  status: 'queued' | 'sent' | 'received' | 'read' | 'not_received' | 'error' | 'failed';
  error?: string;
  delivered?: number;
  read?: number;
};
const ok = (g: G, channel: Channel, hours = 1): Del => ({ g, channel, status: 'received', delivered: hours });
const A_ALL_OK = (): Del[] => [
  { g: 'g1', channel: 'app-mobile', status: 'read', delivered: 1, read: 2 },
  ok('g2', 'sms'),
  ok('g3', 'sms'),
  ok('g4', 'e-mail'),
  ok('g5', 'sms'),
];
/** `to`: the course it was sent to (its recipients' group label); null: one guardian picked by name. */
/** Written by the director, but M6 by the teacher (`by`). */
const MESSAGES: { key: string; to: string | null; title: string; sent: Date | null; kind?: 'scheduled'; by?: string; deliveries: Del[] }[] =
  [
    { key: 'm1', to: '1° Básico A', title: 'Bienvenida', sent: day(1), deliveries: A_ALL_OK() },
    {
      key: 'm2',
      to: '1° Básico A',
      title: 'Útiles escolares',
      sent: day(2),
      deliveries: A_ALL_OK().map(
        (d): Del => (d.g === 'g2' || d.g === 'g3' ? { g: d.g, channel: 'sms', status: 'not_received', error: 'undelivered' } : d),
      ),
    },
    {
      key: 'm3',
      to: '1° Básico A',
      title: 'Reunión de apoderados',
      sent: day(3),
      deliveries: [
        { g: 'g1', channel: 'app-mobile', status: 'read', read: 1 }, // read without delivered_at: still reached
        ok('g2', 'sms', 30), // too late for coverage
        { g: 'g3', channel: 'sms', status: 'not_received', error: 'undelivered' },
        { g: 'g4', channel: 'e-mail', status: 'failed', error: 'rejected' },
        ok('g5', 'sms', 2),
      ],
    },
    {
      key: 'm4',
      to: '1° Básico A',
      title: 'Salida pedagógica',
      sent: day(4),
      deliveries: [
        { g: 'g1', channel: 'app-mobile', status: 'sent' },
        ok('g2', 'sms', 23),
        { g: 'g2', channel: 'whatsapp', status: 'failed', error: 'unreachable' }, // our side: not their fault
        { g: 'g3', channel: 'sms', status: 'error', error: 'provider_error' },
        ok('g4', 'e-mail', 1),
        { g: 'g4', channel: 'sms', status: 'failed', error: 'missing_address' },
        { g: 'g5', channel: 'sms', status: 'not_received', error: 'undelivered' },
        ok('g10', 'app-mobile', 1), // an ex-guardian: counts nowhere
      ],
    },
    {
      key: 'm5',
      to: '1° Básico B',
      title: 'Horario de invierno',
      sent: day(5),
      deliveries: [
        { g: 'g6', channel: 'app-mobile', status: 'received', delivered: 0.5 },
        { g: 'g7', channel: 'sms', status: 'failed', error: 'missing_address' },
        { g: 'g7', channel: 'e-mail', status: 'failed', error: 'missing_address' },
        { g: 'g8', channel: 'app-mobile', status: 'not_received', error: 'app_not_opened' },
        ok('g8', 'sms', 25),
      ],
    },
    {
      key: 'm6',
      to: '2° Básico A',
      title: 'Feria científica',
      sent: day(6),
      by: TEACHER,
      deliveries: [{ g: 'g3', channel: 'sms', status: 'not_received', error: 'undelivered' }, ok('g9', 'sms', 1)],
    },
    // Not sent yet: in no window, in nobody's last messages.
    {
      key: 'm7',
      to: '1° Básico A',
      title: 'Fin de semestre',
      sent: null,
      kind: 'scheduled',
      deliveries: [{ g: 'g3', channel: 'sms', status: 'queued' }],
    },
    // The newest, to Rosa alone: one of her last messages, but not her course's.
    { key: 'm8', to: null, title: 'Entrevista', sent: day(7), deliveries: [ok('g1', 'app-mobile', 1)] },
  ];

async function fixture(): Promise<void> {
  const db = server.db;
  const [school] = await db
    .insert(institutions)
    .values({
      name: 'Escuela Conectividad de Prueba',
      country: 'CL',
      locale: 'es-CL',
      timezone: 'America/Santiago',
      domain: 'cl',
      phonePrefix: '+56',
      homeUrl: 'https://conectividad.cl',
    })
    .returning({ id: institutions.id });
  const institutionId = school!.id;
  ids.school = institutionId;
  // Every channel contracted and SMS left this month: the phone reach counts the numbers.
  await db.insert(institutionChannels).values(CHANNEL_CODES.map((channel) => ({ institutionId, channel, enabled: true })));
  await db.insert(institutionQuotas).values({ institutionId, smsMonthlyLimit: 1000 });
  const hash = await hashPassword(DEMO_PASSWORD);
  const made = await db
    .insert(users)
    .values(
      [ADMIN, TEACHER, UTP].map((email) => ({
        institutionId,
        email,
        passwordHash: hash,
        name: STAFF_NAMES[email]!,
        device: 'latam',
        domain: 'cl' as const,
        options: { url: { home: 'https://conectividad.cl' } },
      })),
    )
    .returning({ id: users.id, email: users.email });
  const userId = (email: string) => made.find((u) => u.email === email)!.id;
  await db.insert(userRoles).values([
    { userId: userId(ADMIN), code: 'colegio-director', name: 'Director' },
    { userId: userId(TEACHER), code: 'docente', name: 'Docente' },
    { userId: userId(UTP), code: 'colegio-utp', name: 'UTP' },
  ]);
  await db.insert(userPolicies).values(made.map((u) => ({ userId: u.id, name: ACCESS_POLICY })));

  const lv = await db
    .insert(levels)
    .values([
      { institutionId, name: '2° Básico', position: 2 },
      { institutionId, name: '1° Básico', position: 1 },
    ])
    .returning({ id: levels.id, position: levels.position });
  ids.levels.l1 = lv.find((l) => l.position === 1)!.id;
  ids.levels.l2 = lv.find((l) => l.position === 2)!.id;
  const cs = await db
    .insert(courses)
    .values([
      { institutionId, levelId: ids.levels.l2, name: '2° Básico B' },
      { institutionId, levelId: ids.levels.l1, name: '1° Básico B' },
      { institutionId, levelId: ids.levels.l1, name: '1° Básico A' },
      { institutionId, levelId: ids.levels.l2, name: '2° Básico A' },
    ])
    .returning({ id: courses.id, name: courses.name });
  const courseId = (name: string) => cs.find((c) => c.name === name)!.id;
  ids.courses = { a: courseId('1° Básico A'), b: courseId('1° Básico B'), c: courseId('2° Básico A'), d: courseId('2° Básico B') };

  for (const [key, g] of Object.entries(GUARDIANS)) {
    const [row] = await db
      .insert(guardians)
      .values({
        institutionId,
        firstNames: g.first,
        lastNameFather: g.father,
        lastNameMother: g.mother,
        phone: g.phone,
        email: g.email,
        appInstalledAt: g.app ? new Date(BASE - 30 * 24 * HOUR) : null,
        deviceMisses: g.misses,
      })
      .returning({ id: guardians.id });
    ids.guardians[key] = row!.id;
  }
  await appInUse(db, { institutionId });
  for (const s of STUDENTS) {
    const [row] = await db
      .insert(students)
      .values({
        institutionId,
        courseId: ids.courses[s.course],
        firstNames: s.first,
        lastNameFather: s.father,
        lastNameMother: s.mother,
        birthDate: '2019-04-01',
        withdrawnAt: s.withdrawn ? new Date(BASE - 10 * 24 * HOUR) : null,
      })
      .returning({ id: students.id });
    ids.students[s.key] = row!.id;
    for (const [g, role] of s.guardians) {
      await db
        .insert(studentGuardians)
        .values({ studentId: row!.id, guardianId: ids.guardians[g]!, role, relationship: role === 1 ? 'Madre' : 'Padre' });
    }
  }

  for (const m of MESSAGES) {
    const [msg] = await db
      .insert(messages)
      .values({
        institutionId,
        authorUserId: userId(m.by ?? ADMIN),
        senderKind: 'funcionario',
        senderRefId: userId(m.by ?? ADMIN),
        senderName: 'Dirección',
        title: m.title,
        content: m.title,
        kind: m.kind ?? 'sent',
        sentAt: m.sent,
        scheduledAt: m.sent ? null : new Date(BASE + 60 * 24 * HOUR),
        search: m.title.toLowerCase(),
      })
      .returning({ id: messages.id });
    ids.messages[m.key] = msg!.id;
    const recipientOf = new Map<G, number>();
    for (const d of m.deliveries) {
      if (!recipientOf.has(d.g)) {
        const [r] = await db
          .insert(messageRecipients)
          .values({
            messageId: msg!.id,
            recipientKind: 'apoderado',
            recipientRefId: ids.guardians[d.g]!,
            displayName: nameOf(d.g),
            groupKind: m.to ? 'curso' : 'apoderado',
            groupLabel: m.to ?? nameOf(d.g),
            status: 'pending',
          })
          .returning({ id: messageRecipients.id });
        recipientOf.set(d.g, r!.id);
      }
      const sent = m.sent;
      await db.insert(deliveries).values({
        messageId: msg!.id,
        recipientId: recipientOf.get(d.g)!,
        channel: d.channel,
        address: d.error === 'missing_address' ? null : 'x',
        status: d.status,
        error: d.error ?? null,
        sentAt: sent && d.status !== 'queued' ? sent : null,
        deliveredAt: sent && d.delivered !== undefined ? after(sent, d.delivered) : null,
        readAt: sent && d.read !== undefined ? after(sent, d.read) : null,
      });
    }
  }
  // The recipients' reached_at roll-up, as the delivery engine keeps it beside their deliveries.
  await rollUpReachedAt(db);
  // A staff member of the school as a recipient too: only guardians count.
  await db.insert(messageRecipients).values({
    messageId: ids.messages.m6!,
    recipientKind: 'funcionario',
    recipientRefId: userId(TEACHER),
    displayName: 'Docente',
    groupKind: 'funcionario',
    groupLabel: 'Docente',
    status: 'read',
  });

  const [sa] = await db
    .select({ id: courses.id })
    .from(courses)
    .innerJoin(institutions, eq(institutions.id, courses.institutionId))
    .where(eq(institutions.name, DEMO_SCHOOLS.sanAndres))
    .limit(1);
  ids.sanAndresCourse = sa!.id;
}

beforeAll(async () => {
  server = await startServer();
  await fixture();
});
afterAll(async () => {
  await server?.close();
});

const CONNECTIVITY = `/api${DASHBOARD_API.connectivity}`;
const course = (id: number | string) => `/api${DASHBOARD_API.course(id as number)}`;
const callList = (id: number | string, query = '') => `/api${DASHBOARD_API.callList(id as number)}${query}`;

async function data<T>(res: Response | Promise<Response>): Promise<T> {
  const r = await res;
  const body = await r.json();
  expect(r.status, JSON.stringify(body)).toBe(200);
  return (body as { data: T }).data;
}

const row = (
  id: number,
  name: string,
  students: number,
  guardians: number,
  [app, email, phone]: [number, number, number],
  [blue, green, yellow, red]: [number, number, number, number],
  [reached, addressed]: [number, number],
): ConnectivityRow => ({
  id,
  name,
  students,
  guardians,
  reach: { 'app-mobile': app, 'e-mail': email, sms: phone, whatsapp: phone },
  devices: { blue, green, yellow, red },
  coverage: { reached, addressed, share: addressed === 0 ? null : reached / addressed },
});

describe('GET /dashboard/connectivity', () => {
  it('counts every figure of the school, its levels and courses as computed by hand', async () => {
    const got = await data<Connectivity>((await as(ADMIN)).get(CONNECTIVITY));
    const A = row(ids.courses.a, '1° Básico A', 3, 5, [1, 4, 3], [1, 1, 1, 2], [4, 5]);
    const B = row(ids.courses.b, '1° Básico B', 2, 3, [2, 2, 1], [1, 0, 1, 1], [1, 3]);
    const C = row(ids.courses.c, '2° Básico A', 2, 2, [0, 2, 2], [0, 1, 1, 0], [1, 2]);
    const D = row(ids.courses.d, '2° Básico B', 0, 0, [0, 0, 0], [0, 0, 0, 0], [0, 0]);
    expect(got).toEqual({
      school: row(ids.school, 'Escuela Conectividad de Prueba', 7, 9, [3, 7, 5], [2, 2, 2, 3], [6, 9]),
      levels: [
        { ...row(ids.levels.l1, '1° Básico', 5, 8, [3, 6, 4], [2, 1, 2, 3], [5, 8]), courses: [A, B] },
        { ...row(ids.levels.l2, '2° Básico', 2, 2, [0, 2, 2], [0, 1, 1, 0], [1, 2]), courses: [C, D] },
      ],
      // No SMS or WhatsApp of this fixture carried the families' app link (tests/api/install-link.test.ts).
      install_link: { sent: 0, installed: 0 },
    });
    expect(got.school.coverage.share).toBeCloseTo(2 / 3);
  });

  it('reaches nobody by SMS where the school has none (a limit of 0, or not contracted); without SMS and WhatsApp green is red', async () => {
    const client = await as(ADMIN);
    const school = async () => (await data<Connectivity>(client.get(CONNECTIVITY))).school;
    const ines = async () =>
      (await data<CourseConnectivity>(client.get(course(ids.courses.c)))).students
        .flatMap((s) => s.guardians)
        .find((g) => g.id === ids.guardians.g9)!;
    const channel = (code: 'sms' | 'whatsapp', enabled: boolean) =>
      server.db
        .update(institutionChannels)
        .set({ enabled })
        .where(and(eq(institutionChannels.institutionId, ids.school), eq(institutionChannels.channel, code)));
    const limit = (smsMonthlyLimit: number) =>
      server.db.update(institutionQuotas).set({ smsMonthlyLimit }).where(eq(institutionQuotas.institutionId, ids.school));
    try {
      await limit(0);
      expect(await school()).toMatchObject({
        reach: { 'app-mobile': 3, 'e-mail': 7, sms: 0, whatsapp: 5 },
        devices: { blue: 2, green: 2, yellow: 2, red: 3 },
      });
      await limit(1000);
      await channel('sms', false);
      expect((await school()).reach).toMatchObject({ sms: 0, whatsapp: 5 });
      await channel('whatsapp', false);
      // Nothing reaches a phone: the two green guardians (no app) are red, on the course page too.
      expect(await school()).toMatchObject({ reach: { sms: 0, whatsapp: 0 }, devices: { blue: 2, green: 0, yellow: 2, red: 5 } });
      expect((await ines()).device_status).toBe('red');
    } finally {
      await limit(1000);
      await channel('sms', true);
      await channel('whatsapp', true);
    }
    expect(await school()).toMatchObject({ reach: { sms: 5, whatsapp: 5 }, devices: { blue: 2, green: 2, yellow: 2, red: 3 } });
  });

  it('finds the same windows when a course’s messages are not among the school’s newest (the per-course fallback)', async () => {
    const { install_link: _, ...answer } = await data<Connectivity>((await as(ADMIN)).get(CONNECTIVITY));
    // 0 per course: only the newest 3 messages (M8, M6, M5) first; 1° Básico A's all come from the fallback.
    expect(await readConnectivity(server.db, ids.school, { recentPerCourse: 0 })).toEqual(answer);
    expect(await readConnectivity(server.db, ids.school, { recentPerCourse: 1 })).toEqual(answer);
  });

  it('uses the delivery engine’s phone rule: what the SMS adapter refuses is no SMS reach, red and "Teléfono inválido"', async () => {
    // What the engine does with these numbers: the provider adapter checks them before any provider call.
    const adapter = createProviderAdapter({
      channel: 'sms',
      url: 'http://proveedor.invalid',
      token: 't',
      callbackUrl: 'http://hermes.invalid/cb',
      fetch: () => Promise.resolve(Response.json({ id: 'p-1' }, { status: 202 })),
    });
    const send = (address: string) =>
      adapter.send({
        deliveryId: 1,
        key: 'hermes-1-0',
        channel: 'sms',
        address,
        messageId: 1,
        title: 'T',
        text: 'Hola',
        attachments: [],
      } as unknown as Outgoing);
    expect(await send(GUARDIANS.g5.phone!)).toEqual({ ok: false, kind: 'permanent', error: 'not_mobile' });
    expect(await send('+569812345')).toEqual({ ok: false, kind: 'permanent', error: 'invalid_number' });
    expect(await send(GUARDIANS.g9.phone!)).toMatchObject({ ok: true });

    // Inés's number changed to a badly formed one (E.164 in form, too short for a Chilean mobile): the next
    // answer judges it again — red, no SMS reach, "Teléfono inválido" — and green again once it is fixed.
    const client = await as(ADMIN);
    const courseC = async () => (await data<Connectivity>(client.get(CONNECTIVITY))).levels[1]!.courses[0]!;
    const ines = async () =>
      (await data<CourseConnectivity>(client.get(course(ids.courses.c)))).students
        .flatMap((s) => s.guardians)
        .find((g) => g.id === ids.guardians.g9)!;
    await server.db.update(guardians).set({ phone: '+569812345' }).where(eq(guardians.id, ids.guardians.g9!));
    try {
      expect(await courseC()).toMatchObject({ reach: { sms: 1, whatsapp: 1 }, devices: { blue: 0, green: 0, yellow: 1, red: 1 } });
      expect(await ines()).toMatchObject({ device_status: 'red', fix: ['phone_invalid', 'no_app'] });
    } finally {
      await server.db.update(guardians).set({ phone: GUARDIANS.g9.phone }).where(eq(guardians.id, ids.guardians.g9!));
    }
    expect(await courseC()).toMatchObject({ reach: { sms: 2, whatsapp: 2 }, devices: { blue: 0, green: 1, yellow: 1, red: 0 } });
    expect(await ines()).toMatchObject({ device_status: 'green', fix: ['no_app'] });
  });

  it('refuses the signed-out (401) and the teacher (403 in Spanish)', async () => {
    expect((await server.client().get(CONNECTIVITY)).status).toBe(401);
    const res = await (await as(TEACHER)).get(CONNECTIVITY);
    expect(res.status).toBe(403);
    expect(((await res.json()) as ApiError).message).toBe('No tienes permiso para ver la conectividad de las familias.');
    for (const path of [course(ids.courses.a), callList(ids.courses.a), callList(ids.courses.a, '?format=csv')]) {
      expect((await (await as(TEACHER)).get(path)).status).toBe(403);
      expect((await server.client().get(path)).status).toBe(401);
    }
  });

  it('shows each school only its own: another school sees none of the fixture and the fixture none of theirs', async () => {
    const theirs = await data<Connectivity>((await as(SAN_ANDRES_ADMIN)).get(CONNECTIVITY));
    const courseIds = theirs.levels.flatMap((l) => l.courses.map((c) => c.id));
    expect(courseIds).toContain(ids.sanAndresCourse);
    expect(courseIds).not.toContain(ids.courses.a);
    expect(theirs.levels.map((l) => l.id)).not.toContain(ids.levels.l1);
    expect(theirs.school.guardians).toBeGreaterThan(100);
    expect(theirs.levels.reduce((n, l) => n + l.students, 0)).toBe(theirs.school.students);
    const ours = await data<Connectivity>((await as(ADMIN)).get(CONNECTIVITY));
    expect(ours.levels.flatMap((l) => l.courses.map((c) => c.id))).not.toContain(ids.sanAndresCourse);
  });
});

describe('GET /dashboard/connectivity/courses/:id', () => {
  it('lists the students with their guardians, status, contact data, what to fix and which last messages failed', async () => {
    const got = await data<CourseConnectivity>((await as(ADMIN)).get(course(ids.courses.a)));
    const miss = (m: string, channel: Channel, status: string) => ({
      message_id: ids.messages[m],
      title: MESSAGES.find((x) => x.key === m)!.title,
      sent_at: MESSAGES.find((x) => x.key === m)!.sent!.toISOString(),
      channel,
      status,
      author: STAFF_NAMES[MESSAGES.find((x) => x.key === m)!.by ?? ADMIN],
      // The director wrote all but M6 (the teacher's): only theirs open.
      can_view_reception: m !== 'm6',
    });
    const guardian = (g: G, role: 'titular' | 'suplente', device_status: string, fix: string[], missed: unknown[]) => ({
      id: ids.guardians[g],
      name: nameOf(g),
      role,
      device_status,
      phone: GUARDIANS[g].phone,
      email: GUARDIANS[g].email,
      app_installed: GUARDIANS[g].app,
      fix,
      opted_out: [],
      missed,
    });
    expect(got).toEqual({
      course: { id: ids.courses.a, name: '1° Básico A', level: { id: ids.levels.l1, name: '1° Básico' } },
      summary: row(ids.courses.a, '1° Básico A', 3, 5, [1, 4, 3], [1, 1, 1, 2], [4, 5]),
      students: [
        {
          id: ids.students.s1,
          name: 'Ana Díaz Rojas',
          guardians: [
            guardian('g1', 'titular', 'blue', [], []),
            // M2's SMS failed; M4's WhatsApp failed on our side (unreachable), which is not theirs to fix.
            guardian('g2', 'suplente', 'green', ['sms_failed', 'no_app'], [miss('m2', 'sms', 'not_received')]),
          ],
        },
        {
          id: ids.students.s2,
          name: 'Benjamín Soto Vera',
          guardians: [
            guardian(
              'g3',
              'titular',
              'yellow',
              ['sms_failed', 'no_app'],
              [miss('m6', 'sms', 'not_received'), miss('m4', 'sms', 'error'), miss('m3', 'sms', 'not_received')],
            ),
            // M4's SMS never had an address: the missing phone says it already.
            guardian('g4', 'suplente', 'red', ['phone_missing', 'email_bounced', 'no_app'], [miss('m3', 'e-mail', 'failed')]),
          ],
        },
        {
          id: ids.students.s3,
          name: 'Carla Muñoz Pino',
          guardians: [
            guardian(
              'g5',
              'titular',
              'red',
              ['phone_invalid', 'email_missing', 'sms_failed', 'no_app'],
              [miss('m4', 'sms', 'not_received')],
            ),
          ],
        },
      ],
    });
  });

  it('summarises a course like its row of the school table', async () => {
    const all = await data<Connectivity>((await as(ADMIN)).get(CONNECTIVITY));
    for (const c of all.levels.flatMap((l) => l.courses)) {
      const one = await data<CourseConnectivity>((await as(ADMIN)).get(course(c.id)));
      expect(one.summary).toEqual(c);
    }
  });

  it('offers the reception status only of the messages the viewer wrote: a director or UTP who did not write one gets its failure, title, author and date in place', async () => {
    const missedOf = (page: CourseConnectivity) =>
      page.students.flatMap((s) => s.guardians.flatMap((g) => g.missed.map((m) => ({ guardian: g.id, ...m }))));
    const director = missedOf(await data<CourseConnectivity>((await as(ADMIN)).get(course(ids.courses.a))));
    const utp = missedOf(await data<CourseConnectivity>((await as(UTP)).get(course(ids.courses.a))));
    // The same failures, titles, dates and authors for both; only what they may open differs.
    expect(utp).toEqual(director.map((m) => ({ ...m, can_view_reception: false })));
    expect(utp.length).toBe(6);
    expect(director.filter((m) => !m.can_view_reception).map((m) => m.message_id)).toEqual([ids.messages.m6]);
    expect(new Set(utp.map((m) => m.author))).toEqual(new Set([STAFF_NAMES[ADMIN], STAFF_NAMES[TEACHER]]));
    // What the flag promises is what the reception API answers each of them.
    for (const [email, rows] of [
      [ADMIN, director],
      [UTP, utp],
    ] as const) {
      const client = await as(email);
      for (const m of rows) {
        const res = await client.get(`/api/messages/${m.message_id}/reception`);
        expect(res.status, `${email} → message ${m.message_id}`).toBe(m.can_view_reception ? 200 : 404);
      }
    }
    // The teacher, who wrote M6, may open it (the course page itself is not hers: 403).
    expect((await (await as(TEACHER)).get(`/api/messages/${ids.messages.m6}/reception`)).status).toBe(200);
  });

  it('keeps the missed message when its author’s account is gone, with no author and nothing to open', async () => {
    const db = server.db;
    const [gone] = await db
      .insert(users)
      .values({
        institutionId: ids.school,
        email: 'ex.docente@conectividad.cl',
        passwordHash: 'x',
        name: 'Ex Docente',
        device: 'cl',
        domain: 'cl',
        options: { url: { home: 'https://conectividad.cl' } },
      })
      .returning({ id: users.id });
    const m5 = ids.messages.m5!;
    const [{ author } = { author: null }] = await db.select({ author: messages.authorUserId }).from(messages).where(eq(messages.id, m5));
    await db.update(messages).set({ authorUserId: gone!.id }).where(eq(messages.id, m5));
    try {
      const before = await data<CourseConnectivity>((await as(ADMIN)).get(course(ids.courses.b)));
      const tomas = before.students.flatMap((s) => s.guardians).find((g) => g.id === ids.guardians.g8)!;
      expect(tomas.missed).toEqual([
        expect.objectContaining({ message_id: m5, channel: 'app-mobile', author: 'Ex Docente', can_view_reception: false }),
      ]);
      await db.delete(users).where(eq(users.id, gone!.id)); // messages.author_user_id: on delete set null
      const after = await data<CourseConnectivity>((await as(ADMIN)).get(course(ids.courses.b)));
      const again = after.students.flatMap((s) => s.guardians).find((g) => g.id === ids.guardians.g8)!;
      expect(again.missed).toEqual([{ ...tomas.missed[0], author: null }]);
    } finally {
      await db.update(messages).set({ authorUserId: author }).where(eq(messages.id, m5));
    }
  });

  it('answers 404 for another school’s course, a missing one and an id that is none', async () => {
    for (const id of [ids.sanAndresCourse, 2_000_000_000, 0, 'abc', '1e3', '99999999999']) {
      const res = await (await as(ADMIN)).get(course(id));
      expect(res.status, String(id)).toBe(404);
      expect(((await res.json()) as ApiError).code).toBe('not_found');
      expect((await (await as(ADMIN)).get(callList(id))).status).toBe(404);
    }
    expect((await (await as(SAN_ANDRES_ADMIN)).get(course(ids.courses.a))).status).toBe(404);
    expect((await (await as(SAN_ANDRES_ADMIN)).get(callList(ids.courses.a, '?format=csv'))).status).toBe(404);
  });
});

describe('GET /dashboard/connectivity/courses/:id/call-list', () => {
  /** A row of 1° Básico A's call list, in CALL_LIST_COLUMNS order. */
  const rowA = (student: string, g: G, role: 'titular' | 'suplente', reasons: string[], alternatives: string[]) => ({
    student,
    course: '1° Básico A',
    guardian: nameOf(g),
    role,
    reasons,
    opted_out: [],
    phone: GUARDIANS[g].phone,
    email: GUARDIANS[g].email,
    alternatives,
  });
  const PEDRO = rowA(
    'Ana Díaz Rojas',
    'g2',
    'suplente',
    ['sms_failed', 'no_app'],
    ['Rosa Díaz Fuentes (titular): +56 9 8123 4561, rosa.diaz@correo.cl'],
  );
  const MARTA = rowA('Benjamín Soto Vera', 'g3', 'titular', ['sms_failed', 'no_app'], ['Jorge Soto Ruiz (suplente): jorge.soto@correo.cl']);
  const JORGE = rowA(
    'Benjamín Soto Vera',
    'g4',
    'suplente',
    ['phone_missing', 'email_bounced', 'no_app'],
    ['Marta Vera León (titular): +56 9 8123 4563, marta.vera@correo.cl'],
  );
  const LUCIA = rowA('Carla Muñoz Pino', 'g5', 'titular', ['phone_invalid', 'email_missing', 'sms_failed', 'no_app'], []);

  it('lists the guardians not reached in their last 3 messages by default, with the other guardians as alternatives', async () => {
    const before = Date.now();
    const got = await data<CallList>((await as(ADMIN)).get(callList(ids.courses.a)));
    expect(got).toEqual({
      course: { id: ids.courses.a, name: '1° Básico A' },
      messages: 3,
      generated_at: expect.any(String),
      rows: [PEDRO, MARTA, JORGE, LUCIA],
    });
    expect(Date.parse(got.generated_at)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('looks at the last N messages: with 2, Pedro’s failed SMS (3 messages ago) no longer lists him', async () => {
    const got = await data<CallList>((await as(ADMIN)).get(callList(ids.courses.a, '?messages=2')));
    expect(got.messages).toBe(2);
    expect(got.rows).toEqual([MARTA, JORGE, LUCIA]);
  });

  it('keeps guardians with the app and no bounce off the list (1° Básico B: only Camila, who has nothing)', async () => {
    const got = await data<CallList>((await as(ADMIN)).get(callList(ids.courses.b, '?messages=20')));
    expect(got.rows).toEqual([
      {
        student: 'Felipe Rojas Araya',
        course: '1° Básico B',
        guardian: 'Camila Araya Ríos',
        role: 'titular',
        reasons: ['phone_missing', 'email_missing', 'no_app'],
        opted_out: [],
        phone: null,
        email: null,
        alternatives: ['Tomás Rojas Vidal (suplente): +56 9 8123 4564, tomas.rojas@correo.cl'],
      },
    ]);
  });

  it('refuses a bad number of messages or format with 422 in Spanish', async () => {
    for (const bad of ['0', '21', 'x', '2.5', '-1', '']) {
      const res = await (await as(ADMIN)).get(callList(ids.courses.a, `?messages=${bad}`));
      expect(res.status, bad).toBe(422);
      const body = (await res.json()) as ApiError;
      expect(body.errors?.messages).toEqual(['La cantidad de mensajes debe ser un número entero entre 1 y 20.']);
    }
    const res = await (await as(ADMIN)).get(callList(ids.courses.a, '?format=xlsx'));
    expect(res.status).toBe(422);
    expect(((await res.json()) as ApiError).errors?.format).toEqual(['El formato debe ser "json" o "csv".']);
  });

  it("exports the same rows as CSV: BOM, ; separated, quoted, UTF-8 accents, the course in the file name, the screen's words", async () => {
    const res = await (await as(ADMIN)).get(callList(ids.courses.a, '?format=csv'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="lista-de-llamados-1-basico-a.csv"; filename*=UTF-8''lista-de-llamados-1-basico-a.csv`,
    );
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    expect(text.startsWith('\uFEFF')).toBe(true);
    const lines = text.slice(1).split('\r\n');
    expect(lines.at(-1)).toBe('');
    expect(lines[0]).toBe('"Estudiante";"Curso";"Apoderado";"Rol";"Motivo";"Teléfono";"Correo";"Contactos alternativos"');
    const json = await data<CallList>((await as(ADMIN)).get(callList(ids.courses.a)));
    expect(lines.slice(1, -1)).toHaveLength(json.rows.length);
    expect(lines[1]).toBe(
      '"Ana Díaz Rojas";"1° Básico A";"Pedro Díaz Mora";"suplente";"Los SMS no le llegan; No tiene la app";"(+56) 9 8123 4562";"pedro.diaz@correo.cl";"Rosa Díaz Fuentes (titular): +56 9 8123 4561, rosa.diaz@correo.cl"',
    );
    expect(lines[3]).toBe(
      '"Benjamín Soto Vera";"1° Básico A";"Jorge Soto Ruiz";"suplente";"Falta el número de celular; El correo rebota; No tiene la app";"";"jorge.soto@correo.cl";"Marta Vera León (titular): +56 9 8123 4563, marta.vera@correo.cl"',
    );
    expect(lines[4]).toBe(
      '"Carla Muñoz Pino";"1° Básico A";"Lucía Muñoz Paz";"titular";"El número está mal formateado o no existe; Falta el correo; Los SMS no le llegan; No tiene la app";"(+56) 2 2123 4567";"";""',
    );
    // The same N as the JSON.
    const two = new TextDecoder().decode(
      await (await (await as(ADMIN)).get(callList(ids.courses.a, '?messages=2&format=csv'))).arrayBuffer(),
    );
    expect(two.split('\r\n').filter(Boolean)).toHaveLength(1 + 3);
  });

  it("writes the CSV in the locale the user reads the screen in (the locale cookie), else the school's", async () => {
    const header = async (locale: string | null) => {
      const client = server.client();
      await client.login(ADMIN);
      if (locale) client.jar.set(COOKIE.locale, locale);
      const text = new TextDecoder().decode(await (await client.get(callList(ids.courses.a, '?format=csv'))).arrayBuffer());
      return text.replace(/^\uFEFF/, '').split('\r\n')[0];
    };
    expect(await header('es-MX')).toBe('"Alumno";"Grupo";"Padre o tutor";"Rol";"Motivo";"Teléfono";"Correo";"Contactos alternativos"');
    expect(await header(null)).toBe('"Estudiante";"Curso";"Apoderado";"Rol";"Motivo";"Teléfono";"Correo";"Contactos alternativos"');
    expect(await header('en-US')).toBe(await header(null));
  });
});
