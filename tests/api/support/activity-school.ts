// A small Chilean school inserted by the activity and ranking tests, with every figure of its dashboards
// computed by hand in those tests (tests/api/dashboard-activity.test.ts, tests/api/ranking.test.ts).
//
// Staff with a login on the register: Ana Admin (Inspector, colegio-administrador), Beatriz Bravo and
// Carlos Cruz (Profesor jefe, docente); Fabián Sinlogin is on the register without a login. Elena Ex and
// Felipe Fuera have logins but have left the register (no staff row): they sent in May 2025.
// Courses 1° A (Sofía, Tomás; Úrsula withdrawn), 1° B (Valentina), 2° A (Wilma, Ximena), 3° A (Yolanda).
// Guardians: G1 Sofía's (app + phone: blue), G2 Tomás's (phone: green), G3 Valentina's and Wilma's (phone,
// 3 misses: yellow), G4 Wilma's suplente (nothing: red), G5 Ximena's (app: blue), G6 Úrsula's only (phone:
// not counted, withdrawn), G7 Yolanda's (app: blue).
//
// Messages (local time, America/Santiago), each recipient with its status and deliveries:
//   April 2025 — M7 Carlos, 30 Apr 23:30 (1 May 03:30 UTC): G1 received (sms), G3 read (whatsapp)
//                M8 Ana, 10 Apr 10:00: G1 read (app), G2 received (sms), G5 not_received (app)
//   May 2025   — M1 Beatriz, 1 May 00:30, copy to sender: G1 read (app read + sms received), G2 received (sms)
//                M1c the copy of M1 in Beatriz's inbox (not activity)
//                M2 Beatriz, 20 May 10:00: G3 not_received (sms), G4 failed (sms, no number), Carlos (colleague, read)
//                M9 Beatriz, 20 May 15:00: G1 received (app received)
//                M3 Carlos, 31 May 23:30 (1 Jun 03:30 UTC): G5 received (app), G7 read (app), Ana (colleague, unread)
//                M4 Elena, 10 May 12:00: G2 read (whatsapp)
//                M11 Felipe, 15 May 09:00: Valentina (student) received (e-mail)
//                a draft of Beatriz's dated 12 May (not activity)
//   this month — N1 Carlos, the 1st 00:30: G3 (Valentina 1° B, Wilma 2° A); N2 Carlos, the 1st 10:00: Sofía and
//                G1 (1° A once); N3 Beatriz, the 1st 11:00: G4 (2° A); N0 Beatriz, last month's last day
//                23:30: G1 (not this month).
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../../server/db/client';
import { monthIn } from '../../../server/db/time';
import { userPolicies, userRoles, users } from '../../../server/db/schema/auth';
import { deliveries } from '../../../server/db/schema/delivery';
import { institutionChannels, institutionQuotas } from '../../../server/db/schema/compose';
import { institutions } from '../../../server/db/schema/institutions';
import { mailboxEntries, messageRecipients } from '../../../server/db/schema/messages';
import { courses, guardians, levels, positions, staff, studentGuardians, students } from '../../../server/db/schema/school';
import { CHANNEL_CODES } from '../../../shared/codes';
import { addMonths, monthPeriod } from '../../../shared/school-year';
import { appInUse } from './app-use';

export const ZONE = 'America/Santiago';
export const PASSWORD_OF = 'administrador@sanandres.cl';

export interface ActivitySchool {
  institutionId: number;
  users: { ana: number; beatriz: number; carlos: number; elena: number; felipe: number };
  positions: { inspector: number; profesorJefe: number };
  courses: { c1A: number; c1B: number; c2A: number; c3A: number };
  guardians: { g1: number; g2: number; g3: number; g4: number; g5: number; g6: number; g7: number };
  emails: { admin: string; teacher: string };
  /** The staff on the register with a login, as a message's colleague recipient (`To`). */
  colleagues: { ana: Colleague; beatriz: Colleague; carlos: Colleague };
  /** Inserts one more message as the list above does (a test's own additions, on its own school). */
  message: (author: Author, local: string, to: To[], options?: { kind?: 'sent' | 'draft'; copy?: boolean }) => Promise<number>;
}

export interface Colleague {
  staffId: number;
  userId: number;
}
export type Author = 'ana' | 'beatriz' | 'carlos' | 'elena' | 'felipe';
export type To =
  | { guardian: number; status: Status; deliveries: [Channel, Status, boolean?][] }
  | { student: number; status: Status; deliveries: [Channel, Status][] }
  /** `app`: with the app-mobile delivery the real send path writes for a colleague with a login. */
  | { colleague: Colleague; read: boolean; app?: boolean };

type Status = 'received' | 'read' | 'not_received' | 'error' | 'failed';
type Channel = 'app-mobile' | 'e-mail' | 'sms' | 'whatsapp';

export async function insertActivitySchool(db: Db, tag: string): Promise<ActivitySchool> {
  const [school] = await db
    .insert(institutions)
    .values({
      name: `Colegio Prueba Actividad ${tag}`,
      country: 'CL',
      locale: 'es-CL',
      timezone: ZONE,
      domain: 'cl',
      phonePrefix: '+56',
      homeUrl: 'https://example.cl',
    })
    .returning({ id: institutions.id });
  const inst = school!.id;
  // Every channel contracted and SMS left this month, so G2's phone makes it green (a school that cannot text
  // counts a phone-only guardian as unreachable).
  await db.insert(institutionChannels).values(CHANNEL_CODES.map((channel) => ({ institutionId: inst, channel, enabled: true })));
  await db.insert(institutionQuotas).values({ institutionId: inst, smsMonthlyLimit: 1000 });
  const [template] = await db
    .select({ id: users.id, hash: users.passwordHash, options: users.options })
    .from(users)
    .where(eq(users.email, PASSWORD_OF));
  const policies = await db.select({ name: userPolicies.name }).from(userPolicies).where(eq(userPolicies.userId, template!.id));

  const user = async (name: string, email: string, role: 'colegio-administrador' | 'docente') => {
    const [row] = await db
      .insert(users)
      .values({ institutionId: inst, email, passwordHash: template!.hash, name, device: 'cl', domain: 'cl', options: template!.options })
      .returning({ id: users.id });
    await db.insert(userRoles).values({ userId: row!.id, code: role, name: role === 'docente' ? 'Docente' : 'Administrador' });
    if (policies.length > 0) await db.insert(userPolicies).values(policies.map((p) => ({ userId: row!.id, name: p.name })));
    return row!.id;
  };
  const emails = { admin: `ana.${tag}@actividad.cl`, teacher: `beatriz.${tag}@actividad.cl` };
  const u = {
    ana: await user('Ana Admin', emails.admin, 'colegio-administrador'),
    beatriz: await user('Beatriz Bravo', emails.teacher, 'docente'),
    carlos: await user('Carlos Cruz', `carlos.${tag}@actividad.cl`, 'docente'),
    elena: await user('Elena Ex', `elena.${tag}@actividad.cl`, 'docente'),
    felipe: await user('Felipe Fuera', `felipe.${tag}@actividad.cl`, 'docente'),
  };
  const [inspector, profesorJefe] = await db
    .insert(positions)
    .values([
      { institutionId: inst, name: 'Inspector' },
      { institutionId: inst, name: 'Profesor jefe' },
    ])
    .returning({ id: positions.id });
  const member = async (userId: number | null, positionId: number, first: string, last: string) => {
    const [row] = await db
      .insert(staff)
      .values({ institutionId: inst, positionId, userId, firstNames: first, lastNameFather: last, lastNameMother: 'Prueba' })
      .returning({ id: staff.id });
    return row!.id;
  };
  const st = {
    ana: await member(u.ana, inspector!.id, 'Ana', 'Admin'),
    beatriz: await member(u.beatriz, profesorJefe!.id, 'Beatriz', 'Bravo'),
    carlos: await member(u.carlos, profesorJefe!.id, 'Carlos', 'Cruz'),
  };
  await member(null, profesorJefe!.id, 'Fabián', 'Sinlogin');

  const [level] = await db.insert(levels).values({ institutionId: inst, name: 'Básica', position: 1 }).returning({ id: levels.id });
  const course = async (name: string) => {
    const [row] = await db.insert(courses).values({ institutionId: inst, levelId: level!.id, name }).returning({ id: courses.id });
    return row!.id;
  };
  const c = { c1A: await course('1° A'), c1B: await course('1° B'), c2A: await course('2° A'), c3A: await course('3° A') };
  const student = async (first: string, courseId: number, withdrawn = false) => {
    const [row] = await db
      .insert(students)
      .values({
        institutionId: inst,
        courseId,
        firstNames: first,
        lastNameFather: 'Prueba',
        lastNameMother: 'Fixture',
        birthDate: '2015-01-01',
        ...(withdrawn ? { withdrawnAt: new Date('2025-03-15T12:00:00Z') } : {}),
      })
      .returning({ id: students.id });
    return row!.id;
  };
  const s = {
    sofia: await student('Sofía', c.c1A),
    tomas: await student('Tomás', c.c1A),
    ursula: await student('Úrsula', c.c1A, true),
    valentina: await student('Valentina', c.c1B),
    wilma: await student('Wilma', c.c2A),
    ximena: await student('Ximena', c.c2A),
    yolanda: await student('Yolanda', c.c3A),
  };
  const guardian = async (first: string, device: { app?: boolean; phone?: string; misses?: number }) => {
    const [row] = await db
      .insert(guardians)
      .values({
        institutionId: inst,
        firstNames: first,
        lastNameFather: 'Apoderado',
        lastNameMother: 'Fixture',
        phone: device.phone ?? null,
        appInstalledAt: device.app ? new Date('2025-01-10T12:00:00Z') : null,
        deviceMisses: device.misses ?? 0,
      })
      .returning({ id: guardians.id });
    return row!.id;
  };
  const g = {
    g1: await guardian('Gabriela', { app: true, phone: '+56911111111' }),
    g2: await guardian('Gonzalo', { phone: '+56922222222' }),
    g3: await guardian('Gloria', { phone: '+56933333333', misses: 3 }),
    g4: await guardian('Gustavo', {}),
    g5: await guardian('Germán', { app: true }),
    g6: await guardian('Graciela', { phone: '+56966666666' }),
    g7: await guardian('Guadalupe', { app: true }),
  };
  await appInUse(db, { guardianIds: [g.g1, g.g5, g.g7] });
  await db.insert(studentGuardians).values([
    { studentId: s.sofia, guardianId: g.g1, role: 1, relationship: 'Madre' },
    { studentId: s.tomas, guardianId: g.g2, role: 1, relationship: 'Padre' },
    { studentId: s.valentina, guardianId: g.g3, role: 1, relationship: 'Madre' },
    { studentId: s.wilma, guardianId: g.g3, role: 1, relationship: 'Madre' },
    { studentId: s.wilma, guardianId: g.g4, role: 2, relationship: 'Padre' },
    { studentId: s.ximena, guardianId: g.g5, role: 1, relationship: 'Padre' },
    { studentId: s.ursula, guardianId: g.g6, role: 1, relationship: 'Madre' },
    { studentId: s.yolanda, guardianId: g.g7, role: 1, relationship: 'Madre' },
  ]);

  const message = async (author: Author, local: string, to: To[], options: { kind?: 'sent' | 'draft'; copy?: boolean } = {}) => {
    const authorStaff = author in st ? st[author as keyof typeof st] : 0;
    const result = await db.execute(sql`
      insert into messages (institution_id, author_user_id, sender_kind, sender_ref_id, sender_name, title, content, kind,
        sent_at, search, copy_to_sender)
      values (${inst}, ${u[author]}, 'funcionario', ${authorStaff}, ${author}, ${`Aviso ${local}`}, 'Contenido', ${options.kind ?? 'sent'},
        ${options.kind === 'draft' ? null : sql`(${local}::timestamp at time zone ${ZONE})`}, 'aviso', ${options.copy ?? false})
      returning id`);
    const messageId = Number((result as unknown as { rows: { id: number }[] }).rows[0]!.id);
    for (const t of to) {
      if ('colleague' in t) {
        const [r] = await db
          .insert(messageRecipients)
          .values({
            messageId,
            recipientKind: 'funcionario',
            recipientRefId: t.colleague.staffId,
            displayName: 'Colega',
            groupKind: 'funcionario',
            groupLabel: 'Colega',
            status: t.app && t.read ? 'read' : 'received',
          })
          .returning({ id: messageRecipients.id });
        await db.insert(mailboxEntries).values({
          userId: t.colleague.userId,
          institutionId: inst,
          messageId,
          folder: 'inbox',
          sortAt: new Date(),
          counterpart: author,
          counterpartSearch: author,
          readAt: t.read ? new Date() : null,
        });
        // As the real send path writes it (server/recipients/expand.ts): the colleague's Hermes inbox is their app,
        // `user:<login id>`, read when they read the entry (server/messages/lifecycle.ts markRead).
        if (t.app) {
          await db.insert(deliveries).values({
            messageId,
            recipientId: r!.id,
            channel: 'app-mobile',
            status: t.read ? 'read' : 'received',
            address: `user:${t.colleague.userId}`,
          });
        }
        continue;
      }
      const [kind, ref] = 'guardian' in t ? (['apoderado', t.guardian] as const) : (['estudiante', t.student] as const);
      const [r] = await db
        .insert(messageRecipients)
        .values({
          messageId,
          recipientKind: kind,
          recipientRefId: ref,
          displayName: 'Persona',
          groupKind: 'curso',
          groupLabel: 'Curso',
          status: t.status,
        })
        .returning({ id: messageRecipients.id });
      for (const [channel, status, noAddress] of t.deliveries) {
        await db
          .insert(deliveries)
          .values({ messageId, recipientId: r!.id, channel, status, address: noAddress ? null : `${channel}:${ref}` });
      }
    }
    return messageId;
  };
  const ana = { staffId: st.ana, userId: u.ana };
  const carlos = { staffId: st.carlos, userId: u.carlos };

  await message('carlos', '2025-04-30 23:30', [
    { guardian: g.g1, status: 'received', deliveries: [['sms', 'received']] },
    { guardian: g.g3, status: 'read', deliveries: [['whatsapp', 'read']] },
  ]);
  await message('ana', '2025-04-10 10:00', [
    { guardian: g.g1, status: 'read', deliveries: [['app-mobile', 'read']] },
    { guardian: g.g2, status: 'received', deliveries: [['sms', 'received']] },
    { guardian: g.g5, status: 'not_received', deliveries: [['app-mobile', 'not_received']] },
  ]);
  await message(
    'beatriz',
    '2025-05-01 00:30',
    [
      {
        guardian: g.g1,
        status: 'read',
        deliveries: [
          ['app-mobile', 'read'],
          ['sms', 'received'],
        ],
      },
      { guardian: g.g2, status: 'received', deliveries: [['sms', 'received']] },
    ],
    { copy: true },
  );
  // The copy: addressed to its author alone, in their inbox.
  await message('beatriz', '2025-05-01 00:30', [{ colleague: { staffId: st.beatriz, userId: u.beatriz }, read: true }], { copy: true });
  await message('beatriz', '2025-05-20 10:00', [
    { guardian: g.g3, status: 'not_received', deliveries: [['sms', 'not_received']] },
    { guardian: g.g4, status: 'failed', deliveries: [['sms', 'failed', true]] },
    { colleague: carlos, read: true },
  ]);
  await message('beatriz', '2025-05-20 15:00', [{ guardian: g.g1, status: 'received', deliveries: [['app-mobile', 'received']] }]);
  await message('carlos', '2025-05-31 23:30', [
    { guardian: g.g5, status: 'received', deliveries: [['app-mobile', 'received']] },
    { guardian: g.g7, status: 'read', deliveries: [['app-mobile', 'read']] },
    { colleague: ana, read: false },
  ]);
  await message('elena', '2025-05-10 12:00', [{ guardian: g.g2, status: 'read', deliveries: [['whatsapp', 'read']] }]);
  await message('felipe', '2025-05-15 09:00', [{ student: s.valentina, status: 'received', deliveries: [['e-mail', 'received']] }]);
  await message('beatriz', '2025-05-12 08:00', [{ guardian: g.g1, status: 'received', deliveries: [['app-mobile', 'received']] }], {
    kind: 'draft',
  });

  const thisMonth = monthIn(new Date(), ZONE);
  const lastDay = monthPeriod(addMonths(thisMonth, -1)).to;
  await message('carlos', `${thisMonth}-01 00:30`, [{ guardian: g.g3, status: 'received', deliveries: [['sms', 'received']] }]);
  await message('carlos', `${thisMonth}-01 10:00`, [
    { student: s.sofia, status: 'received', deliveries: [['e-mail', 'received']] },
    { guardian: g.g1, status: 'read', deliveries: [['app-mobile', 'read']] },
  ]);
  await message('beatriz', `${thisMonth}-01 11:00`, [{ guardian: g.g4, status: 'failed', deliveries: [['sms', 'failed', true]] }]);
  await message('beatriz', `${lastDay} 23:30`, [{ guardian: g.g1, status: 'received', deliveries: [['sms', 'received']] }]);

  return {
    institutionId: inst,
    users: u,
    positions: { inspector: inspector!.id, profesorJefe: profesorJefe!.id },
    courses: c,
    guardians: g,
    emails,
    colleagues: { ana, beatriz: { staffId: st.beatriz, userId: u.beatriz }, carlos },
    message,
  };
}
