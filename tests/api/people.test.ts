// The school's people API (shared/people-contract.ts) against the real server: who may call it (the
// leadership; a teacher's 403, another school's person a 404 on every route), the list and its search
// (a name without accents, a RUT without dots, a phone's digits, an e-mail), correcting a record through the
// one editor the list member editor uses too (each changed field recorded once), giving a student a guardian
// (a new one, or the school's guardian with that RUT, untouched) and taking one away, and withdrawal and
// re-enrolment by hand with their 409s, which compose and the lists then treat as the roster import's.
import { sql } from 'drizzle-orm';
import { is } from 'superstruct';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecipientPick } from '../../shared/compose-contract';
import type { ApiError } from '../../shared/contract';
import { PEOPLE_API, type PeoplePage, type PeopleQuery, type PersonRecord } from '../../shared/people-contract';
import { PeoplePageStruct, PersonRecordDataStruct } from '../../shared/people-structs';
import { PERSON_ERRORS, PERSON_ERRORS_MX } from '../../shared/person-rules';
import type { RecipientListMember, RecipientListSummary } from '../../shared/recipient-lists-contract';
import type { Recipients } from '../../shared/compose-contract';
import { rowsOf } from '../../server/db/sql';
import { composeInput } from '../fixtures/compose';
import { signedIn, startServer, type Client, type TestServer } from './support/server';
import { sendJson } from './support/staff';

let server: TestServer;
const as = signedIn(() => server);
const ADMIN = 'administrador@sanandres.cl';
const TEACHER = 'docente@sanandres.cl';
const ELQUI_ADMIN = 'administrador@liceoelqui.cl';
const JUAREZ_ADMIN = 'administrador@benitojuarez.edu.mx';
const JUAREZ_TEACHER = 'docente@benitojuarez.edu.mx';

const api = (path: string) => `/api${path}`;

async function one<T>(query: ReturnType<typeof sql>): Promise<T> {
  const [row] = rowsOf<T>(await server.db.execute(query));
  if (!row) throw new Error('sin fila');
  return row;
}
const all = async <T>(query: ReturnType<typeof sql>): Promise<T[]> => rowsOf<T>(await server.db.execute(query));

async function ok<T>(res: Response, status = 200): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return JSON.parse(text) as T;
}
async function errorsOf(res: Response, status = 422): Promise<Record<string, string[]>> {
  const body = await ok<ApiError>(res, status);
  expect(body.code).toBe('validation.failed');
  return body.errors ?? {};
}

async function page(client: Client, query: PeopleQuery = {}): Promise<PeoplePage> {
  const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  const body = await ok<unknown>(await client.get(api(`${PEOPLE_API.people}?${search}`)));
  expect(is(body, PeoplePageStruct)).toBe(true);
  return body as PeoplePage;
}
async function record(client: Client, kind: 'estudiante' | 'apoderado', id: number, res?: Response, status = 200): Promise<PersonRecord> {
  const body = await ok<unknown>(res ?? (await client.get(api(PEOPLE_API.person(kind, id)))), status);
  expect(is(body, PersonRecordDataStruct)).toBe(true);
  return (body as { data: PersonRecord }).data;
}

const schools = { sanAndres: 0, juarez: 0 };
/** A San Andrés student with a titular and a suplente (who have no other child), and one of another school. */
const family = { student: 0, titular: 0, suplente: 0, course: 0, elquiStudent: 0, elquiGuardian: 0 };

beforeAll(async () => {
  server = await startServer();
  schools.sanAndres = (await one<{ id: number }>(sql`select id from institutions where name = 'Colegio San Andrés de Ñuñoa'`)).id;
  schools.juarez = (await one<{ id: number }>(sql`select institution_id as id from users where email = ${JUAREZ_ADMIN}`)).id;
  Object.assign(
    family,
    await one<typeof family>(sql`
      select s.id as student, s.course_id as course,
        (select guardian_id from student_guardians where student_id = s.id and role = 1) as titular,
        (select guardian_id from student_guardians where student_id = s.id and role = 2) as suplente
      from students s
      where s.institution_id = ${schools.sanAndres} and s.withdrawn_at is null and s.dni is not null
        and (select count(*) from student_guardians sg where sg.student_id = s.id) = 2
        and not exists (select 1 from student_guardians sg join student_guardians other on other.guardian_id = sg.guardian_id
          and other.student_id <> sg.student_id where sg.student_id = s.id)
      order by s.id limit 1`),
  );
  const elqui = await one<{ student: number; guardian: number }>(sql`
    select s.id as student, sg.guardian_id as guardian from students s join student_guardians sg on sg.student_id = s.id
    join users u on u.institution_id = s.institution_id and u.email = ${ELQUI_ADMIN} order by s.id limit 1`);
  family.elquiStudent = elqui.student;
  family.elquiGuardian = elqui.guardian;
});
afterAll(async () => {
  await server?.close();
});

describe('who may call what', () => {
  /** Every route of the contract for the student and guardian given. */
  const routes = (student: number, guardian: number): [string, string, unknown?][] => [
    ['GET', PEOPLE_API.people],
    ['GET', PEOPLE_API.person('estudiante', student)],
    ['GET', PEOPLE_API.person('apoderado', guardian)],
    ['PATCH', PEOPLE_API.person('estudiante', student), { nombres: 'Otro' }],
    ['PATCH', PEOPLE_API.person('apoderado', guardian), { nombres: 'Otro' }],
    [
      'POST',
      PEOPLE_API.guardians(student),
      { nombres: 'Ana', apellido_paterno: 'Soto', rol_adulto_id: 2, relationship: 'Tía', fono_celular: '+56 9 8765 4321' },
    ],
    ['DELETE', PEOPLE_API.guardian(student, guardian)],
    ['POST', PEOPLE_API.withdrawal(student)],
    ['DELETE', PEOPLE_API.withdrawal(student)],
  ];

  it('needs a session, and refuses a teacher with 403 in the school’s words', async () => {
    const anonymous = server.client();
    await anonymous.get('/api/csrf-cookie');
    for (const [method, path, body] of routes(family.student, family.titular)) {
      expect((await sendJson(anonymous, method, api(path), body)).status, `${method} ${path}`).toBe(401);
    }
    const teacher = await as(TEACHER);
    for (const [method, path, body] of routes(family.student, family.titular)) {
      const refused = await ok<ApiError>(await sendJson(teacher, method, api(path), body), 403);
      expect(refused, `${method} ${path}`).toEqual({
        code: 'auth.forbidden',
        message: 'Solo la dirección o la administración del colegio puede cambiar los datos de estudiantes y apoderados.',
      });
    }
    const mexican = await ok<ApiError>(await (await as(JUAREZ_TEACHER)).get(api(PEOPLE_API.people)), 403);
    expect(mexican.message).toBe(
      'Solo la dirección o la administración de la escuela puede cambiar los datos de alumnos y padres o tutores.',
    );
    const unchanged = await one<{ withdrawn: boolean; n: number }>(sql`
      select (select withdrawn_at is not null from students where id = ${family.student}) as withdrawn,
        (select count(*)::int from student_guardians where student_id = ${family.student}) as n`);
    expect(unchanged).toEqual({ withdrawn: false, n: 2 });
  });

  it('answers 404 for another school’s person on every route, for made-up ids and for a guardian not of that student', async () => {
    const admin = await as(ADMIN);
    for (const [method, path, body] of routes(family.elquiStudent, family.elquiGuardian).slice(1)) {
      expect((await sendJson(admin, method, api(path), body)).status, `${method} ${path}`).toBe(404);
    }
    for (const path of ['/people/estudiante/0', '/people/estudiante/abc', '/people/funcionario/1', '/people/estudiante/99999999']) {
      expect((await admin.get(api(path))).status, path).toBe(404);
    }
    // A guardian of the school, but not this student's: no link to take away.
    const stranger = await one<{ id: number }>(sql`
      select g.id from guardians g where g.institution_id = ${schools.sanAndres}
        and not exists (select 1 from student_guardians sg where sg.guardian_id = g.id and sg.student_id = ${family.student})
      order by g.id limit 1`);
    expect((await sendJson(admin, 'DELETE', api(PEOPLE_API.guardian(family.student, stranger.id)))).status).toBe(404);
    // Nothing of the other school changed.
    const elqui = await one<{ n: number; withdrawn: boolean }>(sql`
      select (select count(*)::int from student_guardians where student_id = ${family.elquiStudent}) as n,
        (select withdrawn_at is not null from students where id = ${family.elquiStudent}) as withdrawn`);
    expect(elqui.withdrawn).toBe(false);
    expect(elqui.n).toBeGreaterThan(0);
  });
});

describe('the list and its search', () => {
  it('pages students first, then guardians, by name; enrolled students by default', async () => {
    const admin = await as(ADMIN);
    const counts = await one<{ enrolled: number; guardians: number }>(sql`
      select (select count(*)::int from students where institution_id = ${schools.sanAndres} and withdrawn_at is null) as enrolled,
        (select count(*)::int from guardians where institution_id = ${schools.sanAndres}) as guardians`);
    const first = await page(admin, { per_page: 10 });
    expect(first.meta).toEqual({
      current_page: 1,
      last_page: Math.ceil((counts.enrolled + counts.guardians) / 10),
      per_page: 10,
      total: counts.enrolled + counts.guardians,
    });
    expect(first.data.every((p) => p.kind === 'estudiante' && p.withdrawn_at === null && p.course !== null)).toBe(true);
    expect(first.links.next).toBe('/api/people?page=2&per_page=10&status=enrolled');
    const guardians = await page(admin, { kind: 'apoderado', per_page: 100 });
    expect(guardians.meta.total).toBe(counts.guardians);
    expect(guardians.data.every((p) => p.kind === 'apoderado')).toBe(true);
    const names = guardians.data.map((p) => p.name);
    const collator = new Intl.Collator('es', { sensitivity: 'base' });
    expect([...names].sort(collator.compare)).toEqual(names);
  });

  it('finds a student by the name without accents or case, and by the RUT with or without dots and dash', async () => {
    const admin = await as(ADMIN);
    const accented = await one<{ id: number; first_names: string; last_name_father: string; dni: string }>(sql`
      select id, first_names, last_name_father, dni from students
      where institution_id = ${schools.sanAndres} and withdrawn_at is null and dni is not null
        and last_name_father ~ '[ÁÉÍÓÚáéíóúÑñ]' order by id limit 1`);
    const plain = `${accented.first_names} ${accented.last_name_father}`
      .normalize('NFD')
      .replace(/\p{Diacritic}/gu, '')
      .toUpperCase();
    const byName = await page(admin, { q: plain, kind: 'estudiante' });
    expect(byName.data.map((p) => p.id)).toContain(accented.id);

    // 12345678-5 is typed 12.345.678-5, 123456785 or 12345678-5.
    const [body, dv] = accented.dni.split('-') as [string, string];
    const dotted = `${Number(body).toLocaleString('es-CL')}-${dv}`;
    for (const q of [dotted, `${body}${dv}`, accented.dni]) {
      const found = await page(admin, { q });
      expect(
        found.data.map((p) => p.id),
        q,
      ).toEqual([accented.id]);
      expect(found.data[0]).toMatchObject({ kind: 'estudiante', dni: accented.dni, tipo_documento_id: 1 });
    }
  });

  it('finds a guardian by the digits of the phone as typed, and by the e-mail; a guardian lists the courses of their children', async () => {
    const admin = await as(ADMIN);
    const guardian = await one<{ id: number; phone: string; email: string; course: string }>(sql`
      select g.id, g.phone, g.email, c.name as course from guardians g join student_guardians sg on sg.guardian_id = g.id
      join students s on s.id = sg.student_id and s.withdrawn_at is null join courses c on c.id = s.course_id
      where g.institution_id = ${schools.sanAndres} and g.phone like '+569%' and g.email is not null
        and (select count(*) from student_guardians x where x.guardian_id = g.id) = 1
        and (select count(*) from guardians o where o.phone = g.phone) = 1
      order by g.id limit 1`);
    // "+56 9 1234 5678" typed as "9 1234 5678".
    const national = guardian.phone.slice(3);
    const typed = `${national.slice(0, 1)} ${national.slice(1, 5)} ${national.slice(5)}`;
    const byPhone = await page(admin, { q: typed });
    expect(byPhone.data).toEqual([
      expect.objectContaining({ kind: 'apoderado', id: guardian.id, fono_celular: guardian.phone, course: guardian.course }),
    ]);
    const byEmail = await page(admin, { q: guardian.email.toUpperCase() });
    expect(byEmail.data.map((p) => p.id)).toContain(guardian.id);
  });

  it('filters by course (its students and their guardians) and by standing; refuses another school’s course and bad values', async () => {
    const admin = await as(ADMIN);
    const course = await page(admin, { course_id: family.course, per_page: 100 });
    const expected = await one<{ students: number; guardians: number }>(sql`
      select (select count(*)::int from students where course_id = ${family.course} and withdrawn_at is null) as students,
        (select count(distinct sg.guardian_id)::int from student_guardians sg join students s on s.id = sg.student_id
          where s.course_id = ${family.course} and s.withdrawn_at is null) as guardians`);
    expect(course.data.filter((p) => p.kind === 'estudiante')).toHaveLength(expected.students);
    expect(course.data.filter((p) => p.kind === 'apoderado')).toHaveLength(expected.guardians);
    const withdrawn = await page(admin, { status: 'withdrawn', kind: 'estudiante', per_page: 100 });
    const seededWithdrawn = await one<{ n: number }>(
      sql`select count(*)::int as n from students where institution_id = ${schools.sanAndres} and withdrawn_at is not null`,
    );
    expect(withdrawn.meta.total).toBe(seededWithdrawn.n);
    expect(withdrawn.data.every((p) => p.withdrawn_at !== null)).toBe(true);

    const elquiCourse = await one<{ id: number }>(sql`select course_id as id from students where id = ${family.elquiStudent}`);
    expect(await errorsOf(await admin.get(api(`/people?course_id=${elquiCourse.id}`)))).toEqual({
      course_id: ['Ese curso no existe en el colegio: elige uno de la lista.'],
    });
    expect(await errorsOf(await admin.get(api('/people?page=0&per_page=101&kind=x&status=y&course_id=abc')))).toEqual({
      page: ['La página debe ser un número entero entre 1 y 100000.'],
      per_page: ['La cantidad por página debe ser un número entero entre 1 y 100.'],
      kind: ['El tipo debe ser estudiante o apoderado.'],
      status: ['La situación debe ser matriculados, retirados o todos.'],
      course_id: ['Ese curso no existe en el colegio: elige uno de la lista.'],
    });
    expect(await errorsOf(await admin.get(api(`/people?q=${'a'.repeat(101)}`)))).toEqual({
      q: ['La búsqueda puede tener hasta 100 caracteres.'],
    });
  });
});

/** The contact_changes rows of a person, oldest first. */
const changesOf = (kind: string, id: number) =>
  all<{ field: string; old_value: string | null; new_value: string | null; changed_by: number; roster_import_id: number | null }>(sql`
    select field, old_value, new_value, changed_by, roster_import_id from contact_changes
    where person_kind = ${kind} and person_id = ${id} order by id`);

describe('correcting a record', () => {
  it('saves the fields that changed, each recorded once with who and the old and new value; the same edit again records nothing', async () => {
    const admin = await as(ADMIN);
    const adminId = (await one<{ id: number }>(sql`select id from users where email = ${ADMIN}`)).id;
    const before = await record(admin, 'apoderado', family.suplente);
    const saved = await record(
      admin,
      'apoderado',
      family.suplente,
      await sendJson(admin, 'PATCH', api(PEOPLE_API.person('apoderado', family.suplente)), {
        nombres: before.nombres,
        email: 'Nueva.Correccion@Correo.CL',
        fono_celular: '9 8765 4321',
      }),
    );
    expect(saved).toMatchObject({ email: 'nueva.correccion@correo.cl', fono_celular: '+56987654321', nombres: before.nombres });
    expect(await changesOf('apoderado', family.suplente)).toEqual([
      { field: 'email', old_value: before.email, new_value: 'nueva.correccion@correo.cl', changed_by: adminId, roster_import_id: null },
      { field: 'fono_celular', old_value: before.fono_celular, new_value: '+56987654321', changed_by: adminId, roster_import_id: null },
    ]);
    await record(
      admin,
      'apoderado',
      family.suplente,
      await sendJson(admin, 'PATCH', api(PEOPLE_API.person('apoderado', family.suplente)), { fono_celular: '+56 9 8765 4321' }),
    );
    expect(await changesOf('apoderado', family.suplente)).toHaveLength(2);
    // The student's record lists the guardian as corrected.
    const student = await record(admin, 'estudiante', family.student);
    expect(student.guardians.map((g) => [g.id, g.rol_adulto_id])).toEqual([
      [family.titular, 1],
      [family.suplente, 2],
    ]);
    expect(student.guardians[1]).toMatchObject({ fono_celular: '+56987654321', email: 'nueva.correccion@correo.cl' });
  });

  it('refuses bad values with the editor’s Spanish messages, changing nothing', async () => {
    const admin = await as(ADMIN);
    const patch = (kind: 'estudiante' | 'apoderado', id: number, body: unknown) =>
      sendJson(admin, 'PATCH', api(PEOPLE_API.person(kind, id)), body);
    expect(await errorsOf(await patch('estudiante', family.student, { fono_celular: '+56 9 1234 5678', nombres: ' ' }))).toEqual({
      fono_celular: [PERSON_ERRORS.phoneStudent],
      nombres: [PERSON_ERRORS.nombresRequired],
    });
    expect(
      await errorsOf(
        await patch('apoderado', family.titular, { fono_celular: '+56 2 2345 6789', dni: '12.345.678-9', tipo_documento_id: 1 }),
      ),
    ).toEqual({
      fono_celular: [PERSON_ERRORS.phoneNotMobile],
      dni: [PERSON_ERRORS.rutCheck],
    });
    expect(await errorsOf(await patch('apoderado', family.titular, 'nada'))).toEqual({ nombres: ['No hay cambios que guardar.'] });
    expect(await changesOf('estudiante', family.student)).toEqual([]);
    expect(await changesOf('apoderado', family.titular)).toEqual([]);
  });

  it('the list member editor corrects through the same editor: same refusals, same record of changes, seen on the people screen', async () => {
    const admin = await as(ADMIN);
    const list = (
      await ok<{ data: RecipientListSummary }>(
        await sendJson(admin, 'POST', api('/recipient-lists'), {
          name: 'Familia para corregir',
          picks: [{ kind: 'student', id: family.student, audience: 'titulares' }],
        }),
        201,
      )
    ).data;
    const members = (await ok<{ data: RecipientListMember[] }>(await admin.get(api(`/recipient-lists/${list.id}/users`)))).data;
    const member = members.find((m) => m.user_type === 'apoderado' && m.user_id === family.titular)!;
    const viaList = (body: unknown) => sendJson(admin, 'PATCH', api(`/recipient-lists/${list.id}/users/${member.id}`), body);
    const viaPeople = (body: unknown) => sendJson(admin, 'PATCH', api(PEOPLE_API.person('apoderado', family.titular)), body);
    const bad = { fono_celular: '+52 00 0000 0000', email: 'sin-arroba' };
    expect(await errorsOf(await viaList(bad))).toEqual(await errorsOf(await viaPeople(bad)));

    expect((await viaList({ apellido_materno: 'Corregido' })).status).toBe(200);
    expect((await record(admin, 'apoderado', family.titular)).apellido_materno).toBe('Corregido');
    const changes = await changesOf('apoderado', family.titular);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ field: 'apellido_materno', new_value: 'Corregido', roster_import_id: null });
  });
});

describe('a student’s guardians', () => {
  it('creates a new guardian with the phone in E.164, in a free role; the role taken is refused', async () => {
    const admin = await as(ADMIN);
    const student = await one<{ id: number }>(sql`
      select s.id from students s where s.institution_id = ${schools.sanAndres} and s.withdrawn_at is null
        and (select count(*) from student_guardians sg where sg.student_id = s.id) = 1
        and exists (select 1 from student_guardians sg where sg.student_id = s.id and sg.role = 1)
      order by s.id limit 1`);
    const add = (body: unknown) => sendJson(admin, 'POST', api(PEOPLE_API.guardians(student.id)), body);
    const nuevo = {
      nombres: 'Marta Inés',
      apellido_paterno: 'Rojas',
      apellido_materno: 'Vidal',
      relationship: 'Abuela',
      fono_celular: '9 7654 3210',
    };
    expect(await errorsOf(await add({ ...nuevo, rol_adulto_id: 1 }))).toEqual({
      rol_adulto_id: ['Este estudiante ya tiene apoderado titular: quítalo primero o elige el otro rol.'],
    });
    expect(await errorsOf(await add({ rol_adulto_id: 3, relationship: ' ', fono_celular: '+56 2 2345 6789' }))).toEqual({
      nombres: [PERSON_ERRORS.nombresRequired],
      apellido_paterno: [PERSON_ERRORS.apellidoRequired],
      fono_celular: [PERSON_ERRORS.phoneNotMobile],
      rol_adulto_id: ['Elige si es titular (1) o suplente (2).'],
      relationship: ['Indica la relación con el estudiante: madre, padre, abuela…'],
    });
    expect(await errorsOf(await add({ ...nuevo, rol_adulto_id: 2, relationship: 'x'.repeat(41) }))).toEqual({
      relationship: ['La relación puede tener hasta 40 caracteres.'],
    });
    const guardiansBefore = (await one<{ n: number }>(sql`select count(*)::int as n from guardians`)).n;
    const after = await record(admin, 'estudiante', student.id, await add({ ...nuevo, rol_adulto_id: 2 }), 201);
    expect(after.guardians).toHaveLength(2);
    expect(after.guardians[1]).toMatchObject({
      name: 'Marta Inés Rojas Vidal',
      rol_adulto_id: 2,
      relationship: 'Abuela',
      fono_celular: '+56976543210',
      email: null,
    });
    expect((await one<{ n: number }>(sql`select count(*)::int as n from guardians`)).n).toBe(guardiansBefore + 1);
    const created = await record(admin, 'apoderado', after.guardians[1]!.id);
    expect(created.students).toEqual([expect.objectContaining({ id: student.id, rol_adulto_id: 2, relationship: 'Abuela' })]);
  });

  it('links the school’s guardian with that RUT as they are, once; unlinking removes the link only', async () => {
    const admin = await as(ADMIN);
    // A sibling's guardian with a RUT: given to a student of another family, by the RUT without dots.
    const known = await one<{ id: number; dni: string; first_names: string; phone: string | null }>(sql`
      select g.id, g.dni, g.first_names, g.phone from guardians g
      where g.institution_id = ${schools.sanAndres} and g.document_type = 1 and g.id not in (${family.titular}, ${family.suplente})
      order by g.id limit 1`);
    const target = await one<{ id: number }>(sql`
      select s.id from students s where s.institution_id = ${schools.sanAndres} and s.withdrawn_at is null
        and not exists (select 1 from student_guardians sg where sg.student_id = s.id and sg.role = 2)
        and not exists (select 1 from student_guardians sg where sg.student_id = s.id and sg.guardian_id = ${known.id})
      order by s.id limit 1`);
    const body = {
      nombres: 'Otro Nombre',
      apellido_paterno: 'Distinto',
      dni: known.dni.replace('-', ''),
      tipo_documento_id: 1,
      fono_celular: '+56 9 6123 4567',
      rol_adulto_id: 2,
      relationship: 'Tío',
    };
    const guardiansBefore = (await one<{ n: number }>(sql`select count(*)::int as n from guardians`)).n;
    const linked = await record(
      admin,
      'estudiante',
      target.id,
      await sendJson(admin, 'POST', api(PEOPLE_API.guardians(target.id)), body),
      201,
    );
    expect(linked.guardians.find((g) => g.rol_adulto_id === 2)).toMatchObject({
      id: known.id,
      relationship: 'Tío',
      fono_celular: known.phone,
    });
    expect((await one<{ n: number }>(sql`select count(*)::int as n from guardians`)).n).toBe(guardiansBefore);
    expect((await record(admin, 'apoderado', known.id)).nombres).toBe(known.first_names);
    expect(await changesOf('apoderado', known.id)).toEqual([]);
    // The same person again, in any role: already this student's guardian.
    expect(await errorsOf(await sendJson(admin, 'POST', api(PEOPLE_API.guardians(target.id)), { ...body, rol_adulto_id: 1 }))).toEqual({
      dni: ['Esa persona ya es apoderado de este estudiante.'],
    });

    const unlinked = await record(
      admin,
      'estudiante',
      target.id,
      await sendJson(admin, 'DELETE', api(PEOPLE_API.guardian(target.id, known.id))),
    );
    expect(unlinked.guardians.map((g) => g.id)).not.toContain(known.id);
    const still = await record(admin, 'apoderado', known.id);
    expect(still.students.length).toBeGreaterThan(0);
    expect((await sendJson(admin, 'DELETE', api(PEOPLE_API.guardian(target.id, known.id)))).status).toBe(404);
  });
});

describe('withdrawal and re-enrolment by hand', () => {
  it('marks a student withdrawn and enrolled again, each recorded as `estado` and refused with 409 when already so', async () => {
    const admin = await as(ADMIN);
    const adminId = (await one<{ id: number }>(sql`select id from users where email = ${ADMIN}`)).id;
    const student = await one<{ id: number }>(sql`
      select s.id from students s where s.institution_id = ${schools.sanAndres} and s.withdrawn_at is null
        and s.id <> ${family.student} order by s.id desc limit 1`);
    expect((await record(admin, 'estudiante', student.id)).withdrawn_at).toBeNull();
    const out = await record(admin, 'estudiante', student.id, await sendJson(admin, 'POST', api(PEOPLE_API.withdrawal(student.id))));
    expect(out.withdrawn_at).not.toBeNull();
    expect(Math.abs(Date.parse(out.withdrawn_at!) - Date.now())).toBeLessThan(60_000);
    expect(await ok<ApiError>(await sendJson(admin, 'POST', api(PEOPLE_API.withdrawal(student.id))), 409)).toEqual({
      code: 'people.state',
      message: 'Este estudiante ya está marcado como retirado.',
    });
    const back = await record(admin, 'estudiante', student.id, await sendJson(admin, 'DELETE', api(PEOPLE_API.withdrawal(student.id))));
    expect(back.withdrawn_at).toBeNull();
    expect(await ok<ApiError>(await sendJson(admin, 'DELETE', api(PEOPLE_API.withdrawal(student.id))), 409)).toEqual({
      code: 'people.state',
      message: 'Este estudiante ya está matriculado: no hay retiro que deshacer.',
    });
    expect(await changesOf('estudiante', student.id)).toEqual([
      { field: 'estado', old_value: 'matriculado', new_value: 'retirado', changed_by: adminId, roster_import_id: null },
      { field: 'estado', old_value: 'retirado', new_value: 'matriculado', changed_by: adminId, roster_import_id: null },
    ]);
  });

  it('a student withdrawn by hand and their guardians without another enrolled child leave compose’s reach; lists flag them', async () => {
    const admin = await as(ADMIN);
    const teacher = await as(TEACHER);
    const pick = (audience: 'estudiantes' | 'apoderados'): RecipientPick => ({ kind: 'course', id: family.course, audience });
    const estimate = async (audience: 'estudiantes' | 'apoderados') =>
      (
        await ok<{ data: { recipients: number } }>(
          await teacher.post(
            '/api/messages/estimate',
            composeInput({ channels: ['e-mail'], content: 'Hola', recipients: [pick(audience)] }),
          ),
        )
      ).data.recipients;
    const list = (
      await ok<{ data: RecipientListSummary }>(
        await sendJson(admin, 'POST', api('/recipient-lists'), {
          name: 'Familia que se retira',
          picks: [
            { kind: 'student', id: family.student, audience: 'apoderados' },
            { kind: 'student', id: family.student, audience: 'estudiantes' },
          ],
        }),
        201,
      )
    ).data;
    const [students, guardians] = [await estimate('estudiantes'), await estimate('apoderados')];

    await ok(await sendJson(admin, 'POST', api(PEOPLE_API.withdrawal(family.student))));
    expect(await estimate('estudiantes')).toBe(students - 1);
    expect(await estimate('apoderados')).toBe(guardians - 2);
    const directory = (await ok<{ data: Recipients }>(await teacher.get('/api/recipients'))).data;
    const course = directory.courses.find((c) => c.id === family.course)!;
    expect(course.estudiantes.map((s) => s.id)).not.toContain(family.student);
    expect(course.apoderados.map((g) => g.id)).not.toContain(family.titular);
    expect(course.apoderados.map((g) => g.id)).not.toContain(family.suplente);
    const members = (await ok<{ data: RecipientListMember[] }>(await admin.get(api(`/recipient-lists/${list.id}/users`)))).data;
    expect(members).toHaveLength(3);
    expect(members.every((m) => m.stale === 'not_enrolled')).toBe(true);
    expect(
      (await page(admin, { status: 'withdrawn', q: (await record(admin, 'estudiante', family.student)).dni! })).data.map((p) => p.id),
    ).toEqual([family.student]);

    await ok(await sendJson(admin, 'DELETE', api(PEOPLE_API.withdrawal(family.student))));
    expect(await estimate('estudiantes')).toBe(students);
    expect(await estimate('apoderados')).toBe(guardians);
  });

  it('a guardian with another child still enrolled is still reached, for that child', async () => {
    const admin = await as(ADMIN);
    const teacher = await as(TEACHER);
    const pair = await one<{ guardian: number; leaving: number; staying: number; leaving_course: number; staying_course: number }>(sql`
      select a.guardian_id as guardian, a.student_id as leaving, b.student_id as staying, sa.course_id as leaving_course,
        sb.course_id as staying_course
      from student_guardians a join student_guardians b on b.guardian_id = a.guardian_id and b.student_id > a.student_id
      join students sa on sa.id = a.student_id and sa.withdrawn_at is null and sa.institution_id = ${schools.sanAndres}
      join students sb on sb.id = b.student_id and sb.withdrawn_at is null
      order by a.guardian_id limit 1`);
    await ok(await sendJson(admin, 'POST', api(PEOPLE_API.withdrawal(pair.leaving))));
    const directory = (await ok<{ data: Recipients }>(await teacher.get('/api/recipients'))).data;
    const listed = directory.courses.flatMap((c) => c.apoderados.filter((g) => g.id === pair.guardian).map((g) => [c.id, g.student_id]));
    // Under the staying child's course (and electives), never for the child who left.
    expect(listed).toContainEqual([pair.staying_course, pair.staying]);
    expect(listed.every(([, student]) => student === pair.staying)).toBe(true);
    const list = (
      await ok<{ data: RecipientListSummary }>(
        await sendJson(admin, 'POST', api('/recipient-lists'), {
          name: 'Cursos de la familia',
          picks: [...new Set([pair.leaving_course, pair.staying_course])].map((id) => ({ kind: 'course', id, audience: 'apoderados' })),
        }),
        201,
      )
    ).data;
    const members = (await ok<{ data: RecipientListMember[] }>(await admin.get(api(`/recipient-lists/${list.id}/users`)))).data;
    expect(members.filter((m) => m.user_type === 'apoderado' && m.user_id === pair.guardian).map((m) => m.student_id)).toEqual([
      pair.staying,
    ]);
    await ok(await sendJson(admin, 'DELETE', api(PEOPLE_API.withdrawal(pair.leaving))));
  });
});

describe('a Mexican school', () => {
  it('reads its own words: alumnos, padres o tutores, escuela, grupo', async () => {
    const admin = await as(JUAREZ_ADMIN);
    const student = await one<{ id: number }>(sql`
      select s.id from students s where s.institution_id = ${schools.juarez} and s.withdrawn_at is null
        and exists (select 1 from student_guardians sg where sg.student_id = s.id and sg.role = 1)
        and not exists (select 1 from student_guardians sg where sg.student_id = s.id and sg.role = 2)
      order by s.id limit 1`);
    expect(
      await errorsOf(
        await sendJson(admin, 'PATCH', api(PEOPLE_API.person('estudiante', student.id)), { fono_celular: '55 1234 5678', email: 'x' }),
      ),
    ).toEqual({
      fono_celular: [PERSON_ERRORS_MX.phoneStudent],
      email: [PERSON_ERRORS_MX.email],
    });
    expect(await errorsOf(await admin.get(api('/people?kind=otro&course_id=999999')))).toEqual({
      kind: ['El tipo debe ser alumno o padre o tutor.'],
      course_id: ['Ese grupo no existe en la escuela: elige uno de la lista.'],
    });
    expect(
      await errorsOf(
        await sendJson(admin, 'POST', api(PEOPLE_API.guardians(student.id)), {
          nombres: 'Lucía',
          apellido_paterno: 'Hernández',
          rol_adulto_id: 1,
          fono_celular: '55 1234 5678',
        }),
      ),
    ).toEqual({
      rol_adulto_id: ['Este alumno ya tiene padre o tutor titular: quítalo primero o elige el otro rol.'],
      relationship: ['Indica la relación con el alumno: madre, padre, abuela…'],
    });
    await ok(await sendJson(admin, 'POST', api(PEOPLE_API.withdrawal(student.id))));
    expect(await ok<ApiError>(await sendJson(admin, 'POST', api(PEOPLE_API.withdrawal(student.id))), 409)).toEqual({
      code: 'people.state',
      message: 'Este alumno ya está marcado como dado de baja.',
    });
    const suplente = await record(
      admin,
      'estudiante',
      student.id,
      await sendJson(admin, 'POST', api(PEOPLE_API.guardians(student.id)), {
        nombres: 'Lucía',
        apellido_paterno: 'Hernández',
        rol_adulto_id: 2,
        relationship: 'Tía',
        fono_celular: '55 1234 5678',
        dni: 'hegg560427mvzrrl04',
        tipo_documento_id: 2,
      }),
      201,
    );
    expect(suplente.guardians.find((g) => g.rol_adulto_id === 2)).toMatchObject({ fono_celular: '+525512345678', name: 'Lucía Hernández' });
  });
});
