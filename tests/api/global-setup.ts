// Creates ONE migrated and seeded database for the whole api project (initdb + seed take seconds); every
// test file gets its own copy (see support/server.ts), so files never share state. On PGlite it is a data
// dir each file copies; on PostgreSQL (HERMES_TEST_PG_URL, support/pg.ts) a template database each file
// clones with CREATE DATABASE … TEMPLATE.
import { rmSync } from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDb } from '../../server/db/client';
import { generateSeed } from '../../server/seed/generate';
import { writeSeedFiles } from '../../server/seed/messages';
import { writeSeed } from '../../server/seed/write';
import { AttachmentStore } from '../../server/storage/attachments';
import { createDatabase, databaseUrl, dropDatabase, freezeTemplate, onPostgres, PGLITE_ONLY, storeLabel, uniqueName } from './support/pg';
import { makeTempDir } from './support/tmp';

declare module 'vitest' {
  export interface ProvidedContext {
    /** PGlite: a closed, seeded data dir; copy it, never open it in place. '' on PostgreSQL. */
    hermesSeededDataDir: string;
    /** PostgreSQL: the seeded template database; clone it, never connect to it. '' on PGlite. */
    hermesSeededTemplate: string;
    /** The seed's attachment files matching that database; copy it too. */
    hermesSeededAttachmentsDir: string;
  }
}

export default async function setup(project: TestProject) {
  console.log(`API suite on ${storeLabel()}`);
  if (onPostgres) for (const [name, why] of Object.entries(PGLITE_ONLY)) console.log(`  skipped on PostgreSQL: "${name}": ${why}`);
  const root = makeTempDir('hermes-api-');
  const dataDir = path.join(root, 'seeded');
  const attachmentsDir = path.join(root, 'attachments');
  const template = onPostgres ? uniqueName('hermes_seeded') : '';
  if (template) await createDatabase(template);
  try {
    // databaseUrl '' keeps the tests on PGlite even when DATABASE_URL is set in the shell.
    const handle = await openDb(template ? { databaseUrl: databaseUrl(template) } : { dataDir, databaseUrl: '' });
    try {
      await handle.migrate();
      const data = generateSeed();
      await writeSeedFiles(new AttachmentStore(attachmentsDir), data.mail);
      await writeSeed(handle.db, data);
    } finally {
      await handle.close();
    }
    if (template) await freezeTemplate(template);
  } catch (error) {
    // A server shared with other runs keeps nothing of a failed one.
    if (template) await dropDatabase(template).catch(() => {});
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
  project.provide('hermesSeededDataDir', template ? '' : dataDir);
  project.provide('hermesSeededTemplate', template);
  project.provide('hermesSeededAttachmentsDir', attachmentsDir);
  return async () => {
    if (template) await dropDatabase(template);
    rmSync(root, { recursive: true, force: true });
  };
}
