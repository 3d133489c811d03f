// What compose reads and spends: contracted channels, per-user channel permissions, the school's SMS
// signature, quotas and monthly SMS usage, and saved recipient lists.
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { CHANNEL_CODES } from '../../../shared/codes';
import { users } from './auth';
import { createdAt, id, institutionId, institutions } from './institutions';
import { courses, students } from './school';

/** Channels a school has contracted (SPEC `enabled_by_institution`); a missing row means disabled. */
export const institutionChannels = pgTable(
  'institution_channels',
  {
    institutionId: institutionId(),
    channel: text('channel', { enum: CHANNEL_CODES }).notNull(),
    enabled: boolean('enabled').notNull(),
  },
  (t) => [primaryKey({ columns: [t.institutionId, t.channel] })],
);

/** Per-user channel permission (SPEC communication permission); a missing row means not permitted. */
export const userChannelPermissions = pgTable(
  'user_channel_permissions',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    channel: text('channel', { enum: CHANNEL_CODES }).notNull(),
    enabled: boolean('enabled').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.channel] })],
);

export const institutionSignatures = pgTable(
  'institution_signatures',
  {
    id: id(),
    institutionId: institutionId(),
    device: text('device').notNull(),
    domain: text('domain', { enum: ['cl', 'mx'] }).notNull(),
    signature: text('signature').notNull(),
    isActive: boolean('is_active').notNull().default(false),
  },
  (t) => [uniqueIndex('institution_signatures_institution_idx').on(t.institutionId)],
);

/** Monthly SMS limit and the e-mail / WhatsApp balances (null = unlimited) of a school. */
export const institutionQuotas = pgTable('institution_quotas', {
  institutionId: integer('institution_id')
    .primaryKey()
    .references(() => institutions.id, { onDelete: 'cascade' }),
  smsMonthlyLimit: integer('sms_monthly_limit').notNull(),
  emailBalance: integer('email_balance'),
  whatsappBalance: integer('whatsapp_balance'),
  /** Share of the SMS limit (%) only messages marked emergency may use (shared/quota-contract.ts). */
  smsReservePercent: integer('sms_reserve_percent').notNull().default(0),
  /** Administrators see a low-quota banner in compose when less than this share (%) is left; null: never. */
  smsAlertPercent: integer('sms_alert_percent').default(10),
});

/**
 * The SMS limit in force from a month on, written when an administrator changes it: the usage chart draws
 * each month's own limit (the limit of month M is the row with the latest month ≤ M, else the current one).
 */
export const smsMonthlyLimits = pgTable(
  'sms_monthly_limits',
  {
    institutionId: institutionId(),
    /** YYYY-MM */
    month: text('month').notNull(),
    smsLimit: integer('sms_limit').notNull(),
  },
  (t) => [primaryKey({ columns: [t.institutionId, t.month] })],
);

/** SMS segments consumed per school and calendar month (institution time zone), updated under a row lock. */
export const smsUsage = pgTable(
  'sms_usage',
  {
    institutionId: institutionId(),
    /** YYYY-MM */
    month: text('month').notNull(),
    segments: integer('segments').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.institutionId, t.month] })],
);

export const recipientLists = pgTable(
  'recipient_lists',
  {
    id: id(),
    institutionId: institutionId(),
    ownerUserId: integer('owner_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The owner shares it with the school's staff: they read and use it; only the owner changes it. */
    shared: boolean('shared').notNull().default(false),
    createdAt: createdAt(),
    /** Last change of the name, sharing or members (the list screens order by it). */
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** Lists have a trash (SPEC §2 /recipient-lists/trash), with who put them there and when. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    deletedByUserId: integer('deleted_by_user_id').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('recipient_lists_owner_idx').on(t.ownerUserId),
    index('recipient_lists_shared_idx').on(t.institutionId).where(sql`${t.shared}`),
  ],
);

/** A member: a guardian (of `student_id`, with `role`), a student or a staff member. */
export const recipientListMembers = pgTable(
  'recipient_list_members',
  {
    id: id(),
    listId: integer('list_id')
      .notNull()
      .references(() => recipientLists.id, { onDelete: 'cascade' }),
    memberKind: text('member_kind', { enum: ['apoderado', 'estudiante', 'funcionario'] }).notNull(),
    memberRefId: integer('member_ref_id').notNull(),
    studentId: integer('student_id').references(() => students.id, { onDelete: 'cascade' }),
    role: smallint('role'),
    /**
     * The course of the member's student (the student, or the guardian's child) when added: a student now in
     * another course makes the member stale ("course changed"). Null for staff and guardians with no child.
     */
    courseId: integer('course_id').references(() => courses.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('recipient_list_members_list_idx').on(t.listId),
    uniqueIndex('recipient_list_members_unique_idx').on(t.listId, t.memberKind, t.memberRefId),
  ],
);
