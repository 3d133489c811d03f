// The roster import's progress (shared/roster-contract.ts RosterProgress) against the real server: a
// client that asks for JSON lines gets the preview's lines read and apply's rows written as they go, then the
// very status and body a plain request answers; a client that does not ask gets today's answer. Runs on
// PGlite and on PostgreSQL (`npm run test:api:pg -- tests/api/roster-progress.test.ts`).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rutCheckDigit } from '../../shared/person-rules';
import { ROSTER_API, type RosterImport, type RosterProgress, type RosterReadAnswer } from '../../shared/roster-contract';
import { rowsOf } from '../../server/db/sql';
import { signedIn, startServer, type Client, type TestServer } from './support/server';

const ADMIN = 'administrador@liceoelqui.cl';
const NDJSON = 'application/x-ndjson';

let server: TestServer;
const as = signedIn(() => server);

const run = (body: number) => `${body}-${rutCheckDigit(body)}`;
const HEADER = 'RUN;Nombres;Apellido paterno;Apellido materno;Curso;Nombre apoderado;RUT apoderado;Relación;Celular;Correo';
const line = (n: number) =>
  `${run(32_000_000 + n)};Alumno ${n};Pérez;Soto;${1 + (n % 8)}° Básico A;Madre ${n} Soto Lagos;${run(16_000_000 + n)};Madre;9 8${String(n).padStart(7, '0')};madre${n}@correo.cl`;
/** 2,500 students, each with one guardian: the file's lines past three progress steps. */
const LINES = 2500;
const FILE = `${[HEADER, ...Array.from({ length: LINES }, (_, i) => line(i + 1))].join('\n')}\n`;

interface Streamed {
  type: string | null;
  encoding: string | null;
  progress: RosterProgress[];
  answer: { status: number; body: unknown };
  /** Whether the first chunk that arrived already held the answer (it must not, for a long piece of work). */
  answerInFirstChunk: boolean;
}

/** Reads a streamed answer chunk by chunk: every line but the last is progress, the last the answer. */
async function readLines(res: Response): Promise<Streamed> {
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let first: string | null = null;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const chunk = decoder.decode(value, { stream: true });
    first ??= chunk;
    text += chunk;
  }
  expect(text.endsWith('\n')).toBe(true);
  const lines = text
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as { progress?: RosterProgress; answer?: Streamed['answer'] });
  const last = lines.pop()!;
  expect(Object.keys(last)).toEqual(['answer']);
  expect(lines.every((l) => Object.keys(l).join() === 'progress')).toBe(true);
  return {
    type: res.headers.get('content-type'),
    encoding: res.headers.get('content-encoding'),
    progress: lines.map((l) => l.progress!),
    answer: last.answer!,
    answerInFirstChunk: (first ?? '').includes('"answer"'),
  };
}

function upload(client: Client, file: string, accept = 'application/json') {
  const form = new FormData();
  form.set('file', new Blob([file]), 'nomina.csv');
  return client.fetch(`/api${ROSTER_API.imports}`, {
    method: 'POST',
    body: form,
    headers: { Accept: accept, 'Accept-Encoding': 'br, gzip' },
  });
}
const apply = (client: Client, id: number, accept = 'application/json') =>
  client.post(`/api${ROSTER_API.apply(id)}`, {}, { headers: { Accept: accept, 'Accept-Encoding': 'br, gzip' } });

/** Each phase's lines: from 0, strictly rising, a line at least every 1,000 rows, ending at the total. */
function expectRising(progress: RosterProgress[], phase: RosterProgress['phase'], total: number) {
  expect(progress.every((p) => p.phase === phase && p.total === total)).toBe(true);
  const done = progress.map((p) => p.done);
  expect(done[0]).toBe(0);
  expect(done.at(-1)).toBe(total);
  for (let i = 1; i < done.length; i += 1) {
    expect(done[i]!).toBeGreaterThan(done[i - 1]!);
    expect(done[i]! - done[i - 1]!).toBeLessThanOrEqual(2000);
  }
}

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.close());

describe('the preview, streamed', () => {
  it('tells the lines read in steps, then answers what the plain request answers; the plain one is unchanged', async () => {
    const admin = await as(ADMIN);
    const plainRes = await upload(admin, FILE);
    expect(plainRes.status).toBe(200);
    expect(plainRes.headers.get('content-type')).toMatch(/^application\/json/);
    const plain = (await plainRes.json()) as RosterReadAnswer;
    if (plain.status !== 'preview') throw new Error('sin vista previa');

    const streamed = await readLines(await upload(admin, FILE, NDJSON));
    expect(streamed.type).toBe('application/x-ndjson; charset=utf-8');
    // Not compressed: the compression middleware would hold the lines until the end.
    expect(streamed.encoding).toBeNull();
    expect(streamed.progress.map((p) => p.done)).toEqual([0, 1000, 2000, 2500]);
    expectRising(streamed.progress, 'reading', LINES);
    expect(streamed.answer.status).toBe(200);
    const body = streamed.answer.body as RosterReadAnswer;
    if (body.status !== 'preview') throw new Error('sin vista previa');
    // Another import of the same file: only its id and time differ.
    expect(body).toEqual({ status: 'preview', import: { ...plain.import, id: body.import.id, created_at: body.import.created_at } });
    expect(body.import.counts.rows).toEqual({ read: LINES, valid: LINES, refused: 0 });
  });

  it("answers a refused file's 422 in the last line, the same as the plain request's", async () => {
    const admin = await as(ADMIN);
    const plainRes = await upload(admin, `${HEADER}\n`);
    expect(plainRes.status).toBe(422);
    const plain = await plainRes.json();
    const streamed = await readLines(await upload(admin, `${HEADER}\n`, NDJSON));
    expect(streamed.answer).toEqual({ status: 422, body: plain });
    expect(streamed.progress).toEqual([]);
  });

  it('refuses before any work plainly, as ever (no file at all)', async () => {
    const admin = await as(ADMIN);
    const res = await admin.fetch(`/api${ROSTER_API.imports}`, { method: 'POST', body: new FormData(), headers: { Accept: NDJSON } });
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });
});

describe('apply, streamed', () => {
  it('tells the rows written batch by batch in one transaction, then answers the applied import; again is the plain 409', async () => {
    const admin = await as(ADMIN);
    const [school] = rowsOf<{ id: number; active: number }>(
      await server.db.execute(sql`
        select i.id, (select count(*)::int from students s where s.institution_id = i.id and s.withdrawn_at is null) as active
        from institutions i join users u on u.institution_id = i.id where u.email = ${ADMIN}`),
    );
    const preview = (await (await upload(admin, FILE)).json()) as RosterReadAnswer;
    if (preview.status !== 'preview') throw new Error('sin vista previa');

    const streamed = await readLines(await apply(admin, preview.import.id, NDJSON));
    expect(streamed.answer.status).toBe(200);
    const applied = (streamed.answer.body as { data: RosterImport }).data;
    expect(applied.state).toBe('applied');
    const shown = (await (await admin.get(`/api${ROSTER_API.import(preview.import.id)}`)).json()) as { data: RosterImport };
    expect(streamed.answer.body).toEqual(shown);
    // New students, the school's others withdrawn, new guardians, their links, this year's courses, and each
    // withdrawal recorded as the import's (so the next import tells it from one by hand).
    const total = LINES + school!.active + LINES + LINES + LINES + school!.active;
    expectRising(streamed.progress, 'writing', total);
    expect(streamed.progress.length).toBeGreaterThanOrEqual(Math.floor(total / 2000));
    expect(streamed.answerInFirstChunk).toBe(false);
    const [written] = rowsOf<{ n: number }>(
      await server.db.execute(sql`select count(*)::int as n from students where institution_id = ${school!.id} and withdrawn_at is null`),
    );
    expect(written!.n).toBe(LINES);

    const plainAgain = await apply(admin, preview.import.id);
    expect(plainAgain.status).toBe(409);
    const again = await readLines(await apply(admin, preview.import.id, NDJSON));
    expect(again).toMatchObject({ progress: [], answer: { status: 409, body: await plainAgain.json() } });
  });
});
