// The record of every change to a staff account (`user_changes`), written in the same transaction as the
// change itself so that no change goes unrecorded. The detail holds ids and codes only: names and e-mails
// live on the rows the ids point to (and change there).
import type { AuditActor } from '../audit/record';
import type { Queryable } from '../db/client';
import { userChanges, type UserChangeAction } from '../db/schema/staff';

export interface UserChange {
  institutionId: number;
  /** Whose account changed. */
  subjectUserId: number;
  /** Who changed it (the subject themselves when they accept their invitation). */
  actorUserId: number | null;
  action: UserChangeAction;
  detail?: Record<string, number | string | boolean | null | readonly (number | string)[]>;
}

export async function recordChange(db: Queryable, change: UserChange): Promise<void> {
  await db.insert(userChanges).values({ ...change, detail: change.detail ?? {} });
}

/** Who changes accounts: the administrator (or the command line, no one) of a school, from an address. */
export interface ChangeScope {
  institutionId: number;
  userId: number | null;
  /** The caller's address for the audit log; absent outside a request. */
  ip?: string | null;
}

/** The audit log's actor of a staff change (server/audit/). */
export const staffAuditActor = (scope: ChangeScope): AuditActor => ({
  institutionId: scope.institutionId,
  actorUserId: scope.userId,
  ip: scope.ip ?? null,
});
