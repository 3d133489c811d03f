// Web Push: the guardian app's subscriptions, one per browser (device) and school. The VAPID key pair the
// pushes are signed with lives in `server_secrets` (server/push/keys.ts).
import { index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { guardians, students } from './school';
import { createdAt, id, institutionId } from './institutions';

/**
 * A browser's PushSubscription for one guardian: where to push (`endpoint`, the push service's URL) and the
 * keys the payload is encrypted to. One endpoint belongs to one guardian per school: a phone passed to
 * another guardian of the school moves to them. Removed when the push service says it is gone (404/410).
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: id(),
    institutionId: institutionId(),
    guardianId: integer('guardian_id')
      .notNull()
      .references(() => guardians.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    /** The browser's P-256 public key, base64url (65 bytes). */
    p256dh: text('p256dh').notNull(),
    /** The browser's auth secret, base64url (16 bytes). */
    auth: text('auth').notNull(),
    /** The browser as it named itself (User-Agent), shortened: for a list of devices later. */
    userAgent: text('user_agent'),
    createdAt: createdAt(),
    /** Last time the app registered it again (every start after sign-in). */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('push_subscriptions_endpoint_idx').on(t.institutionId, t.endpoint),
    index('push_subscriptions_guardian_idx').on(t.guardianId),
  ],
);

/**
 * A guardian's pushes turned off for one of their children (the app's «Avisos»): a message about that
 * child still reaches the inbox, without a push, unless it is an emergency (server/push/mutes.ts). No row:
 * pushes on, the default.
 */
export const pushMutes = pgTable(
  'push_mutes',
  {
    institutionId: institutionId(),
    guardianId: integer('guardian_id')
      .notNull()
      .references(() => guardians.id, { onDelete: 'cascade' }),
    studentId: integer('student_id')
      .notNull()
      .references(() => students.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.guardianId, t.studentId] })],
);
