// Invitations: an administrator invites one person or many (an account in state invited, without password,
// and a one-time link by e-mail, valid INVITATION_DAYS), resends (a new link; the old one stops working) or
// revokes it; the operators' command line invites (and re-invites) a school's first administrator the same
// way, with no user as the inviter. The person opens the link, sets a password by the shared rule and is
// signed in. Only the SHA-256 of a link's token is stored, like sessions' tokens.
import { and, eq, isNull, sql } from 'drizzle-orm';
import { ADMIN_ROLES, hasAnyRole, ROLE_CODES, ROLE_NAMES, type RoleCode } from '../../shared/codes';
import { PASSWORD_MESSAGES, passwordProblem } from '../../shared/password-rules';
import {
  INVITATION_DAYS,
  INVITE_MAX_PEOPLE,
  STAFF_DEVICES,
  STAFF_EMAIL_MAX,
  STAFF_NAME_MAX,
  type InvitationInfo,
  type InviteOutcome,
  type StaffDevice,
} from '../../shared/staff-contract';
import { hashPassword } from '../auth/password';
import { hashToken, newToken } from '../auth/tokens';
import { isUniqueViolation, transactionRetrying, type Db, type Queryable } from '../db/client';
import { userPolicies, userRoles, users } from '../db/schema/auth';
import { institutions } from '../db/schema/institutions';
import { invitations } from '../db/schema/staff';
import type { FieldErrors } from '../http/field-errors';
import { logoImage } from '../school-logo/logo';
import { recordChange, staffAuditActor, type ChangeScope } from './changes';
import { recordAudit } from '../audit/record';
import { addColleague } from './colleague';
import type { AccountMailer } from './mail';
import { ADMIN_POLICIES, BASE_POLICIES, grantSchoolChannels, scopeFor } from './policies';
import type { StaffScope } from './members';
import { STAFF_MESSAGES } from './texts';

/**
 * Who invites into which school: an administrator of it (the staff screen, a StaffScope), or no user at all
 * (`userId` null: the operators' command line, which has no account). Links and records keep the null.
 */
export type Inviter = ChangeScope;

// Deliberately loose, as the login's: "looks like an address"; the person's mailbox is the real check.
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const DAY_MS = 24 * 3600 * 1000;
const invitationExpiry = (now: Date): Date => new Date(now.getTime() + INVITATION_DAYS * DAY_MS);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isRole = (value: unknown): value is RoleCode => (ROLE_CODES as readonly unknown[]).includes(value);
export const isDevice = (value: unknown): value is StaffDevice => (STAFF_DEVICES as readonly unknown[]).includes(value);

interface Person {
  index: number;
  name: string;
  email: string;
  role: RoleCode;
  device: StaffDevice | null;
}

type Refusal = Extract<InviteOutcome, { outcome: 'refused' }>;

/** One person of the body, checked: the person, or why not (`email` as sent, trimmed, for the answer). */
function checkPerson(raw: unknown, index: number): Person | Refusal {
  const row = isObject(raw) ? raw : {};
  const email = typeof row.email === 'string' ? row.email.trim().toLowerCase() : '';
  const refuse = (field: Refusal['field'], reason: string): Refusal => ({ index, email, outcome: 'refused', field, reason });
  const name = typeof row.name === 'string' ? row.name.trim().replace(/\s+/g, ' ') : '';
  if (name === '') return refuse('name', STAFF_MESSAGES.name);
  if ([...name].length > STAFF_NAME_MAX) return refuse('name', STAFF_MESSAGES.nameLong);
  if (email === '') return refuse('email', STAFF_MESSAGES.email);
  if (email.length > STAFF_EMAIL_MAX) return refuse('email', STAFF_MESSAGES.emailLong);
  if (!EMAIL_RE.test(email)) return refuse('email', STAFF_MESSAGES.emailInvalid);
  if (!isRole(row.role)) return refuse('role', STAFF_MESSAGES.role);
  if (row.device !== undefined && row.device !== null && !isDevice(row.device)) return refuse('device', STAFF_MESSAGES.device);
  return { index, name, email, role: row.role, device: isDevice(row.device) ? row.device : null };
}

/** The body's people, or the field errors of a body that is not a list of people at all. */
export function parseInviteBody(body: unknown): { people: unknown[] } | { errors: FieldErrors } {
  const people = isObject(body) ? body.people : undefined;
  if (!Array.isArray(people) || people.length === 0) return { errors: { people: [STAFF_MESSAGES.people] } };
  if (people.length > INVITE_MAX_PEOPLE) return { errors: { people: [STAFF_MESSAGES.peopleMany] } };
  return { people };
}

/** The school as an invitation needs it: its name, country defaults and where its e-mails' dates are read. */
interface School {
  name: string;
  country: 'CL' | 'MX';
  domain: 'cl' | 'mx';
  locale: string;
  timezone: string;
  homeUrl: string;
}

async function schoolOf(db: Queryable, institutionId: number): Promise<School> {
  const [school] = await db
    .select({
      name: institutions.name,
      country: institutions.country,
      domain: institutions.domain,
      locale: institutions.locale,
      timezone: institutions.timezone,
      homeUrl: institutions.homeUrl,
    })
    .from(institutions)
    .where(eq(institutions.id, institutionId));
  if (!school) throw new Error(`La institución ${institutionId} no existe`);
  return school;
}

/** The inviter's name for the e-mail; null for no one (the command line), which the e-mail words apart. */
async function nameOf(db: Queryable, userId: number | null): Promise<string | null> {
  if (userId === null) return null;
  const [row] = await db.select({ name: users.name }).from(users).where(eq(users.id, userId));
  return row?.name ?? 'La administración';
}

/** Ends every link of the user still open (not used, not revoked); returns their ids. */
async function revokeOpenInvitations(db: Queryable, userId: number, now: Date): Promise<number[]> {
  const revoked = await db
    .update(invitations)
    .set({ revokedAt: now })
    .where(and(eq(invitations.userId, userId), isNull(invitations.usedAt), isNull(invitations.revokedAt)))
    .returning({ id: invitations.id });
  return revoked.map((r) => r.id);
}

/** A new link for the user; the token itself only leaves in the e-mail. */
async function issueInvitation(
  db: Queryable,
  scope: Inviter,
  userId: number,
  now: Date,
): Promise<{ id: number; token: string; expiresAt: Date }> {
  const token = newToken();
  const expiresAt = invitationExpiry(now);
  const [row] = await db
    .insert(invitations)
    .values({ institutionId: scope.institutionId, userId, tokenHash: hashToken(token), createdBy: scope.userId, createdAt: now, expiresAt })
    .returning({ id: invitations.id });
  return { id: row!.id, token, expiresAt };
}

/** The account of an invited person, their role, policies and link, and the record of it. */
async function createInvited(db: Queryable, scope: Inviter, school: School, person: Person, now: Date) {
  return db.transaction(async (tx) => {
    const device = person.device ?? (school.country === 'CL' ? 'cl' : 'latam');
    const [user] = await tx
      .insert(users)
      .values({
        institutionId: scope.institutionId,
        email: person.email,
        passwordHash: null,
        name: person.name,
        device,
        domain: school.domain,
        scope: scopeFor([person.role]),
        options: { url: { home: school.homeUrl } },
        status: 'invited',
      })
      .returning({ id: users.id });
    const userId = user!.id;
    await tx.insert(userRoles).values({ userId, code: person.role, name: ROLE_NAMES[person.role] });
    const policies = hasAnyRole([person.role], ADMIN_ROLES) ? [...BASE_POLICIES, ...ADMIN_POLICIES] : BASE_POLICIES;
    await tx.insert(userPolicies).values(policies.map((name) => ({ userId, name })));
    await grantSchoolChannels(tx, scope.institutionId, userId, [person.role]);
    await addColleague(tx, { institutionId: scope.institutionId, userId, name: person.name, email: person.email, role: person.role });
    const invitation = await issueInvitation(tx, scope, userId, now);
    await recordChange(tx, {
      institutionId: scope.institutionId,
      subjectUserId: userId,
      actorUserId: scope.userId,
      action: 'invited',
      detail: { invitation_id: invitation.id, role: person.role, device },
    });
    await recordAudit(tx, staffAuditActor(scope), {
      action: 'staff.invited',
      subject: { kind: 'usuario', id: userId },
      detail: { invitation_id: invitation.id, roles_after: [person.role], device },
    });
    return { userId, ...invitation, device };
  });
}

/** What an existing account with this e-mail means for an invitation: a member here, or an account elsewhere. */
async function existingOutcome(db: Queryable, scope: Inviter, person: Person): Promise<InviteOutcome | null> {
  const [user] = await db.select({ id: users.id, institutionId: users.institutionId }).from(users).where(eq(users.email, person.email));
  if (!user) return null;
  if (user.institutionId === scope.institutionId) return { index: person.index, email: person.email, outcome: 'member', id: user.id };
  return { index: person.index, email: person.email, outcome: 'refused', field: 'email', reason: STAFF_MESSAGES.emailElsewhere };
}

/**
 * Invites `people` (already a list, parseInviteBody) into the administrator's school; one outcome per person,
 * in their order. Each account is its own transaction, so one bad row never loses the others; the e-mails
 * go out after their account is written.
 */
export async function invite(
  db: Db,
  scope: Inviter,
  people: readonly unknown[],
  mailer: AccountMailer,
  now = new Date(),
): Promise<InviteOutcome[]> {
  const school = await schoolOf(db, scope.institutionId);
  const inviter = await nameOf(db, scope.userId);
  const logo = await logoImage(db, scope.institutionId);
  const seen = new Set<string>();
  const outcomes: InviteOutcome[] = [];
  for (const [index, raw] of people.entries()) {
    const person = checkPerson(raw, index);
    if ('outcome' in person) {
      outcomes.push(person);
      continue;
    }
    if (seen.has(person.email)) {
      outcomes.push({ index, email: person.email, outcome: 'refused', field: 'email', reason: STAFF_MESSAGES.emailRepeated });
      continue;
    }
    seen.add(person.email);
    const existing = await existingOutcome(db, scope, person);
    if (existing) {
      outcomes.push(existing);
      continue;
    }
    let created: Awaited<ReturnType<typeof createInvited>>;
    try {
      created = await createInvited(db, scope, school, person, now);
    } catch (err) {
      // Someone took the address between the look-up and the insert (emails are unique across schools).
      if (!isUniqueViolation(err)) throw err;
      const taken = await existingOutcome(db, scope, person);
      if (!taken) throw err;
      outcomes.push(taken);
      continue;
    }
    const mailSent = await mailer.sendInvitation({
      to: person.email,
      name: person.name,
      school: school.name,
      inviter,
      token: created.token,
      expiresAt: created.expiresAt,
      locale: school.locale,
      timezone: school.timezone,
      logo,
    });
    outcomes.push({
      index,
      email: person.email,
      outcome: 'invited',
      id: created.userId,
      expires_at: created.expiresAt.toISOString(),
      mail_sent: mailSent,
    });
  }
  return outcomes;
}

export type InvitationChange =
  | { kind: 'not_found' }
  | { kind: 'not_invited' }
  | { kind: 'no_pending' }
  /** `mailSent` and `expiresAt` of the new link after a resend; null after a revocation. */
  | { kind: 'done'; mailSent: boolean | null; expiresAt: Date | null };

/** The user of the school `scope` with `userId`, locked for this change, with what an invitation needs. */
async function lockedAccount(db: Queryable, scope: Inviter, userId: number) {
  const [user] = await db
    .select({ id: users.id, name: users.name, email: users.email, status: users.status })
    .from(users)
    .where(and(eq(users.institutionId, scope.institutionId), eq(users.id, userId)))
    .for('update');
  return user ?? null;
}

/** A new link for an invited person, by e-mail; every earlier link stops working. */
export async function resendInvitation(
  db: Db,
  scope: Inviter,
  userId: number,
  mailer: AccountMailer,
  now = new Date(),
): Promise<InvitationChange> {
  const outcome = await transactionRetrying(db, async (tx) => {
    const user = await lockedAccount(tx, scope, userId);
    if (!user) return { kind: 'not_found' } as const;
    if (user.status !== 'invited') return { kind: 'not_invited' } as const;
    const revoked = await revokeOpenInvitations(tx, userId, now);
    const invitation = await issueInvitation(tx, scope, userId, now);
    await recordChange(tx, {
      institutionId: scope.institutionId,
      subjectUserId: userId,
      actorUserId: scope.userId,
      action: 'invitation.resent',
      detail: { invitation_id: invitation.id, revoked_invitation_ids: revoked },
    });
    return { kind: 'issued', user, invitation } as const;
  });
  if (outcome.kind !== 'issued') return outcome;
  const school = await schoolOf(db, scope.institutionId);
  const mailSent = await mailer.sendInvitation({
    to: outcome.user.email,
    name: outcome.user.name,
    school: school.name,
    inviter: await nameOf(db, scope.userId),
    token: outcome.invitation.token,
    expiresAt: outcome.invitation.expiresAt,
    locale: school.locale,
    timezone: school.timezone,
    logo: await logoImage(db, scope.institutionId),
  });
  return { kind: 'done', mailSent, expiresAt: outcome.invitation.expiresAt };
}

/** Ends an invited person's open link; they stay invited, and «Reenviar» sends a new one. */
export async function revokeInvitation(db: Db, scope: StaffScope, userId: number, now = new Date()): Promise<InvitationChange> {
  return transactionRetrying(db, async (tx) => {
    const user = await lockedAccount(tx, scope, userId);
    if (!user) return { kind: 'not_found' } as const;
    if (user.status !== 'invited') return { kind: 'not_invited' } as const;
    const revoked = await revokeOpenInvitations(tx, userId, now);
    if (revoked.length === 0) return { kind: 'no_pending' } as const;
    await recordChange(tx, {
      institutionId: scope.institutionId,
      subjectUserId: userId,
      actorUserId: scope.userId,
      action: 'invitation.revoked',
      detail: { invitation_ids: revoked },
    });
    return { kind: 'done', mailSent: null, expiresAt: null } as const;
  });
}

/** Why a link cannot be used; `unknown` for a token that is no one's. */
export type UnusableLink = 'unknown' | 'expired' | 'used' | 'revoked';

interface LinkRow {
  id: number;
  userId: number;
  institutionId: number;
  expiresAt: Date;
  usedAt: Date | null;
  revokedAt: Date | null;
  status: 'invited' | 'active' | 'deactivated';
  name: string;
  email: string;
  school: string;
}

async function findLink(db: Queryable, token: string): Promise<LinkRow | null> {
  const [row] = await db
    .select({
      id: invitations.id,
      userId: invitations.userId,
      institutionId: invitations.institutionId,
      expiresAt: invitations.expiresAt,
      usedAt: invitations.usedAt,
      revokedAt: invitations.revokedAt,
      status: users.status,
      name: users.name,
      email: users.email,
      school: institutions.name,
    })
    .from(invitations)
    .innerJoin(users, eq(users.id, invitations.userId))
    .innerJoin(institutions, eq(institutions.id, invitations.institutionId))
    .where(eq(invitations.tokenHash, hashToken(token)))
    .limit(1);
  return row ?? null;
}

/** A link's standing: usable, or why not. Used before revoked: a person who set their password is told to sign in. */
function linkProblem(link: LinkRow | null, now: Date): UnusableLink | null {
  if (!link) return 'unknown';
  if (link.usedAt !== null) return 'used';
  if (link.revokedAt !== null || link.status !== 'invited') return 'revoked';
  if (link.expiresAt <= now) return 'expired';
  return null;
}

/** A token as it arrives in a path: ours are 43 base64url characters; anything else is no one's. */
const isTokenShape = (token: string): boolean => /^[A-Za-z0-9_-]{20,100}$/.test(token);

/** Who a link invites (for the invitation page's greeting), or why it cannot be used. */
export async function readInvitation(
  db: Queryable,
  token: string,
  now = new Date(),
): Promise<{ kind: 'ok'; info: InvitationInfo } | { kind: UnusableLink }> {
  const link = isTokenShape(token) ? await findLink(db, token) : null;
  const problem = linkProblem(link, now);
  if (problem !== null || !link) return { kind: problem ?? 'unknown' };
  return { kind: 'ok', info: { name: link.name, email: link.email, school: link.school, expires_at: link.expiresAt.toISOString() } };
}

export type Acceptance = { kind: UnusableLink } | { kind: 'invalid'; errors: FieldErrors } | { kind: 'accepted'; userId: number };

/** The password field as sent: a string of reasonable size, or its Spanish error (the rule comes after). */
function passwordInput(body: unknown): string | FieldErrors {
  const password = isObject(body) ? body.password : undefined;
  if (typeof password !== 'string' || password === '') return { password: [STAFF_MESSAGES.password] };
  // Far past the rule's maximum: refused before the rule spends any work on it.
  if (password.length > 1024) return { password: [STAFF_MESSAGES.passwordLong] };
  return password;
}

/** Thrown inside the acceptance's transaction to undo it when the link changed since it was read. */
class StaleLink extends Error {}

/**
 * Sets the invited person's password (the shared rule, knowing their name, e-mail and school), uses up the
 * link and activates the account, all or nothing: two tabs sending the form at once activate it once.
 */
export async function acceptInvitation(db: Db, token: string, body: unknown, now = new Date()): Promise<Acceptance> {
  const link = isTokenShape(token) ? await findLink(db, token) : null;
  const problem = linkProblem(link, now);
  if (problem !== null || !link) return { kind: problem ?? 'unknown' };
  const password = passwordInput(body);
  if (typeof password !== 'string') return { kind: 'invalid', errors: password };
  const rule = passwordProblem(password, { name: link.name, email: link.email, school: link.school });
  if (rule !== null) return { kind: 'invalid', errors: { password: [PASSWORD_MESSAGES[rule]] } };
  const passwordHash = await hashPassword(password);
  return transactionRetrying(db, async (tx) => {
    const [used] = await tx
      .update(invitations)
      .set({ usedAt: now })
      .where(
        and(eq(invitations.id, link.id), isNull(invitations.usedAt), isNull(invitations.revokedAt), sql`${invitations.expiresAt} > ${now}`),
      )
      .returning({ id: invitations.id });
    const [activated] = used
      ? await tx
          .update(users)
          .set({ passwordHash, status: 'active' })
          .where(and(eq(users.id, link.userId), eq(users.status, 'invited')))
          .returning({ id: users.id })
      : [];
    // Something changed since the look-up (a second tab, a revocation, the clock): nothing is kept.
    if (!used || !activated) throw new StaleLink();
    await recordChange(tx, {
      institutionId: link.institutionId,
      subjectUserId: link.userId,
      actorUserId: link.userId,
      action: 'invitation.accepted',
      detail: { invitation_id: link.id },
    });
    return { kind: 'accepted', userId: link.userId } as const;
  }).catch(async (err: unknown) => {
    if (!(err instanceof StaleLink)) throw err;
    return { kind: linkProblem(await findLink(db, token), now) ?? 'used' } as const;
  });
}
