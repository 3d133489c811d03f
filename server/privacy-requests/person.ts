// The person a privacy request is about, found in the administrator's school only (another school's is a 404).
import { sql } from 'drizzle-orm';
import type { PrivacyPersonKind } from '../../shared/privacy-requests-contract';
import type { Queryable } from '../db/client';
import { rowsOf } from '../db/sql';

export interface PersonRef {
  institutionId: number;
  kind: PrivacyPersonKind;
  id: number;
}

export interface PersonRow {
  firstNames: string;
  lastNameFather: string;
  lastNameMother: string;
  dni: string | null;
  email: string | null;
  phone: string | null;
  userId: number | null;
  erased: boolean;
}

const TABLES: Record<PrivacyPersonKind, string> = { apoderado: 'guardians', estudiante: 'students', funcionario: 'staff' };

/** The person's row, locked for the request's transaction; null when not of that school. */
export async function lockPerson(tx: Queryable, { institutionId, kind, id }: PersonRef): Promise<PersonRow | null> {
  const table = sql.raw(TABLES[kind]);
  const dni = kind === 'funcionario' ? sql`null::text` : sql`p.dni`;
  const phone = kind === 'estudiante' ? sql`null::text` : sql`p.phone`;
  const userId = kind === 'funcionario' ? sql`p.user_id` : sql`null::int`;
  const result = await tx.execute(sql`
    select p.first_names, p.last_name_father, p.last_name_mother, ${dni} as dni, p.email, ${phone} as phone,
      ${userId} as user_id, p.erased_at is not null as erased
    from ${table} p where p.id = ${id} and p.institution_id = ${institutionId} for update`);
  const row = rowsOf<{
    first_names: string;
    last_name_father: string;
    last_name_mother: string;
    dni: string | null;
    email: string | null;
    phone: string | null;
    user_id: number | null;
    erased: boolean;
  }>(result)[0];
  if (!row) return null;
  return {
    firstNames: row.first_names,
    lastNameFather: row.last_name_father,
    lastNameMother: row.last_name_mother,
    dni: row.dni,
    email: row.email,
    phone: row.phone,
    userId: row.user_id === null ? null : Number(row.user_id),
    erased: row.erased,
  };
}
