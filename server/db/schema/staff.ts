// Staff accounts as administrators manage them: the invitations that let a new colleague set their password,
// and the record of every change made to an account (who did what to whom, when) that the audit log reads.
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { createdAt, id, institutionId } from './institutions';

/**
 * One link sent to an invited user. Only the SHA-256 of its token is stored, like sessions' tokens. A link
 * works once (`used_at`), until `expires_at`, and not after `revoked_at` (revoked, or replaced by a resend).
 */
export const invitations = pgTable(
  'invitations',
  {
    id: id(),
    institutionId: institutionId(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('invitations_token_hash_idx').on(t.tokenHash),
    index('invitations_user_idx').on(t.userId),
    index('invitations_institution_idx').on(t.institutionId),
  ],
);

/** The codes of `user_changes.action` (server/staff/changes.ts writes them). */
export const USER_CHANGE_ACTIONS = [
  'invited',
  'invitation.resent',
  'invitation.revoked',
  'invitation.accepted',
  'roles.changed',
  'device.changed',
  'deactivated',
  'reactivated',
] as const;
export type UserChangeAction = (typeof USER_CHANGE_ACTIONS)[number];

/**
 * Every change to a staff account: the school, whose account, who made it (null for no one signed in, e.g.
 * an operator's command line), what (`action`), and its detail as ids and codes only (never names or
 * e-mails, which live on the rows they point to).
 */
export const userChanges = pgTable(
  'user_changes',
  {
    id: id(),
    institutionId: institutionId(),
    subjectUserId: integer('subject_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    actorUserId: integer('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action', { enum: USER_CHANGE_ACTIONS }).notNull(),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('user_changes_institution_at_idx').on(t.institutionId, t.at), index('user_changes_subject_idx').on(t.subjectUserId)],
);
