// Creates ONE migrated and seeded PGlite database for the whole api project (initdb + seed take seconds);
// every test file copies it to its own temp dir (see support/server.ts), so files never share state.
import { rmSync } from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDb } from '../../server/db/client';
import { generateSeed } from '../../server/seed/generate';
import { writeSeedFiles } from '../../server/seed/messages';
import { writeSeed } from '../../server/seed/write';
import { AttachmentStore } from '../../server/storage/attachments';
import { makeTempDir } from './support/tmp';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A closed, seeded PGlite data dir; copy it, never open it in place. */
    hermesSeededDataDir: string;
    /** The seed's attachment files matching that database; copy it too. */
    hermesSeededAttachmentsDir: string;
  }
}

export default async function setup(project: TestProject) {
  const root = makeTempDir('hermes-api-');
  const dataDir = path.join(root, 'seeded');
  const attachmentsDir = path.join(root, 'attachments');
  // databaseUrl '' keeps the tests on PGlite even when DATABASE_URL is set in the shell.
  const handle = await openDb({ dataDir, databaseUrl: '' });
  try {
    await handle.migrate();
    const data = generateSeed();
    await writeSeedFiles(new AttachmentStore(attachmentsDir), data.mail);
    await writeSeed(handle.db, data);
  } finally {
    await handle.close();
  }
  project.provide('hermesSeededDataDir', dataDir);
  project.provide('hermesSeededAttachmentsDir', attachmentsDir);
  return () => rmSync(root, { recursive: true, force: true });
}
