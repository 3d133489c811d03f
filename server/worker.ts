// `npm run worker`: a process that only works the delivery queue, beside any number of servers and other
// workers sharing one PostgreSQL (DATABASE_URL). PGlite is one process's database, so there the server's
// own workers do this and a separate worker is refused.
import { configFromEnv } from './config';
import { openDb } from './db/client';
import { createApp } from './app';
import { createDelivery } from './delivery/setup';
import { createLogger } from './log';
import { startPeriodic } from './db/periodic';
import { RETENTION_EVERY_MS, RETENTION_JOB } from './retention/settings';
import { runRetentionSweep } from './retention/sweep';
import { AttachmentStore } from './storage/attachments';

const config = { ...configFromEnv(), workers: true };
const logger = createLogger(config.log);
if (!process.env.DATABASE_URL) {
  console.error('npm run worker necesita DATABASE_URL (PostgreSQL). Con la base embebida, el servidor atiende los envíos por sí mismo.');
  process.exit(1);
}
const handle = await openDb({ logger });
await handle.migrate();
const store = new AttachmentStore(config.attachmentsDir);
const delivery = createDelivery({ handle, config, logger, store });
// Not listening: the app only answers the built-in provider simulator's status reports, in-process.
const app = createApp({ db: handle.db, distDir: './dist', config, logger, store, delivery });
delivery.bindApp(app.fetch);
await delivery.start();
// The retention sweep too: whichever server or worker claims the day's run does it (server/db/periodic.ts).
const retention = startPeriodic({
  db: handle.db,
  logger,
  name: RETENTION_JOB,
  label: 'retención de datos',
  everyMs: RETENTION_EVERY_MS,
  run: () => runRetentionSweep(handle.db, store, logger),
});
logger.info('Trabajador de envíos en marcha.');

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info(`${signal}: cerrando el trabajador…`);
  retention.stop();
  await delivery.stop();
  await handle.close();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
