// The delivery engine's rows (one per recipient and channel) and the built-in provider simulator's store.
import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgTable, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { CHANNEL_CODES } from '../../../shared/codes';
import { DELIVERY_STATUSES } from '../../../shared/reception-contract';
import { createdAt, id } from './institutions';
import { messageRecipients, messages } from './messages';

/**
 * One channel of one recipient of a sent or scheduled message: what the delivery engine works
 * through. `address` is the e-mail, E.164 phone or app account it goes to; null when the recipient has
 * none, in which case the row is born `failed` with `error = 'missing_address'`.
 */
export const deliveries = pgTable(
  'deliveries',
  {
    id: id(),
    messageId: integer('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    recipientId: integer('recipient_id')
      .notNull()
      .references(() => messageRecipients.id, { onDelete: 'cascade' }),
    channel: text('channel', { enum: CHANNEL_CODES }).notNull(),
    address: text('address'),
    status: text('status', {
      enum: DELIVERY_STATUSES,
    }).notNull(),
    error: text('error'),
    /** SMS segments this delivery counts against the monthly quota (0 for other channels). */
    segments: smallint('segments').notNull().default(0),
    attempts: smallint('attempts').notNull().default(0),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    readAt: timestamp('read_at', { withTimezone: true }),
    lastRetryAt: timestamp('last_retry_at', { withTimezone: true }),
    /** Bumped by "retry failed": a new round gets new queue jobs, and a late job of an older round is a no-op. */
    generation: smallint('generation').notNull().default(0),
    /** The SMS/WhatsApp provider's id of the message, which its status webhook quotes. */
    providerRef: text('provider_ref'),
  },
  (t) => [
    index('deliveries_message_idx').on(t.messageId),
    index('deliveries_provider_ref_idx').on(t.providerRef),
    index('deliveries_recipient_idx').on(t.recipientId),
    index('deliveries_status_idx').on(t.status),
    uniqueIndex('deliveries_recipient_channel_idx').on(t.recipientId, t.channel),
    check('deliveries_status_check', sql`${t.status} in ('queued', 'sent', 'received', 'read', 'not_received', 'error', 'failed')`),
  ],
);

/**
 * Recipients whose state is owed a refresh from their deliveries: the engine records each small group of
 * outcomes with a row here and refreshes the recipients (their state, the roll-up, the guardians' device
 * status) in larger batches after it (server/reception/status.ts). The row is written in the outcomes'
 * transaction, so a crash between the two leaves it for the next refresh. No foreign key: a recipient
 * deleted meanwhile is simply not found. The same recipient may be here twice (two channels).
 */
export const recipientRefreshes = pgTable('recipient_refreshes', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  recipientId: integer('recipient_id').notNull(),
  /** A device delivery (app, SMS, WhatsApp) ended: the guardian's device_misses may change too. */
  device: boolean('device').notNull(),
});

/**
 * The built-in SMS / WhatsApp provider simulator's own store (server/delivery/simulator.ts): what a real
 * provider would keep on its side. `reference` is the sender's idempotency key, so a request repeated after
 * a crash is answered with the first message instead of sending twice. `reported_at` null = the status
 * webhook is still owed (re-sent after a restart).
 */
export const providerSimMessages = pgTable(
  'provider_sim_messages',
  {
    id: text('id').primaryKey(),
    reference: text('reference').notNull(),
    channel: text('channel', { enum: ['sms', 'whatsapp'] }).notNull(),
    to: text('to').notNull(),
    body: text('body').notNull(),
    /** accepted → delivered | undelivered | failed (→ read, WhatsApp only). */
    status: text('status').notNull(),
    callbackUrl: text('callback_url'),
    createdAt: createdAt(),
    reportAt: timestamp('report_at', { withTimezone: true }),
    reportedAt: timestamp('reported_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('provider_sim_messages_reference_idx').on(t.reference), index('provider_sim_messages_owed_idx').on(t.reportedAt)],
);

/**
 * Periodic jobs every process runs a timer for (the 30-second delivery sweep, the hourly clean-up): a
 * process runs one only after claiming it here, which succeeds for one process per period however many
 * servers and workers share the database (server/db/periodic.ts). `runs` counts the claims.
 */
export const periodicRuns = pgTable('periodic_runs', {
  name: text('name').primaryKey(),
  ranAt: timestamp('ran_at', { withTimezone: true }).notNull(),
  runs: integer('runs').notNull().default(0),
});
