// Finding the person a data request names (decision 0264): by name without accents or case, by RUT/CURP with
// or without dots and dash, by phone as anyone writes it (normalised to the school's country like the stored
// numbers, and by its digits), or by e-mail; students, guardians and colleagues of the asker's school only, never an erased one
// (their row is a label now; a request about them is already answered).
import { sql, type SQL } from 'drizzle-orm';
import { fold } from '../../shared/fold';
import { PRIVACY_SEARCH_LIMIT, type PrivacyKind, type PrivacyMatch } from '../../shared/privacy-contract';
import type { Queryable } from '../db/client';
import { escapeLike, foldSql, rowsOf } from '../db/sql';
import { normalizePhone, type PhoneCountry } from '../recipients/phone';

const nameOf = (t: string) => sql.raw(`concat_ws(' ', ${t}.first_names, ${t}.last_name_father, nullif(${t}.last_name_mother, ''))`);

interface Row {
  kind: PrivacyKind;
  id: number;
  name: string;
  dni: string | null;
  hint: string | null;
}

/** `q` as a condition on person table alias `t`, which has (or not) a document and a phone. */
function matchOf(q: string, country: PhoneCountry, t: string, has: { dni: boolean; phone: boolean }): SQL {
  // Every word somewhere in the name: "ana perez" finds Ana María Pérez Soto.
  const words = fold(q)
    .split(/\s+/)
    .filter((word) => word !== '');
  const name = foldSql(nameOf(t));
  const alternatives = [
    sql`(${sql.join(
      words.map((word) => sql`${name} like ${`%${escapeLike(word)}%`}`),
      sql` and `,
    )})`,
  ];
  alternatives.push(sql`lower(${sql.raw(t)}.email) like ${`%${escapeLike(q.toLowerCase())}%`}`);
  const compact = q.toUpperCase().replace(/[^0-9A-Z]/g, '');
  if (has.dni && compact.length >= 3) {
    alternatives.push(sql`regexp_replace(upper(${sql.raw(t)}.dni), '[^0-9A-Z]', '', 'g') like ${`%${compact}%`}`);
  }
  const digits = q.replace(/\D/g, '');
  if (has.phone && digits.length >= 6 && /^\+?[\d\s().\-/]+$/.test(q)) {
    const normal = normalizePhone(q, country);
    // A whole number as written ("09 8765 4321", "+56 9 8765-4321") is the stored E.164; part of one, its digits.
    if (normal.ok) alternatives.push(sql`${sql.raw(t)}.phone = ${normal.e164}`);
    alternatives.push(sql`regexp_replace(${sql.raw(t)}.phone, '[^0-9]', '', 'g') like ${`%${digits}%`}`);
  }
  return sql`(${sql.join(alternatives, sql` or `)})`;
}

/** Up to PRIVACY_SEARCH_LIMIT people of the school matching `q`, by kind (guardians first) then name. */
export async function searchPeople(db: Queryable, institutionId: number, q: string): Promise<PrivacyMatch[]> {
  const [school] = rowsOf<{ country: string }>(await db.execute(sql`select country from institutions where id = ${institutionId}`));
  const country: PhoneCountry = school?.country === 'MX' ? 'MX' : 'CL';
  const rows = rowsOf<Row>(
    await db.execute(sql`
      select * from (
        select 'apoderado'::text as kind, 0 as rank, g.id, ${nameOf('g')} as name, g.dni,
          (select string_agg(concat_ws(' ', s.first_names, s.last_name_father), ', ' order by s.id)
             from student_guardians sg join students s on s.id = sg.student_id where sg.guardian_id = g.id) as hint
        from guardians g where g.institution_id = ${institutionId} and g.erased_at is null and ${matchOf(q, country, 'g', { dni: true, phone: true })}
        union all
        select 'estudiante'::text, 1, s.id, ${nameOf('s')}, s.dni, c.name
        from students s join courses c on c.id = s.course_id
        where s.institution_id = ${institutionId} and s.erased_at is null and ${matchOf(q, country, 's', { dni: true, phone: false })}
        union all
        select 'funcionario'::text, 2, f.id, ${nameOf('f')}, null::text, p.name
        from staff f left join positions p on p.id = f.position_id
        where f.institution_id = ${institutionId} and f.erased_at is null and ${matchOf(q, country, 'f', { dni: false, phone: true })}
      ) x order by x.rank, lower(x.name), x.id limit ${PRIVACY_SEARCH_LIMIT}`),
  );
  return rows.map((r) => ({ kind: r.kind, id: Number(r.id), name: r.name, dni: r.dni, hint: r.hint }));
}
