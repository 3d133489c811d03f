// Message templates (SPEC §3 "Template"): the user's own ("Mis plantillas") and the product's
// read-only libraries (Hermes and Socioemocional), which belong to no school.
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { TEMPLATE_REPOSITORIES } from '../../../shared/templates-contract';
import { users } from './auth';
import { createdAt, id, institutions } from './institutions';

/**
 * One template. `mis-plantillas` rows have an owner and the owner's school (the tenant scope); library
 * rows (`hermes`, `socioemocional`) have neither and are written in Chilean Spanish, localised when
 * answered (shared/guardian-term.ts). `search` is the folded name + content (shared/fold.ts), as
 * `messages.search`; `name_key` the folded name, unique per owner so no two own templates look alike.
 */
export const templates = pgTable(
  'templates',
  {
    id: id(),
    repository: text('repository', { enum: TEMPLATE_REPOSITORIES }).notNull(),
    institutionId: integer('institution_id').references(() => institutions.id, { onDelete: 'cascade' }),
    ownerUserId: integer('owner_user_id').references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    nameKey: text('name_key').notNull(),
    content: text('content').notNull(),
    search: text('search').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The user's own, newest first (the list's order), and its names (copy names, duplicate check).
    index('templates_owner_idx').on(t.ownerUserId, t.updatedAt.desc(), t.id.desc()),
    uniqueIndex('templates_owner_name_idx').on(t.ownerUserId, t.nameKey),
    index('templates_institution_idx').on(t.institutionId),
    // The libraries, by name; one template per name in each (server/templates/library.ts loads the missing).
    index('templates_repository_idx').on(t.repository, t.name),
    uniqueIndex('templates_library_name_idx').on(t.repository, t.nameKey).where(sql`${t.ownerUserId} is null`),
    check('templates_repository_check', sql`${t.repository} in ('mis-plantillas', 'hermes', 'socioemocional')`),
    check(
      'templates_owner_check',
      sql`(${t.repository} = 'mis-plantillas') = (${t.ownerUserId} is not null and ${t.institutionId} is not null)`,
    ),
  ],
);
