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
import { readActivitySummary } from '../../server/dashboard/activity';
import { readCourseRanking } from '../../server/dashboard/ranking';
import { receptionPage } from '../../server/reception/reception';
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

/** The rows with `edit` applied to the student whose document is `dni` (every row of theirs). */
const editStudent = (rows: RosterRow[], dni: string, edit: (row: RosterRow) => RosterRow) =>
  rows.map((r) => (r.student.document?.value === dni ? edit(r) : r));

async function studentOf(id: number) {
  return one<{ course: string; withdrawn_at: string | null; first_names: string }>(sql`
    select c.name as course, s.withdrawn_at, s.first_names from students s join courses c on c.id = s.course_id where s.id = ${id}`);
}

describe('a file that moves, adds and leaves out students', () => {
  it('previews each change, applies them all, withdraws who is missing and takes a returning student back', async () => {
    const rows = await rowsOfSchool(server.db, scope.institutionId);
    const [moved, left] = [...new Set(rows.map((r) => r.student.document!.value))] as [string, string];
    const { id: movedId } = await one<{ id: number }>(
      sql`select id from students where dni = ${moved} and institution_id = ${scope.institutionId}`,
    );
    const { id: leftId } = await one<{ id: number }>(
      sql`select id from students where dni = ${left} and institution_id = ${scope.institutionId}`,
    );
    const other = rows.find((r) => r.student.course.name !== rows.find((x) => x.student.document?.value === moved)!.student.course.name)!;
    const newcomer: RosterRow = {
      line: 9_999,
      student: {
        document: { type: 'rut', value: '30000000-4' },
        first_names: 'Renata',
        last_name_father: 'Ibáñez',
        last_name_mother: 'Fuentes',
        course: { level: '1° Básico', letter: 'Z', name: '1° Básico Z', position: 2 },
        birth_date: null,
        email: null,
      },
      guardian: {
        document: null,
        first_names: 'Paula',
        last_name_father: 'Fuentes',
        last_name_mother: 'Lagos',
        role: 'titular',
        relationship: 'Madre',
        phone: '+56991112233',
        email: null,
      },
    };
    const file = [
      ...editStudent(
        rows.filter((r) => r.student.document?.value !== left),
        moved,
        (r) => ({ ...r, student: { ...r.student, course: other.student.course } }),
      ),
      newcomer,
    ];
    const first = await preview(file);
    expect(first.counts.students).toMatchObject({ new: 1, changed: 1, withdrawn: 1 });
    expect(first.counts.guardians.new).toBe(1);
    expect(first.counts.courses.new).toBe(1);
    const people = (await pageOfPeople(server.db, scope, first.id, { change: null, kind: 'student', page: 1, perPage: 10_000 }))!.items;
    const movedPerson = people.find((p) => p.id === movedId)!;
    expect(movedPerson.change).toBe('changed');
    expect(movedPerson.match).toBe('document');
    expect(movedPerson.changes).toEqual([{ field: 'curso', from: expect.any(String), to: other.student.course.name, manual: false }]);
    expect(people.find((p) => p.id === leftId)).toMatchObject({ change: 'withdrawn', lines: [] });

    expect(await apply(first.id)).toEqual({ kind: 'done' });
    expect((await studentOf(movedId)).course).toBe(other.student.course.name);
    expect((await studentOf(leftId)).withdrawn_at).not.toBeNull();
    const newStudent = await one<{ course: string; guardian_phone: string }>(sql`
      select c.name as course, g.phone as guardian_phone from students s join courses c on c.id = s.course_id
      join student_guardians sg on sg.student_id = s.id and sg.role = 1 join guardians g on g.id = sg.guardian_id
      where s.dni = '30000000-4' and s.institution_id = ${scope.institutionId}`);
    expect(newStudent).toEqual({ course: '1° Básico Z', guardian_phone: '+56991112233' });

    // Back in the next file: the same student, enrolled again, nothing else.
    const again = await preview([...file, ...rows.filter((r) => r.student.document?.value === left)]);
    expect(again.counts.students).toMatchObject({ new: 0, changed: 1, withdrawn: 0 });
    const back = (await pageOfPeople(server.db, scope, again.id, { change: 'changed', kind: 'student', page: 1, perPage: 10 }))!.items;
    expect(back).toMatchObject([{ id: leftId, changes: [{ field: 'estado', from: 'retirado', to: 'matriculado', manual: false }] }]);
    expect(await apply(again.id)).toEqual({ kind: 'done' });
    expect((await studentOf(leftId)).withdrawn_at).toBeNull();
  });
});

describe("an administrator's correction", () => {
  it('is a conflict the administrator must choose on; "keep" keeps it, and the import records its own changes', async () => {
    const rows = await rowsOfSchool(server.db, scope.institutionId);
    const withGuardian = rows.find((r) => r.guardian?.phone && r.guardian.document)!;
    const { id: guardianId } = await one<{ id: number }>(
      sql`select id from guardians where dni = ${withGuardian.guardian!.document!.value} and institution_id = ${scope.institutionId}`,
    );
    // As the member editor saves a correction: the new value and a record of who changed it.
    await server.db.execute(sql`update guardians set phone = '+56990000001', email = 'corregido@correo.cl' where id = ${guardianId}`);
    await server.db.execute(sql`
      insert into contact_changes (institution_id, person_kind, person_id, field, old_value, new_value, changed_by)
      values (${scope.institutionId}, 'apoderado', ${guardianId}, 'fono_celular', ${withGuardian.guardian!.phone}, '+56990000001', ${scope.userId})`);
    // The file still has the old phone and a new e-mail (the e-mail was not corrected by hand as far as the record says).
    const file = rows.map((r) =>
      r.guardian?.document?.value === withGuardian.guardian!.document!.value
        ? { ...r, guardian: { ...r.guardian!, email: 'nuevo@correo.cl' } }
        : r,
    );
    const previewed = await preview(file);
    expect(previewed.counts.conflicts).toBe(1);
    const guardian = (await pageOfPeople(server.db, scope, previewed.id, { change: 'changed', kind: 'guardian', page: 1, perPage: 10 }))!
      .items;
    expect(guardian).toHaveLength(1);
    expect(guardian[0]!.changes).toEqual([
      { field: 'fono_celular', from: '+56990000001', to: withGuardian.guardian!.phone, manual: true },
      { field: 'email', from: 'corregido@correo.cl', to: 'nuevo@correo.cl', manual: false },
    ]);

    expect(await apply(previewed.id)).toEqual({ kind: 'conflicts', missing: [`guardian:${guardianId}:fono_celular`] });
    expect(await apply(previewed.id, { [`guardian:${guardianId}:fono_celular`]: 'keep' })).toEqual({ kind: 'done' });
    const after = await one<{ phone: string; email: string }>(sql`select phone, email from guardians where id = ${guardianId}`);
    expect(after).toEqual({ phone: '+56990000001', email: 'nuevo@correo.cl' });
    const records = rowsOf<{ field: string; new_value: string; roster_import_id: number | null; changed_by: number }>(
      await server.db.execute(sql`
        select field, new_value, roster_import_id, changed_by from contact_changes
        where person_kind = 'apoderado' and person_id = ${guardianId} order by id`),
    );
    expect(records.at(-1)).toEqual({
      field: 'email',
      new_value: 'nuevo@correo.cl',
      roster_import_id: previewed.id,
      changed_by: scope.userId,
    });

    // The import's own change (the e-mail) is not taken for a correction; the phone kept over the file is still
    // the administrator's, so the same file asks about it again instead of undoing it.
    const again = await preview(file);
    expect(again.counts.conflicts).toBe(1);
    const asked = (await pageOfPeople(server.db, scope, again.id, { change: 'changed', kind: 'guardian', page: 1, perPage: 10 }))!.items;
    expect(asked).toMatchObject([{ id: guardianId, changes: [{ field: 'fono_celular', from: '+56990000001', manual: true }] }]);
  });
});

describe('a student Hermes has without a document', () => {
  it("is found by name and a guardian's phone, and takes the document the file gives", async () => {
    const rows = await rowsOfSchool(server.db, scope.institutionId);
    const withPhone = rows.find((r) => r.guardian?.phone)!;
    const dni = withPhone.student.document!.value;
    const { id } = await one<{ id: number }>(sql`select id from students where dni = ${dni} and institution_id = ${scope.institutionId}`);
    await server.db.execute(sql`update students set dni = null, document_type = null where id = ${id}`);
    const previewed = await preview(rows);
    expect(previewed.counts.students).toMatchObject({ new: 0, changed: 1, withdrawn: 0 });
    const changed = (await pageOfPeople(server.db, scope, previewed.id, { change: 'changed', kind: 'student', page: 1, perPage: 10 }))!
      .items;
    expect(changed).toMatchObject([{ id, match: 'name_phone', changes: [{ field: 'dni', from: null, to: dni, manual: false }] }]);
    expect(await apply(previewed.id)).toEqual({ kind: 'done' });
    expect(await one<{ dni: string }>(sql`select dni from students where id = ${id}`)).toEqual({ dni });
  });
});

describe('a preview of a roster that changed since', () => {
  it('is refused, and applying twice is refused too', async () => {
    const rows = await rowsOfSchool(server.db, scope.institutionId);
    const stale = await preview(rows);
    const dni = rows[0]!.student.document!.value;
    const renamed = await preview(editStudent(rows, dni, (r) => ({ ...r, student: { ...r.student, first_names: 'Otro Nombre' } })));
    expect(await apply(renamed.id)).toEqual({ kind: 'done' });
    expect(await apply(renamed.id)).toEqual({ kind: 'state' });
    const before = await rosterDigest(server.db, scope.institutionId);
    expect(await apply(stale.id)).toEqual({ kind: 'stale' });
    expect(await rosterDigest(server.db, scope.institutionId)).toBe(before);
  });
});

describe('a new school year', () => {
  it("moves a whole course and leaves last year's reception, summary and ranking with the course they had", async () => {
    // A course whose guardians were addressed in a message of this school year, for the child the message names.
    const target = await one<{ message_id: number; student_id: number; course_id: number; course: string }>(sql`
      select r.message_id, s.id as student_id, s.course_id, c.name as course
      from message_recipients r join activity_messages am on am.message_id = r.message_id and am.school_year = ${year}
      join student_guardians sg on r.recipient_kind = 'apoderado' and sg.guardian_id = r.recipient_ref_id
      join students s on s.id = sg.student_id and s.withdrawn_at is null
        and split_part(s.first_names, ' ', 1) || ' ' || s.last_name_father = any(string_to_array(r.student_names, ', '))
      join courses c on c.id = s.course_id
      where s.institution_id = ${scope.institutionId}
      order by r.message_id desc limit 1`);
    expect(target).toBeDefined();
    const rows = await rowsOfSchool(server.db, scope.institutionId);
    const next = rows.find((r) => r.student.course.name !== target.course)!.student.course;
    const yearRanking = () =>
      readCourseRanking(server.db, scope.institutionId, {
        period: { kind: 'school-year', month: null, year },
        metric: 'reached',
        by: 'value',
      });
    const summary = () => readActivitySummary(server.db, scope.institutionId, year);
    const receptionOf = async () => {
      const page = await receptionPage(server.db, Number(target.message_id), {
        channel: 'all',
        status: 'all',
        q: '',
        page: 1,
        perPage: 5_000,
      });
      return page.rows.flatMap((r) => r.students).filter((s) => s.course === target.course || s.course === next.name);
    };
    const [rankingBefore, summaryBefore, receptionBefore] = [await yearRanking(), await summary(), await receptionOf()];
    expect(rankingBefore.rows.some((r) => r.id === Number(target.course_id))).toBe(true);
    expect(receptionBefore.length).toBeGreaterThan(0);
    expect(summaryBefore.top_courses.length).toBeGreaterThan(0);

    const file = rows.map((r) => (r.student.course.name === target.course ? { ...r, student: { ...r.student, course: next } } : r));
    const rolled = await preview(file, year + 1);
    expect(rolled.school_year).toBe(year + 1);
    expect(await apply(rolled.id)).toEqual({ kind: 'done' });
    expect((await studentOf(Number(target.student_id))).course).toBe(next.name);
    const enrolled = rowsOf<{ school_year: number; course_id: number }>(
      await server.db.execute(
        sql`select school_year, course_id from enrolments where student_id = ${target.student_id} order by school_year`,
      ),
    );
    expect(enrolled.map((e) => [Number(e.school_year), Number(e.course_id)])).toEqual([
      [year, Number(target.course_id)],
      [year + 1, expect.any(Number)],
    ]);

    // Soft: each reader says for itself whether it kept the course.
    expect.soft(await yearRanking()).toEqual(rankingBefore);
    expect.soft((await summary()).top_courses).toEqual(summaryBefore.top_courses);
    expect.soft(await receptionOf()).toEqual(receptionBefore);
    // The roster is in the new year now: an import of last year's is refused by the upload (upload.ts), and
    // the same file again changes nothing.
    const digest = await rosterDigest(server.db, scope.institutionId);
    expect(await apply((await preview(file, year + 1)).id)).toEqual({ kind: 'done' });
    expect(await rosterDigest(server.db, scope.institutionId)).toBe(digest);
  });
});
