// Families who texted a channel to stop: the deployment's SMS or WhatsApp sender no longer writes to that
// phone, in any school (the sender number is the deployment's, not a school's), until the phone texts
// "ALTA" (server/opt-outs/). Keyed by phone, not by person: the same number may be a guardian in two schools.
import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** The phones opted out now: one row per channel and phone, gone when it opts back in. */
export const channelOptOuts = pgTable(
  'channel_opt_outs',
  {
    channel: text('channel', { enum: ['sms', 'whatsapp'] }).notNull(),
    /** E.164, as deliveries and guardians store it. */
    phone: text('phone').notNull(),
    optedOutAt: timestamp('opted_out_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.channel, t.phone] }), check('channel_opt_outs_channel_check', sql`${t.channel} in ('sms', 'whatsapp')`)],
);

/**
 * Every opt-out and opt-in as it came: the word, the provider's message (a webhook repeated by the provider
 * is recognised by it and changes nothing), when. Reception names the date of a delivery's opt-out from here.
 */
export const channelOptOutEvents = pgTable(
  'channel_opt_out_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    channel: text('channel', { enum: ['sms', 'whatsapp'] }).notNull(),
    phone: text('phone').notNull(),
    kind: text('kind', { enum: ['out', 'in'] }).notNull(),
    /** The message as the family wrote it ("Baja por favor"). */
    body: text('body').notNull(),
    provider: text('provider').notNull(),
    providerId: text('provider_id').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('channel_opt_out_events_provider_idx').on(t.provider, t.providerId),
    index('channel_opt_out_events_phone_idx').on(t.channel, t.phone, t.at),
    check('channel_opt_out_events_channel_check', sql`${t.channel} in ('sms', 'whatsapp')`),
    check('channel_opt_out_events_kind_check', sql`${t.kind} in ('out', 'in')`),
  ],
);
