// What families write to the school by SMS or WhatsApp (server/inbound/): every message as the provider
// handed it over, and the Hermes messages it became.
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { guardians } from './school';
import { createdAt, id, institutions } from './institutions';
import { messages } from './messages';

/** What became of an inbound message: a reply to the message it answers, the school's inbox, an opt-out word. */
export const INBOUND_OUTCOMES = ['reply', 'school_inbox', 'opt_out'] as const;
export type InboundOutcome = (typeof INBOUND_OUTCOMES)[number];

/**
 * One message a family sent, as the provider's webhook parsed it (server/inbound/contract.ts). Written
 * before anything is done with it, so a repeated webhook (same provider and id) finds it and is ignored, and
 * the words are kept whatever happens next. `outcome` is null while it is being handled.
 */
export const inboundMessages = pgTable(
  'inbound_messages',
  {
    id: id(),
    channel: text('channel', { enum: ['sms', 'whatsapp'] }).notNull(),
    /** E.164, as guardians' phones are kept. */
    phone: text('phone').notNull(),
    provider: text('provider').notNull(),
    providerId: text('provider_id').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    body: text('body').notNull(),
    /** Files the provider announced (kept ones are the Hermes messages' attachments). */
    mediaCount: smallint('media_count').notNull().default(0),
    outcome: text('outcome', { enum: INBOUND_OUTCOMES }),
    /**
     * When its handling started. A row still without `outcome` long after (a process killed in between) is
     * handled again when the provider repeats the webhook (server/inbound/handler.ts `claim`).
     */
    claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('inbound_messages_provider_idx').on(t.provider, t.providerId),
    // WhatsApp's 24-hour window: the latest message from a phone on a channel (server/inbound/window.ts).
    index('inbound_messages_phone_idx').on(t.phone, t.channel, t.receivedAt),
    check('inbound_messages_channel_check', sql`${t.channel} in ('sms', 'whatsapp')`),
    check('inbound_messages_outcome_check', sql`${t.outcome} in ('reply', 'school_inbox', 'opt_out')`),
  ],
);

/**
 * A Hermes message an inbound message became, in one school: the reply in its author's inbox, or the message
 * to the school's administrators. One inbound message becomes several only when it goes to several schools'
 * administrators (a phone of no known family, or of a family in two schools that received nothing by that
 * channel). `guardian_id` is null for a phone of no family of that school.
 */
export const inboundMessageTargets = pgTable(
  'inbound_message_targets',
  {
    id: id(),
    inboundId: integer('inbound_id')
      .notNull()
      .references(() => inboundMessages.id, { onDelete: 'cascade' }),
    messageId: integer('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    institutionId: integer('institution_id')
      .notNull()
      .references(() => institutions.id, { onDelete: 'cascade' }),
    guardianId: integer('guardian_id').references(() => guardians.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('inbound_message_targets_inbound_idx').on(t.inboundId),
    uniqueIndex('inbound_message_targets_message_idx').on(t.messageId),
    index('inbound_message_targets_institution_idx').on(t.institutionId),
  ],
);
