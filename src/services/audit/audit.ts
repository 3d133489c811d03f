// The audit log (shared/audit-contract.ts `AUDIT_API`) as actor logic: its pages for the list pattern, and
// the CSV of the same filters as a plain link (the browser downloads it with the session's cookies). Every
// answer is checked with its struct (shared/audit-structs.ts).
import { AUDIT_API, AUDIT_PER_PAGE, type AuditAction, type AuditRow, type AuditSubjectKind } from '../../../shared/audit-contract';
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

/** The query string of the filters (the list's and the CSV's). */
function filterQuery(query: AuditListQuery): Record<string, string> {
  return {
    ...(query.actions.length > 0 ? { action: query.actions.join(',') } : {}),
    ...(query.subject ? { subject_kind: query.subject.kind, subject_id: String(query.subject.id) } : {}),
    ...(query.actorId !== null ? { actor_id: String(query.actorId) } : {}),
    ...(query.from ? { from: query.from } : {}),
    ...(query.to ? { to: query.to } : {}),
  };
}

export const fetchAuditPage = fromCall<ListPage<AuditRow>, ListFetchInput<AuditListQuery>>(async ({ input, signal, http }) => {
  const query = { page: String(pageNumberOf(input.after)), per_page: String(AUDIT_PER_PAGE), ...filterQuery(input.query) };
  const body = await http.request(AUDIT_API.entries, { query, signal });
  return fromNumberedPage(parseBody(body, AuditPageStruct, AUDIT_API.entries));
});

/** The filtered log as a CSV (a plain link; the server writes the export to the log). */
export function auditExportHref(query: AuditListQuery): string {
  const params = new URLSearchParams(filterQuery(query)).toString();
  return `${API_BASE}${AUDIT_API.export}${params ? `?${params}` : ''}`;
}
