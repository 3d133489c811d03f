// The roster import (shared/roster-contract.ts): each file an administrator brought in, what its preview
// found, and whether it was applied; and the column mapping a school gave a file's headers, asked once.
import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import {
  IMPORT_STATES,
  type ImportState,
  type PreviewCounts,
  type PreviewPerson,
  type RosterRow,
  type RowProblem,
  type ColumnMapping,
} from '../../../shared/roster-contract';
import { users } from './auth';
import { createdAt, id, institutionId } from './institutions';

/**
 * One import, from its preview on. The valid rows, refused lines and the preview's people are kept with it
 * (jsonb: read and written whole, never queried inside) so applying redoes the same plan and the history can
 * show what each import did. `roster_stamp` is the school's roster as the preview saw it: apply refuses when
 * it changed since.
 */
export const rosterImports = pgTable(
  'roster_imports',
  {
    id: id(),
    institutionId: institutionId(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    fileName: text('file_name').notNull(),
    /** SHA-256 of the file, hex. */
    fileHash: text('file_hash').notNull(),
    schoolYear: smallint('school_year').notNull(),
    state: text('state').$type<ImportState>().notNull().default('previewed'),
    counts: jsonb('counts').$type<PreviewCounts>().notNull(),
    rows: jsonb('rows').$type<RosterRow[]>().notNull(),
    problems: jsonb('problems').$type<RowProblem[]>().notNull(),
    people: jsonb('people').$type<PreviewPerson[]>().notNull(),
    rosterStamp: text('roster_stamp').notNull(),
    appliedAt: timestamp('applied_at', { withTimezone: true }),
  },
  (t) => [
    index('roster_imports_institution_idx').on(t.institutionId, t.id),
    check('roster_imports_state_check', sql`${t.state} in (${sql.raw(IMPORT_STATES.map((s) => `'${s}'`).join(', '))})`),
  ],
);

/** The mapping a school gave a file's headers (`header_key`: the folded headers joined), used again without asking. */
export const rosterMappings = pgTable(
  'roster_mappings',
  {
    institutionId: institutionId(),
    headerKey: text('header_key').notNull(),
    mapping: jsonb('mapping').$type<ColumnMapping>().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.institutionId, t.headerKey] })],
);
