// `GET /ranking/courses` and `GET /ranking/users` of shared/dashboard-contract.ts on the small fixture school
// of tests/api/support/activity-school.ts (every message listed there): rates per guardian addressed, ties
// sharing a position, the change and the previous position against April 2025, the ranking by improvement
// with courses that have no previous value last, the school year against the one before, the 422s, the
// 401, the 403 of a teacher and the isolation between schools.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_API, type Ranking, type RankingRow } from '../../shared/dashboard-contract';
import type { ApiError } from '../../shared/contract';
import { ACTIVITY_MESSAGES } from '../../server/dashboard/activity';
import { PERIOD_MESSAGES } from '../../server/dashboard/period';
import { RANKING_MESSAGES } from '../../server/dashboard/ranking';
import { insertActivitySchool, type ActivitySchool } from './support/activity-school';
import { signedIn, startServer, type TestServer } from './support/server';

let server: TestServer;
let school: ActivitySchool;
const as = signedIn(() => server);
const COURSES = `/api${DASHBOARD_API.rankingCourses}`;
const USERS = `/api${DASHBOARD_API.rankingUsers}`;

beforeAll(async () => {
  server = await startServer();
  school = await insertActivitySchool(server.db, 'rank');
});
afterAll(async () => {
  await server?.close();
});

async function ranking(path: string, email = school.emails.admin): Promise<Ranking> {
  const res = await (await as(email)).get(path);
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(200);
  return (body as { data: Ranking }).data;
}

async function errorsOf(path: string): Promise<Record<string, string[]>> {
  const res = await (await as(school.emails.admin)).get(path);
  expect(res.status).toBe(422);
  return ((await res.json()) as ApiError).errors!;
}

type Row = [
  position: number,
  name: string,
  detail: RankingRow['detail'],
  value: number,
  previous: number | null,
  change: number | null,
  previousPosition: number | null,
];
const rows = (r: Ranking): Row[] => r.rows.map((x) => [x.position, x.name, x.detail, x.value, x.previous, x.change, x.previous_position]);

// Guardians addressed per course (a guardian in each course of their children):
//   May 2025:   1° A G1 (read), G2 (read, by Elena's WhatsApp); 1° B G3 (not received); 2° A G3, G4 (failed), G5
//               (received); 3° A G7 (read).
//   April 2025: 1° A G1 (read), G2 (received); 1° B G3 (read); 2° A G3 (read), G5 (not received).
describe('GET /ranking/courses', () => {
  it('ranks May by guardians who read ÷ guardians addressed; ties share a position', async () => {
    const r = await ranking(`${COURSES}?period=month&month=2025-05&metric=read`);
    expect([r.period.key, r.previous_period, r.metric, r.by]).toEqual([
      '2025-05',
      { kind: 'month', key: '2025-04', from: '2025-04-01', to: '2025-04-30' },
      'read',
      'value',
    ]);
    expect(rows(r)).toEqual([
      [1, '1° A', 2, 1, 0.5, 0.5, 2],
      [1, '3° A', 1, 1, null, null, null],
      [3, '1° B', 1, 0, 1, -1, 1],
      [3, '2° A', 3, 0, 0.5, -0.5, 2],
    ]);
    expect(r.rows.map((x) => x.id)).toEqual([school.courses.c1A, school.courses.c3A, school.courses.c1B, school.courses.c2A]);
  });

  it('ranks by improvement, the course with no April value last', async () => {
    const r = await ranking(`${COURSES}?month=2025-05&metric=read&by=improvement`);
    expect(r.by).toBe('improvement');
    expect(rows(r).map(([position, name, , , , change]) => [position, name, change])).toEqual([
      [1, '1° A', 0.5],
      [2, '2° A', -0.5],
      [3, '1° B', -1],
      [4, '3° A', null],
    ]);
  });

  it('ranks by guardians reached ÷ addressed, and by its improvement', async () => {
    expect(rows(await ranking(`${COURSES}?month=2025-05&metric=reached`))).toEqual([
      [1, '1° A', 2, 1, 1, 0, 1],
      [1, '3° A', 1, 1, null, null, null],
      [3, '2° A', 3, 0.3333, 0.5, -0.1667, 3],
      [4, '1° B', 1, 0, 1, -1, 1],
    ]);
    expect(rows(await ranking(`${COURSES}?month=2025-05&metric=reached&by=improvement`)).map(([p, n]) => [p, n])).toEqual([
      [1, '1° A'],
      [2, '2° A'],
      [3, '1° B'],
      [4, '3° A'],
    ]);
  });

  it('ranks the school year 2025 against 2024, which had nothing', async () => {
    const r = await ranking(`${COURSES}?period=school-year&year=2025&metric=read`);
    expect(r.previous_period).toEqual({ kind: 'school-year', key: '2024', from: '2024-03-01', to: '2024-12-31' });
    // The year: G1, G2, G3, G7 read at least once; G4, G5 never.
    expect(rows(r)).toEqual([
      [1, '1° A', 2, 1, null, null, null],
      [1, '1° B', 1, 1, null, null, null],
      [1, '3° A', 1, 1, null, null, null],
      [4, '2° A', 3, 0.3333, null, null, null],
    ]);
  });

  it('answers 422 in Spanish for a bad metric, order or period', async () => {
    expect(await errorsOf(`${COURSES}?metric=messages`)).toEqual({ metric: [RANKING_MESSAGES.courseMetric] });
    expect(await errorsOf(`${COURSES}?by=best&period=year`)).toEqual({ by: [RANKING_MESSAGES.by], period: [PERIOD_MESSAGES.period] });
  });
});

// Messages: May Beatriz 3, Carlos 1, Elena 1, Felipe 1; April Carlos 1, Ana 1.
// People reached: May Beatriz 3 (G1, G2, Carlos), Carlos 3 (G5, G7, Ana), Elena 1, Felipe 1; April Carlos 2 (G1, G3), Ana 2 (G1, G2).
describe('GET /ranking/users', () => {
  it('ranks May by messages sent with the cargo as detail; ties share a position', async () => {
    const r = await ranking(`${USERS}?month=2025-05`);
    expect(r.metric).toBe('messages');
    expect(rows(r)).toEqual([
      [1, 'Beatriz Bravo', 'Profesor jefe', 3, null, null, null],
      [2, 'Carlos Cruz', 'Profesor jefe', 1, 1, 0, 1],
      [2, 'Elena Ex', null, 1, null, null, null],
      [2, 'Felipe Fuera', null, 1, null, null, null],
    ]);
  });

  it('ranks by people reached, and by its improvement', async () => {
    expect(rows(await ranking(`${USERS}?month=2025-05&metric=reached`))).toEqual([
      [1, 'Beatriz Bravo', 'Profesor jefe', 3, null, null, null],
      [1, 'Carlos Cruz', 'Profesor jefe', 3, 2, 1, 1],
      [3, 'Elena Ex', null, 1, null, null, null],
      [3, 'Felipe Fuera', null, 1, null, null, null],
    ]);
    expect(
      rows(await ranking(`${USERS}?month=2025-05&metric=reached&by=improvement`)).map(([p, n, , , , change]) => [p, n, change]),
    ).toEqual([
      [1, 'Carlos Cruz', 1],
      [2, 'Beatriz Bravo', null],
      [2, 'Elena Ex', null],
      [2, 'Felipe Fuera', null],
    ]);
  });

  it('answers 422 for a course metric, 401 without a session, 403 to a teacher', async () => {
    expect(await errorsOf(`${USERS}?metric=read`)).toEqual({ metric: [RANKING_MESSAGES.userMetric] });
    expect((await server.client().get(USERS)).status).toBe(401);
    const res = await (await as(school.emails.teacher)).get(`${USERS}?month=2025-05`);
    expect(res.status).toBe(403);
    expect(((await res.json()) as ApiError).message).toBe(ACTIVITY_MESSAGES.forbidden);
    expect((await (await as(school.emails.teacher)).get(COURSES)).status).toBe(403);
  });

  it('shows another school none of this one’s courses or staff', async () => {
    const courses = new Set(Object.values(school.courses));
    const staff = new Set(Object.values(school.users));
    for (const [path, ours] of [
      [`${COURSES}?month=2025-05`, courses],
      [`${COURSES}?period=school-year&year=2025&metric=reached`, courses],
      [`${USERS}?month=2025-05`, staff],
      [`${USERS}?period=school-year&year=2025&metric=reached`, staff],
    ] as const) {
      const theirs = await ranking(path, 'administrador@sanandres.cl');
      expect(theirs.rows.filter((row) => ours.has(row.id))).toEqual([]);
    }
  });
});

// Found by review: previous positions were ranked among this period's rows only, and a withdrawn student's
// guardian still counted in the course's size. January and February 2026 are Chilean summer months, in no
// school year, so they touch none of the figures above; on a school of their own anyway.
describe('the previous period and enrolment', () => {
  let other: ActivitySchool;
  beforeAll(async () => {
    other = await insertActivitySchool(server.db, 'rank2');
    const g = other.guardians;
    // January: Ana twice (G7 of 3° A read; G2 of 1° A received), Carlos once (G1 of 1° A received).
    await other.message('ana', '2026-01-12 10:00', [{ guardian: g.g7, status: 'read', deliveries: [['app-mobile', 'read']] }]);
    await other.message('ana', '2026-01-13 10:00', [{ guardian: g.g2, status: 'received', deliveries: [['sms', 'received']] }]);
    await other.message('carlos', '2026-01-14 10:00', [{ guardian: g.g1, status: 'received', deliveries: [['sms', 'received']] }]);
    // February: Carlos alone, to G1 (read) and G6, whose only child (Úrsula, 1° A) left in March 2025.
    await other.message('carlos', '2026-02-10 10:00', [
      { guardian: g.g1, status: 'read', deliveries: [['app-mobile', 'read']] },
      { guardian: g.g6, status: 'received', deliveries: [['sms', 'received']] },
    ]);
  });

  it('ranks the previous period among its own rows and counts only enrolled students’ guardians', async () => {
    const rank = async (path: string) => rows(await ranking(path, other.emails.admin));
    // February: 1° A addressed G1 only (read) → 1. January: 3° A 1/1 first, 1° A 0/2 second.
    expect(await rank(`${COURSES}?month=2026-02&metric=read`)).toEqual([[1, '1° A', 1, 1, 0, 1, 2]]);
    // Reached: January 1° A 2/2 and 3° A 1/1 share the first place.
    expect(await rank(`${COURSES}?month=2026-02&metric=reached`)).toEqual([[1, '1° A', 1, 1, 1, 0, 1]]);
    // January: Ana 2 messages first, Carlos 1 second; February: Carlos 1.
    expect(await rank(`${USERS}?month=2026-02`)).toEqual([[1, 'Carlos Cruz', 'Profesor jefe', 1, 1, 0, 2]]);
    // People reached in January: Ana 2 (G7, G2), Carlos 1 (G1); February: Carlos 2 (G1, G6).
    expect(await rank(`${USERS}?month=2026-02&metric=reached`)).toEqual([[1, 'Carlos Cruz', 'Profesor jefe', 2, 1, 1, 2]]);
  });
});
