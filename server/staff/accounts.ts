// Changes an administrator makes to a colleague's account: roles and device, deactivation (they cannot sign
// in and their sessions end at once; what they wrote and own stays) and reactivation. A school keeps an active
// administrator, and an administrator keeps their own admin role and account. Every staff change of a school
// runs under a lock on its row, so two administrators removing each other's admin role at once cannot leave
// the school with none; each change is recorded (changes.ts).
import { and, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import { ACCESS_POLICY } from '../../shared/contract';
import { ADMIN_ROLES, hasAnyRole, ROLE_CODES, ROLE_NAMES, SCHOOL_ADMIN_ROLE, type RoleCode } from '../../shared/codes';
import type { StaffDevice } from '../../shared/staff-contract';
import { deleteUserSessions } from '../auth/sessions';
import { transactionRetrying, type Db, type Queryable } from '../db/client';
import { userPolicies, userRoles, users } from '../db/schema/auth';
import { userChannelPermissions } from '../db/schema/compose';
import { institutions } from '../db/schema/institutions';
import { invitations } from '../db/schema/staff';
import { addFieldError, type FieldErrors, hasFieldErrors } from '../http/field-errors';
import { recordAudit } from '../audit/record';
import { recordChange, staffAuditActor } from './changes';
import { isDevice } from './invitations';
import type { StaffScope } from './members';
import { ADMIN_POLICIES, grantSchoolChannels, scopeFor } from './policies';
import { STAFF_MESSAGES } from './texts';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

interface ChangeInput {
  roles: RoleCode[] | null;
  device: StaffDevice | null;
}

/** The PATCH body: roles (one at least, known codes, repeats dropped) and/or device; or its field errors. */
export function parseChange(body: unknown): { input: ChangeInput } | { errors: FieldErrors } {
  const row = isObject(body) ? body : {};
  const errors: FieldErrors = {};
  let roles: RoleCode[] | null = null;
  if (row.roles !== undefined) {
    const valid =
      Array.isArray(row.roles) && row.roles.length > 0 && row.roles.every((r) => (ROLE_CODES as readonly unknown[]).includes(r));
    if (valid) roles = [...new Set(row.roles as RoleCode[])].sort();
    else addFieldError(errors, 'roles', STAFF_MESSAGES.roles);
  }
  let device: StaffDevice | null = null;
  if (row.device !== undefined) {
    if (isDevice(row.device)) device = row.device;
    else addFieldError(errors, 'device', STAFF_MESSAGES.device);
  }
  if (!hasFieldErrors(errors) && roles === null && device === null) addFieldError(errors, 'roles', STAFF_MESSAGES.nothing);
  return hasFieldErrors(errors) ? { errors } : { input: { roles, device } };
}

/** Waits for any other staff change of the school to finish, and holds the others back until this one ends. */
async function lockSchool(tx: Queryable, institutionId: number): Promise<void> {
  await tx.select({ id: institutions.id }).from(institutions).where(eq(institutions.id, institutionId)).for('update');
}

interface Account {
  id: number;
  status: 'invited' | 'active' | 'deactivated';
  device: string;
  hasPassword: boolean;
  roles: RoleCode[];
}

async function account(tx: Queryable, scope: StaffScope, userId: number): Promise<Account | null> {
  const [user] = await tx
    .select({ id: users.id, status: users.status, device: users.device, hasPassword: sql<boolean>`${users.passwordHash} is not null` })
    .from(users)
    .where(and(eq(users.institutionId, scope.institutionId), eq(users.id, userId)));
  if (!user) return null;
  const roles = await tx.select({ code: userRoles.code }).from(userRoles).where(eq(userRoles.userId, userId)).orderBy(userRoles.code);
  return { ...user, roles: roles.map((r) => r.code as RoleCode) };
}

/** Whether someone besides `userId` can still run the school: active, with access and the admin role. */
async function hasOtherActiveAdmin(tx: Queryable, institutionId: number, userId: number): Promise<boolean> {
  const [other] = await tx
    .select({ id: users.id })
    .from(users)
    .innerJoin(userRoles, and(eq(userRoles.userId, users.id), eq(userRoles.code, SCHOOL_ADMIN_ROLE)))
    .innerJoin(userPolicies, and(eq(userPolicies.userId, users.id), eq(userPolicies.name, ACCESS_POLICY)))
    .where(and(eq(users.institutionId, institutionId), eq(users.status, 'active'), ne(users.id, userId)))
    .limit(1);
  return other !== undefined;
}

const isAdmin = (roles: readonly RoleCode[]) => roles.includes(SCHOOL_ADMIN_ROLE);

export type AccountChange =
  | { kind: 'not_found' }
  | { kind: 'invalid'; errors: FieldErrors }
  | { kind: 'conflict'; code: 'staff.self' | 'staff.last_admin' | 'staff.state'; message: string }
  | { kind: 'done' };

/** Roles and device of a colleague (or oneself, keeping one's admin role). */
export async function changeAccount(db: Db, scope: StaffScope, userId: number, input: ChangeInput): Promise<AccountChange> {
  return transactionRetrying(db, async (tx) => {
    await lockSchool(tx, scope.institutionId);
    const before = await account(tx, scope, userId);
    if (!before) return { kind: 'not_found' };
    const roles = input.roles;
    if (roles !== null && isAdmin(before.roles) && !isAdmin(roles)) {
      if (userId === scope.userId) return { kind: 'invalid', errors: { roles: [STAFF_MESSAGES.ownAdmin] } };
      if (before.status === 'active' && !(await hasOtherActiveAdmin(tx, scope.institutionId, userId))) {
        return { kind: 'invalid', errors: { roles: [STAFF_MESSAGES.lastAdmin] } };
      }
    }
    const base = { institutionId: scope.institutionId, subjectUserId: userId, actorUserId: scope.userId };
    if (roles !== null && roles.join() !== before.roles.join()) {
      await tx.delete(userRoles).where(eq(userRoles.userId, userId));
      await tx.insert(userRoles).values(roles.map((code) => ({ userId, code, name: ROLE_NAMES[code] })));
      await syncRoleGrants(tx, scope.institutionId, userId, roles);
      await recordChange(tx, { ...base, action: 'roles.changed', detail: { from: before.roles, to: roles } });
    }
    const rolesChanged = roles !== null && roles.join() !== before.roles.join();
    const device = input.device;
    const deviceChanged = device !== null && device !== before.device;
    if (deviceChanged) {
      await tx.update(users).set({ device }).where(eq(users.id, userId));
      await recordChange(tx, { ...base, action: 'device.changed', detail: { from: before.device, to: device } });
    }
    // One entry per change asked for, naming what changed; nothing changed, nothing to note.
    if (rolesChanged || deviceChanged) {
      await recordAudit(tx, staffAuditActor(scope), {
        action: 'staff.changed',
        subject: { kind: 'usuario', id: userId },
        detail: {
          fields: [...(rolesChanged ? ['roles'] : []), ...(deviceChanged ? ['device'] : [])],
          roles_before: before.roles,
          roles_after: roles ?? before.roles,
          device_before: before.device,
          device_after: device ?? before.device,
        },
      });
    }
    return { kind: 'done' };
  });
}

/**
 * The admin policies, the scope and the channels follow the roles (policies.ts), as they do for a seeded or
 * invited account: a teacher made UTP may use WhatsApp where the school contracts it, and no longer once
 * made teacher again.
 */
async function syncRoleGrants(tx: Queryable, institutionId: number, userId: number, roles: readonly RoleCode[]): Promise<void> {
  await tx.delete(userPolicies).where(and(eq(userPolicies.userId, userId), inArray(userPolicies.name, [...ADMIN_POLICIES])));
  if (hasAnyRole(roles, ADMIN_ROLES)) await tx.insert(userPolicies).values(ADMIN_POLICIES.map((name) => ({ userId, name })));
  await tx
    .update(users)
    .set({ scope: scopeFor(roles) })
    .where(eq(users.id, userId));
  await tx.delete(userChannelPermissions).where(eq(userChannelPermissions.userId, userId));
  await grantSchoolChannels(tx, institutionId, userId, roles);
}

/**
 * A colleague leaves: they cannot sign in, their sessions end now (and the session look-up refuses a
 * non-active user besides, server/auth/sessions.ts), an open invitation link stops working. Their messages,
 * lists and templates stay.
 */
export async function deactivateAccount(db: Db, scope: StaffScope, userId: number, now = new Date()): Promise<AccountChange> {
  return transactionRetrying(db, async (tx) => {
    await lockSchool(tx, scope.institutionId);
    const before = await account(tx, scope, userId);
    if (!before) return { kind: 'not_found' };
    if (userId === scope.userId) return { kind: 'conflict', code: 'staff.self', message: STAFF_MESSAGES.self };
    if (before.status === 'deactivated') return { kind: 'conflict', code: 'staff.state', message: STAFF_MESSAGES.alreadyDeactivated };
    if (before.status === 'active' && isAdmin(before.roles) && !(await hasOtherActiveAdmin(tx, scope.institutionId, userId))) {
      return { kind: 'conflict', code: 'staff.last_admin', message: STAFF_MESSAGES.lastAdminDeactivate };
    }
    await tx.update(users).set({ status: 'deactivated', deactivatedAt: now, deactivatedBy: scope.userId }).where(eq(users.id, userId));
    const revoked = await tx
      .update(invitations)
      .set({ revokedAt: now })
      .where(and(eq(invitations.userId, userId), isNull(invitations.usedAt), isNull(invitations.revokedAt)))
      .returning({ id: invitations.id });
    const sessionsEnded = await deleteUserSessions(tx, userId);
    await recordChange(tx, {
      institutionId: scope.institutionId,
      subjectUserId: userId,
      actorUserId: scope.userId,
      action: 'deactivated',
      detail: { from: before.status, sessions_ended: sessionsEnded, revoked_invitation_ids: revoked.map((r) => r.id) },
    });
    await recordAudit(tx, staffAuditActor(scope), {
      action: 'staff.deactivated',
      subject: { kind: 'usuario', id: userId },
      detail: { from: before.status, roles_before: before.roles, sessions_ended: sessionsEnded },
    });
    return { kind: 'done' };
  });
}

/** Back at work: active again, or invited again when they never set a password (then «Reenviar» sends a link). */
export async function reactivateAccount(db: Db, scope: StaffScope, userId: number): Promise<AccountChange> {
  return transactionRetrying(db, async (tx) => {
    await lockSchool(tx, scope.institutionId);
    const before = await account(tx, scope, userId);
    if (!before) return { kind: 'not_found' };
    if (before.status !== 'deactivated') return { kind: 'conflict', code: 'staff.state', message: STAFF_MESSAGES.notDeactivated };
    const status = before.hasPassword ? 'active' : 'invited';
    await tx.update(users).set({ status, deactivatedAt: null, deactivatedBy: null }).where(eq(users.id, userId));
    await recordChange(tx, {
      institutionId: scope.institutionId,
      subjectUserId: userId,
      actorUserId: scope.userId,
      action: 'reactivated',
      detail: { to: status },
    });
    await recordAudit(tx, staffAuditActor(scope), {
      action: 'staff.reactivated',
      subject: { kind: 'usuario', id: userId },
      detail: { to: status, roles_after: before.roles },
    });
    return { kind: 'done' };
  });
}
