// What the people screen's corrections mean for the next roster import (decisions 0186, 0192 and 0193): a
// phone corrected there, a student withdrawn by hand whom the file lists again, a student enrolled again by
// hand whom the file leaves out, and a guardian taken away or given by hand are each a conflict the
// administrator chooses on, never undone silently; "keep" keeps Hermes' value even when the file changes
// something else of that student, and is asked again at the next import until a file wins it.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PEOPLE_API } from '../../shared/people-contract';
import type { RosterImport, RosterRow } from '../../shared/roster-contract';
import { rowsOf } from '../../server/db/sql';
import { applyImport, type ConflictChoices, type RosterScope } from '../../server/roster/apply';
import { calendarYear, pageOfPeople, previewImport } from '../../server/roster/imports';
import { rowsOfSchool } from './support/roster';
import { signedIn, startServer, type TestServer } from './support/server';
import { sendJson, userIdOf } from './support/staff';

let server: TestServer;
let scope: RosterScope;
let year: number;
const as = signedIn(() => server);
const ADMIN = 'administrador@sanandres.cl';

async function one<T>(query: ReturnType<typeof sql>): Promise<T> {
  return rowsOf<T>(await server.db.execute(query))[0]!;
}

async function preview(rows: RosterRow[]): Promise<RosterImport> {
  return previewImport(server.db, scope, {
    fileName: 'nomina.csv',
    bytes: new TextEncoder().encode(JSON.stringify(rows)),
    schoolYear: year,
    rows,
    problems: [],
    rowsRead: rows.length,
    calendarYear: year,
  });
}
const apply = (id: number, choices: ConflictChoices = {}) => applyImport(server.db, scope, id, choices, year);
const standing = async (id: number) =>
  (await one<{ withdrawn: boolean }>(sql`select withdrawn_at is not null as withdrawn from students where id = ${id}`)).withdrawn;
async function changedPeople(importId: number) {
  return (await pageOfPeople(server.db, scope, importId, { change: null, kind: null, page: 1, perPage: 10_000 }))!.items.filter(
    (p) => p.changes.length > 0,
  );
}

/** Two enrolled students with a RUT, listed in the file; two students withdrawn in the seed, not listed in it. */
const ids = { listedA: 0, listedB: 0, omittedA: 0, omittedB: 0, guardian: 0 };
let file: RosterRow[];

beforeAll(async () => {
  server = await startServer();
  const admin = await userIdOf(server.db, ADMIN);
  const { institution_id } = await one<{ institution_id: number }>(sql`select institution_id from users where id = ${admin}`);
  scope = { userId: admin, institutionId: Number(institution_id) };
  year = await calendarYear(server.db, scope.institutionId, new Date());
  // The school as its own file says it today: imported as it is, it changes nothing.
  file = await rowsOfSchool(server.db, scope.institutionId);
  const listed = rowsOf<{ id: number }>(
    await server.db.execute(sql`
      select id from students where institution_id = ${scope.institutionId} and withdrawn_at is null and dni is not null
      order by id limit 2`),
  );
  const omitted = rowsOf<{ id: number }>(
    await server.db.execute(sql`
      select id from students where institution_id = ${scope.institutionId} and withdrawn_at is not null order by id limit 2`),
  );
  expect(omitted).toHaveLength(2);
  [ids.listedA, ids.listedB] = listed.map((r) => Number(r.id)) as [number, number];
  [ids.omittedA, ids.omittedB] = omitted.map((r) => Number(r.id)) as [number, number];
  const guardian = file.find((r) => r.guardian?.document && r.guardian.phone)!;
  ids.guardian = (
    await one<{ id: number }>(
      sql`select id from guardians where dni = ${guardian.guardian!.document!.value} and institution_id = ${scope.institutionId}`,
    )
  ).id;
});
afterAll(() => server?.close());

describe('corrections on the people screen, then the next import', () => {
  it('a phone corrected, a student withdrawn by hand and one enrolled again by hand are conflicts; "keep" keeps each', async () => {
    const admin = await as(ADMIN);
    expect(
      (await sendJson(admin, 'PATCH', `/api${PEOPLE_API.person('apoderado', ids.guardian)}`, { fono_celular: '+56 9 8888 7777' })).status,
    ).toBe(200);
    expect((await sendJson(admin, 'POST', `/api${PEOPLE_API.withdrawal(ids.listedA)}`)).status).toBe(200);
    expect((await sendJson(admin, 'DELETE', `/api${PEOPLE_API.withdrawal(ids.omittedA)}`)).status).toBe(200);
    // The file also corrects the withdrawn student's e-mail: "keep" must not enrol them through that change.
    const listedADni = (await one<{ dni: string }>(sql`select dni from students where id = ${ids.listedA}`)).dni;
    const edited = file.map((r) =>
      r.student.document?.value === listedADni ? { ...r, student: { ...r.student, email: 'nuevo.correo@alumnos.cl' } } : r,
    );

    const previewed = await preview(edited);
    expect(previewed.counts.conflicts).toBe(3);
    const people = await changedPeople(previewed.id);
    expect(people.find((p) => p.kind === 'student' && p.id === ids.listedA)?.changes).toEqual(
      expect.arrayContaining([{ field: 'estado', from: 'retirado', to: 'matriculado', manual: true }]),
    );
    expect(people.find((p) => p.kind === 'student' && p.id === ids.omittedA)).toMatchObject({
      change: 'withdrawn',
      changes: [{ field: 'estado', from: 'matriculado', to: 'retirado', manual: true }],
    });
    expect(people.find((p) => p.kind === 'guardian' && p.id === ids.guardian)?.changes).toEqual([
      { field: 'fono_celular', from: '+56988887777', to: expect.any(String), manual: true },
    ]);
    const keys = [`student:${ids.listedA}:estado`, `student:${ids.omittedA}:estado`, `guardian:${ids.guardian}:fono_celular`];
    // The screen asks for the conflicts alone: the withdrawn student enrolled again by hand is among them.
    const conflicted = await pageOfPeople(server.db, scope, previewed.id, { change: 'conflicts', kind: null, page: 1, perPage: 500 });
    expect(conflicted!.items.map((p) => `${p.kind}:${p.id}`).sort()).toEqual(
      [`guardian:${ids.guardian}`, `student:${ids.listedA}`, `student:${ids.omittedA}`].sort(),
    );
    expect(await apply(previewed.id)).toEqual({ kind: 'conflicts', missing: expect.arrayContaining(keys) });

    expect(await apply(previewed.id, Object.fromEntries(keys.map((k) => [k, 'keep'])))).toEqual({ kind: 'done' });
    expect(await standing(ids.listedA)).toBe(true);
    expect((await one<{ email: string }>(sql`select email from students where id = ${ids.listedA}`)).email).toBe('nuevo.correo@alumnos.cl');
    expect(await standing(ids.omittedA)).toBe(false);
    expect((await one<{ phone: string }>(sql`select phone from guardians where id = ${ids.guardian}`)).phone).toBe('+56988887777');
  });

  it('what was kept is asked again at the next import, never undone silently; "file" takes the file’s standing', async () => {
    const admin = await as(ADMIN);
    expect((await sendJson(admin, 'POST', `/api${PEOPLE_API.withdrawal(ids.listedB)}`)).status).toBe(200);
    expect((await sendJson(admin, 'DELETE', `/api${PEOPLE_API.withdrawal(ids.omittedB)}`)).status).toBe(200);
    // The school's file as before: it lists listedA and listedB, not omittedA nor omittedB. The three kept
    // corrections are still the administrator's, besides the two new ones.
    const previewed = await preview(file);
    const kept = [`student:${ids.listedA}:estado`, `student:${ids.omittedA}:estado`, `guardian:${ids.guardian}:fono_celular`];
    const fresh = [`student:${ids.listedB}:estado`, `student:${ids.omittedB}:estado`];
    expect(previewed.counts.conflicts).toBe(5);
    expect(await apply(previewed.id, { [kept[2]!]: 'keep' })).toEqual({
      kind: 'conflicts',
      missing: expect.arrayContaining([...kept.slice(0, 2), ...fresh]),
    });
    const choices: ConflictChoices = Object.fromEntries([...kept.slice(0, 2), ...fresh].map((k) => [k, 'file']));
    expect(await apply(previewed.id, { ...choices, [kept[2]!]: 'keep' })).toEqual({ kind: 'done' });
    expect(await standing(ids.listedA)).toBe(false);
    expect(await standing(ids.omittedA)).toBe(true);
    expect(await standing(ids.listedB)).toBe(false);
    expect(await standing(ids.omittedB)).toBe(true);
    expect((await one<{ phone: string }>(sql`select phone from guardians where id = ${ids.guardian}`)).phone).toBe('+56988887777');
  });

  it('a standing the file won is the file’s from then on: the school’s next file decides it alone', async () => {
    // The same file again: only the phone, kept twice, is still asked about.
    const again = await preview(file);
    expect(again.counts.conflicts).toBe(1);
    const guardian = (await changedPeople(again.id)).find((p) => p.kind === 'guardian' && p.id === ids.guardian);
    expect(guardian?.changes).toEqual([{ field: 'fono_celular', from: '+56988887777', to: expect.any(String), manual: true }]);
    // listedB came back by the file's choice: a file that now leaves them out withdraws them, no conflict.
    const listedBDni = (await one<{ dni: string }>(sql`select dni from students where id = ${ids.listedB}`)).dni;
    const next = await preview(file.filter((r) => r.student.document?.value !== listedBDni));
    const listedB = (await pageOfPeople(server.db, scope, next.id, { change: 'withdrawn', kind: 'student', page: 1, perPage: 100 }))!.items;
    expect(listedB).toEqual([expect.objectContaining({ id: ids.listedB, changes: [] })]);
    expect(next.counts.conflicts).toBe(1);
  });

  it('a guardian taken away or given by hand is a conflict too: "keep" keeps the family as corrected', async () => {
    const admin = await as(ADMIN);
    // Two enrolled students of the file with a titular and a suplente.
    const [unlinked, replaced] = rowsOf<{ id: number; suplente: number; dni: string }>(
      await server.db.execute(sql`
        select s.id, sg.guardian_id as suplente, s.dni from students s join student_guardians sg on sg.student_id = s.id and sg.role = 2
        where s.institution_id = ${scope.institutionId} and s.withdrawn_at is null and s.dni is not null
          and s.id not in (${ids.listedA}, ${ids.listedB}, ${ids.omittedA}, ${ids.omittedB})
        order by s.id limit 2`),
    ) as [{ id: number; suplente: number; dni: string }, { id: number; suplente: number; dni: string }];
    expect((await sendJson(admin, 'DELETE', `/api${PEOPLE_API.guardian(unlinked.id, unlinked.suplente)}`)).status).toBe(200);
    expect((await sendJson(admin, 'DELETE', `/api${PEOPLE_API.guardian(replaced.id, replaced.suplente)}`)).status).toBe(200);
    const added = await sendJson(admin, 'POST', `/api${PEOPLE_API.guardians(replaced.id)}`, {
      nombres: 'Rosa',
      apellido_paterno: 'Mella',
      rol_adulto_id: 2,
      relationship: 'Tía',
      fono_celular: '+56 9 6543 2109',
    });
    expect(added.status).toBe(201);
    const rosa = (
      await one<{ id: number }>(sql`select guardian_id as id from student_guardians where student_id = ${replaced.id} and role = 2`)
    ).id;

    const previewed = await preview(file);
    const keys = [`student:${unlinked.id}:suplente`, `student:${replaced.id}:suplente`];
    const people = await changedPeople(previewed.id);
    expect(people.find((p) => p.id === unlinked.id)?.changes).toEqual([
      { field: 'suplente', from: null, to: expect.any(String), manual: true },
    ]);
    expect(people.find((p) => p.id === replaced.id)?.changes).toEqual([
      { field: 'suplente', from: 'Rosa Mella (Tía)', to: expect.any(String), manual: true },
    ]);
    expect(await apply(previewed.id, { [`guardian:${ids.guardian}:fono_celular`]: 'keep' })).toEqual({
      kind: 'conflicts',
      missing: keys,
    });
    expect(
      await apply(previewed.id, { [`guardian:${ids.guardian}:fono_celular`]: 'keep', [keys[0]!]: 'keep', [keys[1]!]: 'keep' }),
    ).toEqual({ kind: 'done' });
    const suplentes = rowsOf<{ student_id: number; guardian_id: number }>(
      await server.db.execute(sql`
        select student_id, guardian_id from student_guardians where role = 2 and student_id in (${unlinked.id}, ${replaced.id})`),
    );
    expect(suplentes).toEqual([{ student_id: replaced.id, guardian_id: rosa }]);
  });
});

describe('a number the file changes', () => {
  it('drops the push subscriptions of that guardian only: the phone that signed in with the old number is no longer theirs', async () => {
    const now = await rowsOfSchool(server.db, scope.institutionId);
    const withPhone = now.filter((r) => r.guardian?.document && r.guardian.phone);
    const guardianIdOf = async (row: RosterRow) =>
      (
        await one<{ id: number }>(
          sql`select id from guardians where dni = ${row.guardian!.document!.value} and institution_id = ${scope.institutionId}`,
        )
      ).id;
    const changedRow = withPhone[withPhone.length - 1]!;
    const keptRow = withPhone.find((r) => r.guardian!.document!.value !== changedRow.guardian!.document!.value)!;
    const changed = await guardianIdOf(changedRow);
    const kept = await guardianIdOf(keptRow);
    for (const [guardian, n] of [
      [changed, 1],
      [kept, 2],
    ] as const) {
      await server.db.execute(sql`insert into push_subscriptions (institution_id, guardian_id, endpoint, p256dh, auth)
        values (${scope.institutionId}, ${guardian}, ${`https://push.example.com/send/roster-${n}`}, 'k', 'a')`);
    }
    const edited = now.map((r) =>
      r.guardian?.document?.value === changedRow.guardian!.document!.value
        ? { ...r, guardian: { ...r.guardian!, phone: '+56955554444' } }
        : r,
    );
    const previewed = await preview(edited);
    await apply(previewed.id);
    expect((await one<{ phone: string }>(sql`select phone from guardians where id = ${changed}`)).phone).toBe('+56955554444');
    const left = rowsOf<{ guardian_id: number }>(
      await server.db.execute(sql`select guardian_id from push_subscriptions where guardian_id in (${changed}, ${kept})`),
    );
    expect(left.map((r) => Number(r.guardian_id))).toEqual([kept]);
  });
});
