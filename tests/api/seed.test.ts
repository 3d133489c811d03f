// The demo seed: deterministic generation, and the facts the product and the other tests rely on, checked
// in the seeded database itself.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, count, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { DEMO_LOGINS, DEMO_PASSWORD, DEMO_SCHOOLS } from '../../shared/demo';
import { ACCESS_POLICY } from '../../shared/contract';
import { verifyPassword } from '../../server/auth/password';
import type { Db } from '../../server/db/client';
import { userPolicies, users } from '../../server/db/schema/auth';
import {
  institutionChannels,
  institutionQuotas,
  institutionSignatures,
  recipientListMembers,
  recipientLists,
  smsUsage,
  userChannelPermissions,
} from '../../server/db/schema/compose';
import { institutions } from '../../server/db/schema/institutions';
import {
  courses,
  electives,
  electiveStudents,
  guardians,
  levels,
  positions,
  staff,
  studentGuardians,
  students,
} from '../../server/db/schema/school';
import { generateSeed, rut } from '../../server/seed/generate';
import { PAST_MONTHS } from '../../server/seed/sms-use';
import { openSeededCopy } from './support/server';
import { ADMIN_ROLES, type RoleCode, CHANNEL_CODES } from '../../shared/codes';

/** Compact fingerprint, so a mismatch does not print megabytes of rows. */
const digest = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex');

describe('generateSeed', () => {
  it('is deterministic', () => {
    const a = generateSeed();
    const b = generateSeed();
    expect(digest(a)).toBe(digest(b));
    expect(a.guardians.slice(0, 50)).toEqual(b.guardians.slice(0, 50));
    expect(a.students).toHaveLength(1301);
  });

  it('scales San Andrés for benchmarks and leaves the other schools as they are', () => {
    const base = generateSeed();
    const big = generateSeed({ students: 2500 });
    const sa = (rows: { institutionId: number }[]) => rows.filter((r) => r.institutionId === 1).length;
    expect(sa(big.students)).toBe(2500);
    expect(sa(big.courses)).toBe(84);
    expect(sa(big.staff)).toBe(188);
    // Ids shift (San Andrés has more rows before them); the people must not.
    const others = (d: typeof base) =>
      digest(
        d.students
          .filter((s) => s.institutionId !== 1)
          .map((s) => [s.firstNames, s.lastNameFather, s.lastNameMother, s.birthDate, s.email]),
      );
    expect(others(big)).toBe(others(base));
    expect(digest(big)).toBe(digest(generateSeed({ students: 2500 })));
    // The school year of activity (server/seed/activity.ts) grows with the school: what the bench aggregates read.
    const sent = (d: typeof base) => d.mail.messages.filter((m) => m.institutionId === 1 && m.kind === 'sent').length;
    expect(sent(big)).toBeGreaterThan(1.5 * sent(base));
    // The elective without students stays empty at any scale; the others grow.
    const enrolled = (d: typeof base, name: string) => {
      const id = d.electives.find((e) => e.institutionId === 1 && e.name === name)!.id;
      return d.electiveStudents.filter((e) => e.electiveId === id).length;
    };
    expect(enrolled(big, 'Taller de Cerámica')).toBe(0);
    expect(enrolled(big, 'Taller de Fútbol')).toBeGreaterThan(enrolled(base, 'Taller de Fútbol'));
  });

  it('computes Chilean RUT check digits', () => {
    expect(rut(12_345_678)).toBe('12345678-5');
    expect(rut(11_111_111)).toBe('11111111-1');
    expect(rut(6_000_000)).toBe('6000000-K');
  });
});

describe('the seeded database', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  const ids: Record<keyof typeof DEMO_SCHOOLS, number> = { sanAndres: 0, elqui: 0, juarez: 0 };

  beforeAll(async () => {
    const copy = await openSeededCopy();
    db = copy.handle.db;
    dispose = copy.dispose;
    for (const [key, name] of Object.entries(DEMO_SCHOOLS) as [keyof typeof DEMO_SCHOOLS, string][]) {
      const [row] = await db.select({ id: institutions.id }).from(institutions).where(eq(institutions.name, name));
      ids[key] = row!.id;
    }
  });
  afterAll(async () => {
    await dispose?.();
  });

  const countWhere = async (table: typeof courses | typeof students | typeof staff, institutionId: number) =>
    (await db.select({ n: count() }).from(table).where(eq(table.institutionId, institutionId)))[0]!.n;

  it('has the three schools with their country settings', async () => {
    const rows = await db.select().from(institutions).orderBy(asc(institutions.id));
    expect(rows.map((r) => [r.name, r.country, r.locale, r.timezone, r.domain, r.phonePrefix])).toEqual([
      ['Colegio San Andrés de Ñuñoa', 'CL', 'es-CL', 'America/Santiago', 'cl', '+56'],
      ['Liceo Bicentenario Valle del Elqui', 'CL', 'es-CL', 'America/Santiago', 'cl', '+56'],
      ['Escuela Secundaria Técnica Benito Juárez', 'MX', 'es-MX', 'America/Mexico_City', 'mx', '+52'],
    ]);
  });

  it('gives San Andrés ~28 courses, 700–900 students, ~60 staff and every level Pre-kínder..IV Medio', async () => {
    expect(await countWhere(courses, ids.sanAndres)).toBe(28);
    const n = await countWhere(students, ids.sanAndres);
    expect(n).toBeGreaterThanOrEqual(700);
    expect(n).toBeLessThanOrEqual(900);
    expect(await countWhere(staff, ids.sanAndres)).toBe(60);
    const levelNames = await db
      .select({ name: levels.name })
      .from(levels)
      .where(eq(levels.institutionId, ids.sanAndres))
      .orderBy(asc(levels.position));
    expect(levelNames.map((l) => l.name)).toEqual([
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
    expect(await countWhere(courses, ids.elqui)).toBeLessThan(28);
    expect(await countWhere(students, ids.elqui)).toBeLessThan(n);
  });

  it('writes names with accents and ñ', async () => {
    const [accented] = await db
      .select({ n: count() })
      .from(students)
      .where(sql`${students.firstNames} || ' ' || ${students.lastNameFather} || ' ' || ${students.lastNameMother} ~ '[áéíóúÁÉÍÓÚ]'`);
    expect(accented!.n).toBeGreaterThan(200);
    const [withEnye] = await db
      .select({ n: count() })
      .from(guardians)
      .where(sql`${guardians.lastNameFather} || ${guardians.lastNameMother} ~ '[ñÑ]'`);
    expect(withEnye!.n).toBeGreaterThan(20);
    const [position] = await db.select({ n: count() }).from(positions).where(eq(positions.name, 'Profesora de Matemática'));
    expect(position!.n).toBeGreaterThan(0);
  });

  it('uses +56 9 mobiles in Chile and +52 ten-digit numbers in Mexico, with a few records lacking one', async () => {
    const phones = await db
      .select({ phone: guardians.phone, institutionId: guardians.institutionId, app: guardians.appInstalledAt })
      .from(guardians);
    const cl = phones.filter((p) => p.institutionId !== ids.juarez);
    const mx = phones.filter((p) => p.institutionId === ids.juarez);
    expect(cl.length).toBeGreaterThan(900);
    expect(mx.length).toBeGreaterThan(200);
    for (const p of cl.filter((p) => p.phone !== null)) expect(p.phone).toMatch(/^\+569[3-9]\d{7}$/);
    for (const p of mx.filter((p) => p.phone !== null)) expect(p.phone).toMatch(/^\+52(55|56)\d{8}$/);
    // Missing mobiles (device status red) are rare, and only among guardians without the app.
    const missing = phones.filter((p) => p.phone === null);
    expect(missing.length).toBeGreaterThan(5);
    expect(missing.length).toBeLessThan(phones.length * 0.06);
    for (const p of missing) expect(p.app).toBeNull();
  });

  it('marks about 60 % of each school’s guardians as having the app installed, before the demo “now”', async () => {
    for (const institutionId of Object.values(ids)) {
      const [row] = await db
        .select({ all: count(), app: count(guardians.appInstalledAt), latest: sql<string>`max(${guardians.appInstalledAt})::text` })
        .from(guardians)
        .where(eq(guardians.institutionId, institutionId));
      const share = row!.app / row!.all;
      expect(share, String(institutionId)).toBeGreaterThan(0.5);
      expect(share, String(institutionId)).toBeLessThan(0.7);
      expect(new Date(row!.latest).getTime()).toBeLessThan(Date.UTC(2026, 10, 20));
    }
  });

  it('gives every student one titular guardian, most a suplente, and some guardians several children', async () => {
    const [withoutTitular] = await db
      .select({ n: count() })
      .from(students)
      .where(
        sql`not exists (select 1 from ${studentGuardians} where ${studentGuardians.studentId} = ${students.id} and ${studentGuardians.role} = 1)`,
      );
    expect(withoutTitular!.n).toBe(0);
    const [suplentes] = await db.select({ n: count() }).from(studentGuardians).where(eq(studentGuardians.role, 2));
    expect(suplentes!.n).toBeGreaterThan(500);
    const [siblings] = await db
      .select({ n: count() })
      .from(sql`(select ${studentGuardians.guardianId} from ${studentGuardians} group by 1 having count(*) > 1) as shared`);
    expect(siblings!.n).toBeGreaterThan(100);
    // Guardians belong to the school of their students.
    const [crossed] = await db
      .select({ n: count() })
      .from(studentGuardians)
      .innerJoin(students, eq(students.id, studentGuardians.studentId))
      .innerJoin(guardians, eq(guardians.id, studentGuardians.guardianId))
      .where(sql`${students.institutionId} <> ${guardians.institutionId}`);
    expect(crossed!.n).toBe(0);
  });

  it('has electives with students', async () => {
    const rows = await db
      .select({ name: electives.name, n: count() })
      .from(electives)
      .innerJoin(electiveStudents, eq(electiveStudents.electiveId, electives.id))
      .where(eq(electives.institutionId, ids.sanAndres))
      .groupBy(electives.name);
    expect(rows.map((r) => r.name)).toEqual(expect.arrayContaining(['Electivo Biología Celular', 'Taller de Fútbol']));
    for (const r of rows) expect(r.n).toBeGreaterThan(5);
  });

  it('has exactly one San Andrés elective with nobody enrolled (the picker flags it)', async () => {
    const empty = await db
      .select({ name: electives.name, institutionId: electives.institutionId })
      .from(electives)
      .where(sql`not exists (select 1 from ${electiveStudents} where ${electiveStudents.electiveId} = ${electives.id})`);
    expect(empty).toEqual([{ name: 'Taller de Cerámica', institutionId: ids.sanAndres }]);
  });

  it('creates the demo logins with the demo password and the access policy where due; the other staff’s accounts are teachers’ the demo password does not open', async () => {
    const rows = await db.select({ id: users.id, email: users.email, hash: users.passwordHash }).from(users);
    const demo = new Set(DEMO_LOGINS.map((l) => l.email));
    expect(
      rows
        .filter((r) => demo.has(r.email))
        .map((r) => r.email)
        .sort(),
    ).toEqual([...demo].sort());
    for (const r of rows.filter((x) => demo.has(x.email))) expect(await verifyPassword(DEMO_PASSWORD, r.hash ?? ''), r.email).toBe(true);
    // Every other account is a staff member's own (same school, same e-mail), a teacher's, with a password
    // nobody was told; the demo one does not open it.
    const others = await db.execute(sql`
      select u.email, u.password_hash as hash, st.institution_id = u.institution_id and st.email = u.email as own,
        array(select r.code from user_roles r where r.user_id = u.id) as roles
      from users u left join staff st on st.user_id = u.id
      where u.email not in (${sql.join(
        [...demo].map((e) => sql`${e}`),
        sql`, `,
      )})`);
    const list = (others as unknown as { rows: { email: string; hash: string; own: boolean | null; roles: string[] }[] }).rows;
    expect(list.length).toBeGreaterThan(0);
    for (const o of list) {
      expect(o.own, o.email).toBe(true);
      expect(o.roles, o.email).toEqual(['docente']);
    }
    expect(await verifyPassword(DEMO_PASSWORD, list[0]!.hash)).toBe(false);
    for (const login of DEMO_LOGINS) {
      const user = rows.find((r) => r.email === login.email)!;
      const [policy] = await db
        .select({ n: count() })
        .from(userPolicies)
        .where(and(eq(userPolicies.userId, user.id), eq(userPolicies.name, ACCESS_POLICY)));
      expect(policy!.n, login.email).toBe(login.access ? 1 : 0);
    }
  });

  it('stores the channels each school contracted', async () => {
    const rows = await db
      .select({
        institutionId: institutionChannels.institutionId,
        channel: institutionChannels.channel,
        enabled: institutionChannels.enabled,
      })
      .from(institutionChannels);
    const of = (institutionId: number) =>
      Object.fromEntries(rows.filter((r) => r.institutionId === institutionId).map((r) => [r.channel, r.enabled]));
    expect(of(ids.sanAndres)).toEqual({ 'app-mobile': true, 'e-mail': true, sms: true, whatsapp: true });
    expect(of(ids.elqui)).toEqual({ 'app-mobile': true, 'e-mail': true, sms: true, whatsapp: false });
    expect(of(ids.juarez)).toEqual({ 'app-mobile': true, 'e-mail': true, sms: false, whatsapp: true });
  });

  it('permits every contracted channel to admin roles and all but WhatsApp to teachers', async () => {
    const perms = await db
      .select({
        email: users.email,
        channel: userChannelPermissions.channel,
        enabled: userChannelPermissions.enabled,
        institutionId: users.institutionId,
      })
      .from(userChannelPermissions)
      .innerJoin(users, eq(users.id, userChannelPermissions.userId));
    const contracted = await db.select().from(institutionChannels);
    for (const login of DEMO_LOGINS) {
      const mine = perms.filter((p) => p.email === login.email);
      expect(mine.map((p) => p.channel).sort(), login.email).toEqual([...CHANNEL_CODES].sort());
      const isAdmin = ADMIN_ROLES.includes(login.role as RoleCode);
      for (const p of mine) {
        const school = contracted.find((c) => c.institutionId === p.institutionId && c.channel === p.channel)!.enabled;
        const expected = school && (isAdmin || p.channel !== 'whatsapp');
        expect(p.enabled, `${login.email} ${p.channel}`).toBe(expected);
      }
    }
    const enabled = (email: string) =>
      perms
        .filter((p) => p.email === email && p.enabled)
        .map((p) => p.channel)
        .sort();
    expect(enabled('docente@sanandres.cl')).toEqual(['app-mobile', 'e-mail', 'sms']);
    expect(enabled('administrador@sanandres.cl')).toEqual(['app-mobile', 'e-mail', 'sms', 'whatsapp']);
    expect(enabled('docente@benitojuarez.edu.mx')).toEqual(['app-mobile', 'e-mail']);
  });

  it('gives each school one 3–4 character signature, active only at San Andrés, and its quotas', async () => {
    const sigs = await db
      .select({
        institutionId: institutionSignatures.institutionId,
        signature: institutionSignatures.signature,
        active: institutionSignatures.isActive,
        domain: institutionSignatures.domain,
        schoolDomain: institutions.domain,
      })
      .from(institutionSignatures)
      .innerJoin(institutions, eq(institutions.id, institutionSignatures.institutionId))
      .orderBy(asc(institutionSignatures.institutionId));
    expect(sigs.map((s) => [s.institutionId, s.signature, s.active])).toEqual([
      [ids.sanAndres, 'CSA', true],
      [ids.elqui, 'LBVE', false],
      [ids.juarez, 'ESBJ', false],
    ]);
    for (const s of sigs) {
      expect(s.domain).toBe(s.schoolDomain);
      expect(s.signature.length).toBeGreaterThanOrEqual(3);
      expect(s.signature.length).toBeLessThanOrEqual(4);
    }
    const quotas = await db.select().from(institutionQuotas).orderBy(asc(institutionQuotas.institutionId));
    expect(quotas).toEqual([
      {
        institutionId: ids.sanAndres,
        smsMonthlyLimit: 5000,
        emailBalance: null,
        whatsappBalance: 2000,
        smsReservePercent: 0,
        smsAlertPercent: 10,
      },
      { institutionId: ids.elqui, smsMonthlyLimit: 1000, emailBalance: 500, whatsappBalance: 0, smsReservePercent: 0, smsAlertPercent: 10 },
      {
        institutionId: ids.juarez,
        smsMonthlyLimit: 0,
        emailBalance: null,
        whatsappBalance: 3000,
        smsReservePercent: 0,
        smsAlertPercent: 10,
      },
    ]);
    // A year of SMS use (server/seed/sms-use.ts) for the schools with SMS; none where SMS is not contracted.
    const months = async (id: number) => (await db.select({ n: count() }).from(smsUsage).where(eq(smsUsage.institutionId, id)))[0]!.n;
    expect(await months(ids.sanAndres)).toBe(PAST_MONTHS + 1);
    expect(await months(ids.elqui)).toBe(PAST_MONTHS + 1);
    expect(await months(ids.juarez)).toBe(0);
  });

  it('saves recipient lists for the demo staff, with members of the owner’s own school', async () => {
    const lists = await db
      .select({
        id: recipientLists.id,
        owner: users.email,
        name: recipientLists.name,
        deleted: recipientLists.deletedAt,
        institutionId: recipientLists.institutionId,
        ownerSchool: users.institutionId,
      })
      .from(recipientLists)
      .innerJoin(users, eq(users.id, recipientLists.ownerUserId));
    const active = (email: string) => lists.filter((l) => l.owner === email && l.deleted === null).length;
    expect(active('administrador@sanandres.cl')).toBe(3);
    expect(active('docente@sanandres.cl')).toBe(2);
    expect(active('administrador@benitojuarez.edu.mx')).toBe(1);
    expect(lists.filter((l) => l.deleted !== null).map((l) => l.name)).toEqual(['Paseo de fin de año 2025']);
    for (const l of lists) expect(l.institutionId).toBe(l.ownerSchool);

    const members = await db.select().from(recipientListMembers);
    const kinds = new Set(members.map((m) => m.memberKind));
    expect([...kinds].sort()).toEqual(['apoderado', 'estudiante', 'funcionario']);
    for (const l of lists) expect(members.filter((m) => m.listId === l.id).length, l.name).toBeGreaterThan(0);
    // Every member exists in the list's school; guardians answer for their student with the stored role.
    const [foreignGuardians] = await db
      .select({ n: count() })
      .from(recipientListMembers)
      .innerJoin(recipientLists, eq(recipientLists.id, recipientListMembers.listId))
      .leftJoin(
        studentGuardians,
        and(
          eq(studentGuardians.guardianId, recipientListMembers.memberRefId),
          eq(studentGuardians.studentId, recipientListMembers.studentId),
          eq(studentGuardians.role, recipientListMembers.role),
        ),
      )
      .leftJoin(students, eq(students.id, studentGuardians.studentId))
      .where(
        and(
          eq(recipientListMembers.memberKind, 'apoderado'),
          sql`${students.institutionId} is distinct from ${recipientLists.institutionId}`,
        ),
      );
    expect(foreignGuardians!.n).toBe(0);
    const [foreignStudents] = await db
      .select({ n: count() })
      .from(recipientListMembers)
      .innerJoin(recipientLists, eq(recipientLists.id, recipientListMembers.listId))
      .leftJoin(students, eq(students.id, recipientListMembers.memberRefId))
      .where(
        and(
          eq(recipientListMembers.memberKind, 'estudiante'),
          sql`${students.institutionId} is distinct from ${recipientLists.institutionId}`,
        ),
      );
    expect(foreignStudents!.n).toBe(0);
    const [foreignStaff] = await db
      .select({ n: count() })
      .from(recipientListMembers)
      .innerJoin(recipientLists, eq(recipientLists.id, recipientListMembers.listId))
      .leftJoin(staff, eq(staff.id, recipientListMembers.memberRefId))
      .where(
        and(
          eq(recipientListMembers.memberKind, 'funcionario'),
          sql`${staff.institutionId} is distinct from ${recipientLists.institutionId}`,
        ),
      );
    expect(foreignStaff!.n).toBe(0);
    const [guardianShape] = await db
      .select({ n: count() })
      .from(recipientListMembers)
      .where(and(eq(recipientListMembers.memberKind, 'apoderado'), isNull(recipientListMembers.studentId)));
    expect(guardianShape!.n).toBe(0);
    const [otherShape] = await db
      .select({ n: count() })
      .from(recipientListMembers)
      .where(and(sql`${recipientListMembers.memberKind} <> 'apoderado'`, isNotNull(recipientListMembers.role)));
    expect(otherShape!.n).toBe(0);
  });

  it('leaves the id sequences past the seeded ids', async () => {
    const [inserted] = await db
      .insert(positions)
      .values({ institutionId: ids.elqui, name: 'Cargo de prueba' })
      .returning({ id: positions.id });
    const [max] = await db
      .select({ n: sql<number>`max(${positions.id})::int` })
      .from(positions)
      .where(sql`${positions.id} <> ${inserted!.id}`);
    expect(inserted!.id).toBeGreaterThan(max!.n);
    const [list] = await db
      .insert(recipientLists)
      .values({
        institutionId: ids.elqui,
        ownerUserId: (await db.select({ id: users.id }).from(users).limit(1))[0]!.id,
        name: 'Lista de prueba',
      })
      .returning({ id: recipientLists.id });
    const [listMax] = await db
      .select({ n: sql<number>`max(${recipientLists.id})::int` })
      .from(recipientLists)
      .where(sql`${recipientLists.id} <> ${list!.id}`);
    expect(list!.id).toBeGreaterThan(listMax!.n);
    const [member] = await db
      .insert(recipientListMembers)
      .values({ listId: list!.id, memberKind: 'funcionario', memberRefId: 1 })
      .returning({ id: recipientListMembers.id });
    const [memberMax] = await db
      .select({ n: sql<number>`max(${recipientListMembers.id})::int` })
      .from(recipientListMembers)
      .where(sql`${recipientListMembers.id} <> ${member!.id}`);
    expect(member!.id).toBeGreaterThan(memberMax!.n);
  });
});
