// `npm run seed -- [--students 2500] [--reset]`: loads the demo schools into HERMES_DATA_DIR (or
// DATABASE_URL). `--students` sizes Colegio San Andrés for benchmarks; courses and staff scale with it.
import { parseArgs } from 'node:util';
import { DEFAULT_DATA_DIR, openDb } from '../db/client';
import { generateSeed } from './generate';
import { configFromEnv } from '../config';
import { AttachmentStore } from '../storage/attachments';
import { writeSeedFiles } from './messages';
import { hasData, resetData, writeSeed } from './write';

const { values } = parseArgs({
  options: {
    students: { type: 'string' },
    messages: { type: 'string' },
    reset: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

if (values.help) {
  console.log('Uso: npm run seed -- [--students N] [--messages N] [--reset]');
  process.exit(0);
}

const students = values.students === undefined ? undefined : Number(values.students);
if (students !== undefined && (!Number.isInteger(students) || students < 50)) {
  console.error('--students debe ser un entero mayor o igual a 50');
  process.exit(2);
}

const messages = values.messages === undefined ? undefined : Number(values.messages);
if (messages !== undefined && (!Number.isInteger(messages) || messages < 0 || messages > 1_000_000)) {
  console.error('--messages debe ser un entero entre 0 y 1000000');
  process.exit(2);
}

const started = performance.now();
const handle = await openDb();
try {
  await handle.migrate();
  if (await hasData(handle.db)) {
    if (!values.reset) {
      console.error('La base de datos ya tiene datos. Usa --reset para borrarlos y volver a cargar la demostración.');
      process.exitCode = 1;
    } else {
      await resetData(handle.db);
    }
  }
  if (process.exitCode !== 1) {
    const data = generateSeed({
      ...(students === undefined ? {} : { students }),
      ...(messages === undefined ? {} : { messages }),
    });
    await writeSeedFiles(new AttachmentStore(configFromEnv().attachmentsDir), data.mail);
    await writeSeed(handle.db, data);
    const where = handle.kind === 'pglite' ? (process.env.HERMES_DATA_DIR ?? DEFAULT_DATA_DIR) : 'DATABASE_URL';
    console.log(
      `Listo en ${Math.round(performance.now() - started)} ms (${where}): ${data.institutions.length} colegios, ` +
        `${data.courses.length} cursos, ${data.students.length} estudiantes, ${data.guardians.length} apoderados, ` +
        `${data.staff.length} funcionarios, ${data.users.length} usuarios, ${data.mail.messages.length} mensajes, ` +
        `${data.compose.recipientLists.length} listas de destinatarios.`,
    );
  }
} finally {
  await handle.close();
}
