// "¿Olvidaste tu contraseña?": a link by e-mail that sets a new password once, within an hour (decision 0167).
// Asking never tells whether the address has an account: the route answers the same at once, and the work
// that depends on the address (the lookup, the link, the e-mail) happens after the answer, here.
// Using a link ends every session of the user and voids their other links; it signs nobody in.
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { passwordError } from '../../shared/password-rules';
import { RESET_LINK_TTL_MS, resetPasswordPath, type ResetOwner } from '../../shared/passwords-contract';
import { hashPassword } from '../auth/password';
import { hashToken, newToken } from '../auth/tokens';
import { findLoginUser, hasAccessPolicy } from '../auth/users';
import type { Db } from '../db/client';
import { sessions, users } from '../db/schema/auth';
import { institutions } from '../db/schema/institutions';
import { passwordResets } from '../db/schema/passwords';
import { mailWithLogo } from '../school-logo/logo-html';
import type { Mailer } from '../mail/transport';
import { logoImage } from '../school-logo/logo';
import { resetMail } from './mail';

/**
 * Sends a reset link to `email` when it is an active user's (one who may sign in); otherwise does nothing,
 * which nobody outside can tell. `publicUrl` is this server as the user's browser reaches it.
 */
export async function sendResetLink(db: Db, mailer: Mailer, publicUrl: string, email: string, now = new Date()): Promise<boolean> {
  const user = await findLoginUser(db, email);
  if (!user || !(await hasAccessPolicy(db, user.id))) return false;
  const [person] = await db
    .select({ name: users.name, email: users.email, institutionId: users.institutionId, school: institutions.name })
    .from(users)
    .innerJoin(institutions, eq(institutions.id, users.institutionId))
    .where(eq(users.id, user.id))
    .limit(1);
  if (!person) return false;
  const token = newToken();
  await db.insert(passwordResets).values({
    userId: user.id,
    tokenHash: hashToken(token),
    createdAt: now,
    expiresAt: new Date(now.getTime() + RESET_LINK_TTL_MS),
  });
  const mail = resetMail({ to: person.email, name: person.name, link: `${publicUrl}${resetPasswordPath(token)}` });
  await mailer.send(mailWithLogo(mail, person.school, await logoImage(db, person.institutionId)));
  return true;
}

export type ResetLinkState =
  | { kind: 'invalid' | 'expired' | 'used' }
  | { kind: 'valid'; resetId: number; userId: number; owner: ResetOwner };

/** What a link's token is now: unknown, expired, used, or good for the person it names. */
export async function checkResetLink(db: Db, token: string, now = new Date()): Promise<ResetLinkState> {
  const [row] = await db
    .select({
      resetId: passwordResets.id,
      userId: passwordResets.userId,
      expiresAt: passwordResets.expiresAt,
      usedAt: passwordResets.usedAt,
      name: users.name,
      email: users.email,
      school: institutions.name,
    })
    .from(passwordResets)
    .innerJoin(users, eq(users.id, passwordResets.userId))
    .innerJoin(institutions, eq(institutions.id, users.institutionId))
    .where(eq(passwordResets.tokenHash, hashToken(token)))
    .limit(1);
  if (!row) return { kind: 'invalid' };
  if (row.usedAt) return { kind: 'used' };
  if (row.expiresAt.getTime() <= now.getTime()) return { kind: 'expired' };
  return { kind: 'valid', resetId: row.resetId, userId: row.userId, owner: { name: row.name, email: row.email, school: row.school } };
}

export type ResetOutcome =
  | { kind: 'invalid' | 'expired' | 'used' }
  | { kind: 'refused'; reason: string }
  | { kind: 'done'; userId: number };

/** Sets the password a link was sent for: the rule first, then, at once, the link used and every session ended. */
export async function redeemResetLink(db: Db, token: string, password: string, now = new Date()): Promise<ResetOutcome> {
  const link = await checkResetLink(db, token, now);
  if (link.kind !== 'valid') return link;
  const reason = passwordError(password, link.owner);
  if (reason) return { kind: 'refused', reason };
  // Hashed before the transaction: it takes a third of a second and needs no row.
  const hash = await hashPassword(password);
  const done = await db.transaction(async (tx) => {
    // Claimed in one UPDATE, so the same link sent twice at once sets one password.
    const claimed = await tx
      .update(passwordResets)
      .set({ usedAt: now })
      .where(and(eq(passwordResets.id, link.resetId), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now)))
      .returning({ id: passwordResets.id });
    if (claimed.length === 0) return false;
    // The user's other links die with this one: whoever else reads that mailbox cannot set it again.
    await tx
      .update(passwordResets)
      .set({ usedAt: now })
      .where(and(eq(passwordResets.userId, link.userId), isNull(passwordResets.usedAt)));
    await tx.update(users).set({ passwordHash: hash }).where(eq(users.id, link.userId));
    await tx.delete(sessions).where(eq(sessions.userId, link.userId));
    return true;
  });
  if (!done) return { kind: (await checkResetLink(db, token, now)).kind === 'expired' ? 'expired' : 'used' };
  return { kind: 'done', userId: link.userId };
}

/** The hourly clean-up: links that expired a day ago are of no use, even to say "expired". */
export async function deleteOldResetLinks(db: Db, now = new Date()): Promise<number> {
  const deleted = await db
    .delete(passwordResets)
    .where(sql`${passwordResets.expiresAt} < ${new Date(now.getTime() - 24 * 3600_000).toISOString()}::timestamptz`)
    .returning({ id: passwordResets.id });
  return deleted.length;
}
