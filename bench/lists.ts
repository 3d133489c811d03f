// (l) Recipient-list pages on the large seed (issue 14): `seed --students 2500`, the real server on PGlite,
// administrador@sanandres.cl with 60 more lists (one of them every guardian of the school, made from the
// picker's courses). Timed: GET /api/recipient-lists first page, the pages after it ("Cargar más"), the same
// with q, one list's summary, and GET /api/recipient-lists/{id}/users of the all-guardians list.
// Median and p95 of each, after a warm-up.
//
// `npm run bench -- --only l` (bench/run.ts).
import { performance } from 'node:perf_hooks';
import type { Course } from '../shared/contract';
import type { NumberedPage, RecipientPick } from '../shared/compose-contract';
import { DEMO_PASSWORD } from '../shared/demo';
import type { RecipientListMember, RecipientListSummary } from '../shared/recipient-lists-contract';
import { ApiClient, dataEnv, makeTempDir, median, removeTempDir, runScript, startServer, stopServer } from './support';

const STUDENTS = 2_500;
const EXTRA_LISTS = 60;
const RUNS = 30;
const MEMBER_RUNS = 15;
const SEED_TIMEOUT_MS = 300_000;
const OWNER = 'administrador@sanandres.cl';

export interface Timing {
  n: number;
  medianMs: number;
  p95Ms: number;
}

export interface ListsBenchReport {
  students: number;
  lists: number;
  bigListMembers: number;
  seedMs: number;
  firstPage: Timing;
  nextPages: Timing;
  search: Timing;
  summary: Timing;
  members: Timing;
}

function stats(samples: number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  const p95 = sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] ?? 0;
  return { n: samples.length, medianMs: Math.round(median(samples) * 100) / 100, p95Ms: Math.round(p95 * 100) / 100 };
}

async function timed(client: ApiClient, path: string): Promise<{ ms: number; body: unknown }> {
  const started = performance.now();
  const res = await client.request(path);
  const text = await res.text();
  const ms = performance.now() - started;
  if (res.status !== 200) throw new Error(`GET ${path} → ${res.status}: ${text}`);
  return { ms, body: JSON.parse(text) };
}

async function createList(client: ApiClient, name: string, picks: RecipientPick[]): Promise<RecipientListSummary> {
  const res = await client.post('/api/recipient-lists', { name, picks });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`POST /api/recipient-lists → ${res.status}: ${text}`);
  return (JSON.parse(text) as { data: RecipientListSummary }).data;
}

export async function listsBenchReport(): Promise<ListsBenchReport> {
  const dataDir = makeTempDir('hermes-bench-lists-');
  try {
    const seedStarted = performance.now();
    await runScript(['server/seed/cli.ts', '--students', String(STUDENTS)], dataEnv(dataDir), SEED_TIMEOUT_MS);
    const seedMs = Math.round(performance.now() - seedStarted);
    const server = await startServer(dataDir);
    try {
      const client = new ApiClient(server.baseUrl);
      await client.login(OWNER, DEMO_PASSWORD);
      const courses = ((await timed(client, '/api/courses')).body as { data: Course[] }).data;
      const big = await createList(client, 'Todas las familias', courses.map((c) => ({ kind: 'course', id: c.id, audience: 'apoderados' })));
      for (let i = 0; i < EXTRA_LISTS - 1; i++) {
        const course = courses[i % courses.length]!;
        await createList(client, `${i % 3 === 0 ? 'Reunión' : 'Taller'} ${course.nombre} ${i}`, [{ kind: 'course', id: course.id, audience: 'titulares' }]);
      }

      const run = async (runs: number, path: (i: number) => string) => {
        for (let i = 0; i < 3; i++) await timed(client, path(i)); // warm-up
        const samples: number[] = [];
        for (let i = 0; i < runs; i++) samples.push((await timed(client, path(i))).ms);
        return stats(samples);
      };
      const first = (await timed(client, '/api/recipient-lists?page=1&per_page=15')).body as NumberedPage<RecipientListSummary>;
      const lastPage = first.meta.last_page;
      const report: ListsBenchReport = {
        students: STUDENTS,
        lists: first.meta.total,
        bigListMembers: big.users_count,
        seedMs,
        firstPage: await run(RUNS, () => '/api/recipient-lists?page=1&per_page=15'),
        nextPages: await run(RUNS, (i) => `/api/recipient-lists?page=${2 + (i % Math.max(1, lastPage - 1))}&per_page=15`),
        search: await run(RUNS, (i) => `/api/recipient-lists?q=${encodeURIComponent(['reunion', 'TALLER', 'familias'][i % 3]!)}&per_page=15`),
        summary: await run(RUNS, () => `/api/recipient-lists/${big.id}`),
        members: await run(MEMBER_RUNS, () => `/api/recipient-lists/${big.id}/users`),
      };
      const members = ((await timed(client, `/api/recipient-lists/${big.id}/users`)).body as { data: RecipientListMember[] }).data;
      if (members.length !== big.users_count) throw new Error(`la lista tiene ${big.users_count} miembros pero /users devolvió ${members.length}`);
      return report;
    } finally {
      await stopServer(server.child);
    }
  } finally {
    removeTempDir(dataDir);
  }
}

export function printLists(report: ListsBenchReport): void {
  const line = (label: string, t: Timing) => `    ${label.padEnd(44)}mediana ${t.medianMs.toFixed(2)} ms, p95 ${t.p95Ms.toFixed(2)} ms (n=${t.n})`;
  console.log(
    `\n(l) Listas de destinatarios (PGlite, semilla de ${report.students} estudiantes en ${report.seedMs} ms; ` +
      `${report.lists} listas visibles, la mayor con ${report.bigListMembers} miembros)`,
  );
  console.log(line('GET /recipient-lists, primera página (15)', report.firstPage));
  console.log(line('GET /recipient-lists, páginas siguientes', report.nextPages));
  console.log(line('GET /recipient-lists?q=…', report.search));
  console.log(line('GET /recipient-lists/{id}', report.summary));
  console.log(line(`GET /recipient-lists/{id}/users (${report.bigListMembers})`, report.members));
}
