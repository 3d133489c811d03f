// SPEC §3 device status as SQL: the rule of `deviceStatus` in server/compose/recipients.ts (red: no app and no
// usable mobile; yellow: the last DEVICE_WINDOW device deliveries not received; blue: app; green: SMS only),
// so the dashboards count the mix with one aggregate instead of loading every guardian.
import { sql, type SQL } from 'drizzle-orm';
import { DEVICE_WINDOW } from '../delivery/status';

/** The device status of the guardian row aliased `g`, as an SQL expression ('blue' | 'green' | 'yellow' | 'red'). */
export function deviceStatusSql(g = 'g'): SQL {
  const t = sql.raw(g);
  return sql`case
    when ${t}.app_installed_at is null and (${t}.phone is null or ${t}.phone !~ '^\\+[1-9][0-9]{7,14}$') then 'red'
    when ${t}.device_misses >= ${DEVICE_WINDOW} then 'yellow'
    when ${t}.app_installed_at is not null then 'blue'
    else 'green' end`;
}

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
