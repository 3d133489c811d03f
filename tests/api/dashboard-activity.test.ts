// `GET /dashboard/users` (staff activity) and `GET /dashboard/summary` (the activity summary) of
// shared/dashboard-contract.ts on a small fixture school the test inserts (tests/api/support/activity-school.ts,
// where every message is listed): each figure against the value worked out by hand here, the period edges
// in the school's zone, a register smaller than the staff who sent (activity above 100 %), the 401, the 403
// of a teacher, the 422s and the isolation between schools.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_API, type ActivitySummary, type StaffActivity } from '../../shared/dashboard-contract';
import type { ApiError } from '../../shared/contract';
import { ACTIVITY_MESSAGES } from '../../server/dashboard/activity';
import { PERIOD_MESSAGES } from '../../server/dashboard/period';
import { schoolYearOf } from '../../shared/school-year';
import { monthIn } from '../../server/db/time';
import { insertActivitySchool, ZONE, type ActivitySchool } from './support/activity-school';
import { data, errorsOf } from './support/answers';
import { signedIn, startServer, type TestServer } from './support/server';

let server: TestServer;
let school: ActivitySchool;
const as = signedIn(() => server);
const USERS = `/api${DASHBOARD_API.users}`;
const SUMMARY = `/api${DASHBOARD_API.summary}`;

beforeAll(async () => {
  server = await startServer();
  school = await insertActivitySchool(server.db, 'act');
});
afterAll(async () => {
  await server?.close();
});

const admin = () => as(school.emails.admin);

describe('GET /dashboard/users', () => {
  it('counts May 2025 per staff member by hand: messages, people reached, read rate, active days; above 100 % with leavers', async () => {
    const activity = await data<StaffActivity>((await admin()).get(`${USERS}?period=month&month=2025-05`));
    expect(activity.period).toEqual({ kind: 'month', key: '2025-05', from: '2025-05-01', to: '2025-05-31' });
    expect(activity.positions).toEqual([
      { id: school.positions.inspector, name: 'Inspector' },
      { id: school.positions.profesorJefe, name: 'Profesor jefe' },
    ]);
    // Register with a login: Ana, Beatriz, Carlos (Fabián has none). Sent in May: Beatriz, Carlos, Elena, Felipe.
    expect([activity.staff_on_register, activity.active_staff, activity.activity_percent]).toEqual([3, 4, 133.3]);
    const jefe = { id: school.positions.profesorJefe, name: 'Profesor jefe' };
    expect(activity.rows).toEqual([
      // M1 (1 May 00:30 local), M2 and M9 (20 May); the copy of M1 and the draft do not count. Reached: G1,
      // G2, Carlos (G3 not received, G4 failed). Read: M1's app read, M9's app received, Carlos read M2 → 2/3.
      {
        user_id: school.users.beatriz,
        name: 'Beatriz Bravo',
        position: jefe,
        messages: 3,
        people_reached: 3,
        read_rate: 0.6667,
        active_days: 2,
      },
      // M3 on 31 May 23:30 local (1 June in UTC). Reached G5, G7, Ana. Read: G7's app of G5's and G7's, Ana unread → 1/3.
      {
        user_id: school.users.carlos,
        name: 'Carlos Cruz',
        position: jefe,
        messages: 1,
        people_reached: 3,
        read_rate: 0.3333,
        active_days: 1,
      },
      // WhatsApp "read" is not a reading the contract counts: nothing where reading is known.
      { user_id: school.users.elena, name: 'Elena Ex', position: null, messages: 1, people_reached: 1, read_rate: null, active_days: 1 },
      {
        user_id: school.users.felipe,
        name: 'Felipe Fuera',
        position: null,
        messages: 1,
        people_reached: 1,
        read_rate: null,
        active_days: 1,
      },
      {
        user_id: school.users.ana,
        name: 'Ana Admin',
        position: { id: school.positions.inspector, name: 'Inspector' },
        messages: 0,
        people_reached: 0,
        read_rate: null,
        active_days: 0,
      },
    ]);
  });

  it('takes 30 April 23:30 local into April though it is 1 May in UTC', async () => {
    const april = await data<StaffActivity>((await admin()).get(`${USERS}?month=2025-04`));
    const byUser = Object.fromEntries(april.rows.map((r) => [r.user_id, [r.messages, r.people_reached, r.read_rate]]));
    // M7 Carlos: G1 received, G3 read (whatsapp: no reading known). M8 Ana: G1 read (app), G2, G5 not received (app) → 1/2.
    expect(byUser[school.users.carlos]).toEqual([1, 2, null]);
    expect(byUser[school.users.ana]).toEqual([1, 2, 0.5]);
    expect(byUser[school.users.beatriz]).toEqual([0, 0, null]);
    expect(april.rows.map((r) => r.user_id)).not.toContain(school.users.elena);
    expect([april.staff_on_register, april.active_staff, april.activity_percent]).toEqual([3, 2, 66.7]);
  });

  it('filters by cargo: the register and the staff shown are that cargo’s', async () => {
    const jefes = await data<StaffActivity>((await admin()).get(`${USERS}?month=2025-05&position_id=${school.positions.profesorJefe}`));
    expect(jefes.rows.map((r) => [r.name, r.messages])).toEqual([
      ['Beatriz Bravo', 3],
      ['Carlos Cruz', 1],
    ]);
    expect([jefes.staff_on_register, jefes.active_staff, jefes.activity_percent]).toEqual([2, 2, 100]);
    const inspectors = await data<StaffActivity>((await admin()).get(`${USERS}?month=2025-05&position_id=${school.positions.inspector}`));
    expect(inspectors.rows.map((r) => r.name)).toEqual(['Ana Admin']);
    expect([inspectors.staff_on_register, inspectors.active_staff, inspectors.activity_percent]).toEqual([1, 0, 0]);
  });

  it('sums a school year: Chile 2025 is March to December', async () => {
    const year = await data<StaffActivity>((await admin()).get(`${USERS}?period=school-year&year=2025`));
    expect(year.period).toEqual({ kind: 'school-year', key: '2025', from: '2025-03-01', to: '2025-12-31' });
    expect(year.rows.map((r) => [r.name, r.messages, r.active_days])).toEqual([
      ['Beatriz Bravo', 3, 2],
      ['Carlos Cruz', 2, 2],
      ['Ana Admin', 1, 1],
      ['Elena Ex', 1, 1],
      ['Felipe Fuera', 1, 1],
    ]);
    expect([year.staff_on_register, year.active_staff, year.activity_percent]).toEqual([3, 5, 166.7]);
  });

  it('answers 422 in Spanish for each bad value', async () => {
    const client = await admin();
    expect(await errorsOf(client.get(`${USERS}?period=week`))).toEqual({ period: [PERIOD_MESSAGES.period] });
    const max = new Date().getUTCFullYear() + 1;
    expect(await errorsOf(client.get(`${USERS}?month=2025-13`))).toEqual({ month: [PERIOD_MESSAGES.month(max)] });
    expect(await errorsOf(client.get(`${USERS}?month=1999-05`))).toEqual({ month: [PERIOD_MESSAGES.month(max)] });
    expect(await errorsOf(client.get(`${USERS}?period=school-year&month=2025-05`))).toEqual({ month: [PERIOD_MESSAGES.monthWithYear] });
    expect(await errorsOf(client.get(`${USERS}?period=month&year=2025`))).toEqual({ year: [PERIOD_MESSAGES.yearWithMonth] });
    expect(await errorsOf(client.get(`${USERS}?period=school-year&year=25`))).toEqual({ year: [PERIOD_MESSAGES.year(max)] });
    expect(await errorsOf(client.get(`${USERS}?position_id=abc`))).toEqual({ position_id: [ACTIVITY_MESSAGES.position] });
  });

  it('answers 404 for another school’s cargo, and shows another school none of this one’s staff', async () => {
    const res = await (await admin()).get(`${USERS}?position_id=${school.positions.inspector}`);
    expect(res.status).toBe(200);
    const sanAndres = await as('administrador@sanandres.cl');
    const foreign = await sanAndres.get(`${USERS}?position_id=${school.positions.inspector}`);
    expect(foreign.status).toBe(404);
    expect(((await foreign.json()) as ApiError).message).toBe(ACTIVITY_MESSAGES.positionNotFound);
    const theirs = await data<StaffActivity>(sanAndres.get(`${USERS}?month=2025-05`));
    const ours = new Set(Object.values(school.users));
    expect(theirs.rows.filter((r) => ours.has(r.user_id))).toEqual([]);
    expect(theirs.positions.map((p) => p.id)).not.toContain(school.positions.inspector);
  });

  it('refuses without a session (401) and a teacher (403 in Spanish)', async () => {
    expect((await server.client().get(USERS)).status).toBe(401);
    const res = await (await as(school.emails.teacher)).get(USERS);
    expect(res.status).toBe(403);
    expect(((await res.json()) as ApiError).message).toBe(ACTIVITY_MESSAGES.forbidden);
  });
});

describe('GET /dashboard/summary', () => {
  it('gives the school year’s messages and deliveries per month, counted by hand', async () => {
    const summary = await data<ActivitySummary>((await admin()).get(`${SUMMARY}?year=2025`));
    expect(summary.school_year).toEqual({ kind: 'school-year', key: '2025', from: '2025-03-01', to: '2025-12-31' });
    const zero = (m: string) => ({ month: m, messages: 0, deliveries: 0 });
    expect(summary.months).toEqual([
      zero('2025-03'),
      // M7 (30 Apr 23:30 local): 2 deliveries; M8: 3.
      { month: '2025-04', messages: 2, deliveries: 5 },
      // M1 3, M2 1 (G4's has no number), M9 1, M3 2, M4 1, M11 1; the copy and the draft are not messages sent.
      { month: '2025-05', messages: 6, deliveries: 9 },
      ...['2025-06', '2025-07', '2025-08', '2025-09', '2025-10', '2025-11', '2025-12'].map(zero),
    ]);
  });

  it('lists this month’s top staff and courses (the 1st at 00:30 local in, last month’s last day out) and the device mix', async () => {
    const summary = await data<ActivitySummary>((await admin()).get(SUMMARY));
    const month = monthIn(new Date(), ZONE);
    expect(summary.school_year.key).toBe(String(schoolYearOf(month, 'CL')));
    expect(summary.top_staff).toEqual([
      { user_id: school.users.carlos, name: 'Carlos Cruz', messages: 2 },
      { user_id: school.users.beatriz, name: 'Beatriz Bravo', messages: 1 },
    ]);
    // N1 → G3: 1° B and 2° A; N2 → Sofía and G1: 1° A once; N3 → G4: 2° A.
    expect(summary.top_courses).toEqual([
      { course_id: school.courses.c2A, name: '2° A', messages: 2 },
      { course_id: school.courses.c1A, name: '1° A', messages: 1 },
      { course_id: school.courses.c1B, name: '1° B', messages: 1 },
    ]);
    // G1, G5, G7 app; G2 SMS only; G3 three misses; G4 nothing; G6 only a withdrawn student's.
    expect(summary.devices).toEqual({ blue: 3, green: 1, yellow: 1, red: 1 });
  });

  it('answers 422 for a bad year, 401 and 403, and shows another school none of this one', async () => {
    const max = new Date().getUTCFullYear() + 1;
    expect(await errorsOf((await admin()).get(`${SUMMARY}?year=dos mil`))).toEqual({ year: [PERIOD_MESSAGES.year(max)] });
    expect((await server.client().get(SUMMARY)).status).toBe(401);
    expect((await (await as(school.emails.teacher)).get(SUMMARY)).status).toBe(403);
    const theirs = await data<ActivitySummary>((await as('administrador@sanandres.cl')).get(SUMMARY));
    const ours = new Set(Object.values(school.users));
    expect(theirs.top_staff.filter((s) => ours.has(s.user_id))).toEqual([]);
    expect(theirs.top_courses.filter((c) => Object.values(school.courses).includes(c.course_id))).toEqual([]);
  });
});

// Found by review: the author's copy was recognised through its inbox entry, and a withdrawn student's
// guardian still counted in the course. Each on a school of its own, so the figures above stay.
describe('what counts, whatever happens to mailbox entries and enrolments', () => {
  let other: ActivitySchool;
  const otherAdmin = () => as(other.emails.admin);
  beforeAll(async () => {
    other = await insertActivitySchool(server.db, 'act2');
  });

  it('does not count the author’s copy once its inbox entry is purged', async () => {
    const may = `${USERS}?month=2025-05`;
    const before = await data<StaffActivity>((await otherAdmin()).get(may));
    const yearBefore = await data<ActivitySummary>((await otherAdmin()).get(`${SUMMARY}?year=2025`));
    // Purge from the trash deletes the user's entry; the copy's message row stays (it was sent).
    const purged = await server.db.execute(
      sql`delete from mailbox_entries where user_id = ${other.users.beatriz} and folder = 'inbox' returning id`,
    );
    expect((purged as unknown as { rows: unknown[] }).rows).toHaveLength(1);
    expect(await data<StaffActivity>((await otherAdmin()).get(may))).toEqual(before);
    expect((await data<ActivitySummary>((await otherAdmin()).get(`${SUMMARY}?year=2025`))).months).toEqual(yearBefore.months);
    expect(before.rows.find((r) => r.user_id === other.users.beatriz)!.messages).toBe(3);
  });

  it('leaves out of this month’s top courses a student withdrawn before it', async () => {
    // G6's only child, Úrsula (1° A), left in March 2025.
    const month = monthIn(new Date(), ZONE);
    await other.message('ana', `${month}-01 12:00`, [
      { guardian: other.guardians.g6, status: 'received', deliveries: [['sms', 'received']] },
    ]);
    const summary = await data<ActivitySummary>((await otherAdmin()).get(SUMMARY));
    expect(summary.top_staff.map((s) => [s.name, s.messages])).toEqual([
      ['Carlos Cruz', 2],
      ['Ana Admin', 1],
      ['Beatriz Bravo', 1],
    ]);
    expect(summary.top_courses).toEqual([
      { course_id: other.courses.c2A, name: '2° A', messages: 2 },
      { course_id: other.courses.c1A, name: '1° A', messages: 1 },
      { course_id: other.courses.c1B, name: '1° B', messages: 1 },
    ]);
  });
});

// Found by review: a colleague was counted twice where reading is known, once by the app-mobile delivery the
// send path writes for them (`user:<id>`) and once by their inbox entry. A colleague is known once, by the
// entry; a guardian by their app delivery. On a school of its own, in 2024 (nothing else of this fixture).
describe('the read rate counts a colleague once', () => {
  let third: ActivitySchool;
  beforeAll(async () => {
    third = await insertActivitySchool(server.db, 'act3');
    // Ana, 10 June 2024: G7 by app, received but not read; Carlos (colleague) read it in Hermes.
    await third.message('ana', '2024-06-10 10:00', [
      { guardian: third.guardians.g7, status: 'received', deliveries: [['app-mobile', 'received']] },
      { colleague: third.colleagues.carlos, read: true, app: true },
    ]);
  });

  it('gives 1 read of 2 known (not 2 of 3) in a month and in the school year (the roll-up)', async () => {
    const client = await as(third.emails.admin);
    for (const query of ['period=month&month=2024-06', 'period=school-year&year=2024']) {
      const activity = await data<StaffActivity>(client.get(`${USERS}?${query}`));
      const ana = activity.rows.find((r) => r.user_id === third.users.ana)!;
      expect([query, ana.messages, ana.people_reached, ana.read_rate]).toEqual([query, 1, 2, 0.5]);
    }
  });
});
