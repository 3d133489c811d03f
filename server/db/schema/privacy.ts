// A person's objection (shared/privacy-requests-contract.ts): while a row is here the school sends that
// student, guardian or staff member nothing, on any channel (server/privacy-requests/blocks.ts). Who asked is
// a code, never free text, so the row holds nothing personal and survives the person's erasure.
import { sql } from 'drizzle-orm';
import { check, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { BLOCK_REQUESTERS, type BlockRequester } from '../../../shared/privacy-requests-contract';
import { users } from './auth';
import { institutionId } from './institutions';

export const personBlocks = pgTable(
  'person_blocks',
  {
    institutionId: institutionId(),
    personKind: text('person_kind', { enum: ['apoderado', 'estudiante', 'funcionario'] }).notNull(),
    personId: integer('person_id').notNull(),
    blockedAt: timestamp('blocked_at', { withTimezone: true }).notNull().defaultNow(),
    blockedBy: integer('blocked_by').references(() => users.id, { onDelete: 'set null' }),
    requestedBy: text('requested_by').$type<BlockRequester>().notNull(),
  },
  (t) => [
    // Deliveries probe it by person (kind, id) at the send and at each attempt.
    primaryKey({ columns: [t.personKind, t.personId] }),
    check('person_blocks_requested_by_check', sql`${t.requestedBy} in (${sql.raw(BLOCK_REQUESTERS.map((r) => `'${r}'`).join(', '))})`),
  ],
);
