// (q) The SMS quota screen's calls on the large seed (`seed --students 2500`), through the real server on
// PGlite: GET /api/quota/usage (this year's months with each month's limit, and this month's top senders
// and courses from the deliveries), its annual and school-year views, GET /api/quota/settings, and, for
// scale on a shared machine, GET /api/institutions-signatures (signed in, one small row) beside them. Each
// asked REQUESTS times, alternated so load hits all alike; medians and p90.
import { performance } from 'node:perf_hooks';
import { DEMO_PASSWORD } from '../shared/demo';
import { ApiClient, dataEnv, makeTempDir, median, removeTempDir, runScript, startServer, stopServer } from './support';

export const QUOTA_STUDENTS = 2_500;
const REQUESTS = 60;
const WARMUP = 5;
const SEED_TIMEOUT_MS = 180_000;
const BENCH_EMAIL = 'administrador@sanandres.cl';

const QUERIES = {
  usage: '/api/quota/usage',
  annual: '/api/quota/usage?view=annual',
  school: '/api/quota/usage?calendar=school',
  settings: '/api/quota/settings',
  /** An authenticated route with next to nothing behind it: what any request costs here, for scale. */
  baseline: '/api/institutions-signatures',
} as const;
type Kind = keyof typeof QUERIES;

export interface QuotaBenchReport {
  students: number;
  requestsPerKind: number;
  seedMs: number;
  /** This month's SMS deliveries behind the top senders and courses. */
  topSenders: number;
  medianMs: Record<Kind, number>;
  p90Ms: Record<Kind, number>;
}

const round2 = (ms: number): number => Math.round(ms * 100) / 100;
const p90 = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.9) - 1] ?? 0;

async function timed(client: ApiClient, path: string): Promise<{ ms: number; body: unknown }> {
  const started = performance.now();
  const response = await client.request(path);
  const text = await response.text();
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`GET ${path} → ${response.status}: ${text.slice(0, 300)}`);
  return { ms, body: JSON.parse(text) };
}

export async function quotaBenchReport(): Promise<QuotaBenchReport> {
  const dataDir = makeTempDir('hermes-bench-quota-');
  try {
    const seedStarted = performance.now();
    await runScript(['server/seed/cli.ts', '--students', String(QUOTA_STUDENTS)], dataEnv(dataDir), SEED_TIMEOUT_MS);
    const seedMs = performance.now() - seedStarted;
    const server = await startServer(dataDir);
    try {
      const client = new ApiClient(server.baseUrl);
      await client.login(BENCH_EMAIL, DEMO_PASSWORD);
      const kinds = Object.keys(QUERIES) as Kind[];
      for (let i = 0; i < WARMUP; i += 1) for (const kind of kinds) await timed(client, QUERIES[kind]);
      const ms = Object.fromEntries(kinds.map((k) => [k, [] as number[]])) as Record<Kind, number[]>;
      let topSenders = 0;
      for (let i = 0; i < REQUESTS; i += 1) {
        for (const kind of kinds) {
          const result = await timed(client, QUERIES[kind]);
          ms[kind].push(result.ms);
          if (kind === 'usage') topSenders = (result.body as { data: { top_senders: unknown[] } }).data.top_senders.length;
        }
      }
      const per = (f: (values: number[]) => number) => Object.fromEntries(kinds.map((k) => [k, round2(f(ms[k]))])) as Record<Kind, number>;
      return { students: QUOTA_STUDENTS, requestsPerKind: REQUESTS, seedMs: Math.round(seedMs), topSenders, medianMs: per(median), p90Ms: per(p90) };
    } finally {
      await stopServer(server.child);
    }
  } finally {
    removeTempDir(dataDir);
  }
}

export function printQuota(report: QuotaBenchReport): void {
  console.log(
    `\n(q) Cuota de SMS en el seed grande (${report.students} estudiantes, sembrado en ${report.seedMs} ms), ` +
      `${report.requestsPerKind} pedidos por tipo`,
  );
  const label: Record<Kind, string> = {
    usage: `GET /api/quota/usage (meses del año, ${report.topSenders} remitentes y cursos del mes)`,
    annual: 'GET /api/quota/usage?view=annual',
    school: 'GET /api/quota/usage?calendar=school',
    settings: 'GET /api/quota/settings',
    baseline: 'referencia: GET /api/institutions-signatures',
  };
  for (const kind of Object.keys(label) as Kind[]) {
    console.log(`    ${label[kind]}: mediana ${report.medianMs[kind]} ms, p90 ${report.p90Ms[kind]} ms`);
  }
}
