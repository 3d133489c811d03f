// The server secret the CSRF tokens are signed with. HERMES_SECRET when set; otherwise a random one kept in
// the database: the first server to start writes it, and every server and worker on that database reads the
// same one, so a token handed out by one server is good on the others and survives restarts. A secret per
// process would make tokens fail behind a load balancer; a known default would let anyone forge them.
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { serverSecrets } from '../db/schema/auth';

const XSRF_SECRET = 'xsrf';

/** The database's secret, created on first use; concurrent first starts agree on the one inserted first. */
async function storedSecret(db: Db, name = XSRF_SECRET): Promise<string> {
  await db
    .insert(serverSecrets)
    .values({ name, value: randomBytes(32).toString('base64url') })
    .onConflictDoNothing();
  const [row] = await db.select({ value: serverSecrets.value }).from(serverSecrets).where(eq(serverSecrets.name, name));
  return row!.value;
}

/**
 * The secret, read once (HERMES_SECRET, else the database's) and then kept. Asked lazily by the first
 * request that needs it, so building the app stays synchronous; a failed read is tried again next time.
 */
export function serverSecret(db: Db, configured: string | null): () => Promise<string> {
  let pending: Promise<string> | null = configured === null ? null : Promise.resolve(configured);
  return () =>
    (pending ??= storedSecret(db).catch((err: unknown) => {
      pending = null;
      throw err;
    }));
}
