// The data screens' school-year roll-up (read by server/dashboard/): what the staff-activity, summary and
// ranking aggregates need, kept by triggers (migration 0014_activity_rollup) in the same transaction as the
// messages, recipients, deliveries and mailbox entries they summarise — whichever path writes them (send,
// the delivery engine's outcomes and retries, reads, purge, deletes). A school year then reads a few
// thousand roll-up rows instead of ~120,000 recipients. Rows whose counts fell back to 0 may stay; readers
// skip them.
import { boolean, date, index, integer, pgTable, primaryKey, smallint, text } from 'drizzle-orm/pg-core';
import { institutionId } from './institutions';

/**
 * Per message (no foreign key: its delete trigger still needs the row): the key its contributions were
 * added under — author, day in the school's zone, school year (null in a Chilean summer) and whether it
 * counts as staff activity (sent, by a staff user, not the author's own copy).
 */
export const activityMessages = pgTable(
  'activity_messages',
  {
    messageId: integer('message_id').primaryKey(),
    institutionId: institutionId(),
    authorUserId: integer('author_user_id'),
    day: date('day', { mode: 'string' }),
    schoolYear: smallint('school_year'),
    counted: boolean('counted').notNull(),
  },
  (t) => [index('activity_messages_institution_idx').on(t.institutionId)],
);

/** Per school × day (its zone) × author, of the messages that count: sent, deliveries with an address, readings. */
export const activityDays = pgTable(
  'activity_days',
  {
    institutionId: institutionId(),
    day: date('day', { mode: 'string' }).notNull(),
    authorUserId: integer('author_user_id').notNull(),
    messages: integer('messages').notNull().default(0),
    deliveries: integer('deliveries').notNull().default(0),
    appKnown: integer('app_known').notNull().default(0),
    appRead: integer('app_read').notNull().default(0),
    inboxKnown: integer('inbox_known').notNull().default(0),
    inboxRead: integer('inbox_read').notNull().default(0),
  },
  (t) => [primaryKey({ name: 'activity_days_pk', columns: [t.institutionId, t.day, t.authorUserId] })],
);

/**
 * Per school × school year × author × addressee, of the messages that count: how many recipient rows, how
 * many reached (received or read), how many read. Distinct people per year are rows, not sums of months.
 */
export const activityReach = pgTable(
  'activity_reach',
  {
    institutionId: institutionId(),
    schoolYear: smallint('school_year').notNull(),
    authorUserId: integer('author_user_id').notNull(),
    recipientKind: text('recipient_kind').notNull(),
    recipientRefId: integer('recipient_ref_id').notNull(),
    addressed: integer('addressed').notNull().default(0),
    reached: integer('reached').notNull().default(0),
    read: integer('read').notNull().default(0),
  },
  (t) => [
    primaryKey({ name: 'activity_reach_pk', columns: [t.institutionId, t.schoolYear, t.authorUserId, t.recipientKind, t.recipientRefId] }),
  ],
);

/**
 * Per school × school year × guardian, the same counts over every author: the course ranking's guardians
 * addressed, reached and read in a school year (a sixth of the people rows on the large seed).
 */
export const activityGuardians = pgTable(
  'activity_guardians',
  {
    institutionId: institutionId(),
    schoolYear: smallint('school_year').notNull(),
    guardianId: integer('guardian_id').notNull(),
    addressed: integer('addressed').notNull().default(0),
    reached: integer('reached').notNull().default(0),
    read: integer('read').notNull().default(0),
  },
  (t) => [primaryKey({ name: 'activity_guardians_pk', columns: [t.institutionId, t.schoolYear, t.guardianId] })],
);

/**
 * Per school × school year × author: how many of the author's people rows (activity_reach) were reached at
 * least once — staff activity's and the staff ranking's "personas alcanzadas" for a school year, one row
 * per author instead of counting tens of thousands of people rows on each request. Kept with the people rows
 * (a row's `reached` going from 0 to more adds one, back to 0 takes it away).
 */
export const activityAuthors = pgTable(
  'activity_authors',
  {
    institutionId: institutionId(),
    schoolYear: smallint('school_year').notNull(),
    authorUserId: integer('author_user_id').notNull(),
    reached: integer('reached').notNull().default(0),
  },
  (t) => [primaryKey({ name: 'activity_authors_pk', columns: [t.institutionId, t.schoolYear, t.authorUserId] })],
);
