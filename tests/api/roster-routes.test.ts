// The roster import's routes (shared/roster-contract.ts ROSTER_API) against the real server: who may call
// them, files refused with a Spanish reason, a CSV read into a preview with its refused lines downloadable,
// a header not recognised asked for once and remembered, applying (once, and not over a roster changed
// since), the imports newest first, another school's import as a 404, and compose seeing a new course at once.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecipientGroups } from '../../shared/compose-contract';
import type { ApiError } from '../../shared/contract';
import { curpCheckDigit, rutCheckDigit } from '../../shared/person-rules';
import type { RosterImport, RosterReadAnswer } from '../../shared/roster-contract';
import { ROSTER_API, ROSTER_FILE_MAX_BYTES } from '../../shared/roster-contract';
import type { NumberedPage } from '../../shared/recipient-lists-contract';
import { rowsOf } from '../../server/db/sql';
import { sendJson, userIdOf } from './support/staff';
import { signedIn, startServer, type Client, type TestServer } from './support/server';

const ADMIN = 'administrador@sanandres.cl';
const TEACHER = 'docente@sanandres.cl';
const ELQUI_ADMIN = 'administrador@liceoelqui.cl';
const FORBIDDEN = {
  code: 'auth.forbidden',
  message: 'Solo la administración de la institución puede importar la nómina de estudiantes y apoderados.',
};
const NOT_FOUND = { code: 'not_found', message: 'El recurso solicitado no existe.' };

let server: TestServer;
const as = signedIn(() => server);

const run = (body: number) => `${body}-${rutCheckDigit(body)}`;
const HEADER = 'RUN;Nombres;Apellido paterno;Apellido materno;Curso;Nombre apoderado;RUT apoderado;Relación;Celular;Correo';
const line = (n: number, course = '1° Básico Z') =>
  `${run(31_000_000 + n)};Alumno ${n};Pérez;Soto;${course};Madre ${n} Soto Lagos;${run(15_000_000 + n)};Madre;9 8765 43${String(n).padStart(2, '0')};madre${n}@correo.cl`;
const csv = (...lines: string[]) => `${[HEADER, ...lines].join('\n')}\n`;

/** `POST /api/roster/imports` with the file (and the mapping or school year when given). */
async function upload(client: Client, file: string | Uint8Array, name = 'nomina.csv', fields: Record<string, string> = {}) {
  const form = new FormData();
  form.set('file', new Blob([typeof file === 'string' ? file : new Uint8Array(file)]), name);
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  return client.fetch(`/api${ROSTER_API.imports}`, { method: 'POST', body: form });
}
async function previewOf(client: Client, file: string, fields: Record<string, string> = {}): Promise<RosterImport> {
  const res = await upload(client, file, 'nomina.csv', fields);
  expect(res.status, await res.clone().text()).toBe(200);
  const body = (await res.json()) as RosterReadAnswer;
  if (body.status !== 'preview') throw new Error(`sin vista previa: ${JSON.stringify(body)}`);
  return body.import;
}
const apply = (client: Client, id: number, body: unknown = {}) => sendJson(client, 'POST', `/api${ROSTER_API.apply(id)}`, body);
async function fileErrors(res: Response): Promise<string[] | undefined> {
  expect(res.status).toBe(422);
  return ((await res.json()) as ApiError).errors?.file;
}

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.close());

describe('who may import', () => {
  it('answers 401 without a session and 403 to a teacher, before reading any file', async () => {
    const anonymous = server.client();
    const res = await anonymous.get(`/api${ROSTER_API.imports}`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'auth.unauthenticated' });
    const teacher = await as(TEACHER);
    for (const res of [await teacher.get(`/api${ROSTER_API.imports}`), await upload(teacher, csv(line(1)))]) {
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual(FORBIDDEN);
    }
  });
});

describe('files refused', () => {
  it('says in Spanish why: none, empty, an old Excel, over the maximum', async () => {
    const admin = await as(ADMIN);
    const none = await admin.fetch(`/api${ROSTER_API.imports}`, { method: 'POST', body: new FormData() });
    expect(await fileErrors(none)).toEqual(['Adjunta el archivo de la nómina (CSV o Excel .xlsx) en el campo file.']);
    expect(await fileErrors(await upload(admin, ''))).toEqual(['El archivo está vacío.']);
    const xls = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]);
    expect((await fileErrors(await upload(admin, xls, 'nomina.xls')))?.[0]).toMatch(/archivo de Excel antiguo \(\.xls\)/);
    // Past the maximum the upload is cut while it is read; just over it, the reader refuses it.
    const big = new Uint8Array(ROSTER_FILE_MAX_BYTES + 1).fill(0x41);
    expect((await fileErrors(await upload(admin, big)))?.[0]).toMatch(/^El archivo pesa más de 10 MB/);
    const huge = new Uint8Array(ROSTER_FILE_MAX_BYTES + 200_000).fill(0x41);
    const cut = await upload(admin, huge);
    // The rest of the body was never read, so the connection cannot carry another request.
    expect(cut.headers.get('Connection')).toBe('close');
    expect((await fileErrors(cut))?.[0]).toMatch(/^El archivo pesa más de 10 MB/);
    const list = (await (await admin.get(`/api${ROSTER_API.imports}`)).json()) as NumberedPage<RosterImport>;
    expect(list.meta.total).toBe(0);
  });
});

describe('an import from upload to apply', () => {
  it('previews, lists its refused lines as a safe CSV, applies once, and compose sees the new course', async () => {
    const admin = await as(ADMIN);
    const bad = `${run(31_000_099).slice(0, -1)}${run(31_000_099).endsWith('1') ? '2' : '1'};Alumno malo;Pérez;Soto;1° Básico Z;;;;;`;
    const preview = await previewOf(admin, csv(line(1), line(2), bad));
    expect(preview.state).toBe('previewed');
    expect(preview.counts.rows).toEqual({ read: 3, valid: 2, refused: 1 });
    expect(preview.counts.students.new).toBe(2);
    expect(preview.counts.students.withdrawn).toBeGreaterThan(100);
    expect(preview.counts.courses).toEqual({ new: 1, unchanged: 0 });
    expect(preview.file_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(preview.created_by).not.toBe('');

    const problems = await admin.get(`/api${ROSTER_API.problems(preview.id)}`);
    expect(problems.status).toBe(200);
    expect(problems.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    const bytes = new Uint8Array(await problems.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes.slice(3));
    const [head, first] = text.split('\r\n');
    expect(head).toBe('Línea;Columna;Problema');
    expect(first).toMatch(/^4;RUN;/);

    const people = (await (await admin.get(`/api${ROSTER_API.people(preview.id)}?change=new&kind=student`)).json()) as NumberedPage<{
      name: string;
      course: string;
    }>;
    expect(people.data.map((p) => [p.name, p.course])).toEqual([
      ['Alumno 1 Pérez Soto', '1° Básico Z'],
      ['Alumno 2 Pérez Soto', '1° Básico Z'],
    ]);

    const applied = await apply(admin, preview.id);
    expect(applied.status, await applied.clone().text()).toBe(200);
    expect(((await applied.json()) as { data: RosterImport }).data).toMatchObject({ id: preview.id, state: 'applied' });
    const again = await apply(admin, preview.id);
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: 'roster.state' });

    const teacher = await as(TEACHER);
    const groups = (await (await teacher.get('/api/recipients/courses')).json()) as { data: RecipientGroups };
    expect(groups.data.courses.map((c) => c.nombre)).toContain('1° Básico Z');

    // The same file again: nothing new, nothing changed, nobody left.
    const second = await previewOf(admin, csv(line(1), line(2), bad));
    expect(second.counts.students).toEqual({ new: 0, changed: 0, unchanged: 2, withdrawn: 0 });
    expect(second.counts.guardians).toEqual({ new: 0, changed: 0, unchanged: 2 });
    expect(second.file_hash).toBe(preview.file_hash);
    const list = (await (await admin.get(`/api${ROSTER_API.imports}`)).json()) as NumberedPage<RosterImport>;
    expect(list.data.map((i) => [i.id, i.state])).toEqual([
      [second.id, 'previewed'],
      [preview.id, 'applied'],
    ]);
    const discarded = await sendJson(admin, 'DELETE', `/api${ROSTER_API.import(second.id)}`);
    expect(((await discarded.json()) as { data: RosterImport }).data.state).toBe('discarded');
    expect((await apply(admin, second.id)).status).toBe(409);
  });

  it('refuses a preview of a roster changed since with roster.stale', async () => {
    const admin = await as(ADMIN);
    const older = await previewOf(admin, csv(line(1), line(2), line(3)));
    const newer = await previewOf(admin, csv(line(1), line(2), line(4)));
    expect((await apply(admin, newer.id)).status).toBe(200);
    const res = await apply(admin, older.id);
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({
      code: 'roster.stale',
      message:
        'La nómina del colegio cambió después de esta vista previa (otra importación o una edición): sube el archivo de nuevo para ver los cambios al día.',
    });
  });

  it('tells a Mexican school its own words when its preview went stale', async () => {
    const admin = await as('administrador@benitojuarez.edu.mx');
    const curp = (n: number) => {
      const first17 = `GOMA0${n}0101HDFRRN0`;
      return `${first17}${curpCheckDigit(first17)}`;
    };
    const mx = (...ns: number[]) =>
      `CURP;Nombres;Apellido paterno;Grado;Grupo\n${ns.map((n) => `${curp(n)};Ana ${n};Gómez;1;Z`).join('\n')}\n`;
    const older = await previewOf(admin, mx(1, 2));
    const newer = await previewOf(admin, mx(1, 3));
    expect((await apply(admin, newer.id)).status).toBe(200);
    const res = await apply(admin, older.id);
    expect(res.status).toBe(409);
    expect(((await res.json()) as ApiError).message).toBe(
      'La inscripción de la escuela cambió después de esta vista previa (otra importación o una edición): sube el archivo de nuevo para ver los cambios al día.',
    );
  });

  it('asks for a header it does not know, once: the mapping given is used for the next file with those headers', async () => {
    const admin = await as(ADMIN);
    const file = `${HEADER};Apodo\n${line(1)};Ale\n`;
    const asked = await upload(admin, file);
    const answer = (await asked.json()) as RosterReadAnswer;
    if (answer.status !== 'mapping') throw new Error(`sin asignación: ${JSON.stringify(answer)}`);
    expect(answer.headers.at(-1)).toBe('Apodo');
    expect(answer.suggested.at(-1)).toBe('ignore');
    const mapped = await previewOf(admin, file, { mapping: JSON.stringify(answer.suggested) });
    expect(mapped.counts.rows.valid).toBe(1);
    const remembered = await previewOf(admin, `${HEADER};Apodo\n${line(2)};Pepe\n`);
    expect(remembered.counts.rows.valid).toBe(1);
    const badMapping = await upload(admin, file, 'nomina.csv', { mapping: '["nada"]' });
    expect(badMapping.status).toBe(422);
  });
});

describe("another school's import", () => {
  it('is not found, whatever is asked of it', async () => {
    const admin = await as(ADMIN);
    const mine = await previewOf(admin, csv(line(1)));
    const other = await as(ELQUI_ADMIN);
    for (const res of [
      await other.get(`/api${ROSTER_API.import(mine.id)}`),
      await other.get(`/api${ROSTER_API.people(mine.id)}`),
      await other.get(`/api${ROSTER_API.problems(mine.id)}`),
      await apply(other, mine.id),
      await sendJson(other, 'DELETE', `/api${ROSTER_API.import(mine.id)}`),
    ]) {
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual(NOT_FOUND);
    }
    const list = (await (await other.get(`/api${ROSTER_API.imports}`)).json()) as NumberedPage<RosterImport>;
    expect(list.data.map((i) => i.id)).not.toContain(mine.id);
    expect((await admin.get(`/api${ROSTER_API.import(mine.id)}`)).status).toBe(200);
  });
});

describe('the templates', () => {
  it("are the reader's documented columns for the school's country or the one asked for, as CSV and workbook", async () => {
    const admin = await as(ADMIN);
    const cl = await admin.get(`/api${ROSTER_API.template('csv')}`);
    expect(cl.status).toBe(200);
    expect(cl.headers.get('Content-Disposition')).toBe('attachment; filename="plantilla-nomina-cl.csv"');
    const text = new TextDecoder().decode((await cl.arrayBuffer()).slice(3));
    expect(text.split('\r\n')[0]).toContain('RUN');
    const mx = await admin.get(`/api${ROSTER_API.template('xlsx')}?country=MX`);
    expect(mx.headers.get('Content-Disposition')).toBe('attachment; filename="plantilla-nomina-mx.xlsx"');
    expect([...new Uint8Array(await mx.arrayBuffer()).slice(0, 2)]).toEqual([0x50, 0x4b]);
    expect((await admin.get(`/api${ROSTER_API.template('csv')}?country=AR`)).status).toBe(422);
    expect((await (await as(TEACHER)).get(`/api${ROSTER_API.template('csv')}`)).status).toBe(403);
  });
});

describe('applying over corrections made by hand', () => {
  it("answers 422 until each conflict has a choice, then applies the choice; a school year before the roster's is refused", async () => {
    const admin = await as(ADMIN);
    expect((await apply(admin, (await previewOf(admin, csv(line(7)))).id)).status).toBe(200);
    const [guardian] = rowsOf<{ id: number; institution_id: number }>(
      await server.db.execute(sql`select id, institution_id from guardians where dni = ${run(15_000_007)}`),
    );
    // As the member editor records a correction.
    await server.db.execute(sql`update guardians set phone = '+56990000007' where id = ${guardian!.id}`);
    await server.db.execute(sql`
      insert into contact_changes (institution_id, person_kind, person_id, field, old_value, new_value, changed_by)
      values (${guardian!.institution_id}, 'apoderado', ${guardian!.id}, 'fono_celular', '+56987654307', '+56990000007', ${await userIdOf(server.db, ADMIN)})`);
    const preview = await previewOf(admin, csv(line(7)));
    expect(preview.counts.conflicts).toBe(1);
    const refused = await apply(admin, preview.id);
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as ApiError).errors).toEqual({
      conflicts: ['Falta elegir qué dato conservar en 1 conflicto con una corrección hecha a mano.'],
    });
    const badChoice = await apply(admin, preview.id, { conflicts: { [`guardian:${guardian!.id}:fono_celular`]: 'ambos' } });
    expect(badChoice.status).toBe(422);
    const chosen = await apply(admin, preview.id, { conflicts: { [`guardian:${guardian!.id}:fono_celular`]: 'file' } });
    expect(chosen.status, await chosen.clone().text()).toBe(200);
    const [after] = rowsOf<{ phone: string }>(await server.db.execute(sql`select phone from guardians where id = ${guardian!.id}`));
    expect(after!.phone).toBe('+56987654307');

    const past = await upload(admin, csv(line(7)), 'nomina.csv', { school_year: String(preview.school_year - 1) });
    expect(past.status).toBe(422);
    expect(((await past.json()) as ApiError).errors?.school_year?.[0]).toMatch(/^El año escolar no puede ser anterior a/);
    const typo = await upload(admin, csv(line(7)), 'nomina.csv', { school_year: '20277' });
    expect(((await typo.json()) as ApiError).errors?.school_year).toEqual(['El año escolar debe ser un número entre 2000 y 2100.']);
  });
});

describe('the people with a conflict', () => {
  it('are a page of their own (change=conflicts): a corrected guardian, not the students whose course changed', async () => {
    const admin = await as(ADMIN);
    expect((await apply(admin, (await previewOf(admin, csv(line(60), line(61), line(62)))).id)).status).toBe(200);
    const [guardian] = rowsOf<{ id: number; institution_id: number }>(
      await server.db.execute(sql`select id, institution_id from guardians where dni = ${run(15_000_061)}`),
    );
    await server.db.execute(sql`update guardians set phone = '+56990000061' where id = ${guardian!.id}`);
    await server.db.execute(sql`
      insert into contact_changes (institution_id, person_kind, person_id, field, old_value, new_value, changed_by)
      values (${guardian!.institution_id}, 'apoderado', ${guardian!.id}, 'fono_celular', '+56987654361', '+56990000061', ${await userIdOf(server.db, ADMIN)})`);
    // Two students move course (changed, no conflict); the corrected phone comes back from the file.
    const preview = await previewOf(admin, csv(line(60, '2° Básico Z'), line(61), line(62, '2° Básico Z')));
    expect(preview.counts.conflicts).toBe(1);
    const changed = (await (await admin.get(`/api${ROSTER_API.people(preview.id)}?change=changed`)).json()) as NumberedPage<{
      name: string;
    }>;
    expect(changed.meta.total).toBe(3);
    const res = await admin.get(`/api${ROSTER_API.people(preview.id)}?change=conflicts&per_page=1`);
    expect(res.status).toBe(200);
    const page = (await res.json()) as NumberedPage<{
      kind: string;
      id: number;
      change: string;
      changes: { field: string; manual: boolean }[];
    }>;
    expect(page.meta).toEqual({ current_page: 1, last_page: 1, per_page: 1, total: 1 });
    expect(page.data.map((p) => [p.kind, p.id, p.change])).toEqual([['guardian', guardian!.id, 'changed']]);
    expect(page.data[0]!.changes).toEqual([{ field: 'fono_celular', from: '+56990000061', to: '+56987654361', manual: true }]);
    expect(page.links).toEqual({ next: null, prev: null });
    const students = (await (
      await admin.get(`/api${ROSTER_API.people(preview.id)}?change=conflicts&kind=student`)
    ).json()) as NumberedPage<unknown>;
    expect(students.meta.total).toBe(0);
    const bad = await admin.get(`/api${ROSTER_API.people(preview.id)}?change=conflicto`);
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as ApiError).errors).toEqual({
      change: ['El cambio debe ser nuevo, modificado, sin cambios, retirado o conflictos.'],
    });
    expect((await sendJson(admin, 'DELETE', `/api${ROSTER_API.import(preview.id)}`)).status).toBe(200);
  });
});

describe('a line with both guardians side by side', () => {
  it('gives one student with a titular and a suplente, each guardian from that one line', async () => {
    const admin = await as(ADMIN);
    const file = [
      'RUN;Nombres;Apellido paterno;Apellido materno;Curso;Nombre titular;Celular titular;Nombre suplente;Celular suplente',
      `${run(31_000_050)};Tomás;Vera;Mora;1° Básico Z;Julia Mora Paz;9 8765 4350;Pedro Vera Gil;9 8765 4351`,
    ].join('\n');
    const preview = await previewOf(admin, file);
    expect(preview.counts.rows).toEqual({ read: 1, valid: 1, refused: 0 });
    const people = (await (await admin.get(`/api${ROSTER_API.people(preview.id)}?change=new`)).json()) as NumberedPage<{
      kind: string;
      name: string;
      lines: number[];
    }>;
    expect(people.data.map((p) => [p.kind, p.name, p.lines])).toEqual([
      ['student', 'Tomás Vera Mora', [2]],
      ['guardian', 'Julia Mora Paz', [2]],
      ['guardian', 'Pedro Vera Gil', [2]],
    ]);
    expect((await apply(admin, preview.id)).status).toBe(200);
    const links = rowsOf<{ role: number; phone: string }>(
      await server.db.execute(sql`
        select sg.role, g.phone from student_guardians sg join guardians g on g.id = sg.guardian_id
        join students s on s.id = sg.student_id where s.dni = ${run(31_000_050)} order by sg.role`),
    );
    expect(links).toEqual([
      { role: 1, phone: '+56987654350' },
      { role: 2, phone: '+56987654351' },
    ]);
  });
});
