// Read side of the mailbox: folder lists (cursor-paged), counters, one message. Everything is keyed by the
// signed-in user's entries, so another user's message simply does not exist here.
import { and, asc, desc, eq, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type {
  AttachmentSummary,
  FolderCount,
  GuardianConversation,
  GuardianOf,
  MessageDetail,
  MessageSummary,
  ThreadMessage,
} from '../../shared/messages-contract';
import { THREAD_LIMIT } from '../../shared/messages-contract';
import { canReply } from '../../shared/message-rules';
import { rowsOf, escapeLike } from '../db/sql';
import { intList } from '../db/arrays';
import type { Queryable } from '../db/client';
import { institutions } from '../db/schema/institutions';
import { mailboxEntries, messageAttachments, messageRecipients, messages } from '../db/schema/messages';
import { fold } from '../../shared/fold';
import type { DeliveryProgress } from '../../shared/reception-contract';
import { progressOf } from '../reception/reception';
import type { ChannelCode, Folder, MessageKind, PersonKind } from '../../shared/codes';
import { channelsReaching, conversationCtes } from './replies';
import { partyOf, partyOfMessage, treeCtes } from './family-threads';
import { attachmentUrl } from '../storage/uploads';
import { arrivedBy } from './arrived-by';

export const SNIPPET_LENGTH = 140;

const KIND_BY_FOLDER: Record<Folder, MessageKind> = {
  inbox: 'received',
  sent: 'sent',
  scheduled: 'scheduled',
  draft: 'draft',
  trash: 'deleted',
};

const summaryColumns = {
  entryId: mailboxEntries.id,
  id: messages.id,
  folder: mailboxEntries.folder,
  deletedFrom: mailboxEntries.deletedFrom,
  readAt: mailboxEntries.readAt,
  sortAt: mailboxEntries.sortAt,
  /** Microseconds since the epoch as text: the exact `sort_at` for the cursor. */
  sortAtUs: sql<string>`(extract(epoch from ${mailboxEntries.sortAt}) * 1000000)::bigint::text`,
  counterpart: mailboxEntries.counterpart,
  title: messages.title,
  snippet: sql<string>`left(${messages.content}, ${SNIPPET_LENGTH})`,
  channels: messages.channels,
  hasAttachments: sql<boolean>`exists (select 1 from ${messageAttachments} where ${messageAttachments.messageId} = ${messages.id})`,
};

type SummaryRow = {
  id: number;
  folder: Folder;
  deletedFrom: Exclude<Folder, 'trash'> | null;
  readAt: Date | null;
  sortAt: Date;
  counterpart: string;
  title: string;
  snippet: string;
  channels: string[];
  hasAttachments: boolean;
};

/** `progress` is filled for sent-folder rows by `withProgress`; null elsewhere. */
function toSummary(row: SummaryRow, progress: DeliveryProgress | null = null): MessageSummary {
  const received = row.folder === 'inbox' || row.deletedFrom === 'inbox';
  return {
    id: row.id,
    folder: row.folder,
    kind: KIND_BY_FOLDER[row.folder],
    title: row.title,
    snippet: row.snippet,
    counterpart: row.counterpart,
    channels: row.channels as ChannelCode[],
    has_attachments: row.hasAttachments,
    unread: received && row.readAt === null,
    date: new Date(row.sortAt).toISOString(),
    deleted_from: row.deletedFrom,
    progress,
  };
}

/** Summaries of `rows`, the sent folder's with their delivery progress (one grouped query for the page). */
async function withProgress(db: Queryable, rows: SummaryRow[]): Promise<MessageSummary[]> {
  const sent = rows.filter((r) => r.folder === 'sent').map((r) => r.id);
  const progress = await progressOf(db, sent);
  return rows.map((r) => toSummary(r, r.folder === 'sent' ? (progress.get(r.id) ?? null) : null));
}

// --- cursor ---------------------------------------------------------------------------------------------

export interface Cursor {
  /** `next` pages go to older entries than the key, `prev` pages to newer ones. */
  dir: 'next' | 'prev';
  sortAtUs: string;
  entryId: number;
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(`${cursor.dir === 'next' ? 'n' : 'p'}${cursor.sortAtUs}:${cursor.entryId}`).toString('base64url');
}

export function decodeCursor(raw: string): Cursor | null {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(raw)) return null;
  const match = /^([np])(-?[0-9]{1,18}):([1-9][0-9]{0,9})$/.exec(Buffer.from(raw, 'base64url').toString());
  if (!match) return null;
  return { dir: match[1] === 'n' ? 'next' : 'prev', sortAtUs: match[2]!, entryId: Number(match[3]) };
}

// --- list -------------------------------------------------------------------------------------------------

export interface ListQuery {
  userId: number;
  folder: Folder;
  q: string;
  limit: number;
  cursor: Cursor | null;
}

export async function listFolder(db: Queryable, query: ListQuery) {
  const conditions: SQL[] = [eq(mailboxEntries.userId, query.userId), eq(mailboxEntries.folder, query.folder)];
  const needle = fold(query.q.trim());
  if (needle) {
    const pattern = `%${escapeLike(needle)}%`;
    conditions.push(or(sql`${messages.search} like ${pattern}`, sql`${mailboxEntries.counterpartSearch} like ${pattern}`)!);
  }
  const filter = and(...conditions);
  const cursor = query.cursor;
  const backwards = cursor?.dir === 'prev';
  const key = cursor ? sql`(timestamptz 'epoch' + ${cursor.sortAtUs}::bigint * interval '1 microsecond', ${cursor.entryId})` : undefined;
  const page = and(
    filter,
    key ? sql`(${mailboxEntries.sortAt}, ${mailboxEntries.id}) ${sql.raw(backwards ? '>' : '<')} ${key}` : undefined,
  );
  // Two steps so the common case (no search) walks the (user, folder, sort_at, id) index and stops after one
  // page instead of joining the whole folder: first the page's entry ids, then their rows.
  const pageQuery = db.select({ entryId: mailboxEntries.id, sortAtUs: summaryColumns.sortAtUs }).from(mailboxEntries).$dynamic();
  const countQuery = db.select({ total: sql<number>`count(*)::int` }).from(mailboxEntries).$dynamic();
  if (needle) {
    pageQuery.innerJoin(messages, eq(messages.id, mailboxEntries.messageId));
    countQuery.innerJoin(messages, eq(messages.id, mailboxEntries.messageId));
  }
  const [keys, [count]] = await Promise.all([
    pageQuery
      .where(page)
      .orderBy(
        ...(backwards ? [asc(mailboxEntries.sortAt), asc(mailboxEntries.id)] : [desc(mailboxEntries.sortAt), desc(mailboxEntries.id)]),
      )
      .limit(query.limit + 1),
    countQuery.where(filter),
  ]);
  const pageKeys = keys.slice(0, query.limit);
  if (backwards) pageKeys.reverse();
  const rows =
    pageKeys.length === 0
      ? []
      : await db
          .select(summaryColumns)
          .from(mailboxEntries)
          .innerJoin(messages, eq(messages.id, mailboxEntries.messageId))
          .where(
            inArray(
              mailboxEntries.id,
              pageKeys.map((k) => k.entryId),
            ),
          )
          .orderBy(desc(mailboxEntries.sortAt), desc(mailboxEntries.id));
  // Beyond the page in the walking direction there is more when the extra row came back; behind it there
  // is at least the cursor's own entry.
  const more = keys.length > query.limit;
  const first = pageKeys[0];
  const last = pageKeys.at(-1);
  const hasOlder = backwards ? true : more;
  const hasNewer = backwards ? more : cursor !== null;
  return {
    items: await withProgress(db, rows),
    total: count?.total ?? 0,
    nextCursor: hasOlder && last ? encodeCursor({ dir: 'next', sortAtUs: last.sortAtUs, entryId: last.entryId }) : null,
    prevCursor: hasNewer && first ? encodeCursor({ dir: 'prev', sortAtUs: first.sortAtUs, entryId: first.entryId }) : null,
  };
}

// --- counters ---------------------------------------------------------------------------------------------

const COUNT_TYPES: { type: FolderCount['type']; folder: Folder }[] = [
  { type: 'received', folder: 'inbox' },
  { type: 'sent', folder: 'sent' },
  { type: 'scheduled', folder: 'scheduled' },
  { type: 'draft', folder: 'draft' },
];

export async function folderCounts(db: Queryable, userId: number): Promise<FolderCount[]> {
  const rows = await db
    .select({
      folder: mailboxEntries.folder,
      total: sql<number>`count(*)::int`,
      unreads: sql<number>`(count(*) filter (where ${mailboxEntries.readAt} is null))::int`,
    })
    .from(mailboxEntries)
    .where(and(eq(mailboxEntries.userId, userId), ne(mailboxEntries.folder, 'trash')))
    .groupBy(mailboxEntries.folder);
  const byFolder = new Map(rows.map((r) => [r.folder, r]));
  return COUNT_TYPES.map(({ type, folder }) => {
    const row = byFolder.get(folder);
    return { type, total: row?.total ?? 0, unreads: type === 'received' ? (row?.unreads ?? 0) : 0 };
  });
}

// --- one message ------------------------------------------------------------------------------------------

export async function findSummary(db: Queryable, userId: number, messageId: number): Promise<MessageSummary | null> {
  const [row] = await db
    .select(summaryColumns)
    .from(mailboxEntries)
    .innerJoin(messages, eq(messages.id, mailboxEntries.messageId))
    .where(and(eq(mailboxEntries.userId, userId), eq(mailboxEntries.messageId, messageId)));
  return row ? (await withProgress(db, [row]))[0]! : null;
}

export async function findDetail(db: Queryable, userId: number, messageId: number): Promise<MessageDetail | null> {
  const [row] = await db
    .select({
      ...summaryColumns,
      content: messages.content,
      senderKind: messages.senderKind,
      senderRefId: messages.senderRefId,
      senderName: messages.senderName,
      kindStored: messages.kind,
      allowReplies: messages.allowReplies,
      copyToSender: messages.copyToSender,
      scheduledAt: messages.scheduledAt,
      replyToId: messages.replyToId,
      institutionId: messages.institutionId,
      timezone: institutions.timezone,
    })
    .from(mailboxEntries)
    .innerJoin(messages, eq(messages.id, mailboxEntries.messageId))
    .innerJoin(institutions, eq(institutions.id, messages.institutionId))
    .where(and(eq(mailboxEntries.userId, userId), eq(mailboxEntries.messageId, messageId)));
  if (!row) return null;

  // The author's own sent message (its sent entry, or that entry in the trash) shows its delivery progress.
  const liveFolder = row.folder === 'trash' ? row.deletedFrom : row.folder;
  const sender = { id: row.senderRefId, name: row.senderName, kind: row.senderKind };
  const answerable = canReply(KIND_BY_FOLDER[row.folder], row.senderKind, row.allowReplies);
  const party = await partyOfMessage(db, messageId);
  const [groups, progress, files, thread, conversations, replyChannels, senderOf, arrived] = await Promise.all([
    db
      .select({
        kind: messageRecipients.groupKind,
        name: messageRecipients.groupLabel,
        count: sql<number>`count(*)::int`,
      })
      .from(messageRecipients)
      .where(eq(messageRecipients.messageId, messageId))
      .groupBy(messageRecipients.groupKind, messageRecipients.groupLabel)
      .orderBy(asc(sql`min(${messageRecipients.id})`)),
    liveFolder === 'sent' ? progressOf(db, [messageId]).then((m) => m.get(messageId) ?? null) : Promise.resolve(null),
    db
      .select({
        id: messageAttachments.id,
        name: messageAttachments.name,
        size: messageAttachments.size,
        contentType: messageAttachments.contentType,
      })
      .from(messageAttachments)
      .where(eq(messageAttachments.messageId, messageId))
      .orderBy(asc(messageAttachments.id)),
    threadOf(db, userId, messageId, party),
    party === null ? conversationsOf(db, userId, messageId) : Promise.resolve([]),
    answerable ? channelsReaching(db, { institutionId: row.institutionId, userId }, sender) : Promise.resolve([]),
    sender.kind === 'apoderado' ? guardiansOf(db, row.institutionId, [sender.id]).then((m) => m.get(sender.id) ?? []) : Promise.resolve([]),
    arrivedBy(db, messageId),
  ]);

  const summary = toSummary(row, row.folder === 'sent' ? progress : null);
  const total = groups.reduce((sum, g) => sum + g.count, 0);
  const attachments: AttachmentSummary[] = files.map((f) => ({
    id: f.id,
    name: f.name,
    size: f.size,
    content_type: f.contentType,
    url: attachmentUrl(f.id),
  }));
  return {
    ...summary,
    content: row.content,
    sender,
    recipients_summary: { total, label: recipientsLabel(groups.map((g) => g.name)), groups },
    attachments,
    allow_replies: row.allowReplies,
    copy_to_sender: row.copyToSender,
    scheduled_at: row.kindStored === 'scheduled' && row.scheduledAt ? new Date(row.scheduledAt).toISOString() : null,
    timezone: row.timezone,
    reception: progress,
    reply_to_id: row.replyToId,
    read_at: row.readAt ? new Date(row.readAt).toISOString() : null,
    thread,
    conversations,
    reply_channels: replyChannels,
    sender_of: senderOf,
    arrived_by: arrived,
  };
}

/**
 * Whose guardian each of `guardianIds` is: their enrolled children with course and relationship, titular
 * ones first, then by name (how staff tell two families apart: "Apoderada de Óscar Núñez Núñez · 3° Básico A").
 */
async function guardiansOf(db: Queryable, institutionId: number, guardianIds: number[]): Promise<Map<number, GuardianOf[]>> {
  const byGuardian = new Map<number, GuardianOf[]>();
  if (guardianIds.length === 0) return byGuardian;
  const result = await db.execute(sql`
    select sg.guardian_id, s.first_names || ' ' || s.last_name_father || ' ' || s.last_name_mother as student,
      c.name as course, sg.relationship
    from student_guardians sg
    join students s on s.id = sg.student_id and s.institution_id = ${institutionId} and s.withdrawn_at is null and s.erased_at is null
    join courses c on c.id = s.course_id
    where sg.guardian_id = any(${intList(guardianIds)}::int[])
    order by sg.guardian_id, sg.role, s.first_names, s.last_name_father, s.last_name_mother, s.id`);
  for (const row of rowsOf<{ guardian_id: number } & GuardianOf>(result)) {
    const id = Number(row.guardian_id);
    byGuardian.set(id, [...(byGuardian.get(id) ?? []), { student: row.student, course: row.course, relationship: row.relationship }]);
  }
  return byGuardian;
}

type ThreadRow = {
  id: number;
  folder: Folder;
  title: string;
  content: string;
  sender_kind: PersonKind;
  sender_ref_id: number;
  sender_name: string;
  institution_id: number;
  party: number | null;
  date: string | Date;
};

/**
 * The staff user's messages (inbox and sent) among those `picked` (CTEs ending in `picked(id)`), oldest
 * first, the latest THREAD_LIMIT, each with the guardian it belongs to (family-threads.ts `partyOf`).
 */
async function threadRows(db: Queryable, userId: number, picked: SQL): Promise<{ row: ThreadRow; message: ThreadMessage }[]> {
  const result = await db.execute(sql`
    ${picked}
    select m.id, e.folder, m.title, m.content, m.sender_kind, m.sender_ref_id, m.sender_name, m.institution_id,
      ${partyOf(sql`m`)} as party, coalesce(m.sent_at, m.created_at) as date
    from picked c
    join ${messages} m on m.id = c.id
    join ${mailboxEntries} e on e.message_id = m.id and e.user_id = ${userId} and e.folder in ('inbox', 'sent')
    order by date desc, m.id desc
    limit ${THREAD_LIMIT}`);
  const found = rowsOf<ThreadRow>(result).reverse();
  const guardianIds = [...new Set(found.filter((row) => row.sender_kind === 'apoderado').map((row) => Number(row.sender_ref_id)))];
  // A conversation stays within one school: its messages' school is the guardians'.
  const children =
    found.length > 0 ? await guardiansOf(db, Number(found[0]!.institution_id), guardianIds) : new Map<number, GuardianOf[]>();
  return found.map((row) => ({
    row,
    message: {
      id: Number(row.id),
      folder: row.folder,
      title: row.title,
      content: row.content,
      sender: { id: Number(row.sender_ref_id), name: row.sender_name, kind: row.sender_kind },
      sender_of: row.sender_kind === 'apoderado' ? (children.get(Number(row.sender_ref_id)) ?? []) : [],
      date: new Date(row.date).toISOString(),
    },
  }));
}

/**
 * The staff user's other messages of the conversation, oldest first. A message of one family's thread (a
 * guardian's answer, an answer to them) shows that thread whole: the messages it answers, and every message of
 * that guardian's below the conversation's root, so the guardian's answer and the staff's answer to it read
 * the same. Any other message shows what it answers and every answer below it.
 */
async function threadOf(db: Queryable, userId: number, messageId: number, party: number | null): Promise<ThreadMessage[]> {
  const picked =
    party === null
      ? sql`with recursive ${conversationCtes(messageId)}, picked as (select id from conversation)`
      : sql`with recursive ${conversationCtes(messageId)}, ${treeCtes(messageId)}, picked as (
          select id from up where id <> ${messageId}
          union
          select t.id from tree t join messages pm on pm.id = t.id where t.id <> ${messageId} and ${partyOf(sql`pm`)} = ${party})`;
  return (await threadRows(db, userId, picked)).map(({ message }) => message);
}

/**
 * Below a message of no one family's (one to a course, to several people), each family's thread apart: the
 * guardian's answers and the user's answers to that guardian, oldest first; the family whose thread moved
 * last first. `answer_to` is the guardian's latest message the user received: answering it answers them.
 */
async function conversationsOf(db: Queryable, userId: number, messageId: number): Promise<GuardianConversation[]> {
  const found = await threadRows(
    db,
    userId,
    sql`with recursive ${conversationCtes(messageId)}, picked as (
      select d.id from down d join messages pm on pm.id = d.id where d.id <> ${messageId} and ${partyOf(sql`pm`)} is not null)`,
  );
  const byGuardian = new Map<number, GuardianConversation>();
  for (const { row, message } of found) {
    const party = Number(row.party);
    const conversation = byGuardian.get(party) ?? {
      guardian: { id: party, name: '', kind: 'apoderado' as const },
      guardian_of: [],
      messages: [],
      answer_to: null,
    };
    conversation.messages.push(message);
    if (message.sender.kind === 'apoderado') {
      conversation.guardian = message.sender;
      conversation.guardian_of = message.sender_of;
      if (message.folder === 'inbox') conversation.answer_to = message.id;
    }
    byGuardian.set(party, conversation);
  }
  // A thread with none of the guardian's own messages left in the mailbox has no name to show: left out.
  const last = (c: GuardianConversation) => found.findIndex(({ message }) => message === c.messages.at(-1));
  return [...byGuardian.values()].filter((c) => c.guardian.name !== '').sort((a, b) => last(b) - last(a));
}

/** "3° Básico A", "3° Básico A y 2 más", or "Sin destinatarios". */
export function recipientsLabel(groupNames: string[]): string {
  return groupsLabel(groupNames[0] ?? null, groupNames.length);
}

/** The same label from the first group and how many groups there are (what the send's statement returns). */
export function groupsLabel(first: string | null, groups: number): string {
  if (first === null || groups === 0) return 'Sin destinatarios';
  return groups === 1 ? first : `${first} y ${groups - 1} más`;
}

// --- attachments ------------------------------------------------------------------------------------------

/**
 * An attachment the user may download: one of a message they have an entry for (any folder, trash
 * included), or their own upload not yet linked to a message. Bytes are on disk (`storageKey`) or, for rows
 * written before attachments moved to disk, in `content`.
 */
export async function findAttachment(db: Queryable, userId: number, attachmentId: number) {
  const [row] = await db
    .select({
      name: messageAttachments.name,
      contentType: messageAttachments.contentType,
      content: messageAttachments.content,
      storageKey: messageAttachments.storageKey,
    })
    .from(messageAttachments)
    .leftJoin(mailboxEntries, and(eq(mailboxEntries.messageId, messageAttachments.messageId), eq(mailboxEntries.userId, userId)))
    .where(
      and(
        eq(messageAttachments.id, attachmentId),
        or(
          sql`${mailboxEntries.id} is not null`,
          // An upload not yet sent; a news post's file is not (its own rule decides: device, role, status).
          and(
            sql`${messageAttachments.messageId} is null and ${messageAttachments.newsPostId} is null`,
            eq(messageAttachments.ownerUserId, userId),
          ),
        ),
      ),
    )
    .limit(1);
  return row ?? null;
}
