// Changing a list's members: adding the people a picker selection reaches (the same RecipientPick[] compose
// sends, expanded by server/recipients/expand.ts, de-duplicated), removing one, removing the stale ones; and a
// member's person record (SPEC §3 "User to edit"), which is the school's record of that person, so an edit
// shows in every list and every future message.
import { sql } from 'drizzle-orm';
import type { RecipientPick } from '../../shared/compose-contract';
import type { PersonKind } from '../../shared/person-rules';
import type { DocumentTypeId, UserToEdit, UserToEditInput } from '../../shared/recipient-lists-contract';
import { reachCtes } from '../recipients/expand';
import { rowsOf } from '../db/sql';
import type { Queryable } from '../db/client';
import { editPerson as editPersonRecord } from '../people/edit';
import { fullName, storedPerson, type StoredPerson } from '../people/person';
import { memberIsStale, memberStudent, type ListScope } from './queries';
import type { FieldErrors } from '../http/field-errors';

/**
 * Adds everyone `picks` reach to list `listId` (already checked: this school's, lists the user can see);
 * people already in the list stay as they are. Each member keeps the course its student is in now, to tell
 * later that the student moved. Returns how many were added.
 */
export async function addPicks(db: Queryable, scope: ListScope, listId: number, picks: RecipientPick[]): Promise<number> {
  if (picks.length === 0) return 0;
  const result = await db.execute(sql`
    with ${reachCtes(scope, picks)}
    insert into recipient_list_members (list_id, member_kind, member_ref_id, student_id, role, course_id)
    select ${listId}, p.kind, p.ref,
      case when p.kind = 'apoderado' then r.sid end,
      case when p.kind = 'apoderado' then r.rl end,
      s.course_id
    from people p
    join reach r on r.kind = p.kind and r.ref = p.ref
    left join students s on s.id = case p.kind when 'estudiante' then p.ref when 'apoderado' then r.sid end
    order by p.sort
    on conflict (list_id, member_kind, member_ref_id) do nothing
    returning id`);
  return rowsOf(result).length;
}

/** Removes one member of the list; false when it is not a member of that list. */
export async function removeMember(db: Queryable, listId: number, memberId: number): Promise<boolean> {
  const result = await db.execute(sql`delete from recipient_list_members where id = ${memberId} and list_id = ${listId} returning id`);
  return rowsOf(result).length > 0;
}

/** Removes the members no longer enrolled or whose course changed; returns how many. */
export async function removeStale(db: Queryable, listId: number): Promise<number> {
  const result = await db.execute(sql`
    delete from recipient_list_members m using students s
    where m.list_id = ${listId} and ${memberStudent} and ${memberIsStale}
    returning m.id`);
  return rowsOf(result).length;
}

export const touchList = (db: Queryable, listId: number) =>
  db.execute(sql`update recipient_lists set updated_at = now() where id = ${listId}`);

// --- the member's person ------------------------------------------------------------------------------------

interface Member {
  kind: PersonKind;
  ref: number;
  /** A guardian member's student (the one the list reached them through). */
  student_id: number | null;
}

/** Who member `memberId` of list `listId` is; null when the list has no such member. */
async function memberOf(db: Queryable, listId: number, memberId: number): Promise<Member | null> {
  const [row] = rowsOf<Member>(
    await db.execute(sql`
      select member_kind as kind, member_ref_id as ref, student_id from recipient_list_members
      where id = ${memberId} and list_id = ${listId}`),
  );
  return row ? { kind: row.kind, ref: Number(row.ref), student_id: row.student_id === null ? null : Number(row.student_id) } : null;
}

/** The person behind a member, read as the people screen reads them (server/people/person.ts); null when none in the school. */
async function personOf(db: Queryable, scope: ListScope, listId: number, memberId: number): Promise<UserToEditRow | null> {
  const member = await memberOf(db, listId, memberId);
  if (!member) return null;
  const person = await storedPerson(db, scope.institutionId, member.kind, member.ref);
  return person ? { person, studentId: member.student_id } : null;
}

interface UserToEditRow {
  person: StoredPerson;
  studentId: number | null;
}

function toUserToEdit({ person: p, studentId }: UserToEditRow, canEdit: boolean): UserToEdit {
  return {
    user_type: p.kind,
    id: p.id,
    ficha_adulto_id: p.kind === 'apoderado' ? p.id : null,
    ficha_estudiante_id: p.kind === 'estudiante' ? p.id : p.kind === 'apoderado' ? studentId : null,
    fono_celular: p.phone,
    email: p.email,
    dni: p.dni,
    tipo_documento_id: p.document_type === null ? null : (p.document_type as DocumentTypeId),
    nombres: p.first_names,
    apellido_paterno: p.last_name_father,
    apellido_materno: p.last_name_mother,
    name: fullName(p),
    can_edit: canEdit,
  };
}

/** The person behind a member, as the editor reads it; `canEdit` says whether the reader may change it. */
export async function readPerson(
  db: Queryable,
  scope: ListScope,
  listId: number,
  memberId: number,
  canEdit: boolean,
): Promise<UserToEdit | null> {
  const person = await personOf(db, scope, listId, memberId);
  return person ? toUserToEdit(person, canEdit) : null;
}

/** The school's country, for the texts that differ (colegio / escuela). */
export async function schoolCountry(db: Queryable, institutionId: number): Promise<'CL' | 'MX'> {
  const [row] = rowsOf<{ country: 'CL' | 'MX' }>(await db.execute(sql`select country from institutions where id = ${institutionId}`));
  return row?.country ?? 'CL';
}

export type PersonEdit =
  | { ok: true; person: UserToEdit }
  | { ok: false; status: 404 }
  | { ok: false; status: 409 }
  | { ok: false; status: 422; errors: FieldErrors };

/**
 * Checks and saves an edit of member `memberId`'s person: the member is resolved to its person (kind and id)
 * and the school's one editor of people saves it (server/people/edit.ts), so the people screen and every list
 * change a person the same way. Who may call it is the route's.
 */
export async function editPerson(
  db: Queryable,
  scope: ListScope,
  listId: number,
  memberId: number,
  input: UserToEditInput,
): Promise<PersonEdit> {
  const person = await personOf(db, scope, listId, memberId);
  if (!person) return { ok: false, status: 404 };
  const saved = await editPersonRecord(db, scope, person.person.kind, person.person.id, input);
  if (!saved.ok) return saved;
  const updated = await personOf(db, scope, listId, memberId);
  return updated ? { ok: true, person: toUserToEdit(updated, true) } : { ok: false, status: 404 };
}
