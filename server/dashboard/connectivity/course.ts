// One course's page of the connectivity screen: its guardians by student with their device status, what
// staff should fix and the deliveries that did not reach them among their last messages (a guardian's "last
// messages" are the last N sent messages that had them as a recipient), with the course's figures
// (./figures.ts). The call list (./call-list.ts) reads the same course data.
import { OUR_SIDE_ERRORS, sqlList } from '../../reception/our-side';
import { sql } from 'drizzle-orm';
import type { ChannelCode } from '../../../shared/codes';
import type { DeviceStatus } from '../../../shared/compose-contract';
import {
  COVERAGE_MESSAGES,
  type CourseConnectivity,
  type CourseGuardian,
  type FixHint,
  type MissedDelivery,
  type OptedOut,
} from '../../../shared/dashboard-contract';
import type { Queryable } from '../../db/client';
import { rowsOf } from '../../db/sql';
import { collator } from '../../recipients/directory';
import { settleSmsPhones, smsNumberSql } from '../../recipients/sms-phones';
import { optedOutAtSql } from '../../recipients/opt-outs';
import { appReachableSql } from '../../recipients/app-reach';
import { connectivitySql, schoolDeviceStatusSql, schoolPhoneChannelsSql, toRow, type AggregateRow } from './figures';

/** Failures that say nothing about the guardian's contact data: no address at all, or our side failing. */
const NOT_THEIR_FAULT = sql.raw(sqlList(['missing_address', 'whatsapp_window', ...OUR_SIDE_ERRORS]));

interface CourseHead {
  id: number;
  name: string;
  level_id: number;
  level_name: string;
}

/** The course if it belongs to the school, else null (the route answers 404). */
async function courseOf(db: Queryable, institutionId: number, courseId: number): Promise<CourseHead | null> {
  const rows = rowsOf<CourseHead>(
    await db.execute(sql`
      select c.id, c.name, l.id as level_id, l.name as level_name
      from courses c join levels l on l.id = c.level_id
      where c.id = ${courseId} and c.institution_id = ${institutionId}`),
  );
  return rows[0] ?? null;
}

interface GuardianRow {
  student_id: number;
  student_name: string;
  guardian_id: number;
  guardian_name: string;
  role: number;
  phone: string | null;
  email: string | null;
  app: boolean;
  /** A mobile number (whatever its opt-outs): else "phone_invalid". */
  sms_number: boolean;
  sms_out_at: string | Date | null;
  whatsapp_out_at: string | Date | null;
  status: DeviceStatus;
}

interface MissedRow {
  guardian_id: number;
  message_id: number;
  title: string;
  sent_at: string | Date;
  channel: ChannelCode;
  status: MissedDelivery['status'];
  author: string | null;
  own: boolean;
}

/** The course's enrolled students with their guardians (one row per link; students without guardians kept). */
export function courseGuardiansSql(courseId: number) {
  return sql`
    with can as (${schoolPhoneChannelsSql(sql`(select institution_id from courses where id = ${courseId})`)})
    select s.id as student_id, concat_ws(' ', s.first_names, s.last_name_father, nullif(s.last_name_mother, '')) as student_name,
      g.id as guardian_id, concat_ws(' ', g.first_names, g.last_name_father, nullif(g.last_name_mother, '')) as guardian_name,
      sg.role, g.phone, g.email, g.id is not null and ${appReachableSql('g')} as app, ${smsNumberSql('g')} as sms_number,
      ${optedOutAtSql(sql`'sms'`, sql`g.phone`)} as sms_out_at, ${optedOutAtSql(sql`'whatsapp'`, sql`g.phone`)} as whatsapp_out_at,
      ${schoolDeviceStatusSql('g', 'can')} as status
    from students s cross join can
    -- An erased guardian is out, like one whose link was removed: no one to phone, no contact to offer.
    left join (student_guardians sg join guardians g on g.id = sg.guardian_id and g.erased_at is null) on sg.student_id = s.id
    where s.course_id = ${courseId} and s.withdrawn_at is null and s.erased_at is null`;
}

/**
 * Deliveries that did not reach the course's guardians among each one's last `n` sent messages (their
 * recipient rows ranked per guardian), leaving out rows that never had an address and our side's failures.
 * Newest message first, each with its author's name and whether `viewerId` wrote it (only the author may
 * open a message's reception status: `findOwnSent` in server/reception/reception.ts).
 */
export function missedSql(institutionId: number, courseId: number, n: number, viewerId: number | null = null) {
  const own = viewerId === null ? sql`false` : sql`coalesce(recent.author_user_id = ${viewerId}, false)`;
  return sql`
    with cg as (
      select distinct sg.guardian_id
      from students s join student_guardians sg on sg.student_id = s.id
      join guardians g on g.id = sg.guardian_id and g.erased_at is null
      where s.course_id = ${courseId} and s.withdrawn_at is null and s.erased_at is null
    ),
    -- Every recipient row of these guardians (a few dozen each a year) ranked per guardian, newest first:
    -- predictable, where a per-guardian LIMIT made the planner walk the school's messages for each one.
    recent as (
      select * from (
        select cg.guardian_id, m.id as message_id, m.title, m.sent_at, m.author_user_id, r.id as recipient_id,
          row_number() over (partition by cg.guardian_id order by m.sent_at desc, m.id desc) as n
        from cg
        join message_recipients r on r.recipient_kind = 'apoderado' and r.recipient_ref_id = cg.guardian_id
        join messages m on m.id = r.message_id
        where m.institution_id = ${institutionId} and m.kind = 'sent' and m.sent_at is not null
      ) ranked
      where n <= ${n}
    )
    select recent.guardian_id, recent.message_id, recent.title, recent.sent_at, d.channel, d.status,
      u.name as author, ${own} as own
    from recent
    -- By recipient (deliveries_recipient_idx), never by status: the school's failures are tens of thousands.
    cross join lateral (
      select d.channel, d.status from deliveries d
      where d.recipient_id = recent.recipient_id
        and d.status in ('not_received', 'error', 'failed') and coalesce(d.error, '') not in ${NOT_THEIR_FAULT}
      offset 0
    ) d
    left join users u on u.id = recent.author_user_id
    order by recent.sent_at desc, recent.message_id desc, d.channel`;
}

/**
 * What staff should fix, in the contract's order of FixHint. `sms`: the number is a mobile the delivery
 * engine could text (server/recipients/sms-phones.ts), the rule the device status and the reach use too;
 * `optedOut`: the channels it texted "BAJA" on, which no delivery tries (so none of them "failed").
 */
function fixHints(
  g: { phone: string | null; email: string | null; app: boolean; sms: boolean; optedOut: readonly OptedOut[] },
  missed: readonly MissedDelivery[],
): FixHint[] {
  const hints: FixHint[] = [];
  if (!g.phone) hints.push('phone_missing');
  else if (!g.sms) hints.push('phone_invalid');
  if (!g.email) hints.push('email_missing');
  else if (missed.some((m) => m.channel === 'e-mail')) hints.push('email_bounced');
  if (missed.some((m) => m.channel === 'sms')) hints.push('sms_failed');
  for (const o of g.optedOut) hints.push(o.channel === 'sms' ? 'sms_opted_out' : 'whatsapp_opted_out');
  if (!g.app) hints.push('no_app');
  return hints;
}

/** The opt-outs of a guardian's row, SMS first. */
function optedOutOf(row: Pick<GuardianRow, 'sms_out_at' | 'whatsapp_out_at'>): OptedOut[] {
  const out: OptedOut[] = [];
  if (row.sms_out_at !== null) out.push({ channel: 'sms', at: new Date(row.sms_out_at).toISOString() });
  if (row.whatsapp_out_at !== null) out.push({ channel: 'whatsapp', at: new Date(row.whatsapp_out_at).toISOString() });
  return out;
}

export interface CourseData {
  head: CourseHead;
  students: { id: number; name: string; guardians: CourseGuardian[] }[];
}

export async function loadCourse(
  db: Queryable,
  institutionId: number,
  courseId: number,
  n: number,
  viewerId: number | null,
): Promise<CourseData | null> {
  const head = await courseOf(db, institutionId, courseId);
  if (!head) return null;
  const [links, missed] = await Promise.all([
    db.execute(courseGuardiansSql(courseId)).then(rowsOf<GuardianRow>),
    db.execute(missedSql(institutionId, courseId, n, viewerId)).then(rowsOf<MissedRow>),
  ]);
  const missedOf = new Map<number, MissedDelivery[]>();
  for (const m of missed) {
    const list = missedOf.get(Number(m.guardian_id)) ?? [];
    list.push({
      message_id: Number(m.message_id),
      title: m.title,
      sent_at: new Date(m.sent_at).toISOString(),
      channel: m.channel,
      status: m.status,
      author: m.author,
      can_view_reception: m.own === true,
    });
    missedOf.set(Number(m.guardian_id), list);
  }
  const students = new Map<number, { id: number; name: string; guardians: CourseGuardian[] }>();
  for (const row of links) {
    const id = Number(row.student_id);
    const student = students.get(id) ?? { id, name: row.student_name, guardians: [] };
    students.set(id, student);
    if (row.guardian_id === null) continue;
    const own = missedOf.get(Number(row.guardian_id)) ?? [];
    const optedOut = optedOutOf(row);
    student.guardians.push({
      id: Number(row.guardian_id),
      name: row.guardian_name,
      role: Number(row.role) === 1 ? 'titular' : 'suplente',
      device_status: row.status,
      phone: row.phone,
      email: row.email,
      app_installed: Boolean(row.app),
      fix: fixHints({ phone: row.phone, email: row.email, app: Boolean(row.app), sms: Boolean(row.sms_number), optedOut }, own),
      opted_out: optedOut,
      missed: own,
    });
  }
  const list = [...students.values()].sort((a, b) => collator.compare(a.name, b.name) || a.id - b.id);
  for (const s of list) s.guardians.sort((a, b) => (a.role === b.role ? a.id - b.id : a.role === 'titular' ? -1 : 1));
  return { head, students: list };
}

/** A course's page as `viewerId` sees it (the missed messages they may open the reception status of). */
export async function readCourseConnectivity(
  db: Queryable,
  institutionId: number,
  courseId: number,
  viewerId: number,
): Promise<CourseConnectivity | null> {
  await settleSmsPhones(db, institutionId);
  const [data, aggregates] = await Promise.all([
    loadCourse(db, institutionId, courseId, COVERAGE_MESSAGES, viewerId),
    // One course: its guardians' own recipient rows are fewer than the school's newest messages' rows.
    db.execute(connectivitySql(institutionId, courseId, { recentPerCourse: 0 })).then(rowsOf<AggregateRow>),
  ]);
  if (!data) return null;
  const { head, students } = data;
  return {
    course: { id: Number(head.id), name: head.name, level: { id: Number(head.level_id), name: head.level_name } },
    summary: toRow(
      Number(head.id),
      head.name,
      aggregates.find((a) => Number(a.g) === 0),
    ),
    students,
  };
}
