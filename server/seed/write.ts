// Writes a generated data set into the database: multi-row inserts in one transaction, then moves the
// identity sequences past the explicit ids so later inserts do not collide.
import { getTableColumns, getTableName, sql } from 'drizzle-orm';
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
import { newsCategories, newsPostGroups, newsPosts } from '../db/schema/news';
import { deliveries } from '../db/schema/delivery';
import { mailboxEntries, messageAttachments, messageRecipients, messages } from '../db/schema/messages';
import { courses, electiveStudents, electives, guardians, levels, positions, staff, studentGuardians, students } from '../db/schema/school';
import { randomBytes } from 'node:crypto';
import { hashPassword } from '../auth/password';
import { smsVerdict } from '../recipients/sms-phones';
import { rollUpReachedAt } from '../reception/status';
import { withActivityRollupPaused } from '../db/activity-rollup';
import type { SeedData } from './rows';

/** Postgres allows 65 535 bind parameters per statement; 1 000 rows of ≤ 10 columns stays well under. */
const CHUNK = 1000;

/** Tables with explicit seeded ids, whose identity sequence must be advanced afterwards. */
const ID_TABLES = [
  'institutions',
  'levels',
  'courses',
  'students',
  'guardians',
  'positions',
  'users',
  'staff',
  'electives',
  'messages',
  'message_attachments',
  'institution_signatures',
  'recipient_lists',
  'recipient_list_members',
  'templates',
  'message_recipients',
  'deliveries',
  'news_categories',
  'news_posts',
] as const;

/** Every table, children first, for TRUNCATE. */
const ALL_TABLES = [
  'templates',
  'recipient_list_members',
  'recipient_lists',
  'sms_monthly_limits',
  'sms_usage',
  'institution_quotas',
  'institution_signatures',
  'user_channel_permissions',
  'institution_channels',
  'deliveries',
  'mailbox_entries',
  'message_attachments',
  'news_post_groups',
  'news_posts',
  'news_categories',
  'message_recipients',
  'messages',
  'sessions',
  'app_tokens',
  'user_changes',
  'invitations',
  'password_resets',
  'elective_students',
  'electives',
  'staff',
  'user_policies',
  'user_roles',
  'users',
  'positions',
  'student_guardians',
  'guardians',
  'students',
  'courses',
  'levels',
  'institutions',
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
  // Hash outside the transaction, once per distinct password (scrypt costs tens of ms; the demo logins share
  // one password and the colleagues' accounts one random password nobody knows).
  const unknown = randomBytes(24).toString('base64url');
  const hashes = new Map<string, Promise<string>>();
  const hashOf = (password: string) => {
    if (!hashes.has(password)) hashes.set(password, hashPassword(password));
    return hashes.get(password)!;
  };
  const hashedUsers = await Promise.all(
    data.users.map(async ({ password, ...user }) => ({ ...user, passwordHash: await hashOf(password ?? unknown) })),
  );
  // The activity roll-up's triggers off while a school year of rows goes in, then rebuilt once, set-based.
  await db.transaction((tx) =>
    withActivityRollupPaused(
      tx,
      data.institutions.map((i) => i.id),
      async () => {
        await insertAll(tx, institutions, data.institutions);
        await insertAll(tx, levels, data.levels);
        await insertAll(tx, courses, data.courses);
        await insertAll(tx, students, data.students);
        // With the delivery engine's verdict on each phone (server/recipients/sms-phones.ts).
        await insertAll(
          tx,
          guardians,
          data.guardians.map((g) => ({ ...g, ...smsVerdict(g.phone) })),
        );
        await insertAll(tx, studentGuardians, data.studentGuardians);
        await seedAppUse(tx);
        await insertAll(tx, positions, data.positions);
        await insertAll(tx, users, hashedUsers);
        await insertAll(tx, userRoles, data.userRoles);
        await insertAll(tx, userPolicies, data.userPolicies);
        await insertAll(tx, staff, data.staff);
        await insertAll(tx, electives, data.electives);
        await insertAll(tx, electiveStudents, data.electiveStudents);
        await insertAll(tx, messages, data.mail.messages);
        await insertColumns(tx, messageRecipients, data.mail.recipients);
        await insertAll(tx, messageAttachments, data.mail.attachments);
        await insertAll(tx, newsCategories, data.news.categories);
        await insertAll(tx, newsPosts, data.news.posts);
        await insertAll(tx, newsPostGroups, data.news.groups);
        await insertAll(tx, messageAttachments, data.news.attachments);
        await insertColumns(tx, mailboxEntries, data.mail.entries);
        await insertAll(tx, institutionChannels, data.compose.institutionChannels);
        await insertAll(tx, userChannelPermissions, data.compose.userChannelPermissions);
        await insertAll(tx, institutionSignatures, data.compose.signatures);
        await insertAll(tx, institutionQuotas, data.compose.quotas);
        await insertAll(tx, recipientLists, data.compose.recipientLists);
        await insertAll(tx, recipientListMembers, data.compose.recipientListMembers);
        await insertAll(tx, templates, data.templates);
        await insertColumns(tx, deliveries, data.smsUse.deliveries);
        // The recipients' reached_at roll-up, as the delivery engine would have kept it.
        await rollUpReachedAt(tx);
        await insertAll(tx, smsUsage, data.smsUse.usage);
        await insertAll(tx, smsMonthlyLimits, data.smsUse.limits);
        for (const table of ID_TABLES) {
          await tx.execute(
            sql.raw(`SELECT setval(pg_get_serial_sequence('"${table}"', 'id'), (SELECT COALESCE(MAX(id), 0) + 1 FROM "${table}"), false)`),
          );
        }
      },
    ),
  );
  // Fresh statistics, so the planner walks the mailbox list index from the first request on.
  await db.execute(
    sql.raw(
      'ANALYZE "mailbox_entries", "messages", "message_recipients", "deliveries", "guardians", "news_posts", "activity_days", "activity_reach", "activity_guardians", "activity_authors"',
    ),
  );
}

/**
 * The guardians who have the app are reachable through it (server/recipients/app-reach.ts): each gets a
 * session used in the last week, as the app leaves one on every start. Its hash is no SHA-256 hex, so no
 * token can ever match it: the demo guardians still sign in with their SMS code.
 */
async function seedAppUse(db: Queryable): Promise<void> {
  await db.execute(sql`
    insert into app_tokens (institution_id, person_kind, person_id, token_hash, created_at, last_used_at, expires_at)
    select g.institution_id, 'apoderado', g.id, 'seed:' || g.id, g.app_installed_at,
      now() - (g.id % 7) * interval '1 day', now() + interval '83 days'
    from guardians g where g.app_installed_at is not null`);
}

async function insertAll<T extends PgTable>(db: Queryable, table: T, rows: T['$inferInsert'][]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    await db.insert(table).values(rows.slice(i, i + CHUNK));
  }
}

/** Column types `insertColumns` sends as one array each. */
const ARRAY_TYPES = new Set(['integer', 'smallint', 'text', 'boolean', 'timestamp with time zone', 'jsonb']);

/**
 * The big tables (a school year of recipients and deliveries: tens of thousands of rows) in ONE statement:
 * each column as one array parameter, `insert … select * from unnest(…)`. Multi-row VALUES in chunks took
 * seconds on the embedded database (parsing thousands of parameters per chunk). Columns no row sets keep
 * their default; a column some rows leave unset must be nullable (it is sent as null).
 */
async function insertColumns<T extends PgTable>(db: Queryable, table: T, rows: T['$inferInsert'][]): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.entries(getTableColumns(table)).filter(([key]) =>
    rows.some((row) => (row as Record<string, unknown>)[key] !== undefined),
  );
  const names: string[] = [];
  const arrays: ReturnType<typeof sql>[] = [];
  for (const [key, column] of columns) {
    const type = column.getSQLType();
    if (!ARRAY_TYPES.has(type)) throw new Error(`insertColumns: ${getTableName(table)}.${column.name} es ${type}`);
    const items = rows.map((row) => {
      const value = (row as Record<string, unknown>)[key];
      if (value === undefined || value === null) {
        if (column.notNull) throw new Error(`insertColumns: ${getTableName(table)}.${column.name} sin valor`);
        return 'NULL';
      }
      const text = value instanceof Date ? value.toISOString() : type === 'jsonb' ? JSON.stringify(value) : String(value);
      return `"${text.replace(/[\\"]/g, '\\$&')}"`;
    });
    names.push(`"${column.name}"`);
    arrays.push(sql`${`{${items.join(',')}}`}::${sql.raw(type)}[]`);
  }
  await db.execute(sql`insert into ${table} (${sql.raw(names.join(', '))}) select * from unnest(${sql.join(arrays, sql`, `)})`);
}
