// Writes the audit log (server/db/schema/audit.ts): one row per action that matters for privacy or
// security. Call it in the same transaction as the change it records, so a change never lands without its
// entry nor an entry without its change; an export or a view, which change nothing, record as they answer.
import type { AuditAction, AuditDetailWritten, AuditSubjectKind } from '../../shared/audit-contract';
import type { Queryable } from '../db/client';
import { auditEvents } from '../db/schema/audit';

/** Who did it, from where: `auditActorOf(c)` for a request, `SYSTEM_ACTOR(school)` for a periodic job. */
export interface AuditActor {
  institutionId: number | null;
  actorUserId: number | null;
  ip: string | null;
}

export interface AuditEntry {
  action: AuditAction;
  subject?: { kind: AuditSubjectKind; id: number };
  /**
   * Ids, counts, codes and field names: never a body, a name, a RUT, a phone or an e-mail. Its keys are the
   * contract's (AUDIT_DETAIL_KEYS), each with its words on the screen and in the CSV.
   */
  detail?: AuditDetailWritten;
}

export async function recordAudit(db: Queryable, actor: AuditActor, entry: AuditEntry): Promise<void> {
  await db.insert(auditEvents).values({
    institutionId: actor.institutionId,
    actorUserId: actor.actorUserId,
    ip: actor.ip,
    action: entry.action,
    subjectKind: entry.subject?.kind ?? null,
    subjectId: entry.subject?.id ?? null,
    detail: entry.detail ?? null,
  });
}

/** A periodic job acting for a school (retention). */
export const systemActor = (institutionId: number | null): AuditActor => ({ institutionId, actorUserId: null, ip: null });
