// The first administrator is signed in as setup finishes, as a login does, and on the record as one: the
// session and its audit entry in one transaction.
import { recordAudit } from '../audit/record';
import { createSession, type IssuedTokens, type Lifetimes } from '../auth/sessions';
import type { Db } from '../db/client';

export async function openSetupSession(
  db: Db,
  lifetimes: Lifetimes,
  first: { userId: number; institutionId: number },
  meta: { userAgent: string | null; ip: string },
): Promise<IssuedTokens> {
  return db.transaction(async (tx) => {
    const issued = await createSession(tx, first.userId, lifetimes, meta);
    await recordAudit(
      tx,
      { institutionId: first.institutionId, actorUserId: first.userId, ip: meta.ip },
      {
        action: 'session.signed_in',
        subject: { kind: 'usuario', id: first.userId },
        detail: { method: 'setup', session_id: issued.session.id },
      },
    );
    return issued;
  });
}
