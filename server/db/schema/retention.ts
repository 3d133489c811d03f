// Per-school retention (server/retention/): months each kind of data is kept. No row = the defaults of
// shared/retention-contract.ts; the checks repeat the API's limits so no writer can store a period that
// would sweep the current school year.
import { sql } from 'drizzle-orm';
import { check, integer, pgTable, smallint, timestamp } from 'drizzle-orm/pg-core';
import { institutions } from './institutions';

const months = (name: string) => smallint(name).notNull();

export const retentionSettings = pgTable(
  'retention_settings',
  {
    institutionId: integer('institution_id')
      .primaryKey()
      .references(() => institutions.id, { onDelete: 'cascade' }),
    messagesMonths: months('messages_months'),
    repliesMonths: months('replies_months'),
    deliveriesMonths: months('deliveries_months'),
    attachmentsMonths: months('attachments_months'),
    inboundMonths: months('inbound_months'),
    auditMonths: months('audit_months'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      'retention_settings_months_check',
      sql`least(${t.messagesMonths}, ${t.repliesMonths}, ${t.deliveriesMonths}, ${t.attachmentsMonths}, ${t.inboundMonths}, ${t.auditMonths}) >= 12
        and greatest(${t.messagesMonths}, ${t.repliesMonths}, ${t.deliveriesMonths}, ${t.attachmentsMonths}, ${t.inboundMonths}, ${t.auditMonths}) <= 120`,
    ),
  ],
);
