// Writes a generated data set into the database: multi-row inserts in one transaction, then moves the
// identity sequences past the explicit ids so later inserts do not collide.
import { sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db, Queryable } from '../db/client';
import { userPolicies, userRoles, users } from '../db/schema/auth';
import {
  institutionChannels,
  institutionQuotas,
  institutionSignatures,
  recipientListMembers,
  smsMonthlyLimits,
  smsUsage,
  recipientLists,
  userChannelPermissions,
} from '../db/schema/compose';
import { institutions } from '../db/schema/institutions';
import { templates } from '../db/schema/templates';
import { deliveries } from '../db/schema/delivery';
import { mailboxEntries, messageAttachments, messageRecipients, messages } from '../db/schema/messages';
import {
  courses,
  electiveStudents,
  electives,
  guardians,
  levels,
  positions,
  staff,
  studentGuardians,
  students,
} from '../db/schema/school';
import { hashPassword } from '../auth/password';
import type { SeedData } from './generate';

/** Postgres allows 65 535 bind parameters per statement; 1 000 rows of ≤ 10 columns stays well under. */
const CHUNK = 1000;

/** Tables with explicit seeded ids, whose identity sequence must be advanced afterwards. */
const ID_TABLES = [
  'institutions', 'levels', 'courses', 'students', 'guardians', 'positions', 'users', 'staff', 'electives',
  'messages', 'message_attachments', 'institution_signatures', 'recipient_lists', 'recipient_list_members',
  'templates', 'message_recipients', 'deliveries',
] as const;

/** Every table, children first, for TRUNCATE. */
const ALL_TABLES = [
  'templates', 'recipient_list_members', 'recipient_lists', 'sms_monthly_limits', 'sms_usage', 'institution_quotas', 'institution_signatures',
  'user_channel_permissions', 'institution_channels', 'deliveries',
  'mailbox_entries', 'message_attachments', 'message_recipients', 'messages',
  'sessions', 'elective_students', 'electives', 'staff', 'user_policies', 'user_roles', 'users', 'positions',
  'student_guardians', 'guardians', 'students', 'courses', 'levels', 'institutions',
] as const;

export async function hasData(db: Queryable): Promise<boolean> {
  const rows = await db.select({ id: institutions.id }).from(institutions).limit(1);
  return rows.length > 0;
}

/** Empties every table and restarts the ids; the schema and the migration history stay. */
export async function resetData(db: Db): Promise<void> {
  await db.execute(sql.raw(`TRUNCATE ${ALL_TABLES.map((t) => `"${t}"`).join(', ')} RESTART IDENTITY CASCADE`));
}

export async function writeSeed(db: Db, data: SeedData): Promise<void> {
  // Hash outside the transaction: scrypt runs on the libuv pool, in parallel.
  const hashedUsers = await Promise.all(
    data.users.map(async ({ password, ...user }) => ({ ...user, passwordHash: await hashPassword(password) })),
  );
  await db.transaction(async (tx) => {
    await insertAll(tx, institutions, data.institutions);
    await insertAll(tx, levels, data.levels);
    await insertAll(tx, courses, data.courses);
    await insertAll(tx, students, data.students);
    await insertAll(tx, guardians, data.guardians);
    await insertAll(tx, studentGuardians, data.studentGuardians);
    await insertAll(tx, positions, data.positions);
    await insertAll(tx, users, hashedUsers);
    await insertAll(tx, userRoles, data.userRoles);
    await insertAll(tx, userPolicies, data.userPolicies);
    await insertAll(tx, staff, data.staff);
    await insertAll(tx, electives, data.electives);
    await insertAll(tx, electiveStudents, data.electiveStudents);
    await insertAll(tx, messages, data.mail.messages);
    await insertAll(tx, messageRecipients, data.mail.recipients);
    await insertAll(tx, messageAttachments, data.mail.attachments);
    await insertAll(tx, mailboxEntries, data.mail.entries);
    await insertAll(tx, institutionChannels, data.compose.institutionChannels);
    await insertAll(tx, userChannelPermissions, data.compose.userChannelPermissions);
    await insertAll(tx, institutionSignatures, data.compose.signatures);
    await insertAll(tx, institutionQuotas, data.compose.quotas);
    await insertAll(tx, recipientLists, data.compose.recipientLists);
    await insertAll(tx, recipientListMembers, data.compose.recipientListMembers);
    await insertAll(tx, templates, data.templates);
    await insertAll(tx, deliveries, data.smsUse.deliveries);
    await insertAll(tx, smsUsage, data.smsUse.usage);
    await insertAll(tx, smsMonthlyLimits, data.smsUse.limits);
    for (const table of ID_TABLES) {
      await tx.execute(
        sql.raw(
          `SELECT setval(pg_get_serial_sequence('"${table}"', 'id'), (SELECT COALESCE(MAX(id), 0) + 1 FROM "${table}"), false)`,
        ),
      );
    }
  });
  // Fresh statistics, so the planner walks the mailbox list index from the first request on.
  await db.execute(sql.raw('ANALYZE "mailbox_entries", "messages"'));
}

async function insertAll<T extends PgTable>(db: Queryable, table: T, rows: T['$inferInsert'][]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    await db.insert(table).values(rows.slice(i, i + CHUNK));
  }
}
