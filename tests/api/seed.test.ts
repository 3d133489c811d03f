// The demo seed: deterministic generation, and the facts the product and the other tests rely on, checked
// in the seeded database itself.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, count, eq, sql } from 'drizzle-orm';
import { DEMO_LOGINS, DEMO_PASSWORD, DEMO_SCHOOLS } from '../../src/config/demo';
import { ACCESS_POLICY } from '../../src/services/contract';
import { verifyPassword } from '../../server/auth/password';
import type { Db } from '../../server/db/client';
import {
  courses, electives, electiveStudents, guardians, institutions, levels, positions, staff, studentGuardians, students,
  userPolicies, users,
} from '../../server/db/schema';
import { generateSeed, rut } from '../../server/seed/generate';
import { openSeededCopy } from './support/server';

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
      digest(d.students.filter((s) => s.institutionId !== 1).map((s) => [s.firstNames, s.lastNameFather, s.lastNameMother, s.birthDate, s.email]));
    expect(others(big)).toBe(others(base));
    expect(digest(big)).toBe(digest(generateSeed({ students: 2500 })));
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
      'Pre-kínder', 'Kínder', '1° Básico', '2° Básico', '3° Básico', '4° Básico', '5° Básico', '6° Básico',
      '7° Básico', '8° Básico', 'I Medio', 'II Medio', 'III Medio', 'IV Medio',
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

  it('uses +56 9 mobiles in Chile and +52 ten-digit numbers in Mexico', async () => {
    const phones = await db
      .select({ phone: guardians.phone, institutionId: guardians.institutionId })
      .from(guardians);
    const cl = phones.filter((p) => p.institutionId !== ids.juarez);
    const mx = phones.filter((p) => p.institutionId === ids.juarez);
    expect(cl.length).toBeGreaterThan(900);
    expect(mx.length).toBeGreaterThan(200);
    for (const p of cl) expect(p.phone).toMatch(/^\+569[3-9]\d{7}$/);
    for (const p of mx) expect(p.phone).toMatch(/^\+52(55|56)\d{8}$/);
  });

  it('gives every student one titular guardian, most a suplente, and some guardians several children', async () => {
    const [withoutTitular] = await db
      .select({ n: count() })
      .from(students)
      .where(sql`not exists (select 1 from ${studentGuardians} where ${studentGuardians.studentId} = ${students.id} and ${studentGuardians.role} = 1)`);
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

  it('creates exactly the demo logins, with the demo password and the access policy where due', async () => {
    const rows = await db.select({ id: users.id, email: users.email, hash: users.passwordHash }).from(users);
    expect(rows.map((r) => r.email).sort()).toEqual(DEMO_LOGINS.map((l) => l.email).sort());
    expect(await verifyPassword(DEMO_PASSWORD, rows[0]!.hash)).toBe(true);
    for (const login of DEMO_LOGINS) {
      const user = rows.find((r) => r.email === login.email)!;
      const [policy] = await db
        .select({ n: count() })
        .from(userPolicies)
        .where(and(eq(userPolicies.userId, user.id), eq(userPolicies.name, ACCESS_POLICY)));
      expect(policy!.n, login.email).toBe(login.access ? 1 : 0);
    }
  });

  it('leaves the id sequences past the seeded ids', async () => {
    const [inserted] = await db
      .insert(positions)
      .values({ institutionId: ids.elqui, name: 'Cargo de prueba' })
      .returning({ id: positions.id });
    const [max] = await db.select({ n: sql<number>`max(${positions.id})::int` }).from(positions).where(sql`${positions.id} <> ${inserted!.id}`);
    expect(inserted!.id).toBeGreaterThan(max!.n);
  });
});
