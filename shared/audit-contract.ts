// The audit log's vocabulary, shared by the server that writes it and the administrators' screen that reads
// it: what was done (`accion`) and to what (`sujeto`). Entries name ids, never message bodies nor a person's
// name, RUT, phone or e-mail, so that erasing a person leaves nothing of them here.

import type { NumberedPage } from './recipient-lists-contract';

export const AUDIT_ACTIONS = [
  // Signing in
  'session.signed_in',
  'session.sign_in_failed',
  'session.signed_out',
  // Staff accounts and their roles
  'staff.invited',
  'staff.changed',
  'staff.deactivated',
  'staff.reactivated',
  // The school's people
  'roster.imported',
  'person.changed',
  'person.withdrawn',
  'person.contacts_viewed',
  // Exports (call lists, CSV files, a person's data, the audit log itself)
  'export.call_list',
  'export.csv',
  'person.data_viewed',
  'person.exported',
  'audit.exported',
  // Objection, erasure and deletions
  'person.blocked',
  'person.unblocked',
  'person.erased',
  'message.purged',
  // Settings and provider configuration
  'settings.changed',
  'channels.changed',
  'sso.changed',
  'retention.changed',
  'retention.applied',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** What an entry is about; `persona` kinds match the people contract's (apoderado, estudiante, funcionario). */
export const AUDIT_SUBJECT_KINDS = ['apoderado', 'estudiante', 'funcionario', 'usuario', 'mensaje', 'colegio', 'importacion'] as const;
export type AuditSubjectKind = (typeof AUDIT_SUBJECT_KINDS)[number];

/** Detail values: ids, counts, codes and field names only. */
export type AuditDetailValue = string | number | boolean | null | readonly number[] | readonly string[];
export type AuditDetail = Readonly<Record<string, AuditDetailValue>>;

// The administrators' screen of the log (GET /audit, GET /audit/export.csv), shared by the SPA and server/.

/** The API paths. */
export const AUDIT_API = { entries: '/audit', export: '/audit/export.csv' } as const;

export const AUDIT_PER_PAGE = 50;
export const AUDIT_PER_PAGE_MAX = 100;
/** Rows one CSV export carries at most: beyond it, narrow the dates. */
export const AUDIT_EXPORT_MAX = 50_000;

/** Who did it: a staff account, the system (a periodic job) or someone not signed in (a failed sign-in). */
export const AUDIT_ACTOR_KINDS = ['user', 'system', 'anonymous'] as const;
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];

/**
 * One entry as the screen shows it. Names come from the live rows: `name` is null when the account or the
 * person no longer exists (the screen then says so, neutrally); an erased person reads as their row now does.
 */
export interface AuditRow {
  id: number;
  /** ISO instant. */
  at: string;
  action: AuditAction;
  actor: { kind: AuditActorKind; id: number | null; name: string | null };
  ip: string | null;
  subject: { kind: AuditSubjectKind; id: number; name: string | null } | null;
  detail: AuditDetail | null;
}

/**
 * `GET /audit?page=&per_page=&action=a,b&subject_kind=&subject_id=&actor_id=&from=&to=` → numbered page of
 * AuditRow, newest first. `from` / `to` are days (YYYY-MM-DD) in the school's time zone, both included;
 * `subject_kind` and `subject_id` go together. `GET /audit/export.csv` takes the same filters (no paging).
 */
export interface AuditQuery {
  page?: number;
  per_page?: number;
  action?: string;
  subject_kind?: AuditSubjectKind;
  subject_id?: number;
  actor_id?: number;
  from?: string;
  to?: string;
}

export type AuditPage = NumberedPage<AuditRow>;
