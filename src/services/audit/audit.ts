// The audit log (shared/audit-contract.ts `AUDIT_API`) as actor logic: its pages for the list pattern, and
// the CSV of the same filters as a plain link (the browser downloads it with the session's cookies). Every
// answer is checked with its struct (shared/audit-structs.ts).
import {
  AUDIT_API,
  AUDIT_PER_PAGE,
  type AuditAction,
  type AuditQuery,
  type AuditRow,
  type AuditSubjectKind,
} from '../../../shared/audit-contract';
import { AuditPageStruct } from '../../../shared/audit-structs';
import { API_BASE, fromCall, parseBody } from '../http/client';
import { fromNumberedPage, pageNumberOf, type ListFetchInput, type ListPage } from '../list/pages';

/** What the log shows: actions (none: all), one subject, one actor, and days (YYYY-MM-DD, '' for open ends). */
export interface AuditListQuery {
  actions: AuditAction[];
  subject: { kind: AuditSubjectKind; id: number } | null;
  actorId: number | null;
  from: string;
  to: string;
}

/** The contract's query of the filters (the list's and the CSV's), without what is not set. */
function filterQuery(query: AuditListQuery): AuditQuery {
  return {
    ...(query.actions.length > 0 ? { action: query.actions.join(',') } : {}),
    ...(query.subject ? { subject_kind: query.subject.kind, subject_id: query.subject.id } : {}),
    ...(query.actorId !== null ? { actor_id: query.actorId } : {}),
    ...(query.from ? { from: query.from } : {}),
    ...(query.to ? { to: query.to } : {}),
  };
}

export const fetchAuditPage = fromCall<ListPage<AuditRow>, ListFetchInput<AuditListQuery>>(async ({ input, signal, http }) => {
  const query: AuditQuery = { page: pageNumberOf(input.after), per_page: AUDIT_PER_PAGE, ...filterQuery(input.query) };
  const body = await http.request(AUDIT_API.entries, { query: { ...query }, signal });
  return fromNumberedPage(parseBody(body, AuditPageStruct, AUDIT_API.entries));
});

/** The filtered log as a CSV (a plain link; the server writes the export to the log). */
export function auditExportHref(query: AuditListQuery): string {
  const params = new URLSearchParams(Object.entries(filterQuery(query)).map(([key, value]) => [key, String(value)])).toString();
  return `${API_BASE}${AUDIT_API.export}${params ? `?${params}` : ''}`;
}
