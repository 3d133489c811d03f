// The operators' command line run as they run it: a child process on a fresh database (PGlite dir or
// DATABASE_URL), judged by its exit code, what it prints and the e-mails it leaves in the outbox.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/app';
import { openDb } from '../../server/db/client';
import { userChannelPermissions } from '../../server/db/schema/compose';
import { users } from '../../server/db/schema/auth';
import { invitations, userChanges } from '../../server/db/schema/staff';
import { runCli, type CliRun } from './support/cli';
import { openEmptyDb } from './support/empty';
import { mailsTo } from './support/outbox';
import { Client, listen, makeDist, testConfig } from './support/server';

const PUBLIC_URL = 'https://hermes.liceonorte.example';
const DAY_MS = 24 * 3600 * 1000;

let dispose: () => Promise<void>;
let dbEnv: Record<string, string>;
let connection: { databaseUrl: string } | { dataDir: string };
let root: string;
let outboxDir: string;

beforeAll(async () => {
  const empty = await openEmptyDb();
  // PGlite is one process's: the CLI opens the directory itself.
  await empty.handle.close();
  dispose = empty.dispose;
  connection = empty.connection;
  root = empty.root;
  outboxDir = path.join(root, 'outbox');
  dbEnv = {
    ...('databaseUrl' in connection ? { DATABASE_URL: connection.databaseUrl } : { HERMES_DATA_DIR: connection.dataDir }),
    HERMES_OUTBOX_DIR: outboxDir,
    HERMES_PUBLIC_URL: PUBLIC_URL,
  };
});
afterAll(async () => {
  await dispose?.();
});

const hermes = (args: string[], env: Record<string, string> = {}): Promise<CliRun> => runCli(args, { ...dbEnv, ...env });

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

    const before = Date.now();
    const admin = await hermes(['schools', 'invite-admin', '--school', String(id), '--email', 'Dir@LiceoNorte.cl', '--name', 'Pedro Soto']);
    expect(admin.code, admin.stderr).toBe(0);
    const printed =
      /^Invitación enviada a dir@liceonorte\.cl, administrador de Liceo Norte\. El enlace sirve una vez y vence el (\S+)\.$/.exec(
        admin.stdout.trim(),
      );
    expect(printed, admin.stdout).not.toBeNull();
    const expiresAt = Date.parse(printed![1]!);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 7 * DAY_MS - 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 7 * DAY_MS);
    const [mail] = await mailsTo(outboxDir, 'dir@liceonorte.cl');
    expect(mail!.subject).toBe('Invitación a Hermes de Liceo Norte');
    expect(mail!.text).toContain('Hola, Pedro Soto:');
    // No one of the school invites them: the e-mail names no inviter.
    expect(mail!.text).toContain('Te invitamos a usar Hermes, la mensajería de Liceo Norte, con este correo (dir@liceonorte.cl).');
    expect(mail!.text).toMatch(/https:\/\/hermes\.liceonorte\.example\/invitation\/[A-Za-z0-9_-]{43}/);

    const foreign = await hermes(['schools', 'invite-admin', '--school', '999', '--email', 'x@liceonorte.cl', '--name', 'X Y']);
    expect(foreign.code).toBe(2);
    expect(foreign.stderr.trim()).toBe('No existe el colegio 999.');

    const mxAdmin = await hermes([
      'schools',
      'invite-admin',
      '--school',
      String(id + 1),
      '--email',
      'directora@primariajuarez.mx',
      '--name',
      'Ana Ruiz',
      '--json',
    ]);
    expect(mxAdmin.code, mxAdmin.stderr).toBe(0);
    const answer = JSON.parse(mxAdmin.stdout) as { id: number; email: string; expires_at: string; mail_sent: boolean };
    expect(answer).toEqual({
      id: expect.any(Number),
      email: 'directora@primariajuarez.mx',
      expires_at: expect.any(String),
      mail_sent: true,
    });
    expect(Date.parse(answer.expires_at) - Date.now()).toBeGreaterThan(7 * DAY_MS - 120_000);

    const list = await hermes(['schools', 'list', '--json']);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual([
      { id, name: 'Liceo Norte', country: 'CL', staff: 1 },
      { id: id + 1, name: 'Primaria Juárez', country: 'MX', staff: 1 },
    ]);
    // With schools, /setup has nothing to set up.
    expect((await hermes(['setup-code'])).code).toBe(2);
  }, 120_000);

  it('invites the administrator as the staff screen does: no password, the e-mailed link sets one, and a second run sends a new link', async () => {
    const created = await hermes(['schools', 'create', '--name', 'Colegio Austral', '--country', 'CL', '--json']);
    const { id: schoolId } = JSON.parse(created.stdout) as { id: number };
    const invite = (env: Record<string, string> = {}) =>
      hermes(
        ['schools', 'invite-admin', '--school', String(schoolId), '--email', 'rectora@austral.cl', '--name', 'Marta Vidal', '--json'],
        env,
      );
    const first = await invite();
    expect(first.code, first.stderr).toBe(0);
    const { id: userId } = JSON.parse(first.stdout) as { id: number };

    // Still invited: running it again sends a new link and the first stops working.
    const second = await invite();
    expect(second.code, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ id: userId, email: 'rectora@austral.cl', mail_sent: true });
    // An outbox under a file cannot be created: the e-mail does not leave, and the exit code says so.
    const blocker = path.join(root, 'not-a-directory');
    writeFileSync(blocker, '');
    const unsent = await invite({ HERMES_OUTBOX_DIR: path.join(blocker, 'outbox') });
    expect(unsent.code).toBe(4);
    expect(JSON.parse(unsent.stdout)).toMatchObject({ id: userId, mail_sent: false });
    const unsentText = await hermes(
      ['schools', 'invite-admin', '--school', String(schoolId), '--email', 'rectora@austral.cl', '--name', 'Marta Vidal'],
      { HERMES_OUTBOX_DIR: path.join(blocker, 'outbox') },
    );
    expect(unsentText.code).toBe(4);
    expect(unsentText.stderr).toContain(
      'La invitación de rectora@austral.cl quedó registrada, pero el correo no se pudo enviar. Revisa SMTP_URL o HERMES_OUTBOX_DIR y vuelve a ejecutar este comando: enviará un enlace nuevo.',
    );
    const last = await invite();
    expect(last.code, last.stderr).toBe(0);
    const tokens = (await mailsTo(outboxDir, 'rectora@austral.cl')).map(
      (m) => /https:\/\/hermes\.liceonorte\.example\/invitation\/([A-Za-z0-9_-]+)/.exec(m.text)![1]!,
    );
    expect(tokens).toHaveLength(3);

    const handle = await openDb(
      'databaseUrl' in connection ? { databaseUrl: connection.databaseUrl } : { dataDir: connection.dataDir, databaseUrl: '' },
    );
    try {
      const { db } = handle;
      const [account] = await db
        .select({ status: users.status, hash: users.passwordHash, device: users.device })
        .from(users)
        .where(eq(users.id, userId));
      expect(account).toEqual({ status: 'invited', hash: null, device: 'latam' });
      const links = await db
        .select({ createdBy: invitations.createdBy, revoked: invitations.revokedAt, used: invitations.usedAt })
        .from(invitations)
        .where(eq(invitations.userId, userId))
        .orderBy(asc(invitations.id));
      // Five runs, five links (the failed ones' too): only the last is open; no user made them.
      expect(links.map((l) => [l.createdBy, l.revoked === null, l.used])).toEqual([
        [null, false, null],
        [null, false, null],
        [null, false, null],
        [null, false, null],
        [null, true, null],
      ]);
      const changes = await db
        .select({ action: userChanges.action, actor: userChanges.actorUserId })
        .from(userChanges)
        .where(eq(userChanges.subjectUserId, userId))
        .orderBy(asc(userChanges.id));
      expect(changes).toEqual([
        { action: 'invited', actor: null },
        { action: 'invitation.resent', actor: null },
        { action: 'invitation.resent', actor: null },
        { action: 'invitation.resent', actor: null },
        { action: 'invitation.resent', actor: null },
      ]);
      // The new school's channels (app and e-mail), as the setup page's administrator gets them.
      const channels = await db
        .select({ channel: userChannelPermissions.channel, enabled: userChannelPermissions.enabled })
        .from(userChannelPermissions)
        .where(eq(userChannelPermissions.userId, userId));
      expect(
        channels
          .filter((c) => c.enabled)
          .map((c) => c.channel)
          .sort(),
      ).toEqual(['app-mobile', 'e-mail']);

      const server = await listen(createApp({ db, distDir: makeDist(root), config: testConfig({ outboxDir, publicUrl: PUBLIC_URL }) }));
      try {
        const visitor = new Client(server.url);
        await visitor.get('/api/csrf-cookie');
        // The outbox names its files at random, so the e-mails come in no order: the links themselves say
        // which is open (exactly one) and which were replaced.
        const reads = await Promise.all(tokens.map((token) => visitor.get(`/api/invitations/${token}`)));
        expect(reads.map((read) => read.status).sort()).toEqual([200, 410, 410]);
        const open = tokens[reads.findIndex((read) => read.status === 200)]!;
        const replaced = tokens.find((token) => token !== open)!;
        const old = await visitor.post(`/api/invitations/${replaced}/accept`, { password: 'Tortuga-Violeta-Marea-91' });
        expect(old.status).toBe(410);
        const read = await visitor.get(`/api/invitations/${open}`);
        expect(read.status).toBe(200);
        expect(await read.json()).toMatchObject({ data: { name: 'Marta Vidal', email: 'rectora@austral.cl', school: 'Colegio Austral' } });
        const accepted = await visitor.post(`/api/invitations/${open}/accept`, { password: 'Tortuga-Violeta-Marea-91' });
        expect(accepted.status, await accepted.clone().text()).toBe(200);
        expect(await accepted.json()).toMatchObject({
          user: { email: 'rectora@austral.cl', roles: [{ codigo: 'colegio-administrador' }] },
        });
        expect((await new Client(server.url).login('rectora@austral.cl', 'Tortuga-Violeta-Marea-91')).status).toBe(200);
      } finally {
        await server.close();
      }
    } finally {
      await handle.close();
    }
    // Active now: a new run has nothing to send and refuses.
    const afterwards = await invite();
    expect(afterwards.code).toBe(2);
    expect(afterwards.stderr.trim()).toBe('Ya existe una cuenta con el correo rectora@austral.cl.');
  }, 120_000);
});
