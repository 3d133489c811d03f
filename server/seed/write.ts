// Writes a generated data set into the database: multi-row inserts in one transaction, then moves the
// identity sequences past the explicit ids so later inserts do not collide.
import { sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db, Queryable } from '../db/client';
import * as schema from '../db/schema';
import { hashPassword } from '../auth/password';
import type { SeedData } from './generate';

/** Postgres allows 65 535 bind parameters per statement; 1 000 rows of ≤ 10 columns stays well under. */
const CHUNK = 1000;

/** Tables with explicit seeded ids, whose identity sequence must be advanced afterwards. */
const ID_TABLES = [
  'institutions', 'levels', 'courses', 'students', 'guardians', 'positions', 'users', 'staff', 'electives',
  'messages', 'message_attachments', 'institution_signatures', 'recipient_lists', 'recipient_list_members',
] as const;

/** Every table, children first, for TRUNCATE. */
const ALL_TABLES = [
  'recipient_list_members', 'recipient_lists', 'sms_usage', 'institution_quotas', 'institution_signatures',
  'user_channel_permissions', 'institution_channels', 'deliveries',
  'mailbox_entries', 'message_attachments', 'message_recipients', 'messages',
  'sessions', 'elective_students', 'electives', 'staff', 'user_policies', 'user_roles', 'users', 'positions',
  'student_guardians', 'guardians', 'students', 'courses', 'levels', 'institutions',
] as const;

export async function hasData(db: Queryable): Promise<boolean> {
  const rows = await db.select({ id: schema.institutions.id }).from(schema.institutions).limit(1);
  return rows.length > 0;
}

/** Empties every table and restarts the ids; the schema and the migration history stay. */
export async function resetData(db: Db): Promise<void> {
  await db.execute(sql.raw(`TRUNCATE ${ALL_TABLES.map((t) => `"${t}"`).join(', ')} RESTART IDENTITY CASCADE`));
}

export async function writeSeed(db: Db, data: SeedData): Promise<void> {
  // Hash outside the transaction: scrypt runs on the libuv pool, in parallel.
  const users = await Promise.all(
    data.users.map(async ({ password, ...user }) => ({ ...user, passwordHash: await hashPassword(password) })),
  );
  await db.transaction(async (tx) => {
    await insertAll(tx, schema.institutions, data.institutions);
    await insertAll(tx, schema.levels, data.levels);
    await insertAll(tx, schema.courses, data.courses);
    await insertAll(tx, schema.students, data.students);
    await insertAll(tx, schema.guardians, data.guardians);
    await insertAll(tx, schema.studentGuardians, data.studentGuardians);
    await insertAll(tx, schema.positions, data.positions);
    await insertAll(tx, schema.users, users);
    await insertAll(tx, schema.userRoles, data.userRoles);
    await insertAll(tx, schema.userPolicies, data.userPolicies);
    await insertAll(tx, schema.staff, data.staff);
    await insertAll(tx, schema.electives, data.electives);
    await insertAll(tx, schema.electiveStudents, data.electiveStudents);
    await insertAll(tx, schema.messages, data.mail.messages);
    await insertAll(tx, schema.messageRecipients, data.mail.recipients);
    await insertAll(tx, schema.messageAttachments, data.mail.attachments);
    await insertAll(tx, schema.mailboxEntries, data.mail.entries);
    await insertAll(tx, schema.institutionChannels, data.compose.institutionChannels);
    await insertAll(tx, schema.userChannelPermissions, data.compose.userChannelPermissions);
    await insertAll(tx, schema.institutionSignatures, data.compose.signatures);
    await insertAll(tx, schema.institutionQuotas, data.compose.quotas);
    await insertAll(tx, schema.recipientLists, data.compose.recipientLists);
    await insertAll(tx, schema.recipientListMembers, data.compose.recipientListMembers);
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
