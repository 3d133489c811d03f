// The one place a person's record is corrected by hand, keyed by (kind, id): the people screen's PATCH and
// the list member editor (server/recipient-lists/members.ts) both call it. Checks the SPEC "User to edit"
// fields (shared/person-rules.ts, the same the SPA shows), asks libphonenumber whether a phone is a mobile,
// and saves the row with one `contact_changes` row per field that really changed, in one transaction: the
// school can tell who put a number there, and the next roster import takes it for a correction to keep.
import { recordAudit } from '../audit/record';
import { sql } from 'drizzle-orm';
import { type CheckedPersonEdit, checkPersonEdit, PERSON_ERRORS, type PersonKind } from '../../shared/person-rules';
import type { DocumentTypeId, UserToEditInput } from '../../shared/recipient-lists-contract';
import type { Queryable } from '../db/client';
import { rowsOf } from '../db/sql';
import { contactChanges } from '../db/schema/school';
import { type FieldErrors, hasFieldErrors } from '../http/field-errors';
import { normalizePhone, type PhoneCountry } from '../recipients/phone';
import { peopleAuditActor, type PeopleScope, type StoredPerson, storedPerson } from './person';

export type PersonEdit =
  | { ok: true }
  | { ok: false; status: 404 }
  | { ok: false; status: 409 }
  | { ok: false; status: 422; errors: FieldErrors };

/** Whether a number that passed its shape check is a mobile of one of its prefix's countries. */
function mobileError(value: string, countries: readonly PhoneCountry[]): string | null {
  let reason: 'invalid' | 'not_mobile' = 'invalid';
  for (const country of countries) {
    const checked = normalizePhone(value, country);
    if (checked.ok) return null;
    if (checked.reason === 'not_mobile') reason = 'not_mobile';
  }
  return reason === 'not_mobile' ? PERSON_ERRORS.phoneNotMobile : PERSON_ERRORS.phoneInvalid;
}

/**
 * The checked edit's phone as a mobile in E.164, or its error in `errors`: the shape check of person-rules
 * passed; libphonenumber decides whether it is a mobile of its prefix's countries.
 */
export function settlePhone(checked: CheckedPersonEdit, errors: FieldErrors): void {
  const phone = checked.values.fono_celular;
  if (errors.fono_celular || !phone || !checked.phoneCountries) return;
  const countries = checked.phoneCountries as readonly PhoneCountry[];
  const error = mobileError(phone, countries);
  if (error) {
    errors.fono_celular = [error];
    return;
  }
  const e164 = countries.map((country) => normalizePhone(phone, country)).find((r) => r.ok);
  if (e164?.ok) checked.values.fono_celular = e164.e164;
}

const COLUMNS = {
  nombres: 'first_names',
  apellido_paterno: 'last_name_father',
  apellido_materno: 'last_name_mother',
  email: 'email',
  fono_celular: 'phone',
  dni: 'dni',
  tipo_documento_id: 'document_type',
} as const;
const TABLES = { apoderado: 'guardians', estudiante: 'students', funcionario: 'staff' } as const;

/** The stored value of each editable field, under its API name (what the record of changes compares). */
function storedValues(p: StoredPerson): Record<keyof typeof COLUMNS, string | null> {
  return {
    nombres: p.first_names,
    apellido_paterno: p.last_name_father,
    apellido_materno: p.last_name_mother,
    email: p.email,
    fono_celular: p.phone,
    dni: p.dni,
    tipo_documento_id: p.document_type === null ? null : String(p.document_type),
  };
}

/**
 * Checks and saves an edit of person `kind` `id` of the scope's school: the row in guardians, students or
 * staff, so every list and future message has it, and one `contact_changes` row per field that really
 * changed (who, when, old and new value). A guardian's new phone starts its device record afresh (its misses
 * were the old number's). Fields absent from `input` stay as they are. Who may call it is the route's.
 */
export async function editPerson(
  db: Queryable,
  scope: PeopleScope,
  kind: PersonKind,
  id: number,
  input: UserToEditInput,
): Promise<PersonEdit> {
  const person = await storedPerson(db, scope.institutionId, kind, id);
  if (!person) return { ok: false, status: 404 };
  // An erased person's name or phone must not come back by hand.
  if (person.erased) return { ok: false, status: 409 };
  const current = { dni: person.dni, tipo_documento_id: person.document_type as DocumentTypeId | null };
  const checked = checkPersonEdit(kind, input, current, person.phone_prefix);
  const errors = { ...checked.errors };
  settlePhone(checked, errors);
  if (hasFieldErrors(errors)) return { ok: false, status: 422, errors };

  const before = storedValues(person);
  const changed = (Object.entries(checked.values) as [keyof typeof COLUMNS, string | number | null][])
    .map(([field, value]) => ({ field, value, text: value === null ? null : String(value) }))
    .filter((change) => change.text !== before[change.field]);
  if (changed.length === 0) return { ok: true };
  const sets = changed.map(({ field, value }) => sql`${sql.identifier(COLUMNS[field])} = ${value}`);
  const newPhone = kind === 'apoderado' && changed.some((change) => change.field === 'fono_celular');
  if (newPhone) sets.push(sql`device_misses = 0`);
  const records = changed.map(
    ({ field, text }) => sql`(${scope.institutionId}, ${kind}, ${id}, ${field}, ${before[field]}, ${text}, ${scope.userId})`,
  );
  const saved = await db.transaction(async (tx) => {
    // Not erased meanwhile (the erasure holds the row locked until it commits).
    const updated = await tx.execute(sql`
      update ${sql.identifier(TABLES[kind])} set ${sql.join(sets, sql`, `)}
      where id = ${id} and institution_id = ${scope.institutionId} and erased_at is null returning id`);
    if (rowsOf(updated).length === 0) return false;
    // The phones that signed in with the old number are no longer this family's: no more pushes to them.
    if (newPhone) await tx.execute(sql`delete from push_subscriptions where guardian_id = ${id}`);
    await tx.execute(sql`
      insert into ${contactChanges} (institution_id, person_kind, person_id, field, old_value, new_value, changed_by)
      values ${sql.join(records, sql`, `)}`);
    // The field names only: contact_changes holds the values, which an erasure can clean; this log cannot be.
    await recordAudit(tx, peopleAuditActor(scope), {
      action: 'person.changed',
      subject: { kind, id },
      detail: { fields: changed.map((change) => change.field) },
    });
    return true;
  });
  return saved ? { ok: true } : { ok: false, status: 409 };
}
