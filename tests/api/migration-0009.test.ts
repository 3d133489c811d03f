// Migration 0009 (recipient lists) on a database that already has data: the migrations up to 0008 make
// the schema a school had before, rows of the kinds 0009 reads are written into it (lists, in use and in
// the trash; members reached as a student, as a guardian for a student, alone, as staff, and one left
// pointing at another school's student; students and guardians of Chile and Mexico with every kind of
// document number on file), then 0009 runs and each backfilled row is checked. On both stores.
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR, openDb, type DbHandle } from '../../server/db/client';
import { DOCUMENT_TYPES } from '../../shared/recipient-lists-contract';
import { curpCheckDigit, rutCheckDigit } from '../../shared/person-rules';
import { rows } from './support/compose';
import { createDatabase, databaseUrl, dropDatabase, onPostgres, uniqueName } from './support/pg';
import { makeTempDir } from './support/tmp';

interface Journal {
  entries: { idx: number; tag: string }[];
}

const rut = (body: number) => `${body}-${rutCheckDigit(body)}`;
const curp = (first17: string) => `${first17}${curpCheckDigit(first17)}`;

describe('migration 0009 backfills the lists, members and documents a school already has', () => {
  let root: string;
  let handle: DbHandle;
  let pgName = '';

  /** Applies the migrations of `folder` not applied yet, on whichever store this run is. */
  const migrate = (folder: string) =>
    handle.kind === 'postgres'
      ? migratePg(handle.db as NodePgDatabase, { migrationsFolder: folder })
      : migratePglite(handle.db as PgliteDatabase, { migrationsFolder: folder });

  beforeAll(async () => {
    root = makeTempDir('hermes-migration-0009-');
    // The migrations as they were before 0009: its journal cut after 0008.
    const before = path.join(root, 'before-0009');
    mkdirSync(path.join(before, 'meta'), { recursive: true });
    const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as Journal;
    const upTo8 = journal.entries.filter((e) => e.idx <= 8);
    expect(upTo8.at(-1)!.tag).toBe('0008_templates');
    expect(journal.entries.find((e) => e.idx === 9)!.tag).toBe('0009_list_management');
    writeFileSync(path.join(before, 'meta/_journal.json'), JSON.stringify({ ...journal, entries: upTo8 }));
    for (const e of upTo8) copyFileSync(path.join(MIGRATIONS_DIR, `${e.tag}.sql`), path.join(before, `${e.tag}.sql`));

    if (onPostgres) {
      pgName = uniqueName('hermes_migration');
      await createDatabase(pgName);
      handle = await openDb({ databaseUrl: databaseUrl(pgName) });
    } else {
      handle = await openDb({ dataDir: path.join(root, 'pglite'), databaseUrl: '' });
    }
    await migrate(before);
    await seedBefore0009(handle);
    // The whole folder now: only 0009 is pending.
    await migrate(MIGRATIONS_DIR);
  });

  afterAll(async () => {
    await handle?.close();
    if (pgName) await dropDatabase(pgName);
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('lists were last changed when created; a list already in the trash was deleted by its owner', async () => {
    const lists = await rows<{
      id: number;
      created_at: Date | string;
      updated_at: Date | string;
      deleted_by_user_id: number | null;
      shared: boolean;
    }>(handle.db, sql`select id, created_at, updated_at, deleted_by_user_id, shared from recipient_lists order by id`);
    expect(
      lists.map((l) => [
        Number(l.id),
        new Date(l.updated_at).toISOString(),
        l.deleted_by_user_id === null ? null : Number(l.deleted_by_user_id),
        l.shared,
      ]),
    ).toEqual([
      [1, '2025-03-03T12:00:00.000Z', null, false],
      // Before 0009 only a list's owner saw it, so only they could have put it in the trash.
      [2, '2025-02-10T09:30:00.000Z', 10, false],
    ]);
    for (const l of lists) expect(new Date(l.updated_at).toISOString()).toBe(new Date(l.created_at).toISOString());
  });

  it("members remember their student's course today; no course for those reached alone, staff, or another school's student", async () => {
    const members = await rows<{ id: number; course_id: number | null }>(
      handle.db,
      sql`select id, course_id from recipient_list_members order by id`,
    );
    expect(members.map((m) => [Number(m.id), m.course_id === null ? null : Number(m.course_id)])).toEqual([
      [1, 100], // a student (member_ref_id, no student_id)
      [2, 101], // a guardian reached for a student of 2° Básico
      [3, null], // a guardian picked alone
      [4, null], // a staff member
      [5, 100], // a student written with its own student_id too
      [6, null], // a stale row naming the Mexican school's student in a Chilean list
      [7, null], // a guardian for that same foreign student
    ]);
  });

  it('types a document on file by what it is: a valid RUT in Chile, a valid CURP in Mexico, anything else «otro», and no type without a number', async () => {
    const types = async (table: 'guardians' | 'students') =>
      (
        await rows<{ id: number; document_type: number | null }>(
          handle.db,
          sql`select id, document_type from ${sql.identifier(table)} order by id`,
        )
      ).map((r) => [Number(r.id), r.document_type === null ? null : Number(r.document_type)]);
    expect(await types('guardians')).toEqual([
      [200, DOCUMENT_TYPES.rut], // 12345678-5 as the seed writes it
      [201, DOCUMENT_TYPES.rut], // 7.654.333-k with dots and a lower-case k, as schools typed them
      [202, DOCUMENT_TYPES.otro], // a passport number in a Chilean school
      [203, DOCUMENT_TYPES.otro], // a RUT whose check digit is wrong is no RUT
      [204, null], // no number
      [205, null], // a blank number
      [206, DOCUMENT_TYPES.curp],
      [207, DOCUMENT_TYPES.otro], // an INE key in a Mexican school
      [208, DOCUMENT_TYPES.otro], // a CURP-shaped key whose check digit is wrong
    ]);
    expect(await types('students')).toEqual([
      [300, DOCUMENT_TYPES.rut],
      [301, DOCUMENT_TYPES.otro], // an IPE (identificador provisorio escolar) of a foreign student
      [302, null],
      [303, DOCUMENT_TYPES.curp],
      [304, null],
      [305, DOCUMENT_TYPES.otro], // a passport ending in a letter in Mexico
      [306, DOCUMENT_TYPES.otro], // a K where the check digit is another
    ]);
  });
});

/** Rows of the kinds 0009 reads, in the schema of 0008. */
async function seedBefore0009(handle: DbHandle): Promise<void> {
  const run = (text: string) => handle.db.execute(sql.raw(text));
  await run(`insert into institutions (id, name, country, locale, timezone, domain, phone_prefix, home_url) values
    (1, 'Colegio San Andrés', 'CL', 'es-CL', 'America/Santiago', 'cl', '+56', 'https://sanandres.cl'),
    (2, 'Colegio Juárez', 'MX', 'es-MX', 'America/Mexico_City', 'mx', '+52', 'https://juarez.mx')`);
  await run(`insert into levels (id, institution_id, name, position) values (1, 1, 'Básica', 1), (2, 2, 'Primaria', 1)`);
  await run(`insert into courses (id, institution_id, level_id, name) values
    (100, 1, 1, '1° Básico A'), (101, 1, 1, '2° Básico A'), (102, 2, 2, '1° de Primaria A')`);
  await run(`insert into users (id, institution_id, email, password_hash, name, device, domain, options) values
    (10, 1, 'profesora@sanandres.cl', 'x', 'Carolina Muñoz', 'cl', 'cl', '{}'),
    (11, 1, 'director@sanandres.cl', 'x', 'Jorge Soto', 'cl', 'cl', '{}')`);
  await run(`insert into students (id, institution_id, course_id, first_names, last_name_father, last_name_mother, birth_date, dni) values
    (300, 1, 100, 'Martina', 'Pérez', 'Soto', '2018-04-02', '${rut(24_123_456)}'),
    (301, 1, 101, 'Tomás', 'Pérez', 'Soto', '2017-01-20', '100123456'),
    (302, 1, 101, 'Ana', 'Rojas', 'Vera', '2017-05-11', null),
    (303, 2, 102, 'Diego', 'Hernández', 'López', '2018-02-14', '${curp('HELD180214HDFRPG0')}'),
    (304, 2, 102, 'Sofía', 'García', 'Ruiz', '2018-07-30', ''),
    (305, 2, 102, 'Mateo', 'Ruiz', 'Paz', '2018-09-09', 'G1234567X'),
    (306, 1, 100, 'Josefa', 'Muñoz', 'Lara', '2018-03-15', '24.000.000-K')`);
  await run(`insert into guardians (id, institution_id, first_names, last_name_father, last_name_mother, dni) values
    (200, 1, 'Claudia', 'Soto', 'Pino', '${rut(12_345_678)}'),
    (201, 1, 'Pedro', 'Pérez', 'Lagos', '7.654.333-${rutCheckDigit(7_654_333).toLowerCase()}'),
    (202, 1, 'Yaneth', 'Díaz', 'Mora', 'P1234567'),
    (203, 1, 'Luis', 'Vera', 'Campos', '12345678-${rutCheckDigit(12_345_678) === '0' ? '1' : '0'}'),
    (204, 1, 'Marta', 'Rojas', 'Fuentes', null),
    (205, 1, 'Rosa', 'Pino', 'Araya', '   '),
    (206, 2, 'María', 'López', 'Ruiz', '${curp('LORM850312MDFPZR0')}'),
    (207, 2, 'Juan', 'Hernández', 'Gil', 'HRGLJN85031209H400'),
    (208, 2, 'Lucía', 'Gil', 'Mata', 'GIML900101MDFLTC0${(curpCheckDigit('GIML900101MDFLTC0') + 1) % 10}')`);
  await run(`insert into recipient_lists (id, institution_id, owner_user_id, name, created_at, deleted_at) values
    (1, 1, 10, 'Apoderados del taller de teatro', '2025-03-03T12:00:00Z', null),
    (2, 1, 10, 'Directiva 2024', '2025-02-10T09:30:00Z', '2025-06-01T10:00:00Z')`);
  await run(`insert into recipient_list_members (id, list_id, member_kind, member_ref_id, student_id, role) values
    (1, 1, 'estudiante', 300, null, null),
    (2, 1, 'apoderado', 201, 301, 1),
    (3, 1, 'apoderado', 204, null, null),
    (4, 1, 'funcionario', 1, null, null),
    (5, 2, 'estudiante', 300, 300, null),
    (6, 2, 'estudiante', 303, null, null),
    (7, 2, 'apoderado', 206, 303, 1)`);
}
