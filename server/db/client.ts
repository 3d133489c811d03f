// One way to open the database, whichever engine backs it: PGlite (embedded, a directory on disk) by
// default, or a real Postgres through node-postgres when DATABASE_URL is set. Both speak the same SQL and
// run the same drizzle-kit migrations, so the rest of the server only sees `Db`.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { PgTransaction, type PgDatabase, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import type { Logger } from '../log';

export type Db = PgDatabase<PgQueryResultHKT>;
type Tx = PgTransaction<PgQueryResultHKT>;
/** Anything that can run queries: the database or an open transaction. */
export type Queryable = Db | Tx;

/**
 * Independent reads, started together on the pool (each on its own connection); in a transaction, one
 * after another: its one connection runs one query at a time, and node-postgres deprecates overlapping
 * queries on a client (its next major refuses them).
 */
export async function readTogether<T extends readonly unknown[]>(
  db: Queryable,
  reads: { [K in keyof T]: () => PromiseLike<T[K]> },
): Promise<T> {
  if (!(db instanceof PgTransaction)) return (await Promise.all(reads.map((read) => read()))) as unknown as T;
  const results: unknown[] = [];
  for (const read of reads) results.push(await read());
  return results as unknown as T;
}

/**
 * SQLSTATEs of a transaction PostgreSQL ended so that another could go on (deadlock, serialization
 * failure): nothing of it was written, so running it again is safe. PGlite, one query at a time, never
 * raises them.
 */
const CONFLICT_STATES = new Set(['40P01', '40001']);
const CONFLICT_ATTEMPTS = 3;

/** The SQLSTATE of a conflict anywhere in an error's cause chain (Drizzle wraps the driver's error), else null. */
function conflictState(err: unknown): string | null {
  for (let e: unknown = err, depth = 0; typeof e === 'object' && e !== null && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && CONFLICT_STATES.has(code)) return code;
  }
  return null;
}

/** Whether a unique index refused the write (SQLSTATE 23505 anywhere in the error's cause chain). */
export function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

/**
 * `db.transaction(fn)`, run again (up to 3 times in all, after a short random pause) when PostgreSQL ends
 * it as a deadlock or serialization victim. A backstop: writers of reception state lock in one order
 * (server/reception/status.ts) and should never meet one. Inside a caller's transaction it is a savepoint
 * and is not retried: the caller's earlier work holds locks only the caller can give back.
 */
export async function transactionRetrying<T>(db: Queryable, fn: (tx: Queryable) => Promise<T>, logger?: Logger): Promise<T> {
  if (db instanceof PgTransaction) return db.transaction((tx) => fn(tx));
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(fn);
    } catch (err) {
      const state = conflictState(err);
      if (state === null || attempt >= CONFLICT_ATTEMPTS) throw err;
      logger?.info(
        `Base de datos: transacción interrumpida por un conflicto (${state}), se reintenta (intento ${attempt + 1} de ${CONFLICT_ATTEMPTS})`,
      );
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * attempt));
    }
  }
}

/**
 * PGlite's buffer cache, resident in the process from the start (PostgreSQL's default, 128 MB, is a
 * quarter of a busy server's memory). The operating system caches the files too, so a smaller pool costs
 * a read call where a hit would have been, not a disk read.
 */
const PGLITE_SHARED_BUFFERS = '32MB';

/** What pg-boss needs to run its SQL on this database (its `db` option). */
interface BossDb {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

export interface DbHandle {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** PGlite: pg-boss shares the one embedded session; Postgres: pg-boss opens its own pool from this URL. */
  queue: { kind: 'pglite'; db: BossDb } | { kind: 'postgres'; connectionString: string };
  /** Applies pending migrations from server/db/migrations (idempotent). */
  migrate(): Promise<void>;
  close(): Promise<void>;
}

export interface OpenDbOptions {
  /** PGlite data directory; ignored when `databaseUrl` is set. */
  dataDir?: string;
  databaseUrl?: string;
  /** Told when PostgreSQL ends an idle connection. */
  logger?: Logger;
}

export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations', import.meta.url));

export const DEFAULT_DATA_DIR = './data/pglite';

export async function openDb(options: OpenDbOptions = {}): Promise<DbHandle> {
  const databaseUrl = options.databaseUrl ?? (process.env.DATABASE_URL || undefined);
  if (databaseUrl) {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
    // PostgreSQL ends connections by itself (a restart, a failover, pg_terminate_backend, an idle timeout).
    // node-postgres reports an idle one's end as an 'error' on the pool, which nobody listening turns into
    // an uncaught exception that stops the process; the pool has already dropped it and opens another.
    pool.on('error', (err) => options.logger?.error('Base de datos: terminó una conexión inactiva; se abrirá otra', err));
    // Fail at start-up rather than on the first request when the URL is wrong.
    const probe = await pool.connect();
    probe.release();
    const db = drizzlePg(pool);
    return {
      db,
      kind: 'postgres',
      queue: { kind: 'postgres', connectionString: databaseUrl },
      migrate: () => migratePg(db, { migrationsFolder: MIGRATIONS_DIR }),
      close: () => pool.end(),
    };
  }

  const dataDir = options.dataDir ?? process.env.HERMES_DATA_DIR ?? DEFAULT_DATA_DIR;
  mkdirSync(dataDir, { recursive: true });
  const client = await PGlite.create(dataDir, {
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
  });
  const db = drizzlePglite(client);
  let closed = false;
  return {
    db,
    kind: 'pglite',
    queue: {
      kind: 'pglite',
      db: {
        // pg-boss sends its migrations as one multi-statement string without parameters, which only
        // `exec` runs; everything else is a single parameterised statement. Both wait for any open
        // transaction of the app (PGlite runs one at a time).
        async executeSql(text, values) {
          if (values && values.length > 0) return client.query(text, values);
          const results = await client.exec(text);
          return results[results.length - 1] ?? { rows: [] };
        },
      },
    },
    migrate: () => migratePglite(db, { migrationsFolder: MIGRATIONS_DIR }),
    // PGlite must be closed to flush its files; a second close would throw.
    close: async () => {
      if (closed) return;
      closed = true;
      await client.close();
    },
  };
}
