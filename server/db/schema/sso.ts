// Staff single sign-on through OpenID Connect: each school's provider settings, and the sign-ins under way
// (between the redirect to the provider and its answer).
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { SSO_PROVIDERS } from '../../../shared/sso-contract';
import { users } from './auth';
import { createdAt, id, institutionId } from './institutions';

/**
 * One school's OpenID provider, set by its administrator. `client_secret` is read by the server only: the
 * API answers whether one is set, never its value.
 */
export const ssoSettings = pgTable(
  'sso_settings',
  {
    id: id(),
    institutionId: institutionId(),
    provider: text('provider', { enum: SSO_PROVIDERS }).notNull(),
    issuer: text('issuer').notNull(),
    clientId: text('client_id').notNull(),
    clientSecret: text('client_secret'),
    /** Lower-case e-mail domain whose people may sign in this way. */
    domain: text('domain').notNull(),
    enabled: boolean('enabled').notNull().default(false),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [uniqueIndex('sso_settings_institution_idx').on(t.institutionId), index('sso_settings_domain_idx').on(t.domain)],
);

/**
 * A sign-in sent to the provider and not yet back: the SHA-256 of its `state` (the browser holds the value
 * in a cookie), the nonce and PKCE verifier the answer is checked with. Deleted as it is used, so a state
 * works once; rows left behind expire after a few minutes.
 */
export const ssoAttempts = pgTable(
  'sso_attempts',
  {
    id: id(),
    institutionId: institutionId(),
    stateHash: text('state_hash').notNull(),
    nonce: text('nonce').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('sso_attempts_state_hash_idx').on(t.stateHash), index('sso_attempts_expires_idx').on(t.expiresAt)],
);
