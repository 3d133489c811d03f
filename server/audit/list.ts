// Reads the audit log for the administrators' screen: one school's entries, newest first, filtered by action,
// by the person or thing an entry is about, by who did it and by days in the school's own time zone. Names
// come from the live rows (users, guardians, students, staff, the school), never from the log itself: an
// account or person that is gone has no name (the screen says so), an erased one reads as its row now does.
import { sql, type SQL } from 'drizzle-orm';
import type { AuditAction, AuditActorKind, AuditDetail, AuditRow, AuditSubjectKind } from '../../shared/audit-contract';
import type { Queryable } from '../db/client';
import { textList } from '../db/arrays';
import { rowsOf } from '../db/sql';

export interface AuditFilters {
  actions: AuditAction[];
  subject: { kind: AuditSubjectKind; id: number } | null;
  actorId: number | null;
  /** Days (YYYY-MM-DD) in the school's zone, both included. */
  from: string | null;
  to: string | null;
}

export interface AuditListQuery extends AuditFilters {
  page: number;
  perPage: number;
}

/** The query string that repeats `filters` (the page's links). */
export function filterParams(filters: AuditFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.actions.length > 0) params.set('action', filters.actions.join(','));
  if (filters.subject) {
    params.set('subject_kind', filters.subject.kind);
    params.set('subject_id', String(filters.subject.id));
  }
  if (filters.actorId !== null) params.set('actor_id', String(filters.actorId));
  if (filters.from) params.set('from', filters.from);
  if (filters.to) params.set('to', filters.to);
  return params;
}

/** The school's entries matching `filters`; days are turned into instants by the database in the school's zone. */
function whereOf(institutionId: number, f: AuditFilters): SQL {
  const parts: SQL[] = [sql`e.institution_id = ${institutionId}`];
  if (f.actions.length > 0) parts.push(sql`e.action = any(${textList(f.actions)}::text[])`);
  if (f.subject) parts.push(sql`e.subject_kind = ${f.subject.kind} and e.subject_id = ${f.subject.id}`);
  if (f.actorId !== null) parts.push(sql`e.actor_user_id = ${f.actorId}`);
  if (f.from) parts.push(sql`e.at >= (${f.from}::date::timestamp at time zone i.timezone)`);
  if (f.to) parts.push(sql`e.at < ((${f.to}::date + 1)::timestamp at time zone i.timezone)`);
  return sql.join(parts, sql` and `);
}

const fullName = (alias: string) =>
  sql.raw(`trim(${alias}.first_names || ' ' || ${alias}.last_name_father || ' ' || ${alias}.last_name_mother)`);

interface EntryRow {
  id: number | string;
  at: string | Date;
  action: AuditAction;
  actor_user_id: number | null;
  actor_name: string | null;
  ip: string | null;
  subject_kind: AuditSubjectKind | null;
  subject_id: number | null;
  subject_name: string | null;
  detail: AuditDetail | string | null;
  total?: number | string;
}

/**
 * The entries, newest first (ties by id), with the live names. Only rows of the same school are joined: an id
 * that now belongs to no one of the school has no name.
 */
async function readEntries(db: Queryable, where: SQL, window: { limit: number; offset: number }, withTotal: boolean): Promise<EntryRow[]> {
  const total = withTotal ? sql`, count(*) over () as total` : sql``;
  const result = await db.execute(sql`
    select e.id, e.at, e.action, e.actor_user_id, au.name as actor_name, e.ip, e.subject_kind, e.subject_id, e.detail,
      case e.subject_kind
        when 'apoderado' then (select ${fullName('g')} from guardians g where g.id = e.subject_id and g.institution_id = e.institution_id)
        when 'estudiante' then (select ${fullName('s')} from students s where s.id = e.subject_id and s.institution_id = e.institution_id)
        when 'funcionario' then (select ${fullName('f')} from staff f where f.id = e.subject_id and f.institution_id = e.institution_id)
        when 'usuario' then (select su.name from users su where su.id = e.subject_id and su.institution_id = e.institution_id)
        when 'colegio' then (select si.name from institutions si where si.id = e.subject_id and si.id = e.institution_id)
        else null
      end as subject_name
      ${total}
    from audit_events e
    join institutions i on i.id = e.institution_id
    left join users au on au.id = e.actor_user_id and au.institution_id = e.institution_id
    where ${where}
    order by e.at desc, e.id desc
    limit ${window.limit} offset ${window.offset}`);
  return rowsOf<EntryRow>(result);
}

function toRow(row: EntryRow): AuditRow {
  const actorKind: AuditActorKind = row.actor_user_id !== null ? 'user' : row.ip === null ? 'system' : 'anonymous';
  const detail = typeof row.detail === 'string' ? (JSON.parse(row.detail) as AuditDetail) : row.detail;
  return {
    id: Number(row.id),
    at: new Date(row.at).toISOString(),
    action: row.action,
    actor: { kind: actorKind, id: row.actor_user_id, name: row.actor_user_id === null ? null : row.actor_name },
    ip: row.ip,
    subject:
      row.subject_kind !== null && row.subject_id !== null ? { kind: row.subject_kind, id: row.subject_id, name: row.subject_name } : null,
    detail: detail ?? null,
  };
}

/** One page of the school's log and how many entries match in all. */
export async function pageOfAudit(
  db: Queryable,
  institutionId: number,
  query: AuditListQuery,
): Promise<{ items: AuditRow[]; total: number }> {
  const where = whereOf(institutionId, query);
  const rows = await readEntries(db, where, { limit: query.perPage, offset: (query.page - 1) * query.perPage }, true);
  let total = rows[0]?.total;
  if (total === undefined) {
    // Past the last page the window has no row to carry the total: count apart (rare: a stale link).
    const counted = rowsOf<{ n: number }>(
      await db.execute(sql`select count(*)::int as n from audit_events e join institutions i on i.id = e.institution_id where ${where}`),
    );
    total = counted[0]?.n ?? 0;
  }
  return { items: rows.map(toRow), total: Number(total) };
}

/** Every matching entry up to `max` + 1 (so the caller knows it went past), newest first. */
export async function entriesOfAudit(db: Queryable, institutionId: number, filters: AuditFilters, max: number): Promise<AuditRow[]> {
  const rows = await readEntries(db, whereOf(institutionId, filters), { limit: max + 1, offset: 0 }, false);
  return rows.map(toRow);
}
