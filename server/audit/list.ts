// Reads the audit log for the administrators' screen: one school's entries, newest first, filtered by action,
// by the person or thing an entry is about, by who did it and by days in the school's own time zone. Names
// come from the live rows (users, guardians, students, staff, the school), never from the log itself: an
// account or person that is gone has no name (the screen says so), an erased one reads as its row now does.
import { sql, type SQL } from 'drizzle-orm';
import {
  AUDIT_ACTIONS,
  AUDIT_PER_PAGE,
  AUDIT_PER_PAGE_MAX,
  AUDIT_SUBJECT_KINDS,
  type AuditAction,
  type AuditActorKind,
  type AuditDetail,
  type AuditRow,
  type AuditSubjectKind,
} from '../../shared/audit-contract';
import type { Queryable } from '../db/client';
import { textList } from '../db/arrays';
import { rowsOf } from '../db/sql';
import type { FieldErrors } from '../http/field-errors';
import { intParam, parseId } from '../http/params';
import { AUDIT_MAX_PAGE, AUDIT_MESSAGES } from './texts';

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

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar day 'YYYY-MM-DD' (years 1..9999), or null. */
function parseDay(raw: string): string | null {
  const m = DAY.exec(raw);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  date.setUTCFullYear(y);
  const ok = y >= 1 && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
  return ok ? raw : null;
}

type Raw = Record<string, string | undefined>;

/** The filters of `raw` (a query string), or each bad field's Spanish message. */
export function parseAuditFilters(raw: Raw): { ok: true; value: AuditFilters } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const actions: AuditAction[] = [];
  const rawAction = (raw.action ?? '').trim();
  if (rawAction !== '') {
    for (const code of rawAction.split(',').map((part) => part.trim())) {
      if (!(AUDIT_ACTIONS as readonly string[]).includes(code)) {
        errors.action = [AUDIT_MESSAGES.action];
        break;
      }
      if (!actions.includes(code as AuditAction)) actions.push(code as AuditAction);
    }
  }
  const rawKind = raw.subject_kind ?? '';
  const rawSubjectId = raw.subject_id ?? '';
  let subject: AuditFilters['subject'] = null;
  const kind = (AUDIT_SUBJECT_KINDS as readonly string[]).includes(rawKind) ? (rawKind as AuditSubjectKind) : null;
  const subjectId = parseId(rawSubjectId);
  if (rawKind !== '' && kind === null) errors.subject_kind = [AUDIT_MESSAGES.subjectKind];
  if (rawSubjectId !== '' && subjectId === null) errors.subject_id = [AUDIT_MESSAGES.subjectId];
  if (kind !== null && subjectId !== null) subject = { kind, id: subjectId };
  else if ((rawKind === '') !== (rawSubjectId === '') && !errors.subject_kind && !errors.subject_id) {
    errors[rawKind === '' ? 'subject_kind' : 'subject_id'] = [AUDIT_MESSAGES.subjectPair];
  }
  const rawActor = raw.actor_id ?? '';
  const actorId = rawActor === '' ? null : parseId(rawActor);
  if (rawActor !== '' && actorId === null) errors.actor_id = [AUDIT_MESSAGES.actorId];
  const from = raw.from ? parseDay(raw.from) : null;
  const to = raw.to ? parseDay(raw.to) : null;
  if (raw.from && from === null) errors.from = [AUDIT_MESSAGES.date];
  if (raw.to && to === null) errors.to = [AUDIT_MESSAGES.date];
  if (from !== null && to !== null && to < from) errors.to = [AUDIT_MESSAGES.range];
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, value: { actions, subject, actorId, from, to } };
}

/** Filters and page of a `GET /audit` query string. */
export function parseAuditQuery(raw: Raw): { ok: true; value: AuditListQuery } | { ok: false; errors: FieldErrors } {
  const filters = parseAuditFilters(raw);
  const page = intParam(raw.page, 1, AUDIT_MAX_PAGE);
  const perPage = intParam(raw.per_page, AUDIT_PER_PAGE, AUDIT_PER_PAGE_MAX);
  const errors: FieldErrors = filters.ok ? {} : { ...filters.errors };
  if (page === null) errors.page = [AUDIT_MESSAGES.page];
  if (perPage === null) errors.per_page = [AUDIT_MESSAGES.perPage];
  if (!filters.ok || page === null || perPage === null) return { ok: false, errors };
  return { ok: true, value: { ...filters.value, page, perPage } };
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
