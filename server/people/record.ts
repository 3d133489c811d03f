// One student's or guardian's record as the people screen reads it (shared/people-contract.ts PersonRecord):
// the editable fields, a student's course, standing and guardians (titular first), a guardian's students by
// name. Another school's person is no one.
import { sql } from 'drizzle-orm';
import type { GuardianRoleId, GuardianStudent, PeopleKind, PersonRecord, StudentGuardian } from '../../shared/people-contract';
import type { DocumentTypeId } from '../../shared/recipient-lists-contract';
import type { Queryable } from '../db/client';
import { rowsOf } from '../db/sql';
import { fullName, type PeopleScope, storedPerson } from './person';

/** Spanish order: accents sort with their base letter. */
const collator = new Intl.Collator('es', { sensitivity: 'base', numeric: true });
const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

interface StudentExtra {
  course_id: number;
  course_name: string;
  withdrawn_at: Date | string | null;
}

interface LinkRow {
  id: number;
  first_names: string;
  last_name_father: string;
  last_name_mother: string;
  role: number;
  relationship: string;
  phone?: string | null;
  email?: string | null;
  course?: string;
  withdrawn_at?: Date | string | null;
}

export async function readRecord(db: Queryable, scope: PeopleScope, kind: PeopleKind, id: number): Promise<PersonRecord | null> {
  const person = await storedPerson(db, scope.institutionId, kind, id);
  if (!person) return null;
  const base = {
    kind,
    id,
    nombres: person.first_names,
    apellido_paterno: person.last_name_father,
    apellido_materno: person.last_name_mother,
    name: fullName(person),
    dni: person.dni,
    tipo_documento_id: person.document_type as DocumentTypeId | null,
    fono_celular: person.phone,
    email: person.email,
  };
  if (kind === 'apoderado') {
    const rows = rowsOf<LinkRow>(
      await db.execute(sql`
        select s.id, s.first_names, s.last_name_father, s.last_name_mother, sg.role, sg.relationship, c.name as course, s.withdrawn_at
        from student_guardians sg join students s on s.id = sg.student_id and s.institution_id = ${scope.institutionId}
        join courses c on c.id = s.course_id
        where sg.guardian_id = ${id}`),
    );
    const students: GuardianStudent[] = rows
      .map((r) => ({
        id: Number(r.id),
        name: fullName(r),
        course: r.course!,
        rol_adulto_id: Number(r.role) as GuardianRoleId,
        relationship: r.relationship,
        withdrawn_at: iso(r.withdrawn_at ?? null),
      }))
      .sort((a, b) => collator.compare(a.name, b.name) || a.id - b.id);
    return { ...base, course: null, withdrawn_at: null, guardians: [], students };
  }
  const [extra] = rowsOf<StudentExtra>(
    await db.execute(sql`
      select s.course_id, c.name as course_name, s.withdrawn_at
      from students s join courses c on c.id = s.course_id where s.id = ${id}`),
  );
  const links = rowsOf<LinkRow>(
    await db.execute(sql`
      select g.id, g.first_names, g.last_name_father, g.last_name_mother, sg.role, sg.relationship, g.phone, g.email
      from student_guardians sg join guardians g on g.id = sg.guardian_id and g.institution_id = ${scope.institutionId}
      where sg.student_id = ${id}
      order by sg.role, g.id`),
  );
  const guardians: StudentGuardian[] = links.map((r) => ({
    id: Number(r.id),
    name: fullName(r),
    rol_adulto_id: Number(r.role) as GuardianRoleId,
    relationship: r.relationship,
    fono_celular: r.phone ?? null,
    email: r.email ?? null,
  }));
  return {
    ...base,
    course: { id: Number(extra!.course_id), name: extra!.course_name },
    withdrawn_at: iso(extra!.withdrawn_at),
    guardians,
    students: [],
  };
}
