// `npm run hermes -- roster import` run as operators run it: a child process on a fresh database with one
// school, judged by its exit code and what it prints; the preview writes nothing, --apply writes the school.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../../server/db/client';
import { rowsOf } from '../../server/db/sql';
import { rutCheckDigit } from '../../shared/person-rules';
import { runCli, type CliRun } from './support/cli';
import { openEmptyDb } from './support/empty';

let dispose: () => Promise<void>;
let dbEnv: Record<string, string>;
let connection: { databaseUrl: string } | { dataDir: string };
let root: string;

const hermes = (args: string[], env: Record<string, string> = {}): Promise<CliRun> => runCli(args, { ...dbEnv, ...env });

/** What the school has, read with the CLI's database closed (PGlite is one process's). */
async function counts(): Promise<{ students: number; guardians: number; courses: number; imports: number }> {
  const handle = await openDb({ ...('databaseUrl' in connection ? connection : { dataDir: connection.dataDir, databaseUrl: '' }) });
  try {
    const [row] = rowsOf<{ students: number; guardians: number; courses: number; imports: number }>(
      await handle.db.execute(sql`select (select count(*)::int from students) as students, (select count(*)::int from guardians) as guardians,
        (select count(*)::int from courses) as courses, (select count(*)::int from roster_imports) as imports`),
    );
    return row!;
  } finally {
    await handle.close();
  }
}

const run = (body: number) => `${body}-${rutCheckDigit(body)}`;
const FILE = [
  'RUN;Nombres;Apellido paterno;Apellido materno;Curso;Nombre apoderado;RUT apoderado;Relación;Celular;Correo',
  `${run(31_000_001)};Ana;Pérez;Soto;1° Básico A;Carla Soto Lagos;${run(15_000_001)};Madre;9 8765 4301;carla@correo.cl`,
  `${run(31_000_002)};Luis;Pérez;Soto;1° Básico A;Carla Soto Lagos;${run(15_000_001)};Madre;9 8765 4301;carla@correo.cl`,
  `${run(31_000_003)};Eva;Rojas;Díaz;2° Básico B;Juan Rojas Mena;${run(15_000_002)};Padre;9 8765 4302;juan@correo.cl`,
  '12.345.678-0;Mal;Rut;Malo;2° Básico B;;;;;',
].join('\n');

beforeAll(async () => {
  const empty = await openEmptyDb();
  await empty.handle.close();
  dispose = empty.dispose;
  connection = empty.connection;
  root = empty.root;
  dbEnv = 'databaseUrl' in connection ? { DATABASE_URL: connection.databaseUrl } : { HERMES_DATA_DIR: connection.dataDir };
  const created = await hermes(['schools', 'create', '--name', 'Liceo del Norte', '--country', 'CL', '--json']);
  expect(created.code, created.stderr).toBe(0);
  writeFileSync(path.join(root, 'nomina.csv'), FILE);
});
afterAll(async () => {
  await dispose?.();
});

describe('npm run hermes -- roster import', () => {
  it('previews without writing, applies with --apply, and the same file again changes nothing', async () => {
    const file = path.join(root, 'nomina.csv');
    const preview = await hermes(['roster', 'import', '1', file]);
    expect(preview.code, preview.stderr).toBe(0);
    expect(preview.stdout).toContain('Filas: 4 leídas, 3 válidas, 1 rechazadas.');
    expect(preview.stdout).toContain('Estudiantes: 3 nuevos, 0 modificados, 0 sin cambios, 0 retirados.');
    expect(preview.stdout).toContain('Apoderados: 2 nuevos, 0 modificados, 0 sin cambios.');
    expect(preview.stdout).toMatch(/^Línea 5 \(RUN\): /m);
    expect(await counts()).toEqual({ students: 0, guardians: 0, courses: 0, imports: 1 });

    const applied = await hermes(['roster', 'import', '1', file, '--apply']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('Importación 2 aplicada.');
    expect(await counts()).toEqual({ students: 3, guardians: 2, courses: 2, imports: 2 });

    const again = await hermes(['roster', 'import', '1', file, '--apply', '--json', '--lang', 'en']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).counts.students).toEqual({ new: 0, changed: 0, unchanged: 3, withdrawn: 0 });
  });

  it('refuses with 2 a school that does not exist or a file it cannot read, with 1 a bad option, and helps in both languages', async () => {
    const file = path.join(root, 'nomina.csv');
    const noSchool = await hermes(['roster', 'import', '9', file]);
    expect([noSchool.code, noSchool.stderr.trim()]).toEqual([2, 'No existe el colegio 9.']);
    const empty = path.join(root, 'vacia.csv');
    writeFileSync(empty, '');
    const unreadable = await hermes(['roster', 'import', '1', empty]);
    expect([unreadable.code, unreadable.stderr.trim()]).toEqual([2, `No se pudo leer ${empty}: El archivo está vacío.`]);
    const year = await hermes(['roster', 'import', '1', file, '--school-year', 'siguiente']);
    expect(year.code).toBe(1);
    const help = await hermes(['help', 'roster']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Uso: npm run hermes -- roster import <id del colegio> <archivo>/);
    const english = await hermes(['roster', '--help', '--lang', 'en']);
    expect(english.stdout).toMatch(/^Usage: npm run hermes -- roster import <school id> <file>/);
  });
});
