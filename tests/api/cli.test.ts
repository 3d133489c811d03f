// The operators' command line run as they run it: a child process on a fresh database (PGlite dir or
// DATABASE_URL), judged by its exit code and what it prints.
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmptyDb } from './support/empty';

let dispose: () => Promise<void>;
let dbEnv: Record<string, string>;

beforeAll(async () => {
  const empty = await openEmptyDb();
  // PGlite is one process's: the CLI opens the directory itself.
  await empty.handle.close();
  dispose = empty.dispose;
  dbEnv =
    'databaseUrl' in empty.connection ? { DATABASE_URL: empty.connection.databaseUrl } : { HERMES_DATA_DIR: empty.connection.dataDir };
});
afterAll(async () => {
  await dispose?.();
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function hermes(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'server/cli/main.ts', ...args],
      { env: { PATH: process.env.PATH ?? '', LANG: 'es_CL.UTF-8', ...dbEnv, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? -1) : 0, stdout, stderr }),
    );
  });
}

describe('npm run hermes', () => {
  it('helps in Spanish by default and in English when asked, with the exit codes', async () => {
    const es = await hermes(['--help']);
    expect(es.code).toBe(0);
    expect(es.stdout).toContain('Uso: npm run hermes -- <comando> [opciones]');
    expect(es.stdout).toContain('3  no se pudo abrir la base de datos');
    const en = await hermes(['help', 'invite-admin', '--lang', 'en']);
    expect(en.code).toBe(0);
    expect(en.stdout).toMatch(/^Usage: npm run hermes -- schools invite-admin --school <id>/);
    const byLang = await hermes(['--help'], { LANG: 'en_GB.UTF-8' });
    expect(byLang.stdout).toContain('2  input refused');
  });

  it('answers bad usage with 1 and a database it cannot reach with 3', async () => {
    expect((await hermes([])).code).toBe(1);
    const unknown = await hermes(['schools', 'delete']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Comando desconocido: «schools delete»');
    const missing = await hermes(['schools', 'create', '--country', 'CL']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Falta la opción --name.');
    const unreachable = await hermes(['schools', 'list'], { DATABASE_URL: 'postgres://hermes@127.0.0.1:1/hermes' });
    expect(unreachable.code).toBe(3);
    expect(unreachable.stderr).toContain('No se pudo abrir la base de datos');
  });

  // A dozen processes, each opening the database: beside the rest of the suite on 2 cores, over the default.
  it('issues a setup code while there is no school, then creates schools, refuses bad input with 2, invites an admin and lists them', async () => {
    const code = await hermes(['setup-code']);
    expect(code.code).toBe(0);
    expect(code.stdout.trim()).toMatch(/^Código de configuración \(se usa una vez\): [A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    const bad = await hermes(['schools', 'create', '--name', 'Liceo Norte', '--country', 'CL', '--timezone', 'America/Cancun']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toBe('--timezone: Elige una zona horaria de Chile.');

    const cl = await hermes([
      'schools',
      'create',
      '--name',
      'Liceo Norte',
      '--country',
      'CL',
      '--home-url',
      'https://liceonorte.cl',
      '--json',
    ]);
    expect(cl.code).toBe(0);
    const { id } = JSON.parse(cl.stdout) as { id: number };
    const mx = await hermes(['schools', 'create', '--name', 'Primaria Juárez', '--country', 'mx']);
    expect(mx.code).toBe(0);
    expect(mx.stdout.trim()).toBe(`Colegio creado: ${id + 1} (Primaria Juárez).`);

    const admin = await hermes(['schools', 'invite-admin', '--school', String(id), '--email', 'Dir@LiceoNorte.cl', '--name', 'Pedro Soto']);
    expect(admin.code).toBe(0);
    expect(admin.stdout).toContain('Administrador creado: dir@liceonorte.cl en Liceo Norte.');
    const again = await hermes(['schools', 'invite-admin', '--school', String(id), '--email', 'dir@liceonorte.cl', '--name', 'Pedro Soto']);
    expect(again.code).toBe(2);
    expect(again.stderr.trim()).toBe('Ya existe una cuenta con el correo dir@liceonorte.cl.');
    const foreign = await hermes(['schools', 'invite-admin', '--school', '999', '--email', 'x@liceonorte.cl', '--name', 'X Y']);
    expect(foreign.code).toBe(2);
    expect(foreign.stderr.trim()).toBe('No existe el colegio 999.');

    const list = await hermes(['schools', 'list', '--json']);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual([
      { id, name: 'Liceo Norte', country: 'CL', staff: 1 },
      { id: id + 1, name: 'Primaria Juárez', country: 'MX', staff: 0 },
    ]);
    // With schools, /setup has nothing to set up.
    expect((await hermes(['setup-code'])).code).toBe(2);
  }, 120_000);
});
