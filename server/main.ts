// Entry point: open the database, migrate, seed an empty one with the demo schools (unless HERMES_DEMO=0,
// which leaves it empty and prints the first start's setup code instead), load the product's template
// libraries it lacks, serve the API and the SPA, and shut down cleanly (PGlite must be closed to flush its files).
import { serve } from '@hono/node-server';
import { DEMO_LOGINS, DEMO_PASSWORD } from '../shared/demo';
import { createApp } from './app';
import { familiesBanner } from './demo-banner';
import { deleteStaleAppLogins } from './app-api/tokens';
import { deleteOldRateLimitHits, rateLimitHorizon } from './auth/rate-limit';
import { deleteExpiredSessions } from './auth/sessions';
import { deleteOldResetLinks } from './passwords/resets';
import { configFromEnv, positiveInt } from './config';
import { openDb } from './db/client';
import { startPeriodic } from './db/periodic';
import { createDelivery } from './delivery/setup';
import { simulatorTokenFile } from './delivery/simulator';
import { keepSocketsAlive } from './http/keep-alive';
import { createLogger } from './log';
import { generateSeed } from './seed/generate';
import { writeSeedFiles } from './seed/messages';
import { hasData, writeSeed } from './seed/write';
import { loadLibrary } from './templates/library';
import { AttachmentStore } from './storage/attachments';
import { RETENTION_EVERY_MS, RETENTION_JOB } from './retention/settings';
import { runRetentionSweep } from './retention/sweep';
import { ABANDONED_UPLOAD_AGE_MS, deleteAbandonedUploads } from './storage/sweep';
import { settleSmsPhones } from './recipients/sms-phones';
import { hasSchool } from './schools/schools';
import { issueSetupCode } from './setup/code';

const config = configFromEnv();
const logger = createLogger(config.log);
const port = process.env.PORT === '0' ? 0 : positiveInt(process.env, 'PORT', 3000);
const host = process.env.HOST || '0.0.0.0';
const distDir = process.env.HERMES_DIST_DIR || './dist';
/** `npm start` is how people try Hermes: the demo schools unless HERMES_DEMO=0 (a real school's install). */
const demo = process.env.HERMES_DEMO !== '0' && process.env.HERMES_DEMO !== 'false';

const started = performance.now();
const store = new AttachmentStore(config.attachmentsDir);
const handle = await openDb({ logger });
await handle.migrate();
if (demo && !(await hasData(handle.db))) {
  logger.info('Base de datos vacía: cargando los colegios de demostración…');
  const data = generateSeed();
  await writeSeedFiles(store, data.mail);
  await writeSeed(handle.db, data);
}
// The delivery engine's verdict on guardians' phones that have none yet (after migration 0012, or rows
// written by something else than the app): server/recipients/sms-phones.ts.
const settled = await settleSmsPhones(handle.db, null);
if (settled > 0) logger.info(`Teléfonos de apoderados revisados para SMS: ${settled}.`);
// The product's template libraries, on any database (a seeded one has them already).
const libraryLoaded = await loadLibrary(handle.db);
if (libraryLoaded > 0) logger.info(`Plantillas de Hermes y Socioemocional cargadas: ${libraryLoaded}.`);

// No school yet: the setup page's one-time code. The embedded database has this one process, so each start
// prints a fresh code; on PostgreSQL the first server to start prints it and the others keep it.
const setupCode = (await hasSchool(handle.db)) ? undefined : await issueSetupCode(handle.db, handle.kind === 'pglite');

const delivery = createDelivery({ handle, config, logger, store });
const app = createApp({ db: handle.db, distDir, config, logger, store, delivery });
delivery.bindApp(app.fetch);
await delivery.start();
// With the simulator, `npm run sim:reply` answers as a family through it: it needs this process's token.
await delivery.simulator
  ?.shareToken(simulatorTokenFile(config.outboxDir))
  .catch((err: unknown) => logger.error('El simulador no pudo dejar su token para `npm run sim:reply`', err));
const server = serve({ fetch: app.fetch, port, hostname: host }, (info) => {
  const shownHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  const url = `http://${shownHost}:${info.port}`;
  const ms = Math.round(performance.now() - started);
  printBanner(url, handle.kind, ms);
  if (setupCode !== undefined) printSetup(url, setupCode);
  if (!config.workers && handle.kind === 'postgres')
    logger.info('Envíos: sin trabajadores en este proceso (HERMES_WORKERS=0); los atiende `npm run worker`.');
});
keepSocketsAlive(server);

function printSetup(url: string, code: string | null): void {
  if (config.log === 'silent') return;
  const lines = code
    ? [`  Código de configuración (se usa una vez): ${code}`]
    : [
        '  El código de configuración lo imprimió el primer servidor que arrancó con esta base de datos;',
        '  `npm run hermes -- setup-code` genera otro.',
      ];
  console.log(['', `  Hermes aún no tiene colegios. Configúralo en ${url}/setup`, ...lines, ''].join('\n'));
}

function printBanner(url: string, kind: string, ms: number): void {
  if (config.log === 'silent') return;
  if (!demo) {
    console.log(`\n  Hermes escuchando en ${url}  (base de datos: ${kind}, lista en ${ms} ms)\n`);
    return;
  }
  const rows = DEMO_LOGINS.map((l) => [l.email, DEMO_PASSWORD, l.access ? l.role : `${l.role} (sin acceso)`, l.school]);
  const header = ['Correo', 'Contraseña', 'Rol', 'Colegio'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  console.log(
    [
      '',
      `  Hermes escuchando en ${url}  (base de datos: ${kind}, lista en ${ms} ms)`,
      '',
      '  Usuarios de demostración:',
      `  ${line(header)}`,
      `  ${widths.map((w) => '-'.repeat(w)).join('  ')}`,
      ...rows.map((r) => `  ${line(r)}`),
      '',
      ...familiesBanner(url, config),
      '',
    ].join('\n'),
  );
}

// Sessions abandoned without logout, expired app sign-ins, uploads never attached and rate-limit attempts
// past their window would pile up; clean them up hourly, once across every server on the database
// (server/db/periodic.ts).
const cleanUp = startPeriodic({
  db: handle.db,
  logger,
  name: 'hourly-clean-up',
  label: 'limpieza horaria',
  everyMs: 3600_000,
  run: async () => {
    const jobs: [string, () => Promise<number>][] = [
      ['sesiones expiradas eliminadas', () => deleteExpiredSessions(handle.db)],
      ['sesiones y códigos de la app vencidos eliminados', () => deleteStaleAppLogins(handle.db)],
      ['adjuntos abandonados eliminados', () => deleteAbandonedUploads(handle.db, store, new Date(Date.now() - ABANDONED_UPLOAD_AGE_MS))],
      [
        'intentos vencidos de los límites de acceso eliminados',
        () => deleteOldRateLimitHits(handle.db, rateLimitHorizon(config, new Date())),
      ],
      ['enlaces vencidos para restablecer contraseñas eliminados', () => deleteOldResetLinks(handle.db)],
    ];
    // Each on its own: one failing does not keep the others from running.
    for (const [done, job] of jobs) {
      await job().then(
        (n) => n > 0 && logger.debug(`${n} ${done}`),
        (err: unknown) => logger.error(`Limpieza horaria: falló (${done})`, err),
      );
    }
  },
});

// What is past each school's retention, once a day across every server and worker (server/retention/).
const retention = startPeriodic({
  db: handle.db,
  logger,
  name: RETENTION_JOB,
  label: 'retención de datos',
  everyMs: RETENTION_EVERY_MS,
  run: () => runRetentionSweep(handle.db, store, logger),
});

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info(`${signal}: cerrando…`);
  cleanUp.stop();
  retention.stop();
  // Stop accepting connections, drop idle keep-alive sockets, then close the database.
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    if ('closeIdleConnections' in server) {
      server.closeIdleConnections();
      // A request still running after 3 s is cut rather than keeping the process alive.
      setTimeout(() => server.closeAllConnections(), 3000).unref();
    }
  });
  // Deliveries in flight finish (or stay queued for the next start) before the database closes.
  await delivery.stop();
  await handle.close();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
