// The record of every change to a staff account (`user_changes`), written in the same transaction as the
// change itself so that no change goes unrecorded. The detail holds ids and codes only: names and e-mails
// live on the rows the ids point to (and change there).
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
