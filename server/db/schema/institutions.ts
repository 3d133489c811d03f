// The Drizzle schema is one file per domain under server/db/schema/ (no index file: import the table from
// its domain). SQL names are English snake_case; the API layer maps them to the Spanish field names of the
// contract (nombre, grupo_type, rol_adulto_id, codigo…). Every tenant-owned table carries `institution_id`
// (indexed) so `server/http/tenant.ts` can scope any query with one condition.
//
// This file holds the school itself, root of tenancy, and the column helpers every domain file uses: they
// sit beside the table `institutionId()` references, so that no two schema files import each other.
import { sql } from 'drizzle-orm';
import { boolean, check, customType, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const id = () => integer('id').primaryKey().generatedByDefaultAsIdentity();
export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
/** `institution_id` (deleted with its school); index it in the table, `server/http/tenant.ts` filters on it. */
export const institutionId = () =>
  integer('institution_id')
    .notNull()
    .references(() => institutions.id, { onDelete: 'cascade' });

/** Raw bytes (Postgres `bytea`), read and written as Node Buffers. */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

export const institutions = pgTable(
  'institutions',
  {
    id: id(),
    name: text('name').notNull(),
    country: text('country', { enum: ['CL', 'MX'] }).notNull(),
    locale: text('locale', { enum: ['es-CL', 'es-MX'] }).notNull(),
    timezone: text('timezone').notNull(),
    domain: text('domain', { enum: ['cl', 'mx'] }).notNull(),
    /** E.164 country calling code, e.g. `+56`. */
    phonePrefix: text('phone_prefix').notNull(),
    homeUrl: text('home_url').notNull(),
    /** Support chat (zendesk) offered to this school's admins; only meaningful for domain `cl`. */
    chatEnabled: boolean('chat_enabled').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    check('institutions_country_check', sql`${t.country} in ('CL', 'MX')`),
    check('institutions_domain_check', sql`${t.domain} in ('cl', 'mx')`),
  ],
);

/**
 * The school's logo for its e-mails and printed pages: at most one per school, a small PNG or JPEG kept in
 * the database beside the school (server/school-logo/logo.ts). Its own table so that reading a school never
 * reads the bytes; `hash` names the version in the logo's URL and in the e-mail engine's cache.
 */
export const schoolLogos = pgTable(
  'school_logos',
  {
    institutionId: integer('institution_id')
      .primaryKey()
      .references(() => institutions.id, { onDelete: 'cascade' }),
    content: bytea('content').notNull(),
    contentType: text('content_type', { enum: ['image/png', 'image/jpeg'] }).notNull(),
    /** The first 16 hex digits of the content's SHA-256. */
    hash: text('hash').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('school_logos_content_type_check', sql`${t.contentType} in ('image/png', 'image/jpeg')`)],
);
