// SPEC §3 device status as SQL: the rule of `deviceStatus` in server/recipients/directory.ts (red: no app and no
// usable mobile; yellow: the last DEVICE_WINDOW device deliveries not received; blue: app; green: SMS only),
// so the dashboards count the mix with one aggregate instead of loading every guardian.
import { sql, type SQL } from 'drizzle-orm';
// Written once, beside the TypeScript rule and its E.164 check (the connectivity screens use it too).
import { deviceStatusSql } from '../recipients/device-status';

export { deviceStatusSql };

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
