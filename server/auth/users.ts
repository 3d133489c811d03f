// The signed-in user as the SPA reads them (`GET /user`, contract `SignedInUser`) and their policies
// (`GET /institution-policies`); and the two facts signing in asks of a user row.
import { and, asc, eq } from 'drizzle-orm';
import { ACCESS_POLICY, type SignedInUser } from '../../shared/contract';
import { ADMIN_ROLES, type RoleCode } from '../../shared/codes';
import type { Db, Queryable } from '../db/client';
import { userPolicies, userRoles, users } from '../db/schema/auth';
import { institutions, schoolLogos } from '../db/schema/institutions';
import { logoUrl } from '../school-logo/logo';

/**
 * The user an e-mail signs in as (its password hash to check), or null: also for an invited user (no
 * password yet) and a deactivated one, so that they get the answer of an unknown address.
 */
export async function findLoginUser(db: Db, email: string): Promise<{ id: number; institutionId: number; passwordHash: string } | null> {
  const [user] = await db
    .select({ id: users.id, institutionId: users.institutionId, passwordHash: users.passwordHash })
    .from(users)
    .where(and(eq(users.email, email), eq(users.status, 'active')))
    .limit(1);
  return user?.passwordHash ? { id: user.id, institutionId: user.institutionId, passwordHash: user.passwordHash } : null;
}

/** The user's school; null when the user is gone. */
export async function institutionOf(db: Queryable, userId: number): Promise<number | null> {
  const [user] = await db.select({ institutionId: users.institutionId }).from(users).where(eq(users.id, userId)).limit(1);
  return user?.institutionId ?? null;
}

/** Notes a successful sign-in (the staff list's «último ingreso»). */
export async function recordSignIn(db: Queryable, userId: number, now = new Date()): Promise<void> {
  await db.update(users).set({ lastSignInAt: now }).where(eq(users.id, userId));
}

/** Whether the user holds `hermes-acceder-sistema`, without which Hermes refuses the sign-in. */
export async function hasAccessPolicy(db: Db, userId: number): Promise<boolean> {
  const [access] = await db
    .select({ name: userPolicies.name })
    .from(userPolicies)
    .where(and(eq(userPolicies.userId, userId), eq(userPolicies.name, ACCESS_POLICY)))
    .limit(1);
  return access !== undefined;
}

/** The user's policy names, alphabetical. */
export async function policyNames(db: Db, userId: number): Promise<string[]> {
  const rows = await db
    .select({ name: userPolicies.name })
    .from(userPolicies)
    .where(eq(userPolicies.userId, userId))
    .orderBy(asc(userPolicies.name));
  return rows.map((r) => r.name);
}

export async function loadSignedInUser(db: Db, userId: number): Promise<SignedInUser | null> {
  const [row] = await db
    .select({ user: users, institution: institutions, logoHash: schoolLogos.hash })
    .from(users)
    .innerJoin(institutions, eq(institutions.id, users.institutionId))
    .leftJoin(schoolLogos, eq(schoolLogos.institutionId, users.institutionId))
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) return null;
  const roles = await db
    .select({ codigo: userRoles.code, nombre: userRoles.name })
    .from(userRoles)
    .where(eq(userRoles.userId, userId))
    .orderBy(asc(userRoles.code));
  const { user, institution, logoHash } = row;
  const signedIn: SignedInUser = {
    id: user.id,
    email: user.email,
    roles,
    person: { name: user.name },
    institution: {
      id: institution.id,
      desc: institution.name,
      locale: institution.locale,
      timezone: institution.timezone,
      country: institution.country,
      ...(logoHash ? { logo_url: logoUrl(logoHash) } : {}),
    },
    device: user.device,
    options: user.options,
    scope: user.scope,
    domain: user.domain,
  };
  if (user.domain === 'cl') {
    const isAdmin = roles.some((r) => ADMIN_ROLES.includes(r.codigo as RoleCode));
    signedIn.zendesk_info = {
      name: user.name,
      email: user.email,
      organization: institution.name,
      tags: ['hermes', institution.country.toLowerCase(), ...roles.map((r) => r.codigo)],
      isChatEnabled: institution.chatEnabled && isAdmin,
    };
  }
  return signedIn;
}
