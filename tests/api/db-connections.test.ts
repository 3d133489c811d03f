// PostgreSQL ends connections by itself: a restart, a failover, an administrator's pg_terminate_backend, an
// idle timeout. node-postgres reports an idle pooled connection that ends as an 'error' event on the pool,
// which, with nobody listening, is thrown and stops the process. The server must lose only that connection.
// PostgreSQL only: PGlite runs inside the process and has no connections to lose.
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { one } from './support/compose';
import { onPostgres, PG_ADMIN_URL } from './support/pg';
import { startServer, type TestServer } from './support/server';

describe.runIf(onPostgres)('connections the database ends', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('an idle connection ended by the server does not stop the app; the next request opens another', async () => {
    const admin = server.client();
    expect((await admin.login('administrador@sanandres.cl')).status).toBe(200);
    const { name } = await one<{ name: string }>(server.db, sql`select current_database() as name`);

    const dba = new pg.Client({ connectionString: PG_ADMIN_URL });
    await dba.connect();
    try {
      const ended = await dba.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [name]);
      expect(ended.rowCount).toBeGreaterThan(0);
    } finally {
      await dba.end();
    }
    // The pool hears of it asynchronously; give the event time to arrive (and, unheard, to crash the worker).
    await new Promise((resolve) => setTimeout(resolve, 300));

    expect((await admin.get('/api/messages?folder=inbox')).status).toBe(200);
  });
});
