// The school's staff accounts as the staff screen reads them (shared/staff-contract.ts): a page of them with
// search, state filter and sort, one of them, and what a leaving person's colleagues may need handed over.
// Every read is scoped to the administrator's school: another school's account is simply not found.
import { sql, type SQL } from 'drizzle-orm';
import { ACCESS_POLICY } from '../../shared/contract';
import type { RoleCode } from '../../shared/codes';
import { fold } from '../../shared/fold';
import type { Handover, InvitationState, SortOrder, StaffDevice, StaffMember, StaffSort, StaffState } from '../../shared/staff-contract';
import type { Queryable } from '../db/client';
import { escapeLike, foldSql, rowsOf } from '../db/sql';

/** Who asks: the signed-in administrator and their school. */
export interface StaffScope {
  userId: number;
  institutionId: number;
  /** The caller's address, for the audit log of a change. */
  ip?: string | null;
}

export interface StaffListQuery {
  q: string;
  state: StaffState | null;
  sort: StaffSort;
  order: SortOrder;
  page: number;
  perPage: number;
}

interface MemberRow {
  id: number;
  name: string;
  email: string;
  device: string;
  status: StaffState;
  last_sign_in_at: Date | string | null;
  roles: RoleCode[];
  access: boolean;
  invitation_expires_at: Date | string | null;
  invitation_used_at: Date | string | null;
  invitation_revoked_at: Date | string | null;
  total: number;
}

const iso = (value: Date | string) => new Date(value).toISOString();

function invitationState(row: MemberRow, now: Date): InvitationState | null {
  if (row.status !== 'invited' || row.invitation_expires_at === null) return null;
  if (row.invitation_revoked_at !== null || row.invitation_used_at !== null) return 'revoked';
  return new Date(row.invitation_expires_at) <= now ? 'expired' : 'pending';
}

function toMember(row: MemberRow, scope: StaffScope, now: Date): StaffMember {
  const invitation = invitationState(row, now);
  return {
    id: Number(row.id),
    name: row.name,
    email: row.email,
    roles: row.roles,
    device: row.device as StaffDevice,
    access: row.access,
    last_sign_in_at: row.last_sign_in_at === null ? null : iso(row.last_sign_in_at),
    state: row.status,
    invitation_state: invitation,
    invitation_expires_at: invitation === null ? null : iso(row.invitation_expires_at!),
    is_self: Number(row.id) === scope.userId,
  };
}

/** The order of the states in a sort: the people at work first, then those still to come, then those gone. */
const STATE_RANK = sql`case u.status when 'active' then 0 when 'invited' then 1 else 2 end`;

function orderBy(sort: StaffSort, order: SortOrder): SQL {
  const direction = sql.raw(order === 'desc' ? 'desc' : 'asc');
  const byName = sql`${foldSql(sql`u.name`)} ${direction}, u.id ${direction}`;
  switch (sort) {
    case 'name':
      return byName;
    case 'email':
      return sql`u.email ${direction}, u.id ${direction}`;
    // Never signed in sorts last either way: it is no date, neither old nor recent.
    case 'last_sign_in':
      return sql`u.last_sign_in_at ${direction} nulls last, ${foldSql(sql`u.name`)} asc, u.id asc`;
    case 'state':
      return sql`${STATE_RANK} ${direction}, ${foldSql(sql`u.name`)} asc, u.id asc`;
  }
}

/** The accounts `where` selects, with their roles, access and latest invitation; `u` is users. */
async function readMembers(db: Queryable, where: SQL, order: SQL, page: { limit: number; offset: number }): Promise<MemberRow[]> {
  const result = await db.execute(sql`
    select u.id, u.name, u.email, u.device, u.status, u.last_sign_in_at,
      array(select r.code from user_roles r where r.user_id = u.id order by 1) as roles,
      exists (select 1 from user_policies p where p.user_id = u.id and p.name = ${ACCESS_POLICY}) as access,
      i.expires_at as invitation_expires_at, i.used_at as invitation_used_at, i.revoked_at as invitation_revoked_at,
      count(*) over ()::int as total
    from users u
    left join lateral (
      select i.expires_at, i.used_at, i.revoked_at from invitations i
      where i.user_id = u.id order by i.created_at desc, i.id desc limit 1
    ) i on true
    where ${where}
    order by ${order}
    limit ${page.limit} offset ${page.offset}`);
  return rowsOf<MemberRow>(result);
}

function listCondition(scope: StaffScope, query: Pick<StaffListQuery, 'q' | 'state'>): SQL {
  const conditions = [sql`u.institution_id = ${scope.institutionId}`];
  if (query.state !== null) conditions.push(sql`u.status = ${query.state}`);
  const needle = fold(query.q.trim());
  if (needle !== '') {
    const pattern = `%${escapeLike(needle)}%`;
    conditions.push(sql`(${foldSql(sql`u.name`)} like ${pattern} or u.email like ${pattern})`);
  }
  return sql.join(conditions, sql` and `);
}

/** One page of the school's accounts and how many match in all. */
export async function pageOfStaff(
  db: Queryable,
  scope: StaffScope,
  query: StaffListQuery,
  now = new Date(),
): Promise<{ items: StaffMember[]; total: number }> {
  const where = listCondition(scope, query);
  const rows = await readMembers(db, where, orderBy(query.sort, query.order), {
    limit: query.perPage,
    offset: (query.page - 1) * query.perPage,
  });
  let total = rows[0]?.total;
  if (total === undefined) {
    // Past the last page the window has no row to carry the total: count apart (rare: a stale link).
    const counted = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from users u where ${where}`));
    total = counted[0]?.n ?? 0;
  }
  return { items: rows.map((row) => toMember(row, scope, now)), total: Number(total) };
}

/** One account of the school, or null when the id is no one's there. */
export async function findMember(db: Queryable, scope: StaffScope, userId: number, now = new Date()): Promise<StaffMember | null> {
  const where = sql`u.institution_id = ${scope.institutionId} and u.id = ${userId}`;
  const [row] = await readMembers(db, where, sql`u.id`, { limit: 1, offset: 0 });
  return row ? toMember(row, scope, now) : null;
}

/**
 * What stays the person's after they leave and their colleagues may need: the recipient lists they share
 * with the school, and their messages scheduled and not yet sent (which still go out).
 */
export async function handoverOf(db: Queryable, scope: StaffScope, userId: number): Promise<Handover> {
  const lists = rowsOf<{ id: number; name: string; users_count: number }>(
    await db.execute(sql`
      select l.id, l.name, (select count(*) from recipient_list_members m where m.list_id = l.id)::int as users_count
      from recipient_lists l
      where l.institution_id = ${scope.institutionId} and l.owner_user_id = ${userId} and l.shared and l.deleted_at is null
      order by ${foldSql(sql`l.name`)}, l.id`),
  );
  const scheduled = rowsOf<{ id: number; title: string; scheduled_at: Date | string }>(
    await db.execute(sql`
      select m.id, m.title, m.scheduled_at from messages m
      where m.institution_id = ${scope.institutionId} and m.author_user_id = ${userId} and m.kind = 'scheduled'
      order by m.scheduled_at, m.id`),
  );
  return {
    shared_lists: lists.map((l) => ({ id: Number(l.id), name: l.name, users_count: Number(l.users_count) })),
    scheduled_messages: scheduled.map((m) => ({ id: Number(m.id), title: m.title, scheduled_at: iso(m.scheduled_at) })),
  };
}
