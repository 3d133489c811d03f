// Reads the audit screen's query string: its filters and page, or each bad field's Spanish message.
import {
  AUDIT_ACTIONS,
  AUDIT_PER_PAGE,
  AUDIT_PER_PAGE_MAX,
  AUDIT_SUBJECT_KINDS,
  type AuditAction,
  type AuditSubjectKind,
} from '../../shared/audit-contract';
import type { AuditFilters, AuditListQuery } from '../audit/list';
import { AUDIT_MAX_PAGE, AUDIT_MESSAGES } from '../audit/texts';
import type { FieldErrors } from '../http/field-errors';
import { intParam, parseId } from '../http/params';

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
