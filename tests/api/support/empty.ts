// A fresh install without demo data: a migrated, empty database (a PGlite dir, or a new PostgreSQL database
// on the suite's server) and the real app on it, as `HERMES_DEMO=0 npm start` leaves it before setup.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { createApp } from '../../../server/app';
import type { ServerConfig } from '../../../server/config';
import { openDb, type DbHandle } from '../../../server/db/client';
import { createDatabase, databaseUrl, dropDatabase, onPostgres, uniqueName } from './pg';
import { Client, listen, makeDist, testConfig } from './server';
import { makeTempDir } from './tmp';

/** An empty, migrated database; `connection` is what another process needs to open it (DATABASE_URL or a dir). */
export async function openEmptyDb(): Promise<{
  handle: DbHandle;
  root: string;
  connection: { databaseUrl: string } | { dataDir: string };
  dispose(): Promise<void>;
}> {
  const root = makeTempDir('hermes-empty-');
  if (onPostgres) {
    const name = uniqueName('hermes_empty');
    await createDatabase(name);
    const url = databaseUrl(name);
    const handle = await openDb({ databaseUrl: url });
    await handle.migrate();
    return {
      handle,
      root,
      connection: { databaseUrl: url },
      dispose: async () => {
        await handle.close().catch(() => {});
        await dropDatabase(name);
        rmSync(root, { recursive: true, force: true });
      },
    };
  }
  const dataDir = path.join(root, 'pglite');
  // databaseUrl '' keeps the tests on PGlite even when DATABASE_URL is set in the shell.
  const handle = await openDb({ dataDir, databaseUrl: '' });
  await handle.migrate();
  return {
    handle,
    root,
    connection: { dataDir },
    dispose: async () => {
      await handle.close().catch(() => {});
      rmSync(root, { recursive: true, force: true });
    },
  };
}

export interface EmptyServer {
  url: string;
  handle: DbHandle;
  client(): Client;
  /** Another app on the same database, listening too: a second server behind the load balancer. */
  sibling(): Promise<Client>;
  close(): Promise<void>;
}

/** The real app on an empty install, listening. */
export async function startEmptyServer(config: Partial<ServerConfig> = {}): Promise<EmptyServer> {
  const empty = await openEmptyDb();
  const distDir = makeDist(empty.root);
  const appOnDb = () =>
    createApp({
      db: empty.handle.db,
      distDir,
      config: testConfig({ attachmentsDir: path.join(empty.root, 'attachments'), outboxDir: path.join(empty.root, 'outbox'), ...config }),
    });
  const server = await listen(appOnDb());
  const siblings: (() => Promise<void>)[] = [];
  return {
    url: server.url,
    handle: empty.handle,
    client: () => new Client(server.url),
    sibling: async () => {
      const other = await listen(appOnDb());
      siblings.push(other.close);
      return new Client(other.url);
    },
    close: async () => {
      await Promise.all(siblings.map((close) => close()));
      await server.close();
      await empty.dispose();
    },
  };
}
