// (q) The SMS quota screen's calls on the large seed (`seed --students 2500`), through the real server on
// PGlite: GET /api/quota/usage (this year's months with each month's limit, and this month's top senders
// and courses from the deliveries), its annual and school-year views, GET /api/quota/settings, and, for
// scale on a shared machine, GET /api/institutions-signatures (signed in, one small row) beside them. Each
// asked REQUESTS times, alternated so load hits all alike; medians and p90.
import { DEMO_PASSWORD } from '../shared/demo';
import { ApiClient, median, onSeededServer, p90, round2, timedGet } from './support';

const QUOTA_STUDENTS = 2_500;
const REQUESTS = 60;
const WARMUP = 5;
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
  /** Senders in this month's ranking (the seed's SMS of this month). */
  topSenders: number;
  medianMs: Record<Kind, number>;
  p90Ms: Record<Kind, number>;
}

export async function quotaBenchReport(): Promise<QuotaBenchReport> {
  return onSeededServer('hermes-bench-quota-', QUOTA_STUDENTS, async (baseUrl, seedMs) => {
    const client = new ApiClient(baseUrl);
    await client.login(BENCH_EMAIL, DEMO_PASSWORD);
    const kinds = Object.keys(QUERIES) as Kind[];
    for (let i = 0; i < WARMUP; i += 1) for (const kind of kinds) await timedGet(client, QUERIES[kind]);
    const ms = Object.fromEntries(kinds.map((k) => [k, [] as number[]])) as Record<Kind, number[]>;
    let topSenders = 0;
    for (let i = 0; i < REQUESTS; i += 1) {
      for (const kind of kinds) {
        const result = await timedGet(client, QUERIES[kind]);
        ms[kind].push(result.ms);
        if (kind === 'usage') topSenders = (result.body as { data: { top_senders: unknown[] } }).data.top_senders.length;
      }
    }
    const per = (f: (values: number[]) => number) => Object.fromEntries(kinds.map((k) => [k, round2(f(ms[k]))])) as Record<Kind, number>;
    return {
      students: QUOTA_STUDENTS,
      requestsPerKind: REQUESTS,
      seedMs: Math.round(seedMs),
      topSenders,
      medianMs: per(median),
      p90Ms: per(p90),
    };
  });
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
