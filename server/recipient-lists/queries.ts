// Recipient lists as the list screens show them (shared/recipient-lists-contract.ts): the paged list of the
// lists a user can see (own and shared), the trash of their own, one list's summary, and the scopes the
// routes find a list by. A list the user may not see or change simply is not found (404 in the routes).
import { sql, type SQL } from 'drizzle-orm';
import type { RecipientListSummary, TrashedRecipientList } from '../../shared/recipient-lists-contract';
import { fold } from '../../shared/fold';
import { rowsOf, foldSql, escapeLike } from '../db/sql';
import type { Queryable } from '../db/client';

/** Who asks: the signed-in user and their school. */
export interface ListScope {
  userId: number;
  institutionId: number;
}

/** Which lists a query reads (`l` is recipient_lists). */
export type ListWhere = 'visible' | 'owned' | 'trashed';

/** SQL condition on `l` for each scope; the visible one is `visibleLists` (server/recipients/expand.ts) in raw form. */
function listCondition(where: ListWhere, { userId, institutionId }: ListScope): SQL {
  const school = sql`l.institution_id = ${institutionId}`;
  switch (where) {
    case 'visible':
      return sql`${school} and l.deleted_at is null and (l.owner_user_id = ${userId} or l.shared)`;
    case 'owned':
      return sql`${school} and l.deleted_at is null and l.owner_user_id = ${userId}`;
    case 'trashed':
      return sql`${school} and l.deleted_at is not null and l.owner_user_id = ${userId}`;
  }
}

/**
 * SQL true for a member `m` whose student `s` (the member's own, or the guardian's child; joined by
 * `memberStudent`) has left the school or is now in another course than when the member was added.
 */
export const memberIsStale = sql`(s.withdrawn_at is not null or (m.course_id is not null and s.course_id <> m.course_id))`;
export const memberStudent = sql`s.id = coalesce(m.student_id, case when m.member_kind = 'estudiante' then m.member_ref_id end)`;

interface SummaryRow {
  id: number;
  name: string;
  shared: boolean;
  is_owner: boolean;
  owner_name: string;
  updated_at: Date | string;
  deleted_at: Date | string | null;
  deleted_by_name: string | null;
  users_count: number;
  stale_count: number;
  total: number;
}

const iso = (value: Date | string) => new Date(value).toISOString();

function toSummary(row: SummaryRow): RecipientListSummary {
  return {
    id: Number(row.id),
    name: row.name,
    users_count: Number(row.users_count),
    shared: row.shared,
    is_owner: row.is_owner,
    owner_name: row.owner_name,
    updated_at: iso(row.updated_at),
    stale_count: Number(row.stale_count),
  };
}

function toTrashed(row: SummaryRow): TrashedRecipientList {
  return { ...toSummary(row), deleted_at: iso(row.deleted_at!), deleted_by_name: row.deleted_by_name ?? row.owner_name };
}

/** Summaries of the lists `where` and `extra` select, newest change first (the trash: last deleted first). */
async function readSummaries(
  db: Queryable,
  scope: ListScope,
  where: ListWhere,
  extra: SQL,
  page: { limit: number; offset: number },
): Promise<SummaryRow[]> {
  const order = where === 'trashed' ? sql`l.deleted_at desc, l.id desc` : sql`l.updated_at desc, l.id desc`;
  const result = await db.execute(sql`
    with chosen as (
      select l.*, count(*) over ()::int as total from recipient_lists l
      where ${listCondition(where, scope)} ${extra}
      order by ${order}
      limit ${page.limit} offset ${page.offset}
    )
    select l.id, l.name, l.shared, l.owner_user_id = ${scope.userId} as is_owner, u.name as owner_name,
      l.updated_at, l.deleted_at, du.name as deleted_by_name, l.total,
      (select count(*) from recipient_list_members m where m.list_id = l.id)::int as users_count,
      (select count(*) from recipient_list_members m join students s on ${memberStudent}
        where m.list_id = l.id and ${memberIsStale})::int as stale_count
    from chosen l
    join users u on u.id = l.owner_user_id
    left join users du on du.id = l.deleted_by_user_id
    order by ${order}`);
  return rowsOf<SummaryRow>(result);
}

export interface SummaryPage<T> {
  items: T[];
  total: number;
}

/** One page of the lists `where` (visible or trashed) whose name matches `q` (accent- and case-insensitive). */
export async function pageOfLists(
  db: Queryable,
  scope: ListScope,
  where: 'visible' | 'trashed',
  q: string,
  page: number,
  perPage: number,
): Promise<SummaryPage<RecipientListSummary | TrashedRecipientList>> {
  const needle = fold(q.trim());
  const filter = needle === '' ? sql`` : sql`and ${foldSql(sql`l.name`)} like ${`%${escapeLike(needle)}%`}`;
  const rows = await readSummaries(db, scope, where, filter, { limit: perPage, offset: (page - 1) * perPage });
  let total = rows[0]?.total;
  if (total === undefined) {
    // Past the last page the window has no row to carry the total: count apart (rare: a stale link).
    const counted = await db.execute(sql`select count(*)::int as n from recipient_lists l where ${listCondition(where, scope)} ${filter}`);
    total = rowsOf<{ n: number }>(counted)[0]!.n;
  }
  return { items: rows.map(where === 'trashed' ? toTrashed : toSummary), total: Number(total) };
}

/** One list's summary when `where` finds it for this user, else null. */
export async function listSummary(
  db: Queryable,
  scope: ListScope,
  id: number,
  where: ListWhere = 'visible',
): Promise<RecipientListSummary | null> {
  const [row] = await readSummaries(db, scope, where, sql`and l.id = ${id}`, { limit: 1, offset: 0 });
  return row ? toSummary(row) : null;
}

/** Whether `where` finds list `id` for this user (the owner-only routes' 404). */
export async function findList(db: Queryable, scope: ListScope, id: number, where: ListWhere): Promise<boolean> {
  const result = await db.execute(sql`select 1 from recipient_lists l where ${listCondition(where, scope)} and l.id = ${id} limit 1`);
  return rowsOf(result).length > 0;
}

/** Whether the owner already has another list (out of the trash) with this name, folded. */
export async function nameTaken(db: Queryable, scope: ListScope, name: string, exceptId: number | null): Promise<boolean> {
  const result = await db.execute(sql`
    select 1 from recipient_lists l where ${listCondition('owned', scope)}
      and ${foldSql(sql`l.name`)} = ${fold(name)} ${exceptId === null ? sql`` : sql`and l.id <> ${exceptId}`}
    limit 1`);
  return rowsOf(result).length > 0;
}

/** A scheduled (not yet sent) message that picks the list: the first due, with its school's time zone. */
export interface ScheduledUse {
  title: string;
  scheduledAt: Date;
  timezone: string;
  authorName: string;
  byOwner: boolean;
  /** The message, when it is the list owner's own (theirs to open and cancel). */
  messageId: number | null;
}

export async function scheduledUse(db: Queryable, scope: ListScope, listId: number): Promise<ScheduledUse | null> {
  // Cancelled schedules become drafts and sent ones `sent`; one in the trash can come back, so it counts.
  const result = await db.execute(sql`
    select m.id, m.title, m.scheduled_at, i.timezone, m.sender_name, m.author_user_id = ${scope.userId} as by_owner
    from messages m join institutions i on i.id = m.institution_id
    where m.institution_id = ${scope.institutionId} and m.kind = 'scheduled'
      and m.recipient_picks @> ${JSON.stringify([{ kind: 'recipient-list', id: listId }])}::jsonb
    order by m.scheduled_at, m.id limit 1`);
  const row = rowsOf<{
    id: number | string;
    title: string;
    scheduled_at: Date | string;
    timezone: string;
    sender_name: string;
    by_owner: boolean;
  }>(result)[0];
  return row
    ? {
        title: row.title,
        scheduledAt: new Date(row.scheduled_at),
        timezone: row.timezone,
        authorName: row.sender_name,
        byOwner: row.by_owner,
        messageId: row.by_owner ? Number(row.id) : null,
      }
    : null;
}
