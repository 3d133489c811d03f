// The school's device mix for the dashboards' summary: the connectivity's device status in SQL (schoolDeviceStatusSql,
// ./connectivity/figures.ts: SPEC §3's, green only where the school can text or WhatsApp), counted with one aggregate instead of
// loading every guardian.
import { sql, type SQL } from 'drizzle-orm';
import { schoolDeviceStatusSql, schoolPhoneChannelsSql } from './connectivity/figures';

/**
 * The school's device mix: its guardians of enrolled students (the ones compose offers), each once, by status.
 * One row per status present (`status`, `guardians`).
 */
export function deviceMixSql(institutionId: number): SQL {
  return sql`
    with can as (${schoolPhoneChannelsSql(institutionId)})
    select ${schoolDeviceStatusSql('g', 'can')} as status, count(*)::int as guardians
    from guardians g cross join can
    where g.institution_id = ${institutionId} and g.erased_at is null
      and exists (select 1 from student_guardians sg join students s on s.id = sg.student_id
                  where sg.guardian_id = g.id and s.withdrawn_at is null and s.erased_at is null)
    group by 1`;
}
