// The audit log: an append-only record of what matters for privacy and security (server/audit/). Rows hold
// ids and codes, never a message body nor a person's name, RUT, phone or e-mail: erasing a person leaves
// nothing of them here, while the log still says who did what to which id. No foreign keys: an entry must
// outlive the account, person or school it names. Migration 0032 adds the trigger that refuses UPDATE, and
// DELETE except by the retention sweep (server/retention/sweep.ts).
import { bigint, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { AuditDetail } from '../../../shared/audit-contract';

export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** The school it happened in; null when none is known (a failed sign-in with an unknown e-mail). */
    institutionId: integer('institution_id'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** The staff user who did it; null for the system (retention) or an anonymous caller. */
    actorUserId: integer('actor_user_id'),
    /** The caller's address (server/http/client-ip.ts); null for the system. */
    ip: text('ip'),
    /** shared/audit-contract.ts AUDIT_ACTIONS. */
    action: text('action').notNull(),
    subjectKind: text('subject_kind'),
    subjectId: integer('subject_id'),
    detail: jsonb('detail').$type<AuditDetail>(),
  },
  (t) => [
    index('audit_events_institution_at_idx').on(t.institutionId, t.at.desc()),
    index('audit_events_subject_idx').on(t.institutionId, t.subjectKind, t.subjectId),
    index('audit_events_actor_idx').on(t.institutionId, t.actorUserId),
  ],
);
