// Signing in with e-mail and password. Unknown e-mail and wrong password get the same answer after the same
// work, so the answer does not tell which e-mails exist; every attempt counts against the rate limit until
// one succeeds (then the count is reset).
import { recordAudit, type AuditActor } from '../audit/record';
import { transactionRetrying, type Db } from '../db/client';
import { upgradeHashIfOld } from './credentials';
import { verifyAgainstDummy, verifyPassword } from './password';
import { hit, reset, type RateLimit } from './rate-limit';
import { createSession, deleteSession, type IssuedTokens, type Lifetimes } from './sessions';
import { findLoginUser, hasAccessPolicy, institutionOf, recordSignIn } from './users';

export interface LoginAttempt {
  /** Trimmed and lower-cased. */
  email: string;
  password: string;
  ip: string | null;
  userAgent: string | null;
  /** The auth cookies the browser sent: the session they name is replaced. */
  previous: { access?: string; refresh?: string };
}

/** How the person proved who they are: the audit entry of the sign-in says which. */
export type SignInMethod = 'password' | 'sso' | 'invitation';

export type LoginOutcome =
  | { kind: 'throttled'; waitS: number }
  | { kind: 'invalid_credentials' }
  | { kind: 'policy_missing' }
  | { kind: 'signed_in'; userId: number; tokens: IssuedTokens };

export async function signIn(db: Db, limit: RateLimit, lifetimes: Lifetimes, attempt: LoginAttempt): Promise<LoginOutcome> {
  // Counted before the password check, so attempts sent at once cannot all pass it.
  const key = `${attempt.email}|${attempt.ip}`;
  const wait = await hit(db, limit, key, new Date());
  if (wait > 0) return { kind: 'throttled', waitS: wait };

  const user = await findLoginUser(db, attempt.email);
  // Same work and same answer whether or not the address exists.
  const ok = user ? await verifyPassword(attempt.password, user.passwordHash) : await verifyAgainstDummy(attempt.password);
  if (!user || !ok) {
    await recordFailedSignIn(db, { institutionId: null, ip: attempt.ip }, user, 'invalid_credentials');
    return { kind: 'invalid_credentials' };
  }
  await reset(db, limit, key);
  // A hash of an older cost is stored again at today's while the password is at hand (decision 0166).
  await upgradeHashIfOld(db, user.id, attempt.password, user.passwordHash);

  return openSession(db, lifetimes, user.id, { ...attempt, method: 'password' });
}

/**
 * A refused sign-in in the audit log. The address typed is never kept (decision 0261): an address that
 * names an account records that account's id and school; one that names none records only the caller's IP.
 */
export async function recordFailedSignIn(
  db: Db,
  where: { institutionId: number | null; ip: string | null },
  user: { id: number; institutionId: number } | null,
  reason: string,
  method: SignInMethod = 'password',
): Promise<void> {
  const actor: AuditActor = { institutionId: user?.institutionId ?? where.institutionId, actorUserId: null, ip: where.ip };
  await recordAudit(db, actor, {
    action: 'session.sign_in_failed',
    ...(user ? { subject: { kind: 'usuario' as const, id: user.id } } : {}),
    detail: { method, reason },
  });
}

/**
 * Signs in a user whose credentials were checked (a password, an invitation just accepted): refused
 * without the access policy, else this browser's session, replaced if it had one, and the sign-in noted.
 */
export async function openSession(
  db: Db,
  lifetimes: Lifetimes,
  userId: number,
  attempt: Pick<LoginAttempt, 'ip' | 'userAgent' | 'previous'> & { method: SignInMethod },
): Promise<Extract<LoginOutcome, { kind: 'policy_missing' | 'signed_in' }>> {
  const institutionId = await institutionOf(db, userId);
  if (!(await hasAccessPolicy(db, userId))) {
    await recordFailedSignIn(
      db,
      { institutionId, ip: attempt.ip },
      institutionId === null ? null : { id: userId, institutionId },
      'policy_missing',
      attempt.method,
    );
    return { kind: 'policy_missing' };
  }

  const tokens = await transactionRetrying(db, async (tx) => {
    // Signing in again from the same browser replaces its session instead of leaving the old one alive.
    await deleteSession(tx, attempt.previous);
    const issued = await createSession(tx, userId, lifetimes, { userAgent: attempt.userAgent, ip: attempt.ip });
    await recordSignIn(tx, userId);
    await recordAudit(
      tx,
      { institutionId, actorUserId: userId, ip: attempt.ip },
      {
        action: 'session.signed_in',
        subject: { kind: 'usuario', id: userId },
        detail: { method: attempt.method, session_id: issued.session.id },
      },
    );
    return issued;
  });
  return { kind: 'signed_in', userId, tokens };
}

/** Signing out: the browser's session ends, and the audit log notes whose it was (nothing when it had none). */
export async function signOut(db: Db, tokens: { access?: string; refresh?: string }, ip: string | null): Promise<void> {
  await transactionRetrying(db, async (tx) => {
    for (const ended of await deleteSession(tx, tokens)) {
      await recordAudit(
        tx,
        { institutionId: await institutionOf(tx, ended.userId), actorUserId: ended.userId, ip },
        {
          action: 'session.signed_out',
          subject: { kind: 'usuario', id: ended.userId },
          detail: { session_id: ended.id },
        },
      );
    }
  });
}
