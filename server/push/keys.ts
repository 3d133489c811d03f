// The VAPID key pair every push is signed with, and whose public half browsers subscribe with. Set by
// environment (VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY) or created by the first process to need it and kept in
// `server_secrets`, like the CSRF secret (server/auth/secret.ts): a browser's subscription is bound to the
// public key it was made with, so a pair per process or per restart would silence every phone.
import { eq } from 'drizzle-orm';
import webPush from 'web-push';
import type { Db } from '../db/client';
import { serverSecrets } from '../db/schema/auth';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/** One row holds both halves, so two processes starting at once cannot keep halves of different pairs. */
const VAPID_ROW = 'vapid';

async function storedKeys(db: Db): Promise<VapidKeys> {
  const fresh = webPush.generateVAPIDKeys();
  await db
    .insert(serverSecrets)
    .values({ name: VAPID_ROW, value: `${fresh.publicKey}.${fresh.privateKey}` })
    .onConflictDoNothing();
  const [row] = await db.select({ value: serverSecrets.value }).from(serverSecrets).where(eq(serverSecrets.name, VAPID_ROW));
  const [publicKey = '', privateKey = ''] = row!.value.split('.');
  return { publicKey, privateKey };
}

/**
 * The pair, read once (the configured one, else the database's) and then kept; asked lazily, so building the
 * app stays synchronous. A failed read is tried again next time.
 */
export function vapidKeys(db: Db, configured: VapidKeys | null): () => Promise<VapidKeys> {
  let pending: Promise<VapidKeys> | null = configured === null ? null : Promise.resolve(configured);
  return () =>
    (pending ??= storedKeys(db).catch((err: unknown) => {
      pending = null;
      throw err;
    }));
}
