// (l) Recipient-list pages on the large seed: `seed --students 2500`, the real server on PGlite,
// administrador@sanandres.cl with 60 more lists (one of them every guardian of the school, made from the
// picker's courses). Timed: GET /api/recipient-lists first page, the pages after it ("Cargar más"), the same
// with q, one list's summary, and GET /api/recipient-lists/{id}/users of the all-guardians list.
// Median and p95 of each, after a warm-up. Then, in Chromium on the built SPA (HERMES_DIST_DIR, else ./dist;
// skipped with a note when there is none), /recipient-list/{id} of that big list opened RENDER_RUNS times:
// from navigation to the member rows in the DOM and painted (two frames), how long after the members'
// answer that was, the rows and DOM elements rendered and the longest task; and, where the page has the
// member search, a search typed (a surname near the end of the list) and "Mostrar más", each to paint.
// Last, with the server stopped, the members' statement (server/recipient-lists/users.ts membersSql) in process:
// its median and its EXPLAIN (ANALYZE, BUFFERS) plan, buffers beside milliseconds since the machine is shared.
//
// `npm run bench -- --only l` (bench/run.ts).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromium, type Browser, type Page } from '@playwright/test';
import { sql } from 'drizzle-orm';
import { API, COOKIE, XSRF_HEADER } from '../shared/contract';
import type { Course } from '../shared/contract';
import type { RecipientPick } from '../shared/compose-contract';
import type { NumberedPage } from '../shared/recipient-lists-contract';
import { DEMO_PASSWORD } from '../shared/demo';
import type { RecipientListMember, RecipientListSummary } from '../shared/recipient-lists-contract';
import { rowsOf } from '../server/db/sql';
import { membersSql, withMembersPlanner } from '../server/recipient-lists/users';
import { openDb } from '../server/db/client';
import { ApiClient, dataEnv, makeTempDir, median, removeTempDir, ROOT, runScript, startServer, stopServer } from './support';

const STUDENTS = 2_500;
const EXTRA_LISTS = 60;
const RUNS = 30;
const MEMBER_RUNS = 15;
const SEED_TIMEOUT_MS = 300_000;
const OWNER = 'administrador@sanandres.cl';
const RENDER_RUNS = 5;
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking'];

interface Timing {
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
  /** The big list's page in Chromium, or why it was not measured. */
  page: PageReport | { skipped: string };
  /** The members' statement in process (no HTTP): median of 7 and its EXPLAIN (ANALYZE, BUFFERS) plan. */
  membersStatement: { medianMs: number; plan: string[] };
}

interface PageReport {
  runs: number;
  dist: string;
  /** Navigation start → member rows in the DOM, and → painted (two frames later). */
  rowsInDom: Timing;
  rowsPainted: Timing;
  /** Members' answer received → rows painted: the render's own cost. */
  renderAfterAnswer: Timing;
  rowsRendered: number;
  domElements: number;
  longestTaskMs: number;
  /** Typing a search (one input event) → its rows painted; null where the page has no member search. */
  search: { query: string; matches: string; timing: Timing } | null;
  /** "Mostrar más" → the next rows painted. */
  showMore: Timing | null;
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

/** Installed before any page script: when the first member row enters the DOM and when it is painted; long tasks. */
const PAGE_OBSERVER = `
  window.__bench = { rowsAt: null, paintedAt: null, tasks: [] };
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__bench.tasks.push(entry.duration);
    }).observe({ type: 'longtask', buffered: true });
  } catch {}
  new MutationObserver((_, observer) => {
    if (window.__bench.rowsAt !== null || !document.querySelector('[data-slot="member-row"]')) return;
    window.__bench.rowsAt = performance.now();
    observer.disconnect();
    requestAnimationFrame(() => requestAnimationFrame(() => (window.__bench.paintedAt = performance.now())));
  }).observe(document, { childList: true, subtree: true });
`;

interface PageRun {
  rowsAt: number;
  paintedAt: number;
  answeredAt: number;
  rows: number;
  elements: number;
  longest: number;
}

/** An input event on the member search (as typing does), then two frames: ms until painted. */
async function timeInput(page: Page, query: string): Promise<number> {
  return page.evaluate(async (q) => {
    const input = document.getElementById('recipient-list-member-search') as HTMLInputElement;
    const started = performance.now();
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, q);
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done())));
    return performance.now() - started;
  }, query);
}

async function pageReport(baseUrl: string, listId: number, members: RecipientListMember[]): Promise<PageReport | { skipped: string }> {
  const dist = process.env.HERMES_DIST_DIR || join(ROOT, 'dist');
  if (!existsSync(join(dist, 'index.html'))) return { skipped: `sin SPA compilada en ${dist} (vite build --outDir …, HERMES_DIST_DIR)` };
  if (!existsSync(CHROMIUM)) return { skipped: `sin ${CHROMIUM}` };
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true, timeout: 30_000 });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'es-CL', timezoneId: 'America/Santiago' });
    context.setDefaultTimeout(60_000);
    await context.addInitScript(PAGE_OBSERVER);
    await context.request.get(`${baseUrl}/api${API.csrf}`);
    const xsrf = (await context.cookies()).find((cookie) => cookie.name === COOKIE.xsrf);
    if (!xsrf) throw new Error(`GET /api${API.csrf} no entregó la cookie ${COOKIE.xsrf}`);
    const login = await context.request.post(`${baseUrl}/api${API.login}`, {
      data: { email: OWNER, password: DEMO_PASSWORD },
      headers: { [XSRF_HEADER]: decodeURIComponent(xsrf.value), Accept: 'application/json' },
    });
    if (login.status() !== 200) throw new Error(`POST /api${API.login} → ${login.status()}`);
    const page = await context.newPage();
    const open = async (): Promise<PageRun> => {
      await page.goto(`${baseUrl}/recipient-list/${listId}`, { waitUntil: 'commit' });
      await page.waitForFunction(
        () => (window as unknown as { __bench: { paintedAt: number | null } }).__bench.paintedAt !== null,
        undefined,
        { polling: 50 },
      );
      return page.evaluate((id) => {
        const bench = (window as unknown as { __bench: { rowsAt: number; paintedAt: number; tasks: number[] } }).__bench;
        const answer = performance.getEntriesByType('resource').find((entry) => entry.name.endsWith(`/recipient-lists/${id}/users`)) as
          | PerformanceResourceTiming
          | undefined;
        return {
          rowsAt: bench.rowsAt,
          paintedAt: bench.paintedAt,
          answeredAt: answer?.responseEnd ?? Number.NaN,
          rows: document.querySelectorAll('[data-slot="member-row"]').length,
          elements: document.getElementsByTagName('*').length,
          longest: Math.max(0, ...bench.tasks),
        };
      }, listId);
    };
    await open(); // warm-up: chunks and texts cached
    const runs: PageRun[] = [];
    for (let i = 0; i < RENDER_RUNS; i++) runs.push(await open());
    const last = runs.at(-1)!;

    let search: PageReport['search'] = null;
    let showMore: Timing | null = null;
    if (await page.locator('#recipient-list-member-search').count()) {
      // A surname of a member near the end of the list: not in the first slice.
      const query = members[Math.floor(members.length * 0.9)]!.name.split(' ').at(-2) ?? 'a';
      const samples: number[] = [];
      for (let i = 0; i < RENDER_RUNS; i++) {
        samples.push(await timeInput(page, query));
        await timeInput(page, '');
      }
      await timeInput(page, query);
      const matches = (await page.locator('[data-slot="members-count"]').textContent()) ?? '';
      await timeInput(page, '');
      search = { query, matches, timing: stats(samples) };
      const moreSamples: number[] = [];
      for (let i = 0; i < RENDER_RUNS; i++) {
        const more = page.getByRole('button', { name: /^Mostrar \d+ más$/ });
        if (!(await more.count())) break;
        moreSamples.push(
          await more.evaluate(async (button) => {
            const started = performance.now();
            (button as HTMLButtonElement).click();
            await new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done())));
            return performance.now() - started;
          }),
        );
      }
      if (moreSamples.length) showMore = stats(moreSamples);
    }
    await context.close();
    return {
      runs: RENDER_RUNS,
      dist,
      rowsInDom: stats(runs.map((r) => r.rowsAt)),
      rowsPainted: stats(runs.map((r) => r.paintedAt)),
      renderAfterAnswer: stats(runs.map((r) => r.paintedAt - r.answeredAt)),
      rowsRendered: last.rows,
      domElements: last.elements,
      longestTaskMs: Math.round(Math.max(...runs.map((r) => r.longest))),
      search,
      showMore,
    };
  } finally {
    await browser?.close().catch(() => undefined);
  }
}

export async function listsBenchReport(): Promise<ListsBenchReport> {
  const dataDir = makeTempDir('hermes-bench-lists-');
  try {
    const seedStarted = performance.now();
    await runScript(['server/seed/cli.ts', '--students', String(STUDENTS)], dataEnv(dataDir), SEED_TIMEOUT_MS);
    const seedMs = Math.round(performance.now() - seedStarted);
    const server = await startServer(dataDir);
    let report: ListsBenchReport;
    try {
      const client = new ApiClient(server.baseUrl);
      await client.login(OWNER, DEMO_PASSWORD);
      const courses = ((await timed(client, '/api/courses')).body as { data: Course[] }).data;
      const big = await createList(
        client,
        'Todas las familias',
        courses.map((c) => ({ kind: 'course', id: c.id, audience: 'apoderados' })),
      );
      for (let i = 0; i < EXTRA_LISTS - 1; i++) {
        const course = courses[i % courses.length]!;
        await createList(client, `${i % 3 === 0 ? 'Reunión' : 'Taller'} ${course.nombre} ${i}`, [
          { kind: 'course', id: course.id, audience: 'titulares' },
        ]);
      }

      const run = async (runs: number, path: (i: number) => string) => {
        for (let i = 0; i < 3; i++) await timed(client, path(i)); // warm-up
        const samples: number[] = [];
        for (let i = 0; i < runs; i++) samples.push((await timed(client, path(i))).ms);
        return stats(samples);
      };
      const first = (await timed(client, '/api/recipient-lists?page=1&per_page=15')).body as NumberedPage<RecipientListSummary>;
      const lastPage = first.meta.last_page;
      report = {
        students: STUDENTS,
        lists: first.meta.total,
        bigListMembers: big.users_count,
        seedMs,
        firstPage: await run(RUNS, () => '/api/recipient-lists?page=1&per_page=15'),
        nextPages: await run(RUNS, (i) => `/api/recipient-lists?page=${2 + (i % Math.max(1, lastPage - 1))}&per_page=15`),
        search: await run(
          RUNS,
          (i) => `/api/recipient-lists?q=${encodeURIComponent(['reunion', 'TALLER', 'familias'][i % 3]!)}&per_page=15`,
        ),
        summary: await run(RUNS, () => `/api/recipient-lists/${big.id}`),
        members: await run(MEMBER_RUNS, () => `/api/recipient-lists/${big.id}/users`),
        page: { skipped: 'pendiente' },
        membersStatement: { medianMs: 0, plan: [] },
      };
      const members = ((await timed(client, `/api/recipient-lists/${big.id}/users`)).body as { data: RecipientListMember[] }).data;
      if (members.length !== big.users_count)
        throw new Error(`la lista tiene ${big.users_count} miembros pero /users devolvió ${members.length}`);
      report.page = await pageReport(server.baseUrl, big.id, members);
    } finally {
      await stopServer(server.child);
    }
    // The server owns the dir while it runs: the statement's plan afterwards, on the same data.
    const handle = await openDb({ dataDir, databaseUrl: '' });
    try {
      const [big] = rowsOf<{ id: number; institution_id: number }>(
        await handle.db.execute(sql`select id, institution_id from recipient_lists where name = 'Todas las familias'`),
      );
      const statement = membersSql(Number(big!.institution_id), Number(big!.id));
      const ms: number[] = [];
      for (let i = 0; i < 7; i++) {
        const started = performance.now();
        await withMembersPlanner(handle.db, (tx) => tx.execute(statement));
        ms.push(performance.now() - started);
      }
      const plan = await withMembersPlanner(handle.db, async (tx) =>
        rowsOf<Record<string, string>>(await tx.execute(sql`explain (analyze, buffers, costs off, timing off, summary on) ${statement}`)),
      ).then((rows) => rows.map((r) => Object.values(r)[0]!));
      report.membersStatement = { medianMs: Math.round(median(ms.slice(2)) * 100) / 100, plan };
    } finally {
      await handle.close();
    }
    return report;
  } finally {
    removeTempDir(dataDir);
  }
}

export function printLists(report: ListsBenchReport): void {
  const line = (label: string, t: Timing) =>
    `    ${label.padEnd(44)}mediana ${t.medianMs.toFixed(2)} ms, p95 ${t.p95Ms.toFixed(2)} ms (n=${t.n})`;
  console.log(
    `\n(l) Listas de destinatarios (PGlite, semilla de ${report.students} estudiantes en ${report.seedMs} ms; ` +
      `${report.lists} listas visibles, la mayor con ${report.bigListMembers} miembros)`,
  );
  console.log(line('GET /recipient-lists, primera página (15)', report.firstPage));
  console.log(line('GET /recipient-lists, páginas siguientes', report.nextPages));
  console.log(line('GET /recipient-lists?q=…', report.search));
  console.log(line('GET /recipient-lists/{id}', report.summary));
  console.log(line(`GET /recipient-lists/{id}/users (${report.bigListMembers})`, report.members));
  printMembersPlan(report);
  const page = report.page;
  if ('skipped' in page) {
    console.log(`    /recipient-list/{id} en Chromium: no medido (${page.skipped})`);
    return;
  }
  console.log(
    `    /recipient-list/{id} en Chromium (${page.runs} aperturas, 1280×800; ${page.rowsRendered} filas y ${page.domElements} elementos en el DOM):`,
  );
  console.log(line('  navegación → filas en el DOM', page.rowsInDom));
  console.log(line('  navegación → filas pintadas', page.rowsPainted));
  console.log(line('  respuesta de /users → filas pintadas', page.renderAfterAnswer));
  console.log(`      tarea más larga: ${page.longestTaskMs} ms`);
  if (page.search) console.log(`${line(`  búsqueda «${page.search.query}» → pintada`, page.search.timing)} — ${page.search.matches}`);
  if (page.showMore) console.log(line('  «Mostrar más» → pintado', page.showMore));
}

function printMembersPlan(report: ListsBenchReport): void {
  const { medianMs, plan } = report.membersStatement;
  const buffers = plan.find((line) => /^\s*Buffers:/.test(line))?.trim() ?? 'Buffers: —';
  console.log(`    consulta de miembros en proceso (sin HTTP): mediana ${medianMs.toFixed(2)} ms; ${buffers}`);
  console.log(`\n    EXPLAIN (ANALYZE, BUFFERS) — miembros de la lista de ${report.bigListMembers}`);
  for (const line of plan) console.log(`      ${line}`);
}
