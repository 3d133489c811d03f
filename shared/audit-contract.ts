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

// What an entry's detail may say: every key a writer puts there, and how its value reads. The screen
// (src/i18n/audit/*.json) and the CSV (server/audit/texts.ts) have a word for each key, each code and each
// field below; a key or a code that is not here (an entry older or newer than this list) still reads, in a
// generic form (shared/audit-detail.ts). Keys are as the writers record them, some English, some Spanish:
// entries cannot be rewritten, so the words are given when the log is read.

/**
 * How a key's value reads: `plain` ids, counts, days and instants as they are; `code` a code of
 * AUDIT_DETAIL_CODES (a day or an id in the same key stays as it is); `field` field names (AUDIT_DETAIL_FIELDS);
 * `role` staff role codes (shared/codes.ts); `action` actions (AUDIT_ACTIONS, comma-separated);
 * `kind` a subject kind (AUDIT_SUBJECT_KINDS).
 */
export type AuditValueKind = 'plain' | 'code' | 'field' | 'role' | 'action' | 'kind';

export const AUDIT_DETAIL_KEYS = {
  // Signing in
  method: 'code',
  reason: 'code',
  session_id: 'plain',
  // Staff accounts
  fields: 'field',
  roles_before: 'role',
  roles_after: 'role',
  device: 'code',
  device_before: 'code',
  device_after: 'code',
  from: 'code',
  to: 'code',
  sessions_ended: 'plain',
  invitation_id: 'plain',
  // A roster import
  school_year: 'plain',
  students_added: 'plain',
  students_changed: 'plain',
  students_withdrawn: 'plain',
  guardians_added: 'plain',
  guardians_changed: 'plain',
  courses_added: 'plain',
  links_written: 'plain',
  import_id: 'plain',
  // A person's guardians
  guardian_id: 'plain',
  guardian_added: 'plain',
  guardian_removed: 'plain',
  // Views and exports of contacts
  view: 'code',
  people: 'plain',
  page: 'plain',
  course_id: 'plain',
  list_id: 'plain',
  messages: 'plain',
  export: 'code',
  format: 'code',
  rows: 'plain',
  // The audit log's own export: its filters
  action: 'action',
  subject_kind: 'kind',
  subject_id: 'plain',
  actor_id: 'plain',
  // Settings
  settings: 'code',
  signature_id: 'plain',
  removed: 'plain',
  // Messages removed for good
  message_ids: 'plain',
  deleted_message_ids: 'plain',
  // Blocking and erasure (shared/privacy-requests-contract.ts) and a person's data export
  solicitado_por: 'code',
  solicitado_antes_por: 'code',
  entregas_detenidas: 'plain',
  mensajes_escritos: 'plain',
  adjuntos: 'plain',
  mensajes_recibidos: 'plain',
  entregas: 'plain',
  sesiones: 'plain',
  historial_contacto: 'plain',
  mensajes_entrantes: 'plain',
  listas: 'plain',
  // Retention (shared/retention-contract.ts): the periods set, what a sweep removed
  campos: 'field',
  mensajes: 'plain',
  respuestas: 'plain',
  recibidos: 'plain',
  auditoria: 'plain',
  bajas: 'plain',
  fecha: 'plain',
} as const satisfies Readonly<Record<string, AuditValueKind>>;
export type AuditDetailKey = keyof typeof AUDIT_DETAIL_KEYS;

/** What an entry's detail may hold as it is written: the keys above only (recordAudit's type). */
export type AuditDetailWritten = Readonly<Partial<Record<AuditDetailKey, AuditDetailValue>>>;

/** The codes a `code` key holds. */
export const AUDIT_DETAIL_CODES = [
  // How one signed in (server/auth/login.ts SignInMethod) and why it was refused (SSO_REFUSALS too)
  'password',
  'sso',
  'invitation',
  'setup',
  'invalid_credentials',
  'policy_missing',
  'unavailable',
  'email_needed',
  'failed',
  'unverified',
  'domain',
  'unknown',
  'throttled',
  'no_access',
  // An account's state and device (shared/staff-contract.ts)
  'invited',
  'active',
  'deactivated',
  'latam',
  'cl',
  // A student's state
  'retirado',
  'matriculado',
  // Where contacts were shown (server/audit/views.ts) and what was exported
  'people_list',
  'course_connectivity',
  'call_list',
  'recipient_list',
  'staff_list',
  'privacy_search',
  'roster_imports',
  'roster_problems',
  'csv',
  // Which settings
  'school',
  'quota',
  'signature',
  'logo',
  // Who asked for a block (BLOCK_REQUESTERS)
  'persona',
  'apoderado',
  'representante',
] as const;
export type AuditDetailCode = (typeof AUDIT_DETAIL_CODES)[number];

/** The field names a `field` key lists: people, staff, school, quota, signature, SSO and retention settings. */
export const AUDIT_DETAIL_FIELDS = [
  // A person (shared/people-contract.ts), a student's guardians and state
  'nombres',
  'apellido_paterno',
  'apellido_materno',
  'email',
  'fono_celular',
  'dni',
  'tipo_documento_id',
  'titular',
  'suplente',
  'estado',
  // A staff account
  'roles',
  'device',
  // The school (shared/school-contract.ts) and its logo
  'name',
  'country',
  'timezone',
  'locale',
  'home_url',
  'chat_enabled',
  'logo',
  // The SMS quota (shared/quota-contract.ts)
  'sms_monthly_limit',
  'reserve_percent',
  'alert_percent',
  // The signature
  'signature',
  'is_active',
  // Sign-in with Google or Microsoft (server/sso/settings.ts)
  'provider',
  'issuer',
  'clientId',
  'clientSecret',
  'domain',
  'enabled',
  // Retention periods (RETENTION_KINDS)
  'mensajes',
  'respuestas',
  'entregas',
  'adjuntos',
  'recibidos',
  'auditoria',
] as const;
export type AuditDetailField = (typeof AUDIT_DETAIL_FIELDS)[number];
