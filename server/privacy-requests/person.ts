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
  /** The school's country: the neutral label speaks its vocabulary. */
  country: 'CL' | 'MX';
}

const TABLES: Record<PrivacyPersonKind, string> = { apoderado: 'guardians', estudiante: 'students', funcionario: 'staff' };

/** The person's row, locked for the request's transaction; null when not of that school. */
export const lockPerson = (tx: Queryable, person: PersonRef): Promise<PersonRow | null> => readPerson(tx, person, true);

/** The person's row, locked or (a preview) only read; null when not of that school. */
export async function readPerson(tx: Queryable, { institutionId, kind, id }: PersonRef, lock: boolean): Promise<PersonRow | null> {
  const table = sql.raw(TABLES[kind]);
  const dni = kind === 'funcionario' ? sql`null::text` : sql`p.dni`;
  const phone = kind === 'estudiante' ? sql`null::text` : sql`p.phone`;
  const userId = kind === 'funcionario' ? sql`p.user_id` : sql`null::int`;
  const result = await tx.execute(sql`
    select p.first_names, p.last_name_father, p.last_name_mother, ${dni} as dni, p.email, ${phone} as phone,
      ${userId} as user_id, p.erased_at is not null as erased,
      (select i.country from institutions i where i.id = p.institution_id) as country
    from ${table} p where p.id = ${id} and p.institution_id = ${institutionId} ${lock ? sql`for update of p` : sql``}`);
  const row = rowsOf<{
    first_names: string;
    last_name_father: string;
    last_name_mother: string;
    dni: string | null;
    email: string | null;
    phone: string | null;
    user_id: number | null;
    erased: boolean;
    country: 'CL' | 'MX';
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
    country: row.country,
  };
}
