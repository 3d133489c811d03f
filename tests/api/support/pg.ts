// The API suite on a real PostgreSQL server (`npm run test:api:pg`, tests/pg/run.sh): HERMES_TEST_PG_URL is
// the cluster's admin URL. Global setup seeds one template database there; each test file gets its own
// database copied from it (CREATE DATABASE … TEMPLATE copies files, much faster than migrating and seeding).
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The admin URL when the suite runs on PostgreSQL; unset means PGlite. */
export const PG_ADMIN_URL = process.env.HERMES_TEST_PG_URL || '';

export const onPostgres = PG_ADMIN_URL !== '';

/** Which store this run is on, for the run's header. */
export const storeLabel = () => (onPostgres ? process.env.HERMES_TEST_PG_LABEL || `PostgreSQL (${new URL(PG_ADMIN_URL).host})` : 'PGlite');

/**
 * The suites about PGlite itself, by name, with why PostgreSQL skips them. Nothing else is skipped there:
 * the same tests run on both stores.
 */
export const PGLITE_ONLY: Record<string, string> = {
  'kill -9 in the middle of a 5,000-guardian fan-out':
    'it kills a server on its own PGlite dir and checks the restart that takes up the jobs the dead process left running, which only PGlite does; on PostgreSQL the jobs of a dead process are taken over by the live ones, which the worker kill -9 of tests/api/scale-out.test.ts checks',
};

/** True when this suite is skipped on this run: `describe.skipIf(pgliteOnly(name))(name, …)`. */
export function pgliteOnly(name: string): boolean {
  if (!(name in PGLITE_ONLY)) throw new Error(`"${name}" is not in PGLITE_ONLY (tests/api/support/pg.ts)`);
  return onPostgres;
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The URL of another database on the admin URL's server. */
export function databaseUrl(name: string): string {
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A fresh, unused name, so runs sharing a server never meet. */
export const uniqueName = (prefix: string) => `${prefix}_${randomBytes(6).toString('hex')}`;

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export const createDatabase = (name: string, template?: string) =>
  admin((c) => c.query(`create database ${quoteIdent(name)}${template ? ` template ${quoteIdent(template)}` : ''}`));

/** Marks a seeded database as a template nobody connects to (a connection would make copies fail). */
export const freezeTemplate = (name: string) =>
  admin((c) => c.query(`alter database ${quoteIdent(name)} with is_template true allow_connections false`));

/** Drops a database even if a leaked connection still holds it (the test is over either way). */
export const dropDatabase = (name: string) =>
  admin(async (c) => {
    await c.query(`alter database ${quoteIdent(name)} is_template false`).catch(() => {});
    await c.query(`drop database if exists ${quoteIdent(name)} with (force)`);
  });
