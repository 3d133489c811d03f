// Signing in with e-mail and password. Unknown e-mail and wrong password get the same answer after the same
// work, so the answer does not tell which e-mails exist; every attempt counts against the rate limit until
// one succeeds (then the count is reset).
import type { Db } from '../db/client';
import { verifyAgainstDummy, verifyPassword } from './password';
import { hit, reset, type RateLimit } from './rate-limit';
import { createSession, deleteSession, type IssuedTokens, type Lifetimes } from './sessions';
import { findLoginUser, hasAccessPolicy, recordSignIn } from './users';

export interface LoginAttempt {
  /** Trimmed and lower-cased. */
  email: string;
  password: string;
  ip: string | null;
  userAgent: string | null;
  /** The auth cookies the browser sent: the session they name is replaced. */
  previous: { access?: string; refresh?: string };
}

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
  if (!user || !ok) return { kind: 'invalid_credentials' };
  await reset(db, limit, key);

  return openSession(db, lifetimes, user.id, attempt);
}

/**
 * Signs in a user whose credentials were checked (a password, an invitation just accepted): refused
 * without the access policy, else this browser's session, replaced if it had one, and the sign-in noted.
 */
export async function openSession(
  db: Db,
  lifetimes: Lifetimes,
  userId: number,
  attempt: Pick<LoginAttempt, 'ip' | 'userAgent' | 'previous'>,
): Promise<Extract<LoginOutcome, { kind: 'policy_missing' | 'signed_in' }>> {
  if (!(await hasAccessPolicy(db, userId))) return { kind: 'policy_missing' };

  // Signing in again from the same browser replaces its session instead of leaving the old one alive.
  await deleteSession(db, attempt.previous);
  const tokens = await createSession(db, userId, lifetimes, { userAgent: attempt.userAgent, ip: attempt.ip });
  await recordSignIn(db, userId);
  return { kind: 'signed_in', userId, tokens };
}
