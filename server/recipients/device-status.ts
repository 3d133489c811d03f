// A guardian's device status, SPEC §3's legend: red when they cannot be reached on a device at all (no app,
// no number the delivery engine can text: ./sms-phones.ts); otherwise yellow when the last DEVICE_WINDOW
// device deliveries all failed (`guardians.device_misses`, kept by server/reception/status.ts), else blue
// with the app (reachable through it: ./app-reach.ts), green with SMS only. Written twice, in TypeScript for the rows a screen reads and in SQL for
// the dashboards' aggregates, side by side so the two cannot drift apart unnoticed.
import { sql, type SQL } from 'drizzle-orm';
import type { DeviceStatus } from '../../shared/compose-contract';
import { appReachableText } from './app-reach';
import { smsPhoneSql, smsPhoneText } from './sms-phones';

/** The yellow device status window (SPEC §9: the last 3 messages). */
export const DEVICE_WINDOW = 3;

export function deviceStatus(g: { app: boolean; sms: boolean }, irregular: boolean): DeviceStatus {
  if (!g.app && !g.sms) return 'red';
  if (irregular) return 'yellow';
  return g.app ? 'blue' : 'green';
}

/** Whether a guardian row (alias `g`) has a number the delivery engine can text, in SQL. */
export const hasPhoneSql = (g: string): SQL => smsPhoneSql(g);

/** `deviceStatus` in SQL over a guardian row aliased `g`. */
export const deviceStatusSql = (g = 'g'): SQL =>
  // The app rule's two probes once per row (a subquery of one value), not once per branch.
  sql.raw(`(select case when not ar.live and not ${smsPhoneText(g)} then 'red'
    when ${g}.device_misses >= ${DEVICE_WINDOW} then 'yellow'
    when ar.live then 'blue' else 'green' end from (select ${appReachableText(g)} as live) ar)`);
