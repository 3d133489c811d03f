// The families' app install link carried by SMS and WhatsApp (server/app-api/install-link.ts): when a
// guardian was first and last sent it, for the monthly reminder and the connectivity's "installed since".
import { integer, pgTable, timestamp } from 'drizzle-orm/pg-core';
import { guardians } from './school';
import { institutionId } from './institutions';

export const appInstallLinks = pgTable('app_install_links', {
  guardianId: integer('guardian_id')
    .primaryKey()
    .references(() => guardians.id, { onDelete: 'cascade' }),
  institutionId: institutionId(),
  firstSentAt: timestamp('first_sent_at', { withTimezone: true }).notNull(),
  lastSentAt: timestamp('last_sent_at', { withTimezone: true }).notNull(),
});
