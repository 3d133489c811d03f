// The audit log's vocabulary, shared by the server that writes it and the administrators' screen that reads
// it: what was done (`accion`) and to what (`sujeto`). Entries name ids, never message bodies nor a person's
// name, RUT, phone or e-mail, so that erasing a person leaves nothing of them here.

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
