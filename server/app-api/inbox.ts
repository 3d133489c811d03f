// The guardian app inbox: messages with an app-mobile delivery to `guardian:<id>` that the engine handed
// over (sent) or that already reached the phone (received, read), those whose push the engine is retrying
// (queued after an attempt: the message is the inbox's already, the push only rings), and those given up on
// after 3 days unopened (opening the app still brings them). Ones never attempted, and failed ones, do not
// exist here (decision 0225).
// Reception moves only through applyReports (server/reception/status.ts), like every other receipt.
// A session holds every guardian row of its phone (server/app-api/tokens.ts): the inbox is theirs together,
// one row per message even when it reached two of them, and opening or reading it reports for each.
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../db/client';
import { fillFields, hasFields, type MergeValues } from '../../shared/merge-fields';
import { intList } from '../db/arrays';
import { escapeLike, rowsOf } from '../db/sql';
import { fold } from '../../shared/fold';
import { valuesByRecipient } from '../recipients/merge-values';
import { messageAttachments } from '../db/schema/messages';
import { applyReports } from '../reception/status';
import { SNIPPET_LENGTH } from '../messages/queries';
import { treeCtes } from '../messages/family-threads';
import { THREAD_LIMIT } from '../../shared/messages-contract';
import type { FamilyMessageDetail, FamilyMessageSummary, FamilyReadAnswer, FamilyThreadMessage } from '../../shared/family-contract';

export const INBOX_PAGE_SIZE = 20;

// The answers' shapes are the contract's (shared/family-contract.ts), under the names the server uses.
export type AppMessageSummary = FamilyMessageSummary;
export type AppMessageDetail = FamilyMessageDetail;
type AppThreadMessage = FamilyThreadMessage;

/** The session's guardian rows (GuardianAuth.rows): whose messages these are. */
export interface Reader {
  rows: readonly { guardianId: number; institutionId: number; name: string }[];
}

/** What narrows the inbox: one child (a student id of the session's), words of the title or text. */
export interface InboxFilter {
  studentId: number | null;
  q: string;
}

/** The recipient row `r` (of guardian `me`) names student `student` (an id, or a column of an outer query). */
export const namesStudent = (
  student: number | SQL,
) => sql`exists (select 1 from student_guardians sg join students s on s.id = sg.student_id
  where sg.guardian_id = me.guardian_id and s.id = ${student}
    and split_part(s.first_names, ' ', 1) || ' ' || s.last_name_father = any(string_to_array(r.student_names, ', ')))`;

interface InboxRow {
  id: number;
  recipient_id: number;
  guardian_id: number;
  school_name: string;
  content: string;
  delivery_id: number;
  generation: number;
  status: string;
  title: string;
  snippet: string;
  sender_name: string;
  sent_at: string | Date | null;
  read_at: string | Date | null;
  allow_replies: boolean;
  student_names: string | null;
}

const iso = (value: string | Date | null) => (value === null ? null : new Date(value).toISOString());

/**
 * Reached through the recipient's person index, then its deliveries; the address check keeps it to the
 * app account the engine delivered to.
 */
export const visible = (reader: Reader) => sql`
  from ${sessionRows(reader)}
  join message_recipients r on r.recipient_kind = 'apoderado' and r.recipient_ref_id = me.guardian_id
  join deliveries d on d.recipient_id = r.id and d.channel = 'app-mobile'
    and d.address = 'guardian:' || me.guardian_id
    and (d.status in ('sent', 'received', 'read') or (d.status = 'queued' and d.attempts > 0)
      or (d.status = 'not_received' and d.error = 'app_not_opened'))
  join messages m on m.id = r.message_id and m.institution_id = me.institution_id
  join institutions i on i.id = m.institution_id
  where true`;

/** The session's rows as a table `me(guardian_id, institution_id)`: two bound arrays however many. */
export const sessionRows = (reader: Reader) => sql`unnest(${intList(reader.rows.map((row) => row.guardianId))}::int[],
  ${intList(reader.rows.map((row) => row.institutionId))}::int[]) as me(guardian_id, institution_id)`;

/**
 * The filter's conditions. A child's messages are those whose recipient row names them in `student_names`
 * (how reception and merge fields tell a guardian's children apart: server/recipients/merge-values.ts);
 * words are looked for in the message's folded title and text (`messages.search`), as the staff inbox does.
 */
function filtered(filter: InboxFilter) {
  const child = filter.studentId === null ? sql`` : sql` and ${namesStudent(filter.studentId)}`;
  const needle = fold(filter.q.trim());
  const words = needle === '' ? sql`` : sql` and m.search like ${`%${escapeLike(needle)}%`}`;
  return sql`${child}${words}`;
}

const columns = sql`m.id, r.id as recipient_id, me.guardian_id, i.name as school_name, m.content, d.id as delivery_id, d.generation, d.status, m.title,
  left(m.content, ${SNIPPET_LENGTH}) as snippet, m.sender_name, coalesce(m.sent_at, d.sent_at) as sent_at, d.read_at, m.allow_replies, r.student_names`;

/** Of a message's rows, the one shown: an unread one while any is (it reads as read once all are), the first. */
const shownFirst = sql`(d.status = 'read'), r.id`;

/**
 * The merge fields of these rows' messages filled with this guardian's values (as their deliveries were),
 * in one query; rows whose message has none are not looked up.
 */
async function valuesOf(db: Queryable, rows: readonly InboxRow[]): Promise<Map<number, MergeValues>> {
  return valuesByRecipient(
    db,
    rows.filter((r) => hasFields(r.title, r.content)).map((r) => Number(r.recipient_id)),
  );
}

function toSummary(row: InboxRow, values: Map<number, MergeValues>): AppMessageSummary {
  const own = values.get(Number(row.recipient_id));
  return {
    id: Number(row.id),
    title: own ? fillFields(row.title, own) : row.title,
    snippet: own ? [...fillFields(row.content, own)].slice(0, SNIPPET_LENGTH).join('') : row.snippet,
    sender_name: row.sender_name,
    school_name: row.school_name,
    sent_at: iso(row.sent_at),
    read: row.status === 'read',
    allow_replies: row.allow_replies,
    student_names: row.student_names,
  };
}

/**
 * Deliveries still only handed over, or whose push is being retried, are now on the phone. A receipt on a
 * queued delivery is applied like a fast provider's (server/reception/status.ts); the engine then leaves it
 * alone: its pending retry acts only on a row still queued, and an attempt already under way records its
 * hand-over without moving a received or read delivery back (recordOutcomes).
 */
async function markReceived(db: Queryable, rows: InboxRow[], now: Date): Promise<void> {
  await applyReports(
    db,
    rows
      .filter((r) => r.status === 'queued' || r.status === 'sent' || r.status === 'not_received')
      .map((r) => ({ deliveryId: Number(r.delivery_id), generation: Number(r.generation), status: 'received' as const, at: now })),
  );
}

export async function listInbox(db: Queryable, reader: Reader, filter: InboxFilter, page: number, now: Date) {
  const offset = (page - 1) * INBOX_PAGE_SIZE;
  const [rows, totals] = await Promise.all([
    db.execute(sql`select * from (select distinct on (m.id) ${columns} ${visible(reader)}${filtered(filter)}
        order by m.id, ${shownFirst}) x
      order by sent_at desc nulls last, id desc
      limit ${INBOX_PAGE_SIZE} offset ${offset}`),
    // Unread: a message any of whose rows is (as the list shows it), over every page, for the header's badge.
    db.execute(sql`select count(distinct m.id)::int as total, count(distinct m.id) filter (where d.status <> 'read')::int as unread
      ${visible(reader)}${filtered(filter)}`),
  ]);
  const items = rowsOf<InboxRow>(rows);
  await markReceived(db, items, now);
  const values = await valuesOf(db, items);
  const [counts] = rowsOf<{ total: number; unread: number }>(totals);
  return {
    items: items.map((item) => toSummary(item, values)),
    total: Number(counts?.total ?? 0),
    unread: Number(counts?.unread ?? 0),
  };
}

/** Every row of the message this session has, the one shown first; empty when it is none of theirs. */
async function findRows(db: Queryable, reader: Reader, messageId: number): Promise<InboxRow[]> {
  const result = await db.execute(sql`select ${columns} ${visible(reader)} and m.id = ${messageId} order by ${shownFirst}`);
  return rowsOf<InboxRow>(result);
}

/** Whether the message reached this session (its files may be downloaded). */
async function isReaderMessage(db: Queryable, reader: Reader, messageId: number): Promise<boolean> {
  return (await findRows(db, reader, messageId)).length > 0;
}

/** A file of the message, when the message is this session's; null otherwise (a 404). */
export async function findMessageFile(db: Queryable, reader: Reader, messageId: number, attachmentId: number) {
  if (!(await isReaderMessage(db, reader, messageId))) return null;
  const [file] = await db
    .select({
      name: messageAttachments.name,
      contentType: messageAttachments.contentType,
      content: messageAttachments.content,
      storageKey: messageAttachments.storageKey,
    })
    .from(messageAttachments)
    .where(and(eq(messageAttachments.id, attachmentId), eq(messageAttachments.messageId, messageId)))
    .limit(1);
  return file ?? null;
}

/** One message, which is now received; null when it was not delivered to this session. */
export async function openMessage(db: Queryable, reader: Reader, messageId: number, now: Date): Promise<AppMessageDetail | null> {
  const rows = await findRows(db, reader, messageId);
  const row = rows[0];
  if (!row) return null;
  await markReceived(db, rows, now);
  const [full] = rowsOf<{ content: string; signature: string | null; read_at: string | Date | null }>(
    await db.execute(sql`select m.content, m.signature, d.read_at from messages m, deliveries d
      where m.id = ${messageId} and d.id = ${row.delivery_id}`),
  );
  const files = await db
    .select({
      id: messageAttachments.id,
      name: messageAttachments.name,
      size: messageAttachments.size,
      content_type: messageAttachments.contentType,
    })
    .from(messageAttachments)
    .where(eq(messageAttachments.messageId, messageId))
    .orderBy(messageAttachments.id);
  const thread = await threadOf(db, reader, messageId);
  const values = await valuesOf(db, [row]);
  const own = values.get(Number(row.recipient_id));
  return {
    ...toSummary(row, values),
    content: own ? fillFields(full!.content, own) : full!.content,
    signature: full!.signature,
    read_at: iso(full!.read_at),
    attachments: files,
    thread,
  };
}

/**
 * The guardian's side of a conversation (server/messages/family-threads.ts): from its root down, what reached
 * them in the app and what they answered from it, so the message and every answer of it show the same
 * thread, whichever of them is opened; other families' answers never reached them. The
 * school's messages are filled with this guardian's values, as the app delivered them (the thread shows each
 * message as its own detail does); their own answers are as they wrote them.
 */
async function threadOf(db: Queryable, reader: Reader, messageId: number): Promise<AppThreadMessage[]> {
  const guardianIds = intList(reader.rows.map((row) => row.guardianId));
  const result = await db.execute(sql`
    with recursive ${treeCtes(messageId)},
    reached as (select m.id, min(r.id) as recipient_id ${visible(reader)} group by m.id)
    select m.id, m.title, m.content, m.sender_name, m.sent_at, reached.recipient_id,
      (m.sender_kind = 'apoderado' and m.sender_ref_id = any(${guardianIds}::int[])) as mine
    from tree c
    join messages m on m.id = c.id and m.institution_id = any(${intList(reader.rows.map((row) => row.institutionId))}::int[])
    left join reached on reached.id = m.id
    where c.id <> ${messageId} and ((m.sender_kind = 'apoderado' and m.sender_ref_id = any(${guardianIds}::int[]))
      or reached.id is not null)
    order by m.sent_at desc nulls last, m.id desc
    limit ${THREAD_LIMIT}`);
  type Row = Omit<AppThreadMessage, 'sent_at' | 'id'> & { id: number; sent_at: string | Date | null; recipient_id: number | null };
  const rows = rowsOf<Row>(result).reverse();
  const reached = rows.filter((row) => row.recipient_id !== null && hasFields(row.title, row.content));
  const values = await valuesByRecipient(
    db,
    reached.map((row) => Number(row.recipient_id)),
  );
  return rows.map(({ recipient_id, ...row }) => {
    const own = recipient_id === null ? undefined : values.get(Number(recipient_id));
    return {
      ...row,
      id: Number(row.id),
      title: own ? fillFields(row.title, own) : row.title,
      content: own ? fillFields(row.content, own) : row.content,
      sent_at: iso(row.sent_at),
    };
  });
}

/**
 * Marks the message read, on every row of the session it reached (idempotent: a second call changes
 * nothing); null when it is none of theirs.
 */
export async function readMessage(db: Queryable, reader: Reader, messageId: number, now: Date): Promise<FamilyReadAnswer | null> {
  const rows = await findRows(db, reader, messageId);
  const row = rows[0];
  if (!row) return null;
  await applyReports(
    db,
    rows.map((r) => ({ deliveryId: Number(r.delivery_id), generation: Number(r.generation), status: 'read' as const, at: now })),
  );
  const [after] = rowsOf<{ read_at: string | Date | null }>(
    await db.execute(sql`select read_at from deliveries where id = ${row.delivery_id}`),
  );
  return { id: messageId, read: true, read_at: iso(after!.read_at) };
}

/**
 * What a reply needs of the original, and the guardian row that answers (the one the message reached: the
 * school's own record of this person); null when it is none of this session's.
 */
export async function replyTarget(db: Queryable, reader: Reader, messageId: number) {
  const [row] = await findRows(db, reader, messageId);
  if (!row) return null;
  const as = reader.rows.find((r) => r.guardianId === Number(row.guardian_id))!;
  const [m] = rowsOf<{ author_user_id: number | null }>(await db.execute(sql`select author_user_id from messages where id = ${messageId}`));
  // The title this guardian read (merge fields filled for them): their answer's "Re: …" repeats it, and
  // tells its reader which family's children it is about.
  const own = (await valuesOf(db, [row])).get(Number(row.recipient_id));
  return {
    as,
    allowReplies: row.allow_replies,
    authorUserId: m!.author_user_id === null ? null : Number(m!.author_user_id),
    title: own ? fillFields(row.title, own) : row.title,
  };
}
