// Messages as written, their recipients and attachments, and each user's folders (mailbox entries).
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { RecipientPick } from '../../../shared/compose-contract';
import { FOLDERS, LIVE_FOLDERS, PERSON_KINDS } from '../../../shared/codes';
import { RECIPIENT_STATUSES } from '../../../shared/reception-contract';
import { users } from './auth';
import { newsPosts } from './news';
import { bytea, createdAt, id, institutionId, institutions } from './institutions';

/**
 * A message as written once by its author (SPEC §4). Per-user state (folder, read, trash) lives in
 * `mailbox_entries`. `search` is the accent-folded lowercase title + content (shared/fold.ts),
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
    /** Marked "Emergencia" in compose: may use the SMS quota's emergency reserve. */
    emergency: boolean('emergency').notNull().default(false),
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
    /** The data screens' periods and the coverage windows (newest first): a school's sent messages by date (server/dashboard/). */
    index('messages_sent_at_idx').on(t.institutionId, t.sentAt).where(sql`${t.kind} = 'sent'`),
    index('messages_due_idx').on(t.kind, t.scheduledAt),
    /** A conversation is walked down from its first message (server/messages/replies.ts `conversationCtes`). */
    index('messages_reply_to_idx').on(t.replyToId).where(sql`${t.replyToId} is not null`),
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
    /** `pending` until the delivery engine reports the first channel outcome. */
    status: text('status', { enum: RECIPIENT_STATUSES }).notNull(),
    /** Guardians: the students they answer for in this message ("Ana Pérez, Tomás Pérez"). */
    studentNames: text('student_names'),
    /**
     * Roll-up of the deliveries: when the first of them was received or read (the earliest delivered_at or
     * read_at of those received or read), null while none is. Kept by the delivery engine with `status`
     * (server/reception/status.ts refreshRecipients); the dashboards' "cobertura efectiva" reads it.
     */
    reachedAt: timestamp('reached_at', { withTimezone: true }),
  },
  (t) => [
    index('message_recipients_message_idx').on(t.messageId),
    index('message_recipients_person_idx').on(t.recipientKind, t.recipientRefId),
    check('message_recipients_status_check', sql`${t.status} in ('pending', 'received', 'read', 'not_received', 'error', 'failed')`),
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
    /** Set when a news wall post took the file instead of a message (never both). */
    newsPostId: integer('news_post_id').references(() => newsPosts.id, { onDelete: 'cascade' }),
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
    index('message_attachments_news_post_idx').on(t.newsPostId),
    check('message_attachments_one_owner_check', sql`${t.messageId} is null or ${t.newsPostId} is null`),
    check('message_attachments_storage_check', sql`(${t.content} is null) <> (${t.storageKey} is null)`),
  ],
);

/**
 * Per-user folder state: one row per user per message they see (author: sent/draft/scheduled; staff
 * recipients: inbox). `sort_at` is the message's date (sent_at, scheduled_at or updated_at), in the trash too.
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
    check('mailbox_entries_trash_check', sql`(${t.folder} = 'trash') = (${t.deletedFrom} is not null and ${t.deletedAt} is not null)`),
  ],
);
