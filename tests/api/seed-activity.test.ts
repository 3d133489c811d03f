// The seed's school year of activity (server/seed/activity.ts): the invariants the connectivity,
// staff activity and ranking dashboards rely on, checked on the seeded database itself.
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { monthIn } from '../../server/db/time';
import { DEVICE_WINDOW } from '../../server/recipients/device-status';
import { addMonths, schoolYearMonths, schoolYearOf } from '../../shared/school-year';
import { DEMO_LOGINS } from '../../shared/demo';
import { withSeededCopy } from './support/seeded';

describe('the seeded school year of activity', () => {
  const { rows } = withSeededCopy();

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
    // The delivery engine's rule (server/reception/status.ts refreshDeviceMisses), as a query.
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
      const of = (mm: string) =>
        Math.max(...usage.filter((u) => u.institution_id === id && u.month.endsWith(mm)).map((u) => Number(u.segments)));
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
      join messages m on m.id = r.message_id
      where r.recipient_kind = 'apoderado' and exists (select 1 from deliveries d where d.recipient_id = r.id)
        -- The school year's history: the demo mailboxes' own sent messages (their last weeks, server/seed/messages.ts)
        -- go to courses picked for their titles, not by how well a course is reached.
        and m.sent_at < '2026-10-01'
      group by c.institution_id, c.name`);
    for (const id of new Set(courses.map((c) => c.institution_id))) {
      const mine = courses.filter((c) => c.institution_id === id);
      const share = (c: { reached: number; addressed: number }) => Number(c.reached) / Number(c.addressed);
      const school = mine.reduce((a, c) => a + Number(c.reached), 0) / mine.reduce((a, c) => a + Number(c.addressed), 0);
      const lowest = Math.min(...mine.map(share));
      expect(lowest, String(id)).toBeLessThan(school - 0.12);
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

  it('has most of each school’s staff on the register writing, beyond the demo logins: a few a lot, a long tail, some never', async () => {
    const demo = new Set(DEMO_LOGINS.map((l) => l.email));
    const staff = await rows<{ institution_id: number; email: string; n: number }>(sql`
      select st.institution_id, u.email, count(m.id)::int as n
      from staff st join users u on u.id = st.user_id
      left join messages m on m.author_user_id = u.id and m.kind = 'sent' and exists (select 1 from deliveries d where d.message_id = m.id)
      group by st.institution_id, u.email`);
    const schools = new Set(staff.map((s) => s.institution_id));
    expect(schools.size).toBe(3);
    for (const id of schools) {
      const mine = staff.filter((s) => s.institution_id === id);
      const [all] = await rows<{ n: number }>(sql`select count(*)::int as n from staff where institution_id = ${id}`);
      // Most staff have a login of their own, not only the demo ones.
      expect(mine.length, String(id)).toBeGreaterThan(0.8 * Number(all!.n));
      const writers = mine.filter((s) => Number(s.n) > 0);
      const share = writers.length / mine.length;
      expect(share, String(id)).toBeGreaterThanOrEqual(0.5);
      expect(share, String(id)).toBeLessThan(0.95);
      // Most writers are not demo logins.
      expect(writers.filter((s) => !demo.has(s.email)).length, String(id)).toBeGreaterThan(writers.length / 2);
      // A few write a lot: the busiest writes at least 2.5 times the median writer.
      const counts = writers.map((s) => Number(s.n)).sort((a, b) => a - b);
      expect(counts.at(-1)!, String(id)).toBeGreaterThanOrEqual(2.5 * counts[Math.floor(counts.length / 2)]!);
      // The demo administrator is among the busiest five.
      const admin = mine.find((s) => s.email.startsWith('administrador@'))!;
      expect(counts.slice(-5), String(id)).toContain(Number(admin.n));
    }
  });

  it('gives messages to colleagues the deliveries the send path writes: the app is their inbox, read when it is', async () => {
    const [row] = await rows<{ recipients: number; without: number; bad_app: number; bad_read: number; email: number }>(sql`
      with colleague as (
        select r.id, r.message_id, st.user_id, st.email
        from message_recipients r join messages m on m.id = r.message_id
        join staff st on st.id = r.recipient_ref_id
        where r.recipient_kind = 'funcionario' and r.group_kind = 'funcionarios' and m.kind = 'sent' and m.author_user_id is not null
      )
      select count(*)::int as recipients,
        count(*) filter (where not exists (select 1 from deliveries d where d.recipient_id = c.id))::int as without,
        -- One app delivery each: to user:<id> when the colleague signs in, else missing_address.
        count(*) filter (where not exists (select 1 from deliveries d where d.recipient_id = c.id and d.channel = 'app-mobile'
          and d.address is not distinct from case when c.user_id is not null then 'user:' || c.user_id end
          and (d.address is not null or (d.status = 'failed' and d.error = 'missing_address'))))::int as bad_app,
        -- The app delivery is read exactly when the inbox entry is, at the same time.
        count(*) filter (where c.user_id is not null and exists (select 1 from deliveries d
          left join mailbox_entries e on e.message_id = c.message_id and e.user_id = c.user_id and e.folder = 'inbox'
          where d.recipient_id = c.id and d.channel = 'app-mobile' and d.read_at is distinct from e.read_at))::int as bad_read,
        count(*) filter (where exists (select 1 from deliveries d where d.recipient_id = c.id and d.channel = 'e-mail' and d.status = 'received'))::int as email
      from colleague c`);
    expect(Number(row!.recipients)).toBeGreaterThan(200);
    expect(Number(row!.without)).toBe(0);
    expect(Number(row!.bad_app)).toBe(0);
    expect(Number(row!.bad_read)).toBe(0);
    expect(Number(row!.email)).toBeGreaterThan(0);
  });

  // Per school, the sent messages with deliveries by local day (the school's timezone).
  const days = async (country: 'CL' | 'MX') =>
    rows<{ day: string; n: number; title_winter: number }>(sql`
      select to_char(m.sent_at at time zone i.timezone, 'YYYY-MM-DD') as day, count(*)::int as n,
        count(*) filter (where m.title = 'Vacaciones de invierno')::int as title_winter
      from messages m join institutions i on i.id = m.institution_id
      where i.country = ${country} and m.kind = 'sent' and m.author_user_id is not null
        and exists (select 1 from deliveries d where d.message_id = m.id)
      group by 1`);
  /** Messages per weekday of the days `within`, over the history's complete months (this month may have just begun). */
  const perWeekday = (list: { day: string; n: number }[], within: (day: string) => boolean) => {
    const today = new Date().toISOString().slice(0, 7);
    const first = addMonths(today, -14);
    let weekdays = 0;
    for (let t = Date.parse(`${first}-01`); new Date(t).toISOString().slice(0, 7) < today; t += 86_400_000) {
      const day = new Date(t).toISOString().slice(0, 10);
      if (new Date(t).getUTCDay() % 6 !== 0 && within(day)) weekdays++;
    }
    const n = list
      .filter((d) => d.day.slice(0, 7) >= first && d.day.slice(0, 7) < today && within(d.day))
      .reduce((a, d) => a + Number(d.n), 0);
    return { rate: n / Math.max(1, weekdays), weekdays };
  };

  it('keeps Mexico’s calendar: nothing in the winter break (20 December–6 January) nor in Semana Santa and Easter week, little in the summer', async () => {
    const list = await days('MX');
    const md = (day: string) => day.slice(5);
    expect(list.filter((d) => md(d.day) >= '12-20' || md(d.day) <= '01-06')).toEqual([]);
    // Easter Sundays (from the published calendar): Holy Week's Monday to the Friday after Easter.
    const easter: Record<string, string> = {
      2024: '2024-03-31',
      2025: '2025-04-20',
      2026: '2026-04-05',
      2027: '2027-03-28',
      2028: '2028-04-16',
      2029: '2029-04-01',
      2030: '2030-04-21',
    };
    for (const d of list) {
      const e = Date.parse(easter[d.day.slice(0, 4)]!);
      const t = Date.parse(d.day);
      expect(t >= e - 6 * 86_400_000 && t <= e + 5 * 86_400_000, d.day).toBe(false);
    }
    const school = perWeekday(list, (d) => md(d) >= '09-01' && md(d) <= '12-15');
    const summer = perWeekday(list, (d) => md(d) >= '07-20' && md(d) <= '08-20');
    expect(school.weekdays).toBeGreaterThan(40);
    expect(summer.rate).toBeLessThan(0.15 * school.rate);
    // Winter holidays are announced in December, never in the (Chilean) June–July.
    for (const d of list.filter((x) => Number(x.title_winter) > 0)) expect(md(d.day).slice(0, 2), d.day).toBe('12');
  });

  it('keeps Chile’s calendar: a quiet January–February, a two-week winter break in July, school from March', async () => {
    const list = await days('CL');
    const md = (day: string) => day.slice(5);
    const school = perWeekday(list, (d) => md(d) >= '03-01' && md(d) <= '06-15');
    const summer = perWeekday(list, (d) => md(d) >= '01-01' && md(d) <= '02-28');
    expect(school.weekdays).toBeGreaterThan(40);
    expect(summer.rate).toBeLessThan(0.15 * school.rate);
    // July has ten weekdays in a row without a message (the winter break), which an ordinary month never has.
    const quietRun = (month: string) => {
      const sent = new Set(list.filter((d) => d.day.startsWith(month)).map((d) => d.day));
      let run = 0;
      let best = 0;
      for (let t = Date.parse(`${month}-01`); new Date(t).toISOString().startsWith(month); t += 86_400_000) {
        if (new Date(t).getUTCDay() % 6 === 0) continue;
        run = sent.has(new Date(t).toISOString().slice(0, 10)) ? 0 : run + 1;
        best = Math.max(best, run);
      }
      return best;
    };
    const today = new Date().toISOString().slice(0, 7);
    const complete = Array.from({ length: 14 }, (_, i) => addMonths(today, -14 + i));
    const julys = complete.filter((m) => m.endsWith('-07'));
    expect(julys.length).toBeGreaterThan(0);
    for (const july of julys) expect(quietRun(july), july).toBeGreaterThanOrEqual(10);
    for (const may of complete.filter((m) => m.endsWith('-05'))) expect(quietRun(may), may).toBeLessThan(5);
    for (const d of list.filter((x) => Number(x.title_winter) > 0)) expect(['06', '07'], d.day).toContain(md(d.day).slice(0, 2));
  });
});
