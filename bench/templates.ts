// (h) Templates page on the large seed (`seed --students 2500`), through the real server on PGlite: the
// bench user first writes OWN_TEMPLATES templates of their own (POST /api/templates, timed), then
// GET /api/templates (what /templates opens with: own + both libraries), a search of it and one library
// tab are each asked REQUESTS times, alternated so load hits all alike. Medians and p90 per kind; the
// same for a Mexican teacher's list, where every library text is localised as it is answered, and, for
// scale on a shared machine, GET /api/institutions-signatures (signed in, one small row) beside them.
import { performance } from 'node:perf_hooks';
import { DEMO_PASSWORD } from '../shared/demo';
import { ApiClient, median, onSeededServer, p90, round2, timedGet } from './support';

const TEMPLATES_STUDENTS = 2_500;
const OWN_TEMPLATES = 100;
const REQUESTS = 60;
const WARMUP = 5;
const BENCH_EMAIL = 'administrador@sanandres.cl';
const MX_EMAIL = 'docente@benitojuarez.edu.mx';

const QUERIES = {
  list: '/api/templates',
  search: `/api/templates?q=${encodeURIComponent('reunión')}`,
  library: '/api/templates?repository=hermes',
  listMx: '/api/templates',
  /** An authenticated route with next to nothing behind it: what any request costs here, for scale. */
  baseline: '/api/institutions-signatures',
} as const;
type Kind = keyof typeof QUERIES;

export interface TemplatesBenchReport {
  students: number;
  ownTemplates: number;
  requestsPerKind: number;
  seedMs: number;
  createMedianMs: number;
  /** Templates in each answer. */
  rows: Record<Kind, number>;
  medianMs: Record<Kind, number>;
  p90Ms: Record<Kind, number>;
}

async function timed(client: ApiClient, path: string): Promise<{ ms: number; rows: number }> {
  const { ms, body } = await timedGet(client, path);
  return { ms, rows: (body as { data: unknown[] }).data.length };
}

export async function templatesBenchReport(): Promise<TemplatesBenchReport> {
  return onSeededServer('hermes-bench-templates-', TEMPLATES_STUDENTS, async (baseUrl, seedMs) => {
    const client = new ApiClient(baseUrl);
    await client.login(BENCH_EMAIL, DEMO_PASSWORD);
    const mx = new ApiClient(baseUrl);
    await mx.login(MX_EMAIL, DEMO_PASSWORD);
    const createMs: number[] = [];
    for (let i = 1; i <= OWN_TEMPLATES; i += 1) {
      const started = performance.now();
      const response = await client.post('/api/templates', {
        name: `Aviso ${i}: reunión del curso`,
        content: `Estimado apoderado: le recordamos la actividad número ${i} de {curso}. Saludos cordiales.`,
      });
      await response.arrayBuffer();
      createMs.push(performance.now() - started);
      if (response.status !== 201) throw new Error(`POST /api/templates → ${response.status}`);
    }
    const clientOf = (kind: Kind) => (kind === 'listMx' ? mx : client);
    const kinds = Object.keys(QUERIES) as Kind[];
    for (let i = 0; i < WARMUP; i += 1) for (const kind of kinds) await timed(clientOf(kind), QUERIES[kind]);
    const ms = Object.fromEntries(kinds.map((k) => [k, [] as number[]])) as Record<Kind, number[]>;
    const rows = {} as Record<Kind, number>;
    for (let i = 0; i < REQUESTS; i += 1) {
      for (const kind of kinds) {
        const result = await timed(clientOf(kind), QUERIES[kind]);
        ms[kind].push(result.ms);
        rows[kind] = result.rows;
      }
    }
    const per = (f: (values: number[]) => number) => Object.fromEntries(kinds.map((k) => [k, round2(f(ms[k]))])) as Record<Kind, number>;
    return {
      students: TEMPLATES_STUDENTS,
      ownTemplates: OWN_TEMPLATES,
      requestsPerKind: REQUESTS,
      seedMs: Math.round(seedMs),
      createMedianMs: round2(median(createMs)),
      rows,
      medianMs: per(median),
      p90Ms: per(p90),
    };
  });
}

export function printTemplates(report: TemplatesBenchReport): void {
  console.log(
    `\n(h) Plantillas en el seed grande (${report.students} estudiantes, sembrado en ${report.seedMs} ms), ` +
      `${report.ownTemplates} plantillas propias del usuario, ${report.requestsPerKind} pedidos por tipo`,
  );
  console.log(`    POST /api/templates: mediana ${report.createMedianMs} ms`);
  const label: Record<Kind, string> = {
    list: 'GET /api/templates (todas)',
    search: 'GET /api/templates?q=reunión',
    library: 'GET /api/templates?repository=hermes',
    listMx: 'GET /api/templates (colegio de México)',
    baseline: 'referencia: GET /api/institutions-signatures',
  };
  for (const kind of Object.keys(label) as Kind[]) {
    console.log(`    ${label[kind]}: ${report.rows[kind]} filas, mediana ${report.medianMs[kind]} ms, p90 ${report.p90Ms[kind]} ms`);
  }
}
