// Drizzle schema. SQL names are English snake_case; the API layer maps them to the Spanish field names of
// the contract (nombre, grupo_type, rol_adulto_id, codigo…). Every tenant-owned table carries
// `institution_id` (indexed) so `server/http/tenant.ts` can scope any query with one condition.
import { sql } from 'drizzle-orm';
import type { RecipientPick } from '../../shared/compose-contract';
import { CHANNEL_CODES, FOLDERS, LIVE_FOLDERS, PERSON_KINDS } from '../../shared/codes';
import { DELIVERY_STATUSES, RECIPIENT_STATUSES } from '../../shared/reception-contract';
import {
  boolean,
  check,
  customType,
  date,
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

const id = () => integer('id').primaryKey().generatedByDefaultAsIdentity();
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const institutionId = () =>
  integer('institution_id')
    .notNull()
    .references(() => institutions.id, { onDelete: 'cascade' });

/** Shape of `users.options`; the SPA reads `options.url.home` for the sidebar home link. */
export interface UserOptions {
  url: { home: string };
}

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

/** School levels (Pre-kínder … IV Medio, 1° de Secundaria …), ordered by `position` within a school. */
export const levels = pgTable(
  'levels',
  {
    id: id(),
    institutionId: institutionId(),
    name: text('name').notNull(),
    position: smallint('position').notNull(),
  },
  (t) => [uniqueIndex('levels_institution_position_idx').on(t.institutionId, t.position)],
);

export const courses = pgTable(
  'courses',
  {
    id: id(),
    institutionId: institutionId(),
    levelId: integer('level_id')
      .notNull()
      .references(() => levels.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Recipient group kind as the API names it (`grupo_type`); electives are `electivo`. */
    groupType: text('group_type').notNull().default('curso'),
  },
  (t) => [
    index('courses_institution_idx').on(t.institutionId),
    index('courses_level_idx').on(t.levelId),
    uniqueIndex('courses_institution_name_idx').on(t.institutionId, t.name),
  ],
);

export const students = pgTable(
  'students',
  {
    id: id(),
    institutionId: institutionId(),
    courseId: integer('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'restrict' }),
    firstNames: text('first_names').notNull(),
    lastNameFather: text('last_name_father').notNull(),
    lastNameMother: text('last_name_mother').notNull(),
    /** National id (Chilean RUT with check digit); null when the school did not provide one. */
    dni: text('dni'),
    birthDate: date('birth_date', { mode: 'string' }).notNull(),
    email: text('email'),
  },
  (t) => [index('students_institution_idx').on(t.institutionId), index('students_course_idx').on(t.courseId)],
);

/** Adults responsible for students (apoderados). */
export const guardians = pgTable(
  'guardians',
  {
    id: id(),
    institutionId: institutionId(),
    firstNames: text('first_names').notNull(),
    lastNameFather: text('last_name_father').notNull(),
    lastNameMother: text('last_name_mother').notNull(),
    dni: text('dni'),
    email: text('email'),
    /** E.164, e.g. +56912345678 or +525512345678. */
    phone: text('phone'),
    /** When the guardian installed the school app (device status blue); null when not installed. */
    appInstalledAt: timestamp('app_installed_at', { withTimezone: true }),
    /**
     * How many of the guardian's last 3 finished device deliveries (app, SMS, WhatsApp) were not received;
     * 3 is the yellow device status (SPEC §9). Kept by the delivery engine as deliveries end (issue 5).
     */
    deviceMisses: smallint('device_misses').notNull().default(0),
  },
  (t) => [
    index('guardians_institution_idx').on(t.institutionId),
    check('guardians_phone_e164_check', sql`${t.phone} ~ '^\\+[1-9][0-9]{7,14}$'`),
  ],
);

/** 1 = titular, 2 = suplente (the API's `rol_adulto_id`). */
export const GUARDIAN_ROLE = { titular: 1, suplente: 2 } as const;

export const studentGuardians = pgTable(
  'student_guardians',
  {
    studentId: integer('student_id')
      .notNull()
      .references(() => students.id, { onDelete: 'cascade' }),
    guardianId: integer('guardian_id')
      .notNull()
      .references(() => guardians.id, { onDelete: 'cascade' }),
    role: smallint('role').notNull(),
    /** Madre, Padre, Abuela… as the school registered it. */
    relationship: text('relationship').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.studentId, t.guardianId] }),
    uniqueIndex('student_guardians_student_role_idx').on(t.studentId, t.role),
    index('student_guardians_guardian_idx').on(t.guardianId),
    check('student_guardians_role_check', sql`${t.role} in (1, 2)`),
  ],
);

/** Staff job titles (cargos): Profesor jefe, Inspector general… */
export const positions = pgTable(
  'positions',
  {
    id: id(),
    institutionId: institutionId(),
    name: text('name').notNull(),
  },
  (t) => [uniqueIndex('positions_institution_name_idx').on(t.institutionId, t.name)],
);

export const users = pgTable(
  'users',
  {
    id: id(),
    institutionId: institutionId(),
    /** Always stored lowercased (checked), unique across schools because login is by e-mail alone. */
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    name: text('name').notNull(),
    /** `latam` users see the news wall; `cl` users do not. */
    device: text('device').notNull(),
    domain: text('domain', { enum: ['cl', 'mx'] }).notNull(),
    scope: text('scope').array().notNull().default(sql`'{}'::text[]`),
    options: jsonb('options').$type<UserOptions>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('users_email_idx').on(t.email),
    index('users_institution_idx').on(t.institutionId),
    check('users_email_lower_check', sql`${t.email} = lower(${t.email})`),
  ],
);

export const staff = pgTable(
  'staff',
  {
    id: id(),
    institutionId: institutionId(),
    positionId: integer('position_id').references(() => positions.id, { onDelete: 'set null' }),
    /** Set when this staff member can sign in. */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    firstNames: text('first_names').notNull(),
    lastNameFather: text('last_name_father').notNull(),
    lastNameMother: text('last_name_mother').notNull(),
    email: text('email'),
    phone: text('phone'),
  },
  (t) => [
    index('staff_institution_idx').on(t.institutionId),
    uniqueIndex('staff_user_idx').on(t.userId),
    check('staff_phone_e164_check', sql`${t.phone} ~ '^\\+[1-9][0-9]{7,14}$'`),
  ],
);

export const electives = pgTable(
  'electives',
  {
    id: id(),
    institutionId: institutionId(),
    name: text('name').notNull(),
  },
  (t) => [uniqueIndex('electives_institution_name_idx').on(t.institutionId, t.name)],
);

export const electiveStudents = pgTable(
  'elective_students',
  {
    electiveId: integer('elective_id')
      .notNull()
      .references(() => electives.id, { onDelete: 'cascade' }),
    studentId: integer('student_id')
      .notNull()
      .references(() => students.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.electiveId, t.studentId] }), index('elective_students_student_idx').on(t.studentId)],
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

/** Raw bytes (Postgres `bytea`), read and written as Node Buffers. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * A message as written once by its author (SPEC §4). Per-user state (folder, read, trash) lives in
 * `mailbox_entries`. `search` is the accent-folded lowercase title + content (see server/messages/fold.ts),
 * maintained by the server because the embedded engine has no `unaccent` loaded.
 */
export const messages = pgTable(
  'messages',
  {
    id: id(),
    institutionId: institutionId(),
    /** The staff user who wrote it; null for replies written by guardians or students. */
    authorUserId: integer('author_user_id').references(() => users.id, { onDelete: 'set null' }),
    senderKind: text('sender_kind', { enum: PERSON_KINDS }).notNull(),
    /** Id of the sender in users / guardians / students depending on `sender_kind`. */
    senderRefId: integer('sender_ref_id').notNull(),
    senderName: text('sender_name').notNull(),
    title: text('title').notNull(),
    content: text('content').notNull(),
    channels: text('channels').array().notNull().default(sql`'{}'::text[]`),
    allowReplies: boolean('allow_replies').notNull().default(false),
    copyToSender: boolean('copy_to_sender').notNull().default(false),
    kind: text('kind', { enum: ['draft', 'scheduled', 'sent'] }).notNull(),
    scheduledAt: timestamp('scheduled_at', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    replyToId: integer('reply_to_id'),
    search: text('search').notNull(),
    /** The picker's selection as the author made it (drafts reopen with it); expanded into recipients on send. */
    recipientPicks: jsonb('recipient_picks').$type<RecipientPick[]>().notNull().default(sql`'[]'::jsonb`),
    /** Client-chosen key of a send/schedule request: a retried request finds the first message instead. */
    idempotencyKey: text('idempotency_key'),
    /** The institution signature as appended when sent (null: none was active). */
    signature: text('signature'),
    /** When the delivery engine queued a job for every delivery of the message (null: not yet, or none). */
    fannedOutAt: timestamp('fanned_out_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('messages_institution_idx').on(t.institutionId),
    index('messages_due_idx').on(t.kind, t.scheduledAt),
    uniqueIndex('messages_author_idempotency_idx').on(t.authorUserId, t.idempotencyKey),
    check('messages_kind_check', sql`${t.kind} in ('draft', 'scheduled', 'sent')`),
  ],
);

/** One addressee of a message, with its reception state; `group_*` is the recipient group it came from. */
export const messageRecipients = pgTable(
  'message_recipients',
  {
    id: id(),
    messageId: integer('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    recipientKind: text('recipient_kind', { enum: PERSON_KINDS }).notNull(),
    recipientRefId: integer('recipient_ref_id').notNull(),
    displayName: text('display_name').notNull(),
    /** curso | electivo | funcionarios | apoderado… as shown in the recipients summary. */
    groupKind: text('group_kind').notNull(),
    groupLabel: text('group_label').notNull(),
    /** `pending` until the delivery engine (issue 5) reports the first channel outcome. */
    status: text('status', { enum: RECIPIENT_STATUSES }).notNull(),
    /** Guardians: the students they answer for in this message ("Ana Pérez, Tomás Pérez"). */
    studentNames: text('student_names'),
  },
  (t) => [
    index('message_recipients_message_idx').on(t.messageId),
    index('message_recipients_person_idx').on(t.recipientKind, t.recipientRefId),
    check(
      'message_recipients_status_check',
      sql`${t.status} in ('pending', 'received', 'read', 'not_received', 'error', 'failed')`,
    ),
  ],
);

/**
 * One channel of one recipient of a sent or scheduled message: what the delivery engine (issue 5) works
 * through. `address` is the e-mail, E.164 phone or app account it goes to; null when the recipient has
 * none, in which case the row is born `failed` with `error = 'missing_address'`.
 */
export const deliveries = pgTable(
  'deliveries',
  {
    id: id(),
    messageId: integer('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    recipientId: integer('recipient_id')
      .notNull()
      .references(() => messageRecipients.id, { onDelete: 'cascade' }),
    channel: text('channel', { enum: CHANNEL_CODES }).notNull(),
    address: text('address'),
    status: text('status', {
      enum: DELIVERY_STATUSES,
    }).notNull(),
    error: text('error'),
    /** SMS segments this delivery counts against the monthly quota (0 for other channels). */
    segments: smallint('segments').notNull().default(0),
    attempts: smallint('attempts').notNull().default(0),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    readAt: timestamp('read_at', { withTimezone: true }),
    lastRetryAt: timestamp('last_retry_at', { withTimezone: true }),
    /** Bumped by "retry failed": a new round gets new queue jobs, and a late job of an older round is a no-op. */
    generation: smallint('generation').notNull().default(0),
    /** The SMS/WhatsApp provider's id of the message, which its status webhook quotes. */
    providerRef: text('provider_ref'),
  },
  (t) => [
    index('deliveries_message_idx').on(t.messageId),
    index('deliveries_provider_ref_idx').on(t.providerRef),
    index('deliveries_recipient_idx').on(t.recipientId),
    index('deliveries_status_idx').on(t.status),
    uniqueIndex('deliveries_recipient_channel_idx').on(t.recipientId, t.channel),
    check(
      'deliveries_status_check',
      sql`${t.status} in ('queued', 'sent', 'received', 'read', 'not_received', 'error', 'failed')`,
    ),
  ],
);

/**
 * Files attached to a message. New files live on disk (`storage_key`, relative to the attachments
 * directory, ./data/attachments by default); rows written before that keep their bytes in `content`.
 * Exactly one of the two is set. `message_id` is null between upload and the first save or send.
 */
export const messageAttachments = pgTable(
  'message_attachments',
  {
    id: id(),
    messageId: integer('message_id').references(() => messages.id, { onDelete: 'cascade' }),
    /** Who uploaded it; only they can attach or delete it before it is sent. */
    ownerUserId: integer('owner_user_id').references(() => users.id, { onDelete: 'cascade' }),
    institutionId: integer('institution_id').references(() => institutions.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    size: integer('size').notNull(),
    contentType: text('content_type').notNull(),
    content: bytea('content'),
    storageKey: text('storage_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow(),
  },
  (t) => [
    index('message_attachments_message_idx').on(t.messageId),
    index('message_attachments_owner_idx').on(t.ownerUserId),
    check('message_attachments_storage_check', sql`(${t.content} is null) <> (${t.storageKey} is null)`),
  ],
);

/**
 * Per-user folder state: one row per user per message they see (author: sent/draft/scheduled; staff
 * recipients: inbox). `sort_at` is the folder date (sent_at, scheduled_at, updated_at or deleted_at).
 * `counterpart` is what the list shows (sender, or recipients summary); `counterpart_search` its folded form.
 */
export const mailboxEntries = pgTable(
  'mailbox_entries',
  {
    id: id(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    institutionId: institutionId(),
    messageId: integer('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    folder: text('folder', { enum: FOLDERS }).notNull(),
    deletedFrom: text('deleted_from', { enum: LIVE_FOLDERS }),
    readAt: timestamp('read_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    sortAt: timestamp('sort_at', { withTimezone: true }).notNull(),
    counterpart: text('counterpart').notNull(),
    counterpartSearch: text('counterpart_search').notNull(),
  },
  (t) => [
    // NULLS FIRST matches a plain `ORDER BY sort_at DESC, id DESC`, so the list walks this index and stops early.
    index('mailbox_entries_list_idx').on(t.userId, t.folder, t.sortAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    uniqueIndex('mailbox_entries_user_message_idx').on(t.userId, t.messageId),
    index('mailbox_entries_message_idx').on(t.messageId),
    check('mailbox_entries_folder_check', sql`${t.folder} in ('inbox', 'sent', 'scheduled', 'draft', 'trash')`),
    check(
      'mailbox_entries_trash_check',
      sql`(${t.folder} = 'trash') = (${t.deletedFrom} is not null and ${t.deletedAt} is not null)`,
    ),
  ],
);

// --- compose (issue 4) ------------------------------------------------------------------------------------

/** Channels a school has contracted (SPEC `enabled_by_institution`); a missing row means disabled. */
export const institutionChannels = pgTable(
  'institution_channels',
  {
    institutionId: institutionId(),
    channel: text('channel', { enum: CHANNEL_CODES }).notNull(),
    enabled: boolean('enabled').notNull(),
  },
  (t) => [primaryKey({ columns: [t.institutionId, t.channel] })],
);

/** Per-user channel permission (SPEC communication permission); a missing row means not permitted. */
export const userChannelPermissions = pgTable(
  'user_channel_permissions',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    channel: text('channel', { enum: CHANNEL_CODES }).notNull(),
    enabled: boolean('enabled').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.channel] })],
);

export const institutionSignatures = pgTable(
  'institution_signatures',
  {
    id: id(),
    institutionId: institutionId(),
    device: text('device').notNull(),
    domain: text('domain', { enum: ['cl', 'mx'] }).notNull(),
    signature: text('signature').notNull(),
    isActive: boolean('is_active').notNull().default(false),
  },
  (t) => [uniqueIndex('institution_signatures_institution_idx').on(t.institutionId)],
);

/** Monthly SMS limit and the e-mail / WhatsApp balances (null = unlimited) of a school. */
export const institutionQuotas = pgTable('institution_quotas', {
  institutionId: integer('institution_id')
    .primaryKey()
    .references(() => institutions.id, { onDelete: 'cascade' }),
  smsMonthlyLimit: integer('sms_monthly_limit').notNull(),
  emailBalance: integer('email_balance'),
  whatsappBalance: integer('whatsapp_balance'),
});

/** SMS segments consumed per school and calendar month (institution time zone), updated under a row lock. */
export const smsUsage = pgTable(
  'sms_usage',
  {
    institutionId: institutionId(),
    /** YYYY-MM */
    month: text('month').notNull(),
    segments: integer('segments').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.institutionId, t.month] })],
);

export const recipientLists = pgTable(
  'recipient_lists',
  {
    id: id(),
    institutionId: institutionId(),
    ownerUserId: integer('owner_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdAt: createdAt(),
    /** Lists have a trash (SPEC §2 /recipient-lists/trash). */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [index('recipient_lists_owner_idx').on(t.ownerUserId)],
);

/** A member: a guardian (of `student_id`, with `role`), a student or a staff member. */
export const recipientListMembers = pgTable(
  'recipient_list_members',
  {
    id: id(),
    listId: integer('list_id')
      .notNull()
      .references(() => recipientLists.id, { onDelete: 'cascade' }),
    memberKind: text('member_kind', { enum: ['apoderado', 'estudiante', 'funcionario'] }).notNull(),
    memberRefId: integer('member_ref_id').notNull(),
    studentId: integer('student_id').references(() => students.id, { onDelete: 'cascade' }),
    role: smallint('role'),
  },
  (t) => [
    index('recipient_list_members_list_idx').on(t.listId),
    uniqueIndex('recipient_list_members_unique_idx').on(t.listId, t.memberKind, t.memberRefId),
  ],
);

// --- delivery engine (issue 5) --------------------------------------------------------------------------

/**
 * The built-in SMS / WhatsApp provider simulator's own store (server/delivery/simulator.ts): what a real
 * provider would keep on its side. `reference` is the sender's idempotency key, so a request repeated after
 * a crash is answered with the first message instead of sending twice. `reported_at` null = the status
 * webhook is still owed (re-sent after a restart).
 */
export const providerSimMessages = pgTable(
  'provider_sim_messages',
  {
    id: text('id').primaryKey(),
    reference: text('reference').notNull(),
    channel: text('channel', { enum: ['sms', 'whatsapp'] }).notNull(),
    to: text('to').notNull(),
    body: text('body').notNull(),
    /** accepted → delivered | undelivered | failed (→ read, WhatsApp only). */
    status: text('status').notNull(),
    callbackUrl: text('callback_url'),
    createdAt: createdAt(),
    reportAt: timestamp('report_at', { withTimezone: true }),
    reportedAt: timestamp('reported_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('provider_sim_messages_reference_idx').on(t.reference), index('provider_sim_messages_owed_idx').on(t.reportedAt)],
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
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('app_tokens_hash_idx').on(t.tokenHash), index('app_tokens_person_idx').on(t.personKind, t.personId)],
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
