// The school's device mix for the dashboards' summary: SPEC §3 device status in SQL (deviceStatusSql,
// server/recipients/device-status.ts, beside its TypeScript twin), counted with one aggregate instead of
// loading every guardian.
import { sql, type SQL } from 'drizzle-orm';
import { deviceStatusSql } from '../recipients/device-status';

/**
 * The school's device mix: its guardians of enrolled students (the ones compose offers), each once, by status.
 * One row per status present (`status`, `guardians`).
 */
export function deviceMixSql(institutionId: number): SQL {
  return sql`
    select ${deviceStatusSql('g')} as status, count(*)::int as guardians
    from guardians g
    where g.institution_id = ${institutionId}
      and exists (select 1 from student_guardians sg join students s on s.id = sg.student_id
                  where sg.guardian_id = g.id and s.withdrawn_at is null)
    group by 1`;
}
