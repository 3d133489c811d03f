// A student's guardians by hand: another one given (a guardian of the school with the same document is
// linked as they are; anyone else is created, phone in E.164 as the editor keeps it) in a role still free for
// that student, or one link taken away (the guardian's record stays for their other children).
import { recordAudit } from '../audit/record';
import { sql } from 'drizzle-orm';
import type { GuardianRoleId, NewGuardianInput } from '../../shared/people-contract';
import { RELATIONSHIP_MAX } from '../../shared/people-contract';
import { checkPersonEdit } from '../../shared/person-rules';
import type { UserToEditInput } from '../../shared/recipient-lists-contract';
import type { Queryable } from '../db/client';
import { rowsOf } from '../db/sql';
import { addFieldError, type FieldErrors, hasFieldErrors } from '../http/field-errors';
import { settlePhone } from './edit';
import { peopleAuditActor, type PeopleScope, schoolOf } from './person';
import { PEOPLE_MESSAGES } from './texts';

export type GuardianChange = { kind: 'done' } | { kind: 'not_found' } | { kind: 'invalid'; errors: FieldErrors };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
/** A guardian's role as the record of changes and the roster import's preview name it. */
const ROLE_FIELDS = { 1: 'titular', 2: 'suplente' } as const;
/** A guardian `g` as the roster import's preview names them ("Ana Pérez Soto (Madre)", with the relationship after). */
const LABEL = sql.raw(`concat_ws(' ', g.first_names, g.last_name_father, nullif(g.last_name_mother, ''))`);
const PERSON_FIELDS = ['nombres', 'apellido_paterno', 'apellido_materno', 'email', 'fono_celular', 'dni', 'tipo_documento_id'] as const;

/** Whether student `studentId` is the school's; locks the row, so two guardians given at once take turns. */
async function lockStudent(tx: Queryable, scope: PeopleScope, studentId: number): Promise<boolean> {
  const rows = rowsOf(
    await tx.execute(sql`select id from students where id = ${studentId} and institution_id = ${scope.institutionId} for update`),
  );
  return rows.length > 0;
}

/**
 * Gives student `studentId` the guardian `body` describes. Checks every field (the person's as the editor
 * does, the role and relationship), then, under the student's lock: the role must be free, and a guardian of
 * the school with the same document is linked untouched, or a new guardian is created.
 */
export async function addGuardian(db: Queryable, scope: PeopleScope, studentId: number, body: unknown): Promise<GuardianChange> {
  const school = await schoolOf(db, scope.institutionId);
  const raw = isObject(body) ? body : {};
  const input: UserToEditInput = {};
  for (const field of PERSON_FIELDS) if (raw[field] !== undefined) (input as Record<string, unknown>)[field] = raw[field];
  // A new guardian needs a name: absent is empty, which the rules refuse.
  input.nombres ??= '';
  input.apellido_paterno ??= '';
  const checked = checkPersonEdit('apoderado', input, { dni: null, tipo_documento_id: null }, school.phone_prefix);
  const errors: FieldErrors = { ...checked.errors };
  settlePhone(checked, errors);
  const role = raw.rol_adulto_id === 1 || raw.rol_adulto_id === 2 ? (raw.rol_adulto_id as GuardianRoleId) : null;
  if (role === null) addFieldError(errors, 'rol_adulto_id', PEOPLE_MESSAGES.role);
  const relationship = typeof raw.relationship === 'string' ? raw.relationship.trim().replace(/\s+/g, ' ') : '';
  if (relationship === '') addFieldError(errors, 'relationship', PEOPLE_MESSAGES.relationship[school.country]);
  else if (relationship.length > RELATIONSHIP_MAX) addFieldError(errors, 'relationship', PEOPLE_MESSAGES.relationshipLong);

  return db.transaction(async (tx) => {
    if (!(await lockStudent(tx, scope, studentId))) return { kind: 'not_found' };
    const values = checked.values as NewGuardianInput;
    let guardianId: number | null = null;
    let linked = false;
    if (values.dni) {
      // The same person already known to the school (a sibling's guardian): linked as the school has them.
      const [same] = rowsOf<{ id: number; linked: boolean }>(
        await tx.execute(sql`
          select g.id, exists (select 1 from student_guardians sg where sg.guardian_id = g.id and sg.student_id = ${studentId}) as linked
          from guardians g where g.institution_id = ${scope.institutionId} and upper(g.dni) = upper(${values.dni})
          order by g.id limit 1`),
      );
      linked = same?.linked ?? false;
      if (linked) addFieldError(errors, 'dni', PEOPLE_MESSAGES.alreadyLinked[school.country]);
      else if (same) guardianId = Number(same.id);
    }
    // Already this student's guardian: the role is beside the point.
    if (role !== null && !linked) {
      const taken = rowsOf(await tx.execute(sql`select 1 from student_guardians where student_id = ${studentId} and role = ${role}`));
      if (taken.length > 0) addFieldError(errors, 'rol_adulto_id', PEOPLE_MESSAGES.roleTaken[school.country](role));
    }
    if (hasFieldErrors(errors) || role === null) return { kind: 'invalid', errors };
    const existing = guardianId;
    if (guardianId === null) {
      const [created] = rowsOf<{ id: number }>(
        await tx.execute(sql`
          insert into guardians (institution_id, first_names, last_name_father, last_name_mother, dni, document_type, phone, email)
          values (${scope.institutionId}, ${values.nombres}, ${values.apellido_paterno}, ${values.apellido_materno ?? ''},
            ${values.dni ?? null}, ${values.tipo_documento_id ?? null}, ${values.fono_celular ?? null}, ${values.email ?? null})
          returning id`),
      );
      guardianId = Number(created!.id);
    }
    await tx.execute(sql`
      insert into student_guardians (student_id, guardian_id, role, relationship)
      values (${studentId}, ${guardianId}, ${role}, ${relationship})`);
    // Recorded as a correction of the student's family, so the next roster import asks before undoing it.
    await tx.execute(sql`
      insert into contact_changes (institution_id, person_kind, person_id, field, old_value, new_value, changed_by)
      select ${scope.institutionId}, 'estudiante', ${studentId}, ${ROLE_FIELDS[role]}, null,
        ${LABEL} || ' (' || ${relationship} || ')', ${scope.userId}
      from guardians g where g.id = ${guardianId}`);
    await recordAudit(tx, peopleAuditActor(scope), {
      action: 'person.changed',
      subject: { kind: 'estudiante', id: studentId },
      detail: { fields: [ROLE_FIELDS[role]], guardian_id: guardianId, guardian_added: existing === null },
    });
    return { kind: 'done' };
  });
}

/** Takes guardian `guardianId` away from student `studentId`; not found unless that link exists in the school. */
export async function unlinkGuardian(db: Queryable, scope: PeopleScope, studentId: number, guardianId: number): Promise<GuardianChange> {
  return db.transaction(async (tx) => {
    const [removed] = rowsOf<{ role: 1 | 2; label: string }>(
      await tx.execute(sql`
        delete from student_guardians sg using students s, guardians g
        where sg.student_id = s.id and s.id = ${studentId} and s.institution_id = ${scope.institutionId}
          and sg.guardian_id = ${guardianId} and g.id = sg.guardian_id
        returning sg.role, ${LABEL} || ' (' || sg.relationship || ')' as label`),
    );
    if (!removed) return { kind: 'not_found' };
    await tx.execute(sql`
      insert into contact_changes (institution_id, person_kind, person_id, field, old_value, new_value, changed_by)
      values (${scope.institutionId}, 'estudiante', ${studentId}, ${ROLE_FIELDS[Number(removed.role) as 1 | 2]}, ${removed.label}, null,
        ${scope.userId})`);
    await recordAudit(tx, peopleAuditActor(scope), {
      action: 'person.changed',
      subject: { kind: 'estudiante', id: studentId },
      detail: { fields: [ROLE_FIELDS[Number(removed.role) as 1 | 2]], guardian_id: guardianId, guardian_removed: true },
    });
    return { kind: 'done' };
  });
}
