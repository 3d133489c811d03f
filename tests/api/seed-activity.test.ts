// The seed's school year of activity (server/seed/activity.ts, issue 16): the invariants the connectivity,
// staff activity and ranking dashboards rely on, checked on the seeded database itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Db } from '../../server/db/client';
import { rowsOf } from '../../server/compose/expand';
import { monthIn } from '../../server/compose/quota';
import { DEVICE_WINDOW } from '../../server/delivery/status';
import { addMonths, schoolYearMonths, schoolYearOf } from '../../shared/school-year';
import { openSeededCopy } from './support/server';

describe('the seeded school year of activity', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  const rows = async <T>(query: ReturnType<typeof sql>) => rowsOf<T>(await db.execute(query));

  beforeAll(async () => {
    const copy = await openSeededCopy();
    db = copy.handle.db;
    dispose = copy.dispose;
  });
  afterAll(async () => {
    await dispose?.();
  });

  it('has sent messages with deliveries in every month of each school’s school year so far, more in some than others', async () => {
    const schools = await rows<{ id: number; timezone: string; country: 'CL' | 'MX' }>(
      sql`select id, timezone, country from institutions order by id`,
    );
    expect(schools).toHaveLength(3);
    for (const school of schools) {
      const thisMonth = monthIn(new Date(), school.timezone);
      // This month may have only begun (the seed's clock is the start of the hour): the school months of the
      // last twelve before it are checked (this school year's and the one before), never none.
      const year = schoolYearOf(thisMonth, school.country);
      const months = [...schoolYearMonths(year - 1, school.country), ...schoolYearMonths(year, school.country)].filter(
        (m) => m < thisMonth && m >= addMonths(thisMonth, -12),
      );
      expect(months.length, String(school.id)).toBeGreaterThanOrEqual(6);
      const counts = await rows<{ month: string; n: number }>(sql`
        select to_char(m.sent_at at time zone ${school.timezone}, 'YYYY-MM') as month, count(*)::int as n
        from messages m
        where m.institution_id = ${school.id} and m.kind = 'sent' and m.author_user_id is not null
          and exists (select 1 from deliveries d where d.message_id = m.id)
        group by 1`);
      const byMonth = new Map(counts.map((c) => [c.month, Number(c.n)]));
      for (const month of months) expect(byMonth.get(month) ?? 0, `${school.id} ${month}`).toBeGreaterThan(0);
      // The calendar's rhythm: the busiest month of the window has at least twice the quietest.
      const values = [...byMonth.entries()].filter(([m]) => m < thisMonth).map(([, n]) => n);
      expect(Math.max(...values), String(school.id)).toBeGreaterThanOrEqual(2 * Math.min(...values));
    }
  });

  it('keeps every delivery’s status consistent with its timestamps, in order, never after now, and SMS never read', async () => {
    const [bad] = await rows<{ n: number; total: number }>(sql`
      select count(*) filter (where not (
        case status
          when 'read' then sent_at is not null and delivered_at is not null and read_at is not null
          when 'received' then sent_at is not null and delivered_at is not null and read_at is null
          when 'not_received' then sent_at is not null and delivered_at is null and read_at is null
          when 'error' then sent_at is not null and delivered_at is null and read_at is null
          when 'failed' then delivered_at is null and read_at is null
          when 'sent' then sent_at is not null and delivered_at is null and read_at is null
          else false end
        and sent_at >= created_at is not false
        and delivered_at >= sent_at is not false
        and read_at >= delivered_at is not false
        and read_at <= now() is not false
        and (status <> 'failed' or error is not null)
        and (address is not null or (status = 'failed' and error = 'missing_address'))
      ))::int as n, count(*)::int as total
      from deliveries`);
    expect(Number(bad!.total)).toBeGreaterThan(10_000);
    expect(Number(bad!.n)).toBe(0);
    const [sms] = await rows<{ n: number }>(sql`select count(*)::int as n from deliveries where channel = 'sms' and status = 'read'`);
    expect(Number(sms!.n)).toBe(0);
    // A recipient's status is the best of its deliveries' (read > received > not received > error > failed).
    const [mismatch] = await rows<{ n: number }>(sql`
      select count(*)::int as n from message_recipients r
      join (select recipient_id, max(case status when 'read' then 5 when 'received' then 4 when 'not_received' then 3
        when 'error' then 2 else 1 end) as best from deliveries group by recipient_id) d on d.recipient_id = r.id
      where case r.status when 'read' then 5 when 'received' then 4 when 'not_received' then 3 when 'error' then 2 else 1 end <> d.best`);
    expect(Number(mismatch!.n)).toBe(0);
  });

  it('addresses the app only to guardians who had installed it by then', async () => {
    const [row] = await rows<{ bad: number; app: number }>(sql`
      select count(*) filter (where g.app_installed_at is null or g.app_installed_at > d.created_at)::int as bad, count(*)::int as app
      from deliveries d join message_recipients r on r.id = d.recipient_id join guardians g on g.id = r.recipient_ref_id
      where r.recipient_kind = 'apoderado' and d.channel = 'app-mobile' and d.address is not null`);
    expect(Number(row!.app)).toBeGreaterThan(1000);
    expect(Number(row!.bad)).toBe(0);
  });

  it('agrees with each guardian’s device status: device_misses is the misses of their last 3 device deliveries', async () => {
    // The delivery engine's rule (server/delivery/status.ts refreshDeviceMisses), as a query.
    const [row] = await rows<{ bad: number; yellow: number; guardians: number }>(sql`
      with ranked as (
        select r.recipient_ref_id as ref, d.status,
          row_number() over (partition by r.recipient_ref_id order by d.created_at desc, d.id desc) as n
        from deliveries d join message_recipients r on r.id = d.recipient_id
        where r.recipient_kind = 'apoderado' and d.channel in ('app-mobile', 'sms', 'whatsapp')
          and d.status not in ('queued', 'sent') and d.error is distinct from 'missing_address'
          and not (d.status = 'failed' and coalesce(d.error, '') in ('unreachable', 'provider_auth'))
      ), misses as (
        select ref, count(*) filter (where status in ('not_received', 'error', 'failed'))::int as misses
        from ranked where n <= ${DEVICE_WINDOW} group by ref
      )
      select count(*) filter (where g.device_misses <> coalesce(m.misses, 0))::int as bad,
        count(*) filter (where g.device_misses >= ${DEVICE_WINDOW})::int as yellow, count(*)::int as guardians
      from guardians g left join misses m on m.ref = g.id`);
    expect(Number(row!.guardians)).toBeGreaterThan(1000);
    expect(Number(row!.bad)).toBe(0);
    // Some guardians are yellow (a number that no longer receives), not a handful of the school.
    expect(Number(row!.yellow)).toBeGreaterThan(10);
    expect(Number(row!.yellow)).toBeLessThan(Number(row!.guardians) * 0.1);
  });

  it('makes each month’s sms_usage the sum of that month’s SMS delivery segments, never above its limit', async () => {
    const usage = await rows<{ institution_id: number; month: string; segments: number; counted: number; sms_limit: number }>(sql`
      select u.institution_id, u.month, u.segments,
        (select coalesce(sum(d.segments), 0)::int from deliveries d join messages m on m.id = d.message_id
          join institutions i on i.id = m.institution_id
          where m.institution_id = u.institution_id and d.channel = 'sms'
            and to_char(d.created_at at time zone i.timezone, 'YYYY-MM') = u.month) as counted,
        (select l.sms_limit from sms_monthly_limits l where l.institution_id = u.institution_id and l.month <= u.month
          order by l.month desc limit 1) as sms_limit
      from sms_usage u order by u.institution_id, u.month`);
    expect(usage.length).toBeGreaterThanOrEqual(2 * 15);
    for (const u of usage) {
      expect(Number(u.segments), `${u.institution_id} ${u.month}`).toBe(Number(u.counted));
      expect(Number(u.segments), `${u.institution_id} ${u.month}`).toBeLessThanOrEqual(Number(u.sms_limit));
    }
    // The school calendar shows in the use: March (the start) well above January (the summer).
    for (const id of new Set(usage.map((u) => u.institution_id))) {
      const of = (mm: string) => Math.max(...usage.filter((u) => u.institution_id === id && u.month.endsWith(mm)).map((u) => Number(u.segments)));
      expect(of('-03'), String(id)).toBeGreaterThan(3 * of('-01'));
    }
  });

  it('has courses cut off: a course whose reach is far below its school’s', async () => {
    const courses = await rows<{ institution_id: number; course: string; reached: number; addressed: number }>(sql`
      select c.institution_id, c.name as course,
        count(distinct r.id) filter (where r.status in ('received', 'read'))::int as reached, count(distinct r.id)::int as addressed
      from message_recipients r
      join student_guardians sg on sg.guardian_id = r.recipient_ref_id
      join students s on s.id = sg.student_id
      join courses c on c.id = s.course_id and c.name = r.group_label
      where r.recipient_kind = 'apoderado' and exists (select 1 from deliveries d where d.recipient_id = r.id)
      group by c.institution_id, c.name`);
    for (const id of new Set(courses.map((c) => c.institution_id))) {
      const mine = courses.filter((c) => c.institution_id === id);
      const share = (c: { reached: number; addressed: number }) => Number(c.reached) / Number(c.addressed);
      const school = mine.reduce((a, c) => a + Number(c.reached), 0) / mine.reduce((a, c) => a + Number(c.addressed), 0);
      const lowest = Math.min(...mine.map(share));
      expect(lowest, String(id)).toBeLessThan(school - 0.15);
      // …while most courses are near the school's figure.
      expect(mine.filter((c) => share(c) > school - 0.1).length, String(id)).toBeGreaterThan(mine.length / 2);
    }
  });

  it('gives staff different habits, and colleagues’ messages mailbox reads', async () => {
    const staff = await rows<{ email: string; n: number }>(sql`
      select u.email, count(m.id)::int as n from users u
      left join messages m on m.author_user_id = u.id and m.kind = 'sent' and exists (select 1 from deliveries d where d.message_id = m.id)
      where u.institution_id = (select id from institutions order by id limit 1)
      group by u.email`);
    const counts = staff.map((s) => Number(s.n));
    expect(Math.max(...counts)).toBeGreaterThan(5 * Math.min(...counts.filter((n) => n > 0)));
    expect(counts.filter((n) => n === 0).length).toBeGreaterThan(0);
    const [reads] = await rows<{ read: number; unread: number; early: number }>(sql`
      select count(*) filter (where e.read_at is not null)::int as read, count(*) filter (where e.read_at is null)::int as unread,
        count(*) filter (where e.read_at < m.sent_at)::int as early
      from mailbox_entries e join messages m on m.id = e.message_id
      where e.folder = 'inbox' and m.sender_kind = 'funcionario' and m.author_user_id is not null
        and exists (select 1 from message_recipients r where r.message_id = m.id and r.group_kind = 'funcionarios')`);
    expect(Number(reads!.read)).toBeGreaterThan(20);
    expect(Number(reads!.unread)).toBeGreaterThan(0);
    expect(Number(reads!.early)).toBe(0);
  });
});

