// The history of roster imports as a file (`GET /roster/imports.csv`): administrators only, every import of
// their school newest first as a spreadsheet opens it (BOM, `;`, CRLF, a formula-looking name made plain),
// dates in the school's time zone, and nothing of another school's imports.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rutCheckDigit } from '../../shared/person-rules';
import { ROSTER_API, type RosterImport, type RosterReadAnswer } from '../../shared/roster-contract';
import { sendJson } from './support/staff';
import { signedIn, startServer, type Client, type TestServer } from './support/server';

const ADMIN = 'administrador@sanandres.cl';
const TEACHER = 'docente@sanandres.cl';
const ELQUI_ADMIN = 'administrador@liceoelqui.cl';
const HEADER =
  'Fecha;Aplicada;Quién;Archivo;SHA-256;Año escolar;Estado;Alumnos nuevos;Alumnos modificados;Alumnos sin cambios;' +
  'Alumnos retirados;Apoderados nuevos;Apoderados modificados;Apoderados sin cambios;Cursos nuevos;Filas leídas;Filas válidas;' +
  'Filas rechazadas';

let server: TestServer;
const as = signedIn(() => server);

const run = (body: number) => `${body}-${rutCheckDigit(body)}`;
const line = (n: number) => `${run(32_000_000 + n)};Alumno ${n};Rojas;Soto;2° Básico Y;Madre ${n} Soto Lagos;${run(16_000_000 + n)};Madre`;
const file = (...lines: string[]) =>
  `${['RUN;Nombres;Apellido paterno;Apellido materno;Curso;Nombre apoderado;RUT apoderado;Relación', ...lines].join('\n')}\n`;

async function previewOf(client: Client, text: string, name: string): Promise<RosterImport> {
  const form = new FormData();
  form.set('file', new Blob([text]), name);
  const res = await client.fetch(`/api${ROSTER_API.imports}`, { method: 'POST', body: form });
  const body = (await res.json()) as RosterReadAnswer;
  if (body.status !== 'preview') throw new Error(`sin vista previa: ${JSON.stringify(body)}`);
  return body.import;
}

/** "2026-11-29 21:05": the instant as Santiago's clock shows it (sv-SE writes dates year first). */
const santiago = (iso: string) => new Date(iso).toLocaleString('sv-SE', { timeZone: 'America/Santiago' }).slice(0, 16);

/** The file's lines, BOM checked and removed. */
async function linesOf(res: Response): Promise<string[]> {
  const bytes = new Uint8Array(await res.arrayBuffer());
  expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = new TextDecoder().decode(bytes.slice(3));
  expect(text.endsWith('\r\n')).toBe(true);
  return text.slice(0, -2).split('\r\n');
}

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.close());

describe('the history of imports as a file', () => {
  it('answers 401 without a session and 403 to a teacher', async () => {
    const anonymous = await server.client().get(`/api${ROSTER_API.history}`);
    expect(anonymous.status).toBe(401);
    const teacher = await (await as(TEACHER)).get(`/api${ROSTER_API.history}`);
    expect(teacher.status).toBe(403);
    expect(await teacher.json()).toEqual({
      code: 'auth.forbidden',
      message: 'Solo la administración de la institución puede importar la nómina de estudiantes y apoderados.',
    });
  });

  it("lists every import of the school newest first, with who, when, the file's name and hash, the state and the counts", async () => {
    const admin = await as(ADMIN);
    const applied = await previewOf(admin, file(line(1), line(2)), 'nómina marzo.csv');
    expect((await sendJson(admin, 'POST', `/api${ROSTER_API.apply(applied.id)}`, {})).status).toBe(200);
    const [done] = ((await (await admin.get(`/api${ROSTER_API.imports}`)).json()) as { data: RosterImport[] }).data;
    const pending = await previewOf(admin, file(line(1), line(3)), '=SUMA(A1).csv');

    const res = await admin.get(`/api${ROSTER_API.history}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('Content-Disposition')).toMatch(/^attachment; filename="importaciones-\d{4}-\d{2}-\d{2}\.csv"$/);
    const [head, ...rows] = await linesOf(res);
    expect(head).toBe(HEADER);
    expect(rows).toHaveLength(2);
    const c = pending.counts;
    expect(rows[0]).toBe(
      [
        santiago(pending.created_at),
        '',
        pending.created_by,
        "'=SUMA(A1).csv",
        pending.file_hash,
        String(pending.school_year),
        'Sin aplicar',
        c.students.new,
        c.students.changed,
        c.students.unchanged,
        c.students.withdrawn,
        c.guardians.new,
        c.guardians.changed,
        c.guardians.unchanged,
        c.courses.new,
        2,
        2,
        0,
      ].join(';'),
    );
    expect(pending.created_by).not.toBe('');
    const cells = rows[1]!.split(';');
    expect(cells.slice(0, 8)).toEqual([
      santiago(applied.created_at),
      santiago(done!.applied_at!),
      applied.created_by,
      'nómina marzo.csv',
      applied.file_hash,
      String(applied.school_year),
      'Aplicada',
      '2',
    ]);
    expect(cells.slice(-4)).toEqual(['1', '2', '2', '0']);
  });

  it("has nothing of another school's imports", async () => {
    const mine = await previewOf(await as(ADMIN), file(line(4)), 'solo-san-andres.csv');
    const res = await (await as(ELQUI_ADMIN)).get(`/api${ROSTER_API.history}`);
    expect(res.status).toBe(200);
    const text = (await linesOf(res)).join('\n');
    expect(text).not.toContain('solo-san-andres.csv');
    expect(text).not.toContain(mine.file_hash);
  });
});
