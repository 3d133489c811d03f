// One person of the school as stored (a student, a guardian or a colleague), keyed by kind and id: what the
// edit compares against and the school's country and phone prefix its checks need. Another school's id is
// no one.
import type { AuditActor } from '../audit/record';
import { sql } from 'drizzle-orm';
import type { PersonKind } from '../../shared/person-rules';
import type { Queryable } from '../db/client';
import { rowsOf } from '../db/sql';
import type { Country } from './texts';

/** Who asks: the signed-in user and their school. */
export interface PeopleScope {
  userId: number;
  institutionId: number;
  /** The caller's address, for the audit log of a change. */
  ip?: string | null;
}

/** The audit log's actor of a change made through the people editor. */
export const peopleAuditActor = (scope: PeopleScope): AuditActor => ({
  institutionId: scope.institutionId,
  actorUserId: scope.userId,
  ip: scope.ip ?? null,
});

export interface StoredPerson {
  kind: PersonKind;
  id: number;
  first_names: string;
  last_name_father: string;
  last_name_mother: string;
  email: string | null;
  /** Guardians and colleagues; always null for a student. */
  phone: string | null;
  /** Students and guardians; always null for a colleague. */
  dni: string | null;
  document_type: number | null;
  country: Country;
  phone_prefix: string;
  /** Anonymised at their request (server/privacy-requests/erasure.ts): never edited again. */
  erased: boolean;
}

const TABLES = { apoderado: 'guardians', estudiante: 'students', funcionario: 'staff' } as const;

/** The person `kind` `id` of the scope's school, or null when there is none there. */
export async function storedPerson(db: Queryable, institutionId: number, kind: PersonKind, id: number): Promise<StoredPerson | null> {
  const table = sql.identifier(TABLES[kind]);
  // Students keep no phone and colleagues no document (shared/person-rules.ts): read as null, never guessed.
  const phone = kind === 'estudiante' ? sql`null::text` : sql`p.phone`;
  const document = kind === 'funcionario' ? sql`null::text as dni, null::smallint as document_type` : sql`p.dni, p.document_type`;
  const [row] = rowsOf<StoredPerson>(
    await db.execute(sql`
      select p.id, p.first_names, p.last_name_father, p.last_name_mother, p.email, ${phone} as phone, ${document},
        i.country, i.phone_prefix, p.erased_at is not null as erased
      from ${table} p join institutions i on i.id = p.institution_id
      where p.id = ${id} and p.institution_id = ${institutionId}`),
  );
  if (!row) return null;
  return { ...row, kind, id: Number(row.id), document_type: row.document_type === null ? null : Number(row.document_type) };
}

/** The school's country and phone prefix, for its words and for phones typed without one. */
export async function schoolOf(db: Queryable, institutionId: number): Promise<{ country: Country; phone_prefix: string }> {
  const [row] = rowsOf<{ country: Country; phone_prefix: string }>(
    await db.execute(sql`select country, phone_prefix from institutions where id = ${institutionId}`),
  );
  return row ?? { country: 'CL', phone_prefix: '+56' };
}

/** A full name as every screen shows it: no trailing space for someone without a second surname. */
export const fullName = (p: { first_names: string; last_name_father: string; last_name_mother: string }) =>
  [p.first_names, p.last_name_father, p.last_name_mother].filter((part) => part !== '').join(' ');
