// (n) The news wall on the large seed (`seed --students 2500`), through the real server on PGlite: the bench
// adds NEWS_POSTS posts to Colegio San Andrés (a few pinned, some for a course, a tenth off the wall or in
// the trash, dated over the last years), then times what /mural/news opens with (GET /api/news, a latam
// teacher), a search (`q=reunion`, folded like the UI's), the managers' desk (`status=all`) and one
// category, REQUESTS times each, alternated; medians and p90. Then the EXPLAIN ANALYZE plans of the wall's
// first page and of the search, as server/news/posts.ts listWall writes them, in-process on the same data.
import { performance } from 'node:perf_hooks';
import { eq, sql } from 'drizzle-orm';
import { openDb } from '../server/db/client';
import { institutions } from '../server/db/schema/institutions';
import { rowsOf } from '../server/db/sql';
import { DEMO_PASSWORD, DEMO_SCHOOLS } from '../shared/demo';
import {
  ApiClient,
  dataEnv,
  makeTempDir,
  median,
  p90,
  removeTempDir,
  round2,
  runScript,
  startServer,
  stopServer,
  timedGet,
} from './support';

const NEWS_STUDENTS = 2_500;
const NEWS_POSTS = 20_000;
const REQUESTS = 40;
const WARMUP = 5;
/** A page of the wall answers within this (the first page is what every reader opens). */
export const NEWS_TARGET_MS = 100;

const QUERIES = {
  wall: { email: 'docente.latam@sanandres.cl', path: '/api/news' },
  search: { email: 'docente.latam@sanandres.cl', path: '/api/news?q=reunion' },
  desk: { email: 'administrador@sanandres.cl', path: '/api/news?status=all' },
  category: { email: 'docente.latam@sanandres.cl', path: '/api/news?category=' },
  /** An authenticated route with next to nothing behind it: what any request costs here, for scale. */
  baseline: { email: 'docente.latam@sanandres.cl', path: '/api/institutions-signatures' },
} as const;
type Kind = keyof typeof QUERIES;

export interface NewsBenchReport {
  students: number;
  posts: number;
  requestsPerKind: number;
  seedMs: number;
  rows: Record<Kind, number>;
  totals: Record<Kind, number>;
  medianMs: Record<Kind, number>;
  p90Ms: Record<Kind, number>;
  withinTarget: boolean;
  plans: { wall: string[]; search: string[]; total: string[] };
}

type Db = Awaited<ReturnType<typeof openDb>>['db'];

async function addPosts(db: Db, inst: number): Promise<number> {
  await db.execute(sql`
    insert into news_posts (institution_id, author_user_id, category_id, title, body, search, audience_scope, pinned,
      publish_at, ends_at, unpublished_at, deleted_at, created_at, updated_at)
    select ${inst}, u.id, (select id from news_categories c where c.institution_id = ${inst} order by c.position offset (n % 5) limit 1),
      t.title || ' ' || n, t.body, lower(t.search) || ' ' || n || E'\n' || t.body, case when n % 7 = 0 then 'groups' else 'school' end,
      n % 2000 = 0,
      now() - (n * interval '53 minutes'),
      case when n % 31 = 0 then now() - (n * interval '53 minutes') + interval '2 days' end,
      case when n % 23 = 0 then now() - interval '1 hour' end,
      case when n % 29 = 0 then now() - interval '1 hour' end,
      now() - (n * interval '53 minutes'), now() - (n * interval '53 minutes')
    from generate_series(1, ${NEWS_POSTS}) n
    cross join lateral (select id from users where institution_id = ${inst} and email = 'administrador@sanandres.cl') u
    cross join lateral (select case n % 4
        when 0 then 'Reunión de apoderados' when 1 then 'Salida pedagógica' when 2 then 'Campeonato de fútbol' else 'Acto cívico' end as title,
      'Texto del aviso para las familias del colegio.' as body,
      case n % 4 when 0 then 'reunion de apoderados' when 1 then 'salida pedagogica' when 2 then 'campeonato de futbol' else 'acto civico' end as search) t`);
  await db.execute(sql`
    insert into news_post_groups (post_id, course_id)
    select p.id, (select c.id from courses c where c.institution_id = ${inst} order by c.id offset (p.id % 10) limit 1)
    from news_posts p where p.institution_id = ${inst} and p.audience_scope = 'groups'
      and not exists (select 1 from news_post_groups g where g.post_id = p.id)`);
  await db.execute(sql.raw('ANALYZE "news_posts", "news_post_groups", "news_categories"'));
  const [row] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from news_posts where institution_id = ${inst}`));
  return row!.n;
}

/** The statements of listWall's first page (readers: on the wall now), without and with q. */
function wallSql(inst: number, q: string | null) {
  return sql`select p.id, p.title, p.pinned, p.publish_at from news_posts p
    join users u on u.id = p.author_user_id left join news_categories c on c.id = p.category_id
    where p.institution_id = ${inst} and p.deleted_at is null and p.unpublished_at is null and p.publish_at <= now()
      and (p.ends_at is null or p.ends_at > now()) ${q === null ? sql`` : sql`and p.search like ${`%${q}%`}`}
    order by p.pinned desc, p.publish_at desc, p.id desc limit 21`;
}

export async function newsBenchReport(): Promise<NewsBenchReport> {
  const dataDir = makeTempDir('hermes-bench-news-');
  try {
    const started = performance.now();
    await runScript(['server/seed/cli.ts', '--students', String(NEWS_STUDENTS)], dataEnv(dataDir), 180_000);
    const seedMs = Math.round(performance.now() - started);
    let inst = 0;
    let posts = 0;
    let categoryId = 0;
    {
      const handle = await openDb({ dataDir });
      try {
        const [school] = await handle.db
          .select({ id: institutions.id })
          .from(institutions)
          .where(eq(institutions.name, DEMO_SCHOOLS.sanAndres));
        inst = school!.id;
        posts = await addPosts(handle.db, inst);
        const [cat] = rowsOf<{ id: number }>(
          await handle.db.execute(sql`select id from news_categories where institution_id = ${inst} order by position limit 1`),
        );
        categoryId = cat!.id;
      } finally {
        await handle.close();
      }
    }
    const measured = await (async () => {
      const server = await startServer(dataDir);
      try {
        const clients = new Map<string, ApiClient>();
        const clientOf = async (email: string) => {
          let client = clients.get(email);
          if (!client) {
            client = new ApiClient(server.baseUrl);
            await client.login(email, DEMO_PASSWORD);
            clients.set(email, client);
          }
          return client;
        };
        const kinds = Object.keys(QUERIES) as Kind[];
        const pathOf = (kind: Kind) => (kind === 'category' ? `${QUERIES[kind].path}${categoryId}` : QUERIES[kind].path);
        const run = async (kind: Kind) => timedGet(await clientOf(QUERIES[kind].email), pathOf(kind));
        for (let i = 0; i < WARMUP; i += 1) for (const kind of kinds) await run(kind);
        const ms = Object.fromEntries(kinds.map((k) => [k, [] as number[]])) as Record<Kind, number[]>;
        const rows = {} as Record<Kind, number>;
        const totals = {} as Record<Kind, number>;
        for (let i = 0; i < REQUESTS; i += 1) {
          for (const kind of kinds) {
            const { ms: took, body } = await run(kind);
            ms[kind].push(took);
            const page = body as { data: unknown[]; meta?: { total: number } };
            rows[kind] = page.data.length;
            totals[kind] = page.meta?.total ?? page.data.length;
          }
        }
        const per = (f: (values: number[]) => number) =>
          Object.fromEntries(kinds.map((k) => [k, round2(f(ms[k]))])) as Record<Kind, number>;
        return { rows, totals, medianMs: per(median), p90Ms: per(p90) };
      } finally {
        await stopServer(server.child);
      }
    })();
    const handle = await openDb({ dataDir });
    try {
      const explain = async (query: ReturnType<typeof sql>) =>
        rowsOf<Record<string, string>>(await handle.db.execute(sql`explain (analyze, costs off, timing off) ${query}`)).map(
          (r) => Object.values(r)[0]!,
        );
      // The page's `meta.total`: a count over every live post of the school.
      const total = await explain(sql`select count(*)::int from news_posts p where p.institution_id = ${inst} and p.deleted_at is null
        and p.unpublished_at is null and p.publish_at <= now() and (p.ends_at is null or p.ends_at > now())`);
      const plans = { wall: await explain(wallSql(inst, null)), search: await explain(wallSql(inst, 'reunion')), total };
      return {
        students: NEWS_STUDENTS,
        posts,
        requestsPerKind: REQUESTS,
        seedMs,
        ...measured,
        withinTarget: (Object.keys(measured.medianMs) as Kind[]).every((k) => k === 'baseline' || measured.medianMs[k] <= NEWS_TARGET_MS),
        plans,
      };
    } finally {
      await handle.close();
    }
  } finally {
    removeTempDir(dataDir);
  }
}

export function printNews(report: NewsBenchReport): void {
  console.log(
    `\n(n) Mural en el seed grande (${report.students} estudiantes, sembrado en ${report.seedMs} ms), San Andrés con ` +
      `${report.posts} publicaciones, ${report.requestsPerKind} pedidos por tipo`,
  );
  const label: Record<Kind, string> = {
    wall: 'GET /api/news (primera página, docente)',
    search: 'GET /api/news?q=reunion',
    desk: 'GET /api/news?status=all (gestores)',
    category: 'GET /api/news?category=…',
    baseline: 'referencia: GET /api/institutions-signatures',
  };
  for (const kind of Object.keys(label) as Kind[]) {
    console.log(
      `    ${label[kind]}: ${report.rows[kind]} filas de ${report.totals[kind]}, mediana ${report.medianMs[kind]} ms, ` +
        `p90 ${report.p90Ms[kind]} ms / objetivo ≤ ${NEWS_TARGET_MS} ms`,
    );
  }
  console.log(`    → ${report.withinTarget ? 'OK' : 'OVER'}`);
  for (const [name, lines] of [
    ['primera página', report.plans.wall],
    ['búsqueda q=reunion', report.plans.search],
    ['meta.total de la primera página', report.plans.total],
  ] as const) {
    console.log(`\n    EXPLAIN ANALYZE — ${name}`);
    for (const line of lines) console.log(`      ${line}`);
  }
}
