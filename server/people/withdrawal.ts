// A student marked withdrawn, or enrolled again, by hand (decision 0193): `students.withdrawn_at` as the
// roster import sets it, so compose, the picker and the lists treat them alike, and a `contact_changes` row
// of field `estado` by the user, so the next import shows undoing it as a conflict to choose on.
import { recordAudit } from '../audit/record';
import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/client';
import { rowsOf } from '../db/sql';
import { peopleAuditActor, type PeopleScope } from './person';

export type StandingChange = { kind: 'done' } | { kind: 'not_found' } | { kind: 'state' };

/** The `estado` values of the record of changes (and of the roster import's preview). */
const ENROLLED = 'matriculado';
const WITHDRAWN = 'retirado';

/** Marks student `studentId` withdrawn now (`withdraw`) or enrolled again; `state` when already so. */
export async function changeStanding(db: Queryable, scope: PeopleScope, studentId: number, withdraw: boolean): Promise<StandingChange> {
  return db.transaction(async (tx) => {
    const [row] = rowsOf<{ withdrawn: boolean }>(
      await tx.execute(sql`
        select withdrawn_at is not null as withdrawn from students
        where id = ${studentId} and institution_id = ${scope.institutionId} for update`),
    );
    if (!row) return { kind: 'not_found' };
    if (row.withdrawn === withdraw) return { kind: 'state' };
    await tx.execute(sql`
      update students set withdrawn_at = ${withdraw ? sql`now()` : sql`null`}
      where id = ${studentId} and institution_id = ${scope.institutionId}`);
    await tx.execute(sql`
      insert into contact_changes (institution_id, person_kind, person_id, field, old_value, new_value, changed_by)
      values (${scope.institutionId}, 'estudiante', ${studentId}, 'estado', ${withdraw ? ENROLLED : WITHDRAWN},
        ${withdraw ? WITHDRAWN : ENROLLED}, ${scope.userId})`);
    // Re-enrolment is an edit of the standing; the withdrawal has its own code, which the audit screen filters on.
    await recordAudit(tx, peopleAuditActor(scope), {
      action: withdraw ? 'person.withdrawn' : 'person.changed',
      subject: { kind: 'estudiante', id: studentId },
      detail: { fields: ['estado'], to: withdraw ? 'retirado' : 'matriculado' },
    });
    return { kind: 'done' };
  });
}
