// Who signs in: staff users with their roles and policies and their browser sessions, and the guardian
// app's bearer tokens and SMS sign-in codes.
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { STAFF_STATES } from '../../../shared/staff-contract';
import { createdAt, id, institutionId } from './institutions';

/** Shape of `users.options`; the SPA reads `options.url.home` for the sidebar home link. */
export interface UserOptions {
  url: { home: string };
}

export const users = pgTable(
  'users',
  {
    id: id(),
    institutionId: institutionId(),
    /** Always stored lowercased (checked), unique across schools because login is by e-mail alone. */
    email: text('email').notNull(),
    /** Null until an invited person sets a password (server/staff/invitations.ts); such a user cannot sign in. */
    passwordHash: text('password_hash'),
    name: text('name').notNull(),
    /** `latam` users see the news wall; `cl` users do not. */
    device: text('device').notNull(),
    domain: text('domain', { enum: ['cl', 'mx'] }).notNull(),
    scope: text('scope').array().notNull().default(sql`'{}'::text[]`),
    options: jsonb('options').$type<UserOptions>().notNull(),
    /** Only `active` users sign in; the session lookup reads it on every request (server/auth/sessions.ts). */
    status: text('status', { enum: STAFF_STATES }).notNull().default('active'),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
    deactivatedAt: timestamp('deactivated_at', { withTimezone: true }),
    deactivatedBy: integer('deactivated_by').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('users_email_idx').on(t.email),
    index('users_institution_idx').on(t.institutionId),
    check('users_email_lower_check', sql`${t.email} = lower(${t.email})`),
    check('users_status_check', sql`${t.status} in ('invited', 'active', 'deactivated')`),
  ],
);

/** Role codes of the contract (`colegio-administrador`, `docente`…) with their display names. */
export const userRoles = pgTable(
  'user_roles',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    name: text('name').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.code] })],
);

/** Policy names (`hermes-acceder-sistema`…) granted to a user. */
export const userPolicies = pgTable(
  'user_policies',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.name] })],
);

/**
 * One row per signed-in browser. Only SHA-256 hashes of the tokens are stored, so a leaked table
 * cannot be replayed. Refresh rotates both hashes in place.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accessHash: text('access_hash').notNull(),
    refreshHash: text('refresh_hash').notNull(),
    accessExpiresAt: timestamp('access_expires_at', { withTimezone: true }).notNull(),
    refreshExpiresAt: timestamp('refresh_expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    refreshedAt: timestamp('refreshed_at', { withTimezone: true }),
    userAgent: text('user_agent'),
    ip: text('ip'),
  },
  (t) => [
    uniqueIndex('sessions_access_hash_idx').on(t.accessHash),
    uniqueIndex('sessions_refresh_hash_idx').on(t.refreshHash),
    index('sessions_user_idx').on(t.userId),
    index('sessions_refresh_expires_idx').on(t.refreshExpiresAt),
  ],
);

/**
 * Sessions of the guardian app (SPEC app-mobile channel): a bearer token per signed-in device, stored as a
 * SHA-256 hash like staff sessions. `person_kind` apoderado (or estudiante) and `person_id` name who it is.
 */
export const appTokens = pgTable(
  'app_tokens',
  {
    id: id(),
    institutionId: institutionId(),
    personKind: text('person_kind', { enum: ['apoderado', 'estudiante'] }).notNull(),
    personId: integer('person_id').notNull(),
    /**
     * The phone the sign-in code went to (E.164): every guardian row with this phone, in any school, is
     * this session's too. Null on sessions opened before phones were kept: they reach `person_id` only.
     */
    phone: text('phone'),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('app_tokens_hash_idx').on(t.tokenHash),
    index('app_tokens_person_idx').on(t.personKind, t.personId),
    // The device status asks, per guardian, whether a session of their phone is in use.
    index('app_tokens_phone_idx').on(t.phone),
  ],
);

/** One-time sign-in codes of the guardian app, sent by SMS; only a hash is kept, with an attempt limit. */
export const appLoginCodes = pgTable(
  'app_login_codes',
  {
    id: id(),
    phone: text('phone').notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: smallint('attempts').notNull().default(0),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (t) => [index('app_login_codes_phone_idx').on(t.phone)],
);

/**
 * Secrets the servers sign with, created once by whichever server starts first and read by every server
 * and worker on this database, so they all agree (server/auth/secret.ts). `xsrf` signs the CSRF tokens
 * unless HERMES_SECRET is set.
 */
export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: createdAt(),
});

/**
 * Attempts a rate limit counts (server/auth/rate-limit.ts): failed logins per e-mail and IP, the guardian
 * app's code requests and wrong codes per IP. In the database, not in a process's memory, so the limits
 * hold however many servers answer behind the load balancer. The hourly sweep deletes rows older than a day.
 */
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    id: id(),
    /** Which limit (`login`, `app-code-ip`, …). */
    scope: text('scope').notNull(),
    /** Who is counted within it (e.g. `email|ip`). */
    key: text('key').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('rate_limit_hits_scope_key_at_idx').on(t.scope, t.key, t.at)],
);
