// `npm run bench`: the numbers the project watches, printed as a report and written to reports/bench.json.
//
// (a) Initial JavaScript (bench/bundle.ts): the SPA built into a temp dir (never ./dist), the entry module of
//     its index.html plus its modulepreload files, each gzipped at level 9, summed and compared with the
//     budget, with the largest modules and packages in them (from the source maps). Lazy chunks apart.
// (b) Server start: time from spawning `node --import tsx server/main.ts` to the first answered GET /api/health, once on
//     a fresh data dir (creates and seeds PGlite) and then N times reopening that same dir.
// (c) Folder page on a 10,000-message inbox (administrador@sanandres.cl, `seed --messages 10000`): 200 timed
//     GET /api/messages pages against the real server (first page, pages following meta.next_cursor, pages
//     with q), each followed by the same page read through listFolder() on PGlite opened in this process on
//     a byte-identical copy of the seeded dir ("raw": the endpoint's SQL without HTTP, session lookup and
//     JSON). Median/p99 of both and API/raw ≤ 1.3×.
// (d) Chromium (/usr/bin/chromium) on the built SPA and that same data dir: /inbox scrolled with the mouse
//     wheel until ≥ 2,000 rows of the virtual list were loaded and passed through the viewport; long tasks
//     (PerformanceObserver 'longtask', installed with addInitScript) during the scroll, target none > 50 ms.
// (e) Send of one message to ≥ 5,000 guardians × 2 channels (bench/send.ts): the send transaction until
//     commit vs a bare INSERT … SELECT of the same recipient and delivery rows, median of 7, ratio ≤ 1.1×.
// (f) Recipient search per keystroke over 7,000 and 70,000 names (bench/recipient-search.ts): our index
//     next to @leeoniya/ufuzzy and match-sorter on the same names and rule, same matches checked.
// (g) Delivery engine (bench/delivery.ts): one message to every guardian of Colegio San Andrés (≥ 5,000)
//     sent through the real server and its queue: e-mail to an SMTP server on loopback, SMS to the
//     built-in simulator, then both at once; deliveries/s, time from the send's 201 to the last delivery,
//     and the server's memory (RSS of its process group) during it. On PGlite, then on PostgreSQL
//     (DATABASE_URL's server, else a throwaway cluster the bench starts and removes; a database cloned per
//     run and dropped after it), also with the server at HERMES_WORKERS=0 beside 1 and 2 `npm run worker`
//     processes; and the same e-mails through a bare nodemailer pool: the engine's cost as a ratio. Each
//     run's CPU seconds too; last, a kill -9 of the PGlite server mid-send: the e-mails received twice.
// (h) Templates page on the large seed (bench/templates.ts): GET /api/templates, a search and a library tab
//     for a user with 100 templates of their own, and a Mexican school's list; medians and p90.
// (i) The roster import of a 3,000-student, 5,000-guardian school (bench/roster.ts): a CSV read, previewed and
//     applied on PGlite in this process, against a bare multi-row INSERT of the same rows; the same file again;
//     lines per second and the process's peak RSS. Target: the whole import ≤ 10 s.
// (l) Recipient-list pages on `seed --students 2500` (bench/lists.ts): the paged lists, "Cargar más", q,
//     one list's summary and the members of a list of every guardian; median and p95 of each; then that
//     list's page in Chromium on the built SPA (HERMES_DIST_DIR or dist/): rows painted, a search, "Mostrar más".
// (q) The SMS quota screen on `seed --students 2500` (bench/quota.ts): GET /api/quota/usage (monthly,
//     annual, school year) and /api/quota/settings; medians and p90.
// (r) Staff activity, the activity summary and the rankings on `seed --students 2500` (bench/activity.ts):
//     each aggregate's statement in-process on PGlite (this month, this school year), median and p90 against
//     100 ms, with its EXPLAIN ANALYZE plan.
// (k) Connectivity of families on `seed --students 2500` (bench/connectivity.ts): GET /api/dashboard/connectivity,
//     the biggest course's page and its call list (JSON, CSV); medians and p90, and each statement's EXPLAIN
//     ANALYZE printed (a school year of messages is added when the seed has less).
// (n) The news wall on `seed --students 2500` plus 20,000 posts at Colegio San Andrés (bench/news.ts): GET
//     /api/news (first page), a search, the managers' status=all and a category; medians and p90 against
//     100 ms, and the EXPLAIN ANALYZE plans of the first page and the search.
// (y) The school's directory, GET /api/recipients, on a `seed --students` school of ≥ 5,000 families
//     (bench/recipients-size.ts): its time (median, p90) and its size raw, gzip and brotli (node:zlib on the
//     body), beside GET /api/recipients/courses (levels and courses without people).
// (p) A person's data as a ZIP for the largest guardian on `seed --students 2500` with a school year of
//     messages (bench/privacy.ts): the export's time to the last byte, median and p90, its size, the inventory.
// (t) The SPA on a phone's network (bench/throttled.ts): the built SPA and the real server on the demo seed in
//     Chromium with CDP throttling (150 ms, 1.6 Mb/s, CPU 4× slower): the login form cold and on a second
//     visit, "Ingresar" → the first inbox row, the recipient picker's first opening, a reception screen;
//     medians against their targets, and the requests after "Ingresar" as a waterfall.
// (m) The families' app on 3G (bench/family-throttled.ts): both builds and the real server on the demo seed in
//     Chromium with DevTools' "3G" profile and a CPU 4× slower: the phone form cold, the SMS code → the first
//     inbox row, and a second visit signed in → the first inbox row; medians against their targets.
//
// (z) Erasure of a guardian with a school year of messages on `seed --students 2500` (bench/erasure.ts).
// `npm run bench -- --only g` (or `--only a,e`) runs just those sections and updates their part of the report.
// Everything runs on a temp data dir and a free port (never ./data); every server started here is
// stopped before the next one starts, and on exit.
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { chromium, type Browser } from '@playwright/test';
import { eq } from 'drizzle-orm';
import { openDb } from '../server/db/client';
import { users } from '../server/db/schema/auth';
import { decodeCursor, listFolder } from '../server/messages/queries';
import { DEMO_PASSWORD } from '../shared/demo';
import { API, COOKIE, XSRF_HEADER } from '../shared/contract';
import { bundleReport, FAMILY_BUILD, printBundle } from './bundle';
import { connectivityBenchReport, printConnectivity } from './connectivity';
import { erasureBenchReport, printErasure } from './erasure';
import { deliveryBenchReport } from './delivery';
import { listsBenchReport, printLists } from './lists';
import { printRecipientSearchReport, runRecipientSearchBench } from './recipient-search';
import { printPrivacy, privacyBenchReport } from './privacy';
import { printRecipientsSize, recipientsSizeBenchReport } from './recipients-size';
import { printRoster, rosterBenchReport } from './roster';
import { printSend, sendBenchReport } from './send';
import { printQuota, quotaBenchReport } from './quota';
import { activityBenchReport, printActivity } from './activity';
import { printTemplates, templatesBenchReport } from './templates';
import { newsBenchReport, printNews } from './news';
import { printThrottled, throttledBenchReport } from './throttled';
import { familyThrottledBenchReport, printFamilyThrottled } from './family-throttled';
import { formatSummary, summarize, type SummaryRow, type SummaryRows } from './summary';
import {
  activityRows,
  bundleRows,
  familyBundleRows,
  familyThrottledRows,
  connectivityRows,
  deliveryRows,
  listsRows,
  newsRows,
  quotaRows,
  recipientSearchRows,
  privacyRows,
  recipientsSizeRows,
  rosterRows,
  sendRows,
  startupRows,
  templatesRows,
  throttledRows,
} from './summary-rows';
import {
  ApiClient,
  dataEnv,
  killAll,
  makeTempDir,
  median,
  removeTempDir,
  ROOT,
  round,
  round2,
  runScript,
  startServer,
  stopServer,
} from './support';

const REPORT_FILE = join(ROOT, 'reports', 'bench.json');

const REOPEN_RUNS = 5;

// ───────────────────────────── (b) server start ─────────────────────────────

interface StartupReport {
  runs: number;
  freshCreateMs: number;
  reopenMs: number[];
  reopenMedianMs: number;
  reopenMinMs: number;
  reopenMaxMs: number;
}

/** Starts the server, returns the ms from spawn to the first 200 from /api/health, then stops it. */
async function timeStart(dataDir: string): Promise<number> {
  const server = await startServer(dataDir);
  await stopServer(server.child);
  return server.startMs;
}

async function startupReport(): Promise<StartupReport> {
  const dataDir = makeTempDir('hermes-bench-');
  try {
    const freshCreateMs = await timeStart(dataDir);
    const reopenMs: number[] = [];
    for (let run = 0; run < REOPEN_RUNS; run += 1) reopenMs.push(await timeStart(dataDir));
    return {
      runs: REOPEN_RUNS,
      freshCreateMs: round(freshCreateMs),
      reopenMs: reopenMs.map(round),
      reopenMedianMs: round(median(reopenMs)),
      reopenMinMs: round(Math.min(...reopenMs)),
      reopenMaxMs: round(Math.max(...reopenMs)),
    };
  } finally {
    removeTempDir(dataDir);
  }
}

// ───────────────────────── (c) folder page: API vs raw ─────────────────────────

const FOLDER_MESSAGES = 10_000;
const FOLDER_REQUESTS = 200;
const FOLDER_WARMUP = 10;
const PAGE_LIMIT = 50;
const RATIO_TARGET = 1.3;
const BENCH_EMAIL = 'administrador@sanandres.cl';
const SEED_TIMEOUT_MS = 180_000;
/** Each cycle: the first page, pages following `meta.next_cursor` deeper into the folder, and searches. */
const SEARCHES = ['reunión', 'licencia'] as const;
const DEEP_PAGES_PER_CYCLE = 11;
const SEARCH_PAGES = 4;

/** One folder-page request: what the SPA sends (`q`, `cursor`), replayed identically against PGlite. */
interface PageRequest {
  kind: 'first' | 'next' | 'search';
  q: string;
  cursor: string;
}

interface LatencyStats {
  n: number;
  medianMs: number;
  p99Ms: number;
  minMs: number;
  maxMs: number;
}

interface FolderApiReport {
  messages: number;
  folderTotal: number;
  limit: number;
  requests: { first: number; next: number; search: number; deepestPage: number };
  seedMs: number;
  api: LatencyStats;
  raw: LatencyStats;
  /** Median per kind of request: first page, following next_cursor, with q. */
  byKind: Record<PageRequest['kind'], { apiMedianMs: number; rawMedianMs: number }>;
  ratioMedian: number;
  ratioP99: number;
  ratioTarget: number;
  withinTarget: boolean;
  rawIncludes: string;
  /**
   * What any answer of this server costs beyond its SQL, timed beside each page: GET /api/health (the HTTP
   * hop and Hono, no session) and GET /api/user (the session look-up and one small query), and the ratio
   * the raw pages would have with that cost added: about the floor of the folder API.
   */
  floor: { healthMedianMs: number; userMedianMs: number; ratioWithHop: number; ratioWithSession: number };
}

const RAW_INCLUDES =
  'listFolder() de server/messages/queries.ts llamado en este proceso sobre PGlite (drizzle, copia idéntica del ' +
  'directorio sembrado), intercalado pedido a pedido con la API: las mismas 3 consultas ' +
  'del endpoint (ids de la página + count(*) en paralelo, luego las filas de esos ids) y el armado de los resúmenes; ' +
  'sin HTTP, sin la búsqueda de la sesión (requireAuth), sin validación ni JSON.';

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return 0;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? 0;
}

function stats(values: readonly number[]): LatencyStats {
  return {
    n: values.length,
    medianMs: round2(median(values)),
    p99Ms: round2(percentile(values, 99)),
    minMs: round2(Math.min(...values)),
    maxMs: round2(Math.max(...values)),
  };
}

function pageUrl(request: PageRequest): string {
  const params = new URLSearchParams({ folder: 'inbox', limit: String(PAGE_LIMIT) });
  if (request.q) params.set('q', request.q);
  if (request.cursor) params.set('cursor', request.cursor);
  return `/api/messages?${params}`;
}

interface PageBody {
  data: unknown[];
  meta: { next_cursor: string | null; total: number };
}

async function fetchPage(client: ApiClient, request: PageRequest): Promise<{ ms: number; body: PageBody }> {
  const started = performance.now();
  const response = await client.request(pageUrl(request));
  const text = await response.text();
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`GET ${pageUrl(request)} → ${response.status}: ${text.slice(0, 300)}`);
  return { ms, body: JSON.parse(text) as PageBody };
}

type RawQuery = (request: PageRequest) => Promise<unknown>;

/**
 * Plays the request mix: each page is fetched through the API and, right after, the same page (same `q`,
 * same cursor) is read with `raw`, so both sides see the same machine load and the same cache state.
 */
async function timePages(
  client: ApiClient,
  raw: RawQuery,
): Promise<{
  plan: PageRequest[];
  apiMs: number[];
  rawMs: number[];
  healthMs: number[];
  userMs: number[];
  total: number;
  deepestPage: number;
}> {
  const plan: PageRequest[] = [];
  const apiMs: number[] = [];
  const rawMs: number[] = [];
  const healthMs: number[] = [];
  const userMs: number[] = [];
  const timeGet = async (path: string, into: number[]) => {
    const started = performance.now();
    const response = await client.request(path);
    await response.text();
    into.push(performance.now() - started);
    if (response.status !== 200) throw new Error(`GET ${path} → ${response.status}`);
  };
  let total = 0;
  let deepCursor = '';
  let deepPage = 1;
  let deepestPage = 1;
  const run = async (request: PageRequest): Promise<PageBody> => {
    const result = await fetchPage(client, request);
    const started = performance.now();
    await raw(request);
    rawMs.push(performance.now() - started);
    await timeGet('/api/health', healthMs);
    await timeGet('/api/user', userMs);
    plan.push(request);
    apiMs.push(result.ms);
    return result.body;
  };

  for (let warm = 0; warm < FOLDER_WARMUP; warm += 1) {
    await fetchPage(client, { kind: 'first', q: '', cursor: '' });
    await raw({ kind: 'first', q: '', cursor: '' });
  }

  let cycle = 0;
  while (plan.length < FOLDER_REQUESTS) {
    const first = await run({ kind: 'first', q: '', cursor: '' });
    total = first.meta.total;
    if (!deepCursor) {
      deepCursor = first.meta.next_cursor ?? '';
      deepPage = 1;
    }
    for (let step = 0; step < DEEP_PAGES_PER_CYCLE && deepCursor && plan.length < FOLDER_REQUESTS; step += 1) {
      const body = await run({ kind: 'next', q: '', cursor: deepCursor });
      deepPage += 1;
      deepestPage = Math.max(deepestPage, deepPage);
      deepCursor = body.meta.next_cursor ?? '';
    }
    const q = SEARCHES[cycle % SEARCHES.length] ?? '';
    let cursor = '';
    for (let step = 0; step < SEARCH_PAGES && plan.length < FOLDER_REQUESTS; step += 1) {
      const body = await run({ kind: 'search', q, cursor });
      cursor = body.meta.next_cursor ?? '';
      if (!cursor) break;
    }
    cycle += 1;
  }
  return { plan, apiMs, rawMs, healthMs, userMs, total, deepestPage };
}

async function folderApiReport(dataDir: string): Promise<FolderApiReport> {
  const seedStarted = performance.now();
  await runScript(['server/seed/cli.ts', '--messages', String(FOLDER_MESSAGES)], dataEnv(dataDir), SEED_TIMEOUT_MS);
  const seedMs = performance.now() - seedStarted;

  // PGlite takes one process per data dir: the raw side reads a byte-identical copy made while nothing
  // has it open, so it can run interleaved with the server instead of minutes later under other load.
  const rawDir = makeTempDir('hermes-bench-raw-');
  let pages: Awaited<ReturnType<typeof timePages>>;
  try {
    cpSync(dataDir, rawDir, { recursive: true });
    const server = await startServer(dataDir);
    try {
      const handle = await openDb({ dataDir: rawDir, databaseUrl: '' });
      try {
        const [user] = await handle.db.select({ id: users.id }).from(users).where(eq(users.email, BENCH_EMAIL));
        if (!user) throw new Error(`${BENCH_EMAIL} no existe en la base sembrada`);
        const raw: RawQuery = (request) => {
          const cursor = request.cursor ? decodeCursor(request.cursor) : null;
          if (request.cursor && !cursor) throw new Error(`cursor inválido: ${request.cursor}`);
          return listFolder(handle.db, { userId: user.id, folder: 'inbox', q: request.q, limit: PAGE_LIMIT, cursor });
        };
        const client = new ApiClient(server.baseUrl);
        await client.login(BENCH_EMAIL, DEMO_PASSWORD);
        pages = await timePages(client, raw);
      } finally {
        await handle.close();
      }
    } finally {
      await stopServer(server.child);
    }
  } finally {
    removeTempDir(rawDir);
  }
  if (pages.total < FOLDER_MESSAGES) throw new Error(`la bandeja tiene ${pages.total} mensajes; se esperaban ≥ ${FOLDER_MESSAGES}`);

  const api = { ms: pages.apiMs, plan: pages.plan, total: pages.total, deepestPage: pages.deepestPage };
  const rawMs = pages.rawMs;
  const apiStats = stats(api.ms);
  const rawStats = stats(rawMs);
  const ratioMedian = round2(median(api.ms) / median(rawMs));
  const ratioP99 = round2(percentile(api.ms, 99) / percentile(rawMs, 99));
  const count = (kind: PageRequest['kind']): number => api.plan.filter((request) => request.kind === kind).length;
  const kindMedian = (values: readonly number[], kind: PageRequest['kind']): number =>
    round2(median(values.filter((_, index) => api.plan[index]?.kind === kind)));
  const byKind = (kind: PageRequest['kind']) => ({ apiMedianMs: kindMedian(api.ms, kind), rawMedianMs: kindMedian(rawMs, kind) });
  return {
    messages: FOLDER_MESSAGES,
    folderTotal: api.total,
    limit: PAGE_LIMIT,
    requests: { first: count('first'), next: count('next'), search: count('search'), deepestPage: api.deepestPage },
    seedMs: round(seedMs),
    api: apiStats,
    raw: rawStats,
    byKind: { first: byKind('first'), next: byKind('next'), search: byKind('search') },
    ratioMedian,
    ratioP99,
    ratioTarget: RATIO_TARGET,
    withinTarget: ratioMedian <= RATIO_TARGET,
    rawIncludes: RAW_INCLUDES,
    floor: {
      healthMedianMs: round2(median(pages.healthMs)),
      userMedianMs: round2(median(pages.userMs)),
      ratioWithHop: round2((median(rawMs) + median(pages.healthMs)) / median(rawMs)),
      ratioWithSession: round2((median(rawMs) + median(pages.userMs)) / median(rawMs)),
    },
  };
}

// ───────────────────────── (d) scrolling the inbox in Chromium ─────────────────────────

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking'];
const SCROLL_MIN_ROWS = 2_000;
const SCROLL_STEP_PX = 600;
const SCROLL_TIMEOUT_MS = 120_000;
const LONG_TASK_MS = 50;

interface ScrollReport {
  viewport: { width: number; height: number };
  rowsLoaded: number;
  rowsScrolled: number;
  wheelSteps: number;
  scrollMs: number;
  longTasks: number;
  maxLongTaskMs: number;
  /** Duration of each long task during scrolling. */
  longTaskMs: number[];
  longTasksOnLoad: number;
  /** 1-minute load average right after scrolling, and the CPU count: long tasks depend on other load. */
  loadAvg1m: number;
  cpus: number;
  thresholdMs: number;
  withinTarget: boolean;
}

/** Installed before any page script: every long task (> 50 ms by definition) since navigation. */
const LONG_TASK_OBSERVER = `
  window.__benchLongTasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__benchLongTasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch (error) {
    window.__benchLongTasksError = String(error);
  }
`;

interface ListState {
  rows: number;
  rowHeight: number;
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
  busy: boolean;
}

async function scrollReport(dataDir: string): Promise<ScrollReport> {
  const viewport = { width: 1280, height: 800 };
  const server = await startServer(dataDir);
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true, timeout: 30_000 });
    const context = await browser.newContext({ viewport, locale: 'es-CL', timezoneId: 'America/Santiago' });
    context.setDefaultTimeout(15_000);
    await context.addInitScript(LONG_TASK_OBSERVER);
    const page = await context.newPage();

    const csrf = await context.request.get(`${server.baseUrl}/api${API.csrf}`);
    if (!csrf.ok()) throw new Error(`GET /api${API.csrf} → ${csrf.status()}`);
    const xsrf = (await context.cookies()).find((cookie) => cookie.name === COOKIE.xsrf);
    if (!xsrf) throw new Error(`GET /api${API.csrf} no entregó la cookie ${COOKIE.xsrf}`);
    const login = await context.request.post(`${server.baseUrl}/api${API.login}`, {
      data: { email: BENCH_EMAIL, password: DEMO_PASSWORD },
      headers: { [XSRF_HEADER]: decodeURIComponent(xsrf.value), Accept: 'application/json' },
    });
    if (login.status() !== 200) throw new Error(`POST /api${API.login} → ${login.status()}: ${await login.text()}`);

    await page.goto(`${server.baseUrl}/inbox`, { waitUntil: 'load' });
    const list = page.locator('[data-slot="virtual-list"][role="list"]');
    await list.waitFor({ state: 'visible' });
    const state = (): Promise<ListState> =>
      list.evaluate((element) => {
        const spacer = element.firstElementChild as HTMLElement | null;
        const row = spacer?.firstElementChild as HTMLElement | null;
        const rowHeight = row ? parseFloat(row.style.height) || row.getBoundingClientRect().height : 0;
        return {
          rows: spacer && rowHeight > 0 ? Math.round(spacer.offsetHeight / rowHeight) : 0,
          rowHeight,
          scrollTop: element.scrollTop,
          scrollHeight: element.scrollHeight,
          clientHeight: element.clientHeight,
          busy: element.getAttribute('aria-busy') === 'true',
        };
      });
    const nextFrames = (): Promise<void> =>
      page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));

    const box = await list.boundingBox();
    if (!box) throw new Error('la lista no tiene caja visible');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForTimeout(500);

    const scrollStart = await page.evaluate(() => performance.now());
    const started = performance.now();
    let steps = 0;
    let stuck = 0;
    let current = await state();
    // Wheel down until ≥ 2,000 rows are loaded and the first 2,000 have all passed through the viewport.
    const scrolledRows = (s: ListState): number => (s.rowHeight > 0 ? Math.floor((s.scrollTop + s.clientHeight) / s.rowHeight) : 0);
    while (current.rows < SCROLL_MIN_ROWS || scrolledRows(current) < SCROLL_MIN_ROWS) {
      if (performance.now() - started > SCROLL_TIMEOUT_MS) {
        throw new Error(`en ${SCROLL_TIMEOUT_MS} ms solo se cargaron ${current.rows} filas (scrollTop ${current.scrollTop})`);
      }
      await page.mouse.wheel(0, SCROLL_STEP_PX);
      steps += 1;
      await nextFrames();
      const after = await state();
      if (after.scrollTop === current.scrollTop && after.rows === current.rows) {
        stuck += 1;
        if (after.rows >= SCROLL_MIN_ROWS && !after.busy && stuck > 20) break; // at the end of what is loaded
        if (stuck > 200) throw new Error(`la lista dejó de avanzar en ${after.rows} filas (scrollTop ${after.scrollTop})`);
        await page.waitForTimeout(after.busy ? 50 : 10);
      } else {
        stuck = 0;
      }
      current = after;
    }
    await page.waitForTimeout(300); // let the last frames' long tasks be reported
    const scrollMs = performance.now() - started;
    const tasks = await page.evaluate(
      () => (window as unknown as { __benchLongTasks?: { start: number; duration: number }[] }).__benchLongTasks ?? [],
    );
    const observerError = await page.evaluate(() => (window as unknown as { __benchLongTasksError?: string }).__benchLongTasksError);
    if (observerError) throw new Error(`PerformanceObserver longtask no disponible: ${observerError}`);
    const during = tasks.filter((task) => task.start >= scrollStart && task.duration > LONG_TASK_MS);
    const maxLongTaskMs = during.reduce((max, task) => Math.max(max, task.duration), 0);
    await context.close();
    return {
      viewport,
      rowsLoaded: current.rows,
      rowsScrolled: scrolledRows(current),
      wheelSteps: steps,
      scrollMs: round(scrollMs),
      longTasks: during.length,
      maxLongTaskMs: round(maxLongTaskMs),
      longTaskMs: during.map((task) => round(task.duration)),
      longTasksOnLoad: tasks.filter((task) => task.start < scrollStart && task.duration > LONG_TASK_MS).length,
      loadAvg1m: round2(loadavg()[0] ?? 0),
      cpus: cpus().length,
      thresholdMs: LONG_TASK_MS,
      withinTarget: during.length === 0,
    };
  } finally {
    await browser?.close().catch(() => undefined);
    await stopServer(server.child);
  }
}

/** (c) then (d) on one seeded temp data dir, deleted at the end. */
async function folderReports(): Promise<{ folderApi: FolderApiReport; scroll: ScrollReport }> {
  const dataDir = makeTempDir('hermes-bench-folder-');
  try {
    const folderApi = await folderApiReport(dataDir);
    printFolderApi(folderApi);
    const scroll = await scrollReport(dataDir);
    printScroll(scroll);
    return { folderApi, scroll };
  } finally {
    removeTempDir(dataDir);
  }
}

// ───────────────────────────── report ─────────────────────────────

function printStartup(report: StartupReport): void {
  console.log('\n(b) Arranque del servidor (spawn de `node --import tsx server/main.ts` → primer 200 de GET /api/health)');
  console.log(`    directorio nuevo (crea y siembra PGlite): ${report.freshCreateMs} ms`);
  console.log(
    `    reabriendo el mismo directorio, ${report.runs} veces: mediana ${report.reopenMedianMs} ms, ` +
      `mín ${report.reopenMinMs} ms, máx ${report.reopenMaxMs} ms  [${report.reopenMs.join(', ')}]`,
  );
}

function printFolderApi(report: FolderApiReport): void {
  const line = (label: string, s: LatencyStats): string =>
    `    ${label}mediana ${s.medianMs.toFixed(2)} ms, p99 ${s.p99Ms.toFixed(2)} ms  (mín ${s.minMs.toFixed(2)}, máx ${s.maxMs.toFixed(2)}, n=${s.n})`;
  console.log(
    `\n(c) Página de carpeta: GET /api/messages?folder=inbox&limit=${report.limit} sobre ${report.folderTotal} mensajes (PGlite)`,
  );
  console.log(
    `    sembrado con --messages ${report.messages} en ${report.seedMs} ms; ${report.api.n} pedidos: ${report.requests.first} primera página, ` +
      `${report.requests.next} siguiendo meta.next_cursor (hasta la página ${report.requests.deepestPage}), ` +
      `${report.requests.search} con q (${SEARCHES.join(', ')})`,
  );
  console.log(line('API (HTTP, servidor real):  ', report.api));
  console.log(line('raw (mismas páginas, SQL):  ', report.raw));
  const kinds = [
    ['primera página', report.byKind.first],
    ['siguiendo next_cursor', report.byKind.next],
    ['con q', report.byKind.search],
  ] as const;
  console.log(
    `    medianas por tipo (API / raw): ` +
      kinds.map(([label, k]) => `${label} ${k.apiMedianMs.toFixed(2)} / ${k.rawMedianMs.toFixed(2)} ms`).join('; '),
  );
  console.log(`    raw = ${report.rawIncludes}`);
  console.log(
    `    piso, medido junto a cada página: GET /api/health (HTTP y Hono, sin sesión) ${report.floor.healthMedianMs.toFixed(2)} ms → ` +
      `raw + eso = ${report.floor.ratioWithHop.toFixed(2)}× raw; GET /api/user (más la sesión y una consulta) ` +
      `${report.floor.userMedianMs.toFixed(2)} ms → ${report.floor.ratioWithSession.toFixed(2)}× raw`,
  );
  const verdict = report.withinTarget ? 'OK' : 'OVER';
  console.log(
    `    razón API/raw: mediana ${report.ratioMedian.toFixed(2)}×, p99 ${report.ratioP99.toFixed(2)}× / objetivo ≤ ${report.ratioTarget}× (mediana) → ${verdict}`,
  );
}

function printScroll(report: ScrollReport): void {
  console.log(
    `\n(d) Desplazamiento de /inbox en Chromium (lista virtual, ${report.viewport.width}×${report.viewport.height}, rueda de ${SCROLL_STEP_PX} px)`,
  );
  console.log(
    `    ${report.rowsLoaded} filas cargadas, recorridas ${report.rowsScrolled} en ${report.wheelSteps} pasos de rueda (${report.scrollMs} ms)`,
  );
  const verdict = report.withinTarget ? 'OK' : 'OVER';
  console.log(
    `    tareas largas (> ${report.thresholdMs} ms) durante el desplazamiento: ${report.longTasks}, ` +
      `máx ${report.maxLongTaskMs} ms / objetivo ninguna → ${verdict}` +
      (report.longTaskMs.length > 0 ? `  [${report.longTaskMs.join(', ')} ms]` : ''),
  );
  console.log(`    (tareas largas durante la carga inicial de la página, fuera de la medición: ${report.longTasksOnLoad})`);
  console.log(
    `    carga de la máquina al terminar: loadavg 1 min ${report.loadAvg1m} con ${report.cpus} CPU ` +
      '(con otra carga en paralelo aparecen tareas largas que en reposo no hay)',
  );
}

const folderApiRows: SummaryRows<FolderApiReport> = (r) => [
  {
    section: 'c',
    figure: 'API de carpeta ÷ su consulta (mediana)',
    unit: '×',
    value: r.ratioMedian,
    goal: { kind: 'atMost', limit: r.ratioTarget },
  },
  {
    section: 'c',
    figure: 'piso: su consulta + GET /api/user, ÷ su consulta',
    unit: '×',
    value: r.floor.ratioWithSession,
    goal: { kind: 'reported' },
  },
];

const scrollRows: SummaryRows<ScrollReport> = (r) => [
  {
    section: 'd',
    figure: `tareas largas (> ${r.thresholdMs} ms) al recorrer /inbox`,
    unit: '',
    value: r.longTasks,
    goal: { kind: 'atMost', limit: 0 },
  },
];

const SECTIONS = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'k', 'l', 'm', 'n', 'p', 'q', 'r', 't', 'y', 'z'] as const;
type Section = (typeof SECTIONS)[number];

/** `--only g` or `--only a,e`: just those sections; (c) and (d) share one seeded dir and run together. */
function selectedSections(): Set<Section> {
  const { values } = parseArgs({ options: { only: { type: 'string' } } });
  if (values.only === undefined) return new Set(SECTIONS);
  const picked = values.only.split(',').map((part) => part.trim().toLowerCase());
  const unknown = picked.filter((part) => !(SECTIONS as readonly string[]).includes(part));
  if (unknown.length > 0 || picked.length === 0) {
    throw new Error(`--only acepta secciones ${SECTIONS.join(', ')} separadas por comas (recibido "${values.only}")`);
  }
  const sections = new Set(picked as Section[]);
  if (sections.has('c') || sections.has('d')) sections.add('c').add('d');
  return sections;
}

/** A partial run keeps the other sections' last results in reports/bench.json. */
function previousReport(): Record<string, unknown> {
  if (!existsSync(REPORT_FILE)) return {};
  try {
    return JSON.parse(readFileSync(REPORT_FILE, 'utf8')) as Record<string, unknown>;
  } catch {
    return {};
  }
}

async function main(): Promise<void> {
  const onSignal = (signal: NodeJS.Signals): void => {
    void killAll().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  const sections = selectedSections();
  const all = sections.size === SECTIONS.length;
  console.log(all ? 'Hermes bench' : `Hermes bench (solo ${[...sections].join(', ')})`);
  const report: Record<string, unknown> = all ? {} : previousReport();
  /** The summary's rows of the sections this run measured, in the order they ran. */
  const rows: SummaryRow[] = [];
  if (sections.has('a')) {
    const bundle = bundleReport();
    printBundle(bundle);
    report.bundle = bundle;
    rows.push(...bundleRows(bundle));
    const familyBundle = bundleReport(FAMILY_BUILD);
    printBundle(familyBundle, '(a) JavaScript inicial de la app de familias (/familia)');
    report.familyBundle = familyBundle;
    rows.push(...familyBundleRows(familyBundle));
  }
  if (sections.has('b')) {
    const startup = await startupReport();
    printStartup(startup);
    report.startup = startup;
    rows.push(...startupRows(startup));
  }
  if (sections.has('c')) {
    const { folderApi, scroll } = await folderReports();
    report.folderApi = folderApi;
    report.scroll = scroll;
    rows.push(...folderApiRows(folderApi), ...scrollRows(scroll));
  }
  if (sections.has('e')) {
    const send = await sendBenchReport();
    printSend(send);
    report.send = send;
    rows.push(...sendRows(send));
  }
  if (sections.has('f')) {
    const recipientSearch = runRecipientSearchBench();
    printRecipientSearchReport(recipientSearch);
    report.recipientSearch = recipientSearch;
    rows.push(...recipientSearchRows(recipientSearch));
  }
  if (sections.has('g')) {
    // printed run by run inside, as each one can take a minute
    const delivery = await deliveryBenchReport();
    report.delivery = delivery;
    rows.push(...deliveryRows(delivery));
  }
  if (sections.has('h')) {
    const templates = await templatesBenchReport();
    printTemplates(templates);
    report.templates = templates;
    rows.push(...templatesRows(templates));
  }
  if (sections.has('i')) {
    const roster = await rosterBenchReport();
    printRoster(roster);
    report.roster = roster;
    rows.push(...rosterRows(roster));
  }
  if (sections.has('l')) {
    const lists = await listsBenchReport();
    printLists(lists);
    report.lists = lists;
    rows.push(...listsRows(lists));
  }
  if (sections.has('q')) {
    const quota = await quotaBenchReport();
    printQuota(quota);
    report.quota = quota;
    rows.push(...quotaRows(quota));
  }
  if (sections.has('r')) {
    const activity = await activityBenchReport();
    printActivity(activity);
    report.activity = activity;
    rows.push(...activityRows(activity));
  }
  if (sections.has('n')) {
    const news = await newsBenchReport();
    printNews(news);
    report.news = news;
    rows.push(...newsRows(news));
  }
  if (sections.has('k')) {
    const connectivity = await connectivityBenchReport();
    printConnectivity(connectivity);
    report.connectivity = connectivity;
    rows.push(...connectivityRows(connectivity));
  }
  if (sections.has('z')) {
    const erasure = await erasureBenchReport();
    printErasure(erasure);
    report.erasure = erasure;
  }
  if (sections.has('y')) {
    const recipientsSize = await recipientsSizeBenchReport();
    printRecipientsSize(recipientsSize);
    report.recipientsSize = recipientsSize;
    rows.push(...recipientsSizeRows(recipientsSize));
  }
  if (sections.has('p')) {
    const privacy = await privacyBenchReport();
    printPrivacy(privacy);
    report.privacy = privacy;
    rows.push(...privacyRows(privacy));
  }
  if (sections.has('t')) {
    const throttled = await throttledBenchReport();
    printThrottled(throttled);
    report.throttled = throttled;
    rows.push(...throttledRows(throttled));
  }
  if (sections.has('m')) {
    const familyThrottled = await familyThrottledBenchReport();
    printFamilyThrottled(familyThrottled);
    report.familyThrottled = familyThrottled;
    rows.push(...familyThrottledRows(familyThrottled));
  }

  const summary = summarize(rows);
  console.log(
    `\nResumen (${all ? 'todas las secciones' : `secciones ${[...sections].join(', ')}`}; loadavg 1 min ${(loadavg()[0] ?? 0).toFixed(2)} con ${cpus().length} CPU)`,
  );
  for (const line of formatSummary(summary)) console.log(`  ${line}`);
  report.summary = summary;

  mkdirSync(dirname(REPORT_FILE), { recursive: true });
  writeFileSync(REPORT_FILE, `${JSON.stringify({ ...report, date: new Date().toISOString(), node: process.version }, null, 2)}\n`);
  console.log(`\nInforme: ${relative(ROOT, REPORT_FILE)}`);
}

main().catch(async (error: unknown) => {
  await killAll();
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
