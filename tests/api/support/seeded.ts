import type { SQL } from 'drizzle-orm';
import { afterAll, beforeAll } from 'vitest';
import type { Db } from '../../../server/db/client';
import { rowsOf } from '../../../server/db/sql';
import { openSeededCopy } from './server';

/**
 * A private copy of the seeded database for the calling file's tests, opened before them and disposed after:
 * `db()` for the ORM and `rows(sql…)` for the test's own SQL.
 */
export function withSeededCopy(): { db: () => Db; rows: <T>(query: SQL) => Promise<T[]> } {
  let db: Db | undefined;
  let dispose: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const copy = await openSeededCopy();
    db = copy.handle.db;
    dispose = copy.dispose;
  });
  afterAll(async () => {
    await dispose?.();
  });
  const open = (): Db => {
    if (!db) throw new Error('the seeded copy is opened before the tests');
    return db;
  };
  return { db: open, rows: async <T>(query: SQL) => rowsOf<T>(await open().execute(query)) };
}
