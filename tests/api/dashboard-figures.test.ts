// The demo's data screens against the raw rows of the seeded database: every figure is recounted here with
// plain SQL over messages, recipients, deliveries, mailbox entries and guardians (never with the dashboards'
// own statements), so the figures agree with one another, with the folders, and the seed writes what a real
// send writes.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ActivitySummary,
  COVERAGE_HOURS,
  COVERAGE_MESSAGES,
  DASHBOARD_API,
  type Connectivity,
  type Ranking,
  type StaffActivity,
} from '../../shared/dashboard-contract';
import type { MessageSummary } from '../../shared/messages-contract';
import { rowsOf } from '../../server/db/sql';
import { monthIn } from '../../server/db/time';
import { addMonths } from '../../shared/school-year';
import { utcToZoned } from '../../shared/zoned-time';
import { data } from './support/answers';
import { list } from './support/mail';
import { signedIn, startServer, type TestServer } from './support/server';

let server: TestServer;
const as = signedIn(() => server);
const rows = async <T>(query: ReturnType<typeof sql>) => rowsOf<T>(await server.db.execute(query));

const SCHOOLS = [
  { admin: 'administrador@sanandres.cl', teacher: 'docente@sanandres.cl' },
  { admin: 'administrador@liceoelqui.cl', teacher: 'docente@liceoelqui.cl' },
  { admin: 'administrador@benitojuarez.edu.mx', teacher: 'docente@benitojuarez.edu.mx' },
] as const;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

const schoolOf = async (email: string) =>
  (
    await rows<{ id: number; timezone: string }>(
      sql`select i.id, i.timezone from institutions i join users u on u.institution_id = i.id where u.email = ${email}`,
    )
  )[0]!;

describe('the seed writes what a real send writes', () => {
  it('gives every recipient of a sent message to families at least one delivery, and its status is the best of them', async () => {
    const [row] = await rows<{ recipients: number; without: number; mismatch: number }>(sql`
      with r as (
        select r.id, r.status from message_recipients r join messages m on m.id = r.message_id
        where m.kind = 'sent' and r.recipient_kind = 'apoderado'
      ), best as (
        select d.recipient_id, max(case d.status when 'read' then 5 when 'received' then 4 when 'not_received' then 3
          when 'error' then 2 else 1 end) as best
        from deliveries d group by d.recipient_id
      )
      select count(*)::int as recipients, count(*) filter (where best.recipient_id is null)::int as without,
        count(*) filter (where best.best is distinct from case r.status when 'read' then 5 when 'received' then 4
          when 'not_received' then 3 when 'error' then 2 else 1 end)::int as mismatch
      from r left join best on best.recipient_id = r.id`);
    expect(Number(row!.recipients)).toBeGreaterThan(10_000);
    expect(Number(row!.without)).toBe(0);
    expect(Number(row!.mismatch)).toBe(0);
  });

  it('files each sent message in its author’s Sent folder, as a send does (the trash keeps where it came from)', async () => {
    const missing = await rows<{ email: string; messages: number }>(sql`
      select u.email, count(*)::int as messages
      from messages m join users u on u.id = m.author_user_id
      where m.kind = 'sent'
        and exists (select 1 from message_recipients r where r.message_id = m.id
          and not (r.recipient_kind = 'funcionario' and r.recipient_ref_id = m.sender_ref_id))
        and not exists (select 1 from mailbox_entries e where e.message_id = m.id and e.user_id = m.author_user_id
          and (e.folder = 'sent' or e.deleted_from = 'sent'))
      group by u.email order by 1`);
    expect(missing).toEqual([]);
  });

  it('sends, schedules and drafts only by channels the school has contracted', async () => {
    const off = await rows<{ institution_id: number; channel: string; messages: number }>(sql`
      select m.institution_id, c.channel, count(*)::int as messages
      from messages m cross join lateral unnest(m.channels) as c(channel)
      where m.sender_kind = 'funcionario'
        and not exists (select 1 from institution_channels ic where ic.institution_id = m.institution_id
          and ic.channel = c.channel and ic.enabled)
      group by 1, 2`);
    expect(off).toEqual([]);
  });
});

describe('connectivity against the raw rows', () => {
  it('counts each course’s "cobertura efectiva" from its last messages’ deliveries', async () => {
    for (const { admin } of SCHOOLS) {
      const school = await schoolOf(admin);
      const answer = await data<Connectivity>((await as(admin)).get(`/api${DASHBOARD_API.connectivity}`));
      // Straightforwardly: the course's current guardians; its last COVERAGE_MESSAGES sent messages that have
      // one of them as a recipient under the course's name; of those guardians addressed there, the ones
      // with a delivery received or read within COVERAGE_HOURS of the message's sending.
      const expected = await rows<{ course_id: number; addressed: number; reached: number }>(sql`
        with cg as (
          select distinct s.course_id, sg.guardian_id from students s join student_guardians sg on sg.student_id = s.id
          where s.institution_id = ${school.id} and s.withdrawn_at is null
        ),
        course_messages as (
          select distinct c.id as course_id, m.id as message_id, m.sent_at
          from courses c join message_recipients r on r.group_kind = 'curso' and r.group_label = c.name and r.recipient_kind = 'apoderado'
          join cg on cg.course_id = c.id and cg.guardian_id = r.recipient_ref_id
          join messages m on m.id = r.message_id and m.kind = 'sent' and m.institution_id = c.institution_id
          where c.institution_id = ${school.id}
        ),
        win as (
          select * from (select *, row_number() over (partition by course_id order by sent_at desc, message_id desc) as n from course_messages) x
          where n <= ${COVERAGE_MESSAGES}
        ),
        addressed as (
          select win.course_id, r.recipient_ref_id as guardian_id,
            bool_or(exists (select 1 from deliveries d where d.recipient_id = r.id and d.status in ('received', 'read')
              and least(d.delivered_at, d.read_at) <= win.sent_at + make_interval(hours => ${COVERAGE_HOURS}))) as reached
          from win join message_recipients r on r.message_id = win.message_id and r.recipient_kind = 'apoderado'
          join cg on cg.course_id = win.course_id and cg.guardian_id = r.recipient_ref_id
          group by 1, 2
        )
        select course_id, count(*)::int as addressed, count(*) filter (where reached)::int as reached from addressed group by 1`);
      const byCourse = new Map(expected.map((e) => [Number(e.course_id), e]));
      for (const course of answer.levels.flatMap((l) => l.courses)) {
        const e = byCourse.get(course.id);
        expect(course.coverage, `${admin} ${course.name}`).toEqual({
          addressed: Number(e?.addressed ?? 0),
          reached: Number(e?.reached ?? 0),
          share: e ? Number(e.reached) / Number(e.addressed) : null,
        });
      }
    }
  });

  it('counts SMS and WhatsApp reach only where the school can send them this month, and the device mix by the same rule', async () => {
    for (const { admin } of SCHOOLS) {
      const school = await schoolOf(admin);
      const answer = await data<Connectivity>((await as(admin)).get(`/api${DASHBOARD_API.connectivity}`));
      const [can] = await rows<{ sms: boolean; whatsapp: boolean }>(sql`
        select
          exists (select 1 from institution_channels where institution_id = ${school.id} and channel = 'sms' and enabled)
            and coalesce((select sms_monthly_limit from institution_quotas where institution_id = ${school.id}), 0) > 0 as sms,
          exists (select 1 from institution_channels where institution_id = ${school.id} and channel = 'whatsapp' and enabled) as whatsapp`);
      const [g] = await rows<{ guardians: number; app: number; phone: number; app_only: number; phone_only: number; yellow: number }>(sql`
        with g as (
          select distinct g.* from guardians g join student_guardians sg on sg.guardian_id = g.id
          join students s on s.id = sg.student_id and s.withdrawn_at is null
          where g.institution_id = ${school.id}
        )
        select count(*)::int as guardians,
          count(*) filter (where app_installed_at is not null)::int as app,
          count(*) filter (where sms_ok and sms_phone = phone)::int as phone,
          count(*) filter (where device_misses >= 3)::int as yellow
        from g`);
      const phone = Number(g!.phone);
      expect(answer.school.reach, admin).toMatchObject({
        'app-mobile': Number(g!.app),
        sms: can!.sms ? phone : 0,
        whatsapp: can!.whatsapp ? phone : 0,
      });
      const mix = answer.school.devices;
      expect(mix.blue + mix.green + mix.yellow + mix.red, admin).toBe(Number(g!.guardians));
      // Green is "good by phone without the app": none where the school can send neither SMS nor WhatsApp.
      if (!can!.sms && !can!.whatsapp) expect(mix.green, admin).toBe(0);
    }
  });
});

describe('the activity summary against connectivity', () => {
  it('shows the same device mix as the connectivity screen: one definition', async () => {
    for (const { admin } of SCHOOLS) {
      const client = await as(admin);
      const summary = await data<ActivitySummary>(client.get(`/api${DASHBOARD_API.summary}`));
      const connectivity = await data<Connectivity>(client.get(`/api${DASHBOARD_API.connectivity}`));
      expect(summary.devices, admin).toEqual(connectivity.school.devices);
    }
  });
});

describe('the course ranking against the raw rows', () => {
  it('rates each course by its guardians who read ÷ those addressed by the month’s staff messages', async () => {
    for (const { admin } of SCHOOLS) {
      const school = await schoolOf(admin);
      const month = monthIn(new Date(), school.timezone);
      const answer = await data<Ranking>(
        (await as(admin)).get(`/api${DASHBOARD_API.rankingCourses}?period=month&month=${month}&metric=read`),
      );
      // Messages sent by staff in the month (the school's clock), not an author's copy to themselves; each
      // guardian addressed once, in every course of a child of theirs enrolled then.
      const expected = await rows<{ course_id: number; addressed: number; good: number }>(sql`
        with msgs as (
          select m.id from messages m
          where m.institution_id = ${school.id} and m.kind = 'sent' and m.author_user_id is not null
            and to_char(m.sent_at at time zone ${school.timezone}, 'YYYY-MM') = ${month}
            and exists (select 1 from message_recipients r where r.message_id = m.id
              and not (r.recipient_kind = 'funcionario' and r.recipient_ref_id = m.sender_ref_id))
        ),
        g as (
          select r.recipient_ref_id as guardian_id, bool_or(r.status = 'read') as good
          from msgs join message_recipients r on r.message_id = msgs.id and r.recipient_kind = 'apoderado'
          group by 1
        )
        select s.course_id, count(distinct g.guardian_id)::int as addressed,
          count(distinct g.guardian_id) filter (where g.good)::int as good
        from g join student_guardians sg on sg.guardian_id = g.guardian_id
        join students s on s.id = sg.student_id and s.institution_id = ${school.id}
          and (s.withdrawn_at is null or to_char(s.withdrawn_at at time zone ${school.timezone}, 'YYYY-MM') >= ${month})
        group by 1`);
      expect(answer.rows.length, admin).toBe(expected.length);
      for (const e of expected) {
        const row = answer.rows.find((r) => r.id === Number(e.course_id))!;
        expect({ detail: row.detail, value: row.value }, `${admin} ${e.course_id}`).toEqual({
          detail: Number(e.addressed),
          value: Math.round((Number(e.good) / Number(e.addressed)) * 10_000) / 10_000,
        });
      }
    }
  });
});

describe('staff activity against the Sent folder', () => {
  /** Every message of the user's Sent folder (all pages), by the folder API. */
  const sentFolder = async (email: string): Promise<MessageSummary[]> => {
    const client = await as(email);
    const all: MessageSummary[] = [];
    let query = 'folder=sent&limit=100';
    for (;;) {
      const page = await list(client, query);
      all.push(...page.data);
      if (!page.meta.next_cursor) return all;
      query = `folder=sent&limit=100&cursor=${encodeURIComponent(page.meta.next_cursor)}`;
    }
  };

  it('credits each demo user with the messages and days of their Sent folder in the school’s time zone, plus those they removed from it', async () => {
    for (const { admin, teacher } of SCHOOLS) {
      const school = await schoolOf(admin);
      const thisMonth = monthIn(new Date(), school.timezone);
      for (const month of [thisMonth, addMonths(thisMonth, -1)]) {
        const activity = await data<StaffActivity>((await as(admin)).get(`/api${DASHBOARD_API.users}?period=month&month=${month}`));
        for (const email of [admin, teacher]) {
          const [user] = await rows<{ id: number }>(sql`select id from users where email = ${email}`);
          const sent = (await sentFolder(email)).map((m) => m.date);
          // Sent by them, to someone besides themselves, and no longer in their Sent folder (deleted, or purged).
          const removed = await rows<{ sent_at: string | Date }>(sql`
            select m.sent_at from messages m
            where m.author_user_id = ${user!.id} and m.kind = 'sent'
              and exists (select 1 from message_recipients r where r.message_id = m.id
                and not (r.recipient_kind = 'funcionario' and r.recipient_ref_id = m.sender_ref_id))
              and not exists (select 1 from mailbox_entries e where e.message_id = m.id and e.user_id = m.author_user_id and e.folder = 'sent')`);
          const dates = [...sent, ...removed.map((r) => new Date(r.sent_at).toISOString())]
            .map((d) => utcToZoned(d, school.timezone)!.date)
            .filter((d) => d.startsWith(month));
          const row = activity.rows.find((r) => r.user_id === Number(user!.id));
          expect({ messages: row?.messages ?? 0, days: row?.active_days ?? 0 }, `${email} ${month}`).toEqual({
            messages: dates.length,
            days: new Set(dates).size,
          });
        }
      }
    }
  });
});
