// A signed-in user changes their password (decision 0168): the current one proves it is them and counts
// against the login limit like a sign-in (a stolen session must not become a way to guess it), the new one
// passes the rule, and every other session of the user ends; the one that asked stays.
import { and, eq, ne } from 'drizzle-orm';
import { passwordError } from '../../shared/password-rules';
import { setPassword } from '../auth/credentials';
import { verifyPassword } from '../auth/password';
import { hit, reset, type RateLimit } from '../auth/rate-limit';
import type { Db } from '../db/client';
import { sessions, users } from '../db/schema/auth';
import { institutions } from '../db/schema/institutions';

const CHANGE_MESSAGES = {
  wrongCurrent: 'La contraseña actual no es correcta.',
  same: 'La nueva contraseña debe ser distinta de la actual.',
} as const;

export interface PasswordChange {
  userId: number;
  /** The session that asks: it stays open. */
  sessionId: number;
  ip: string | null;
  current: string;
  password: string;
}

export type ChangeOutcome =
  | { kind: 'throttled'; waitS: number }
  | { kind: 'refused'; field: 'current_password' | 'password'; reason: string }
  | { kind: 'done' }
  | { kind: 'gone' };

export async function changePassword(db: Db, limit: RateLimit, change: PasswordChange): Promise<ChangeOutcome> {
  const [user] = await db
    .select({ email: users.email, name: users.name, hash: users.passwordHash, school: institutions.name })
    .from(users)
    .innerJoin(institutions, eq(institutions.id, users.institutionId))
    .where(eq(users.id, change.userId))
    .limit(1);
  // A signed-in user has a password; one without (invited again meanwhile) is no longer who signed in.
  if (!user || user.hash === null) return { kind: 'gone' };
  // The login's key: wrong current passwords and wrong sign-ins share one count.
  const key = `${user.email}|${change.ip}`;
  const wait = await hit(db, limit, key, new Date());
  if (wait > 0) return { kind: 'throttled', waitS: wait };
  if (!(await verifyPassword(change.current, user.hash))) {
    return { kind: 'refused', field: 'current_password', reason: CHANGE_MESSAGES.wrongCurrent };
  }
  await reset(db, limit, key);
  if (change.password === change.current) return { kind: 'refused', field: 'password', reason: CHANGE_MESSAGES.same };
  const reason = passwordError(change.password, { name: user.name, email: user.email, school: user.school });
  if (reason) return { kind: 'refused', field: 'password', reason };
  await setPassword(db, change.userId, change.password);
  await db.delete(sessions).where(and(eq(sessions.userId, change.userId), ne(sessions.id, change.sessionId)));
  return { kind: 'done' };
}
