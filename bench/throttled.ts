// (t) The SPA on a family's phone network (bench/run.ts): the built SPA (HERMES_DIST_DIR, else built afresh
// into a temp dir, never ./dist) served by the real server on a temp dir with the demo seed, in Chromium with
// Chrome DevTools' throttling through CDP: 150 ms latency, 1.6 Mb/s down and up
// (Network.emulateNetworkConditions) and a 4× slower CPU (Emulation.setCPUThrottlingRate), on every page and
// on every service worker the browser starts. The browser's own requests are left as they are (its
// Accept-Encoding included), so compression, caching and a service worker count.
// Each run is a new browser context (empty cache, no cookies) and measures, as a user goes:
//   (i)   /login typed in the address bar → the login form shown (cold: nothing cached);
//   (ii)  the same context opens /login again in a new tab → the form shown (a returning user);
//   (iii) "Ingresar" clicked → the first inbox row shown;
//   (iv)  "Redactar", then "Agregar destinatarios" clicked the first time → the picker usable (its search box
//         and its first results shown);
//   (v)   a sent message's reception screen opened from its address → its summary and first row shown.
// Times are taken in the page (performance.now of the click or of the navigation's start, to the animation
// frame where the element is first in the DOM with a box), so Playwright's polling adds nothing. Medians of
// the runs, each against its target; the first run's requests after "Ingresar" are kept as the waterfall.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { cpus, loadavg } from 'node:os';
import { chromium, type Browser, type Page, type Request } from '@playwright/test';
import {
  CHROMIUM,
  CHROMIUM_ARGS,
  throttledPage,
  throttleServiceWorkers,
  waitForMark as waitForPageMark,
  watcherScript,
  judgeFigures,
  printFigures,
  type FigureReport,
  type ThrottleProfile,
} from './chromium-throttle';
import { DEMO_PASSWORD } from '../shared/demo';
import { ApiClient, dataEnv, makeTempDir, removeTempDir, ROOT, runScript, startServer, stopServer } from './support';

const RUNS = 5;
const USER = 'administrador@sanandres.cl';
/** A phone's screen (CSS pixels). */
const VIEWPORT = { width: 412, height: 915 };
const STEP_TIMEOUT_MS = 60_000;
const SEED_TIMEOUT_MS = 180_000;

/** The throttled profile: a mid-range phone on mobile data. 1.6 Mb/s = 200,000 bytes/s. */
const THROTTLE = {
  latencyMs: 150,
  downloadBytesPerS: 1_600_000 / 8,
  uploadBytesPerS: 1_600_000 / 8,
  cpuSlowdown: 4,
} as const satisfies ThrottleProfile;

/** What each figure must stay under, in ms; null: reported only. */
const THROTTLED_TARGETS_MS = {
  loginCold: 1500,
  loginReturning: null,
  inbox: 1500,
  picker: 1000,
  reception: null,
} as const satisfies Record<string, number | null>;

type ThrottledFigure = keyof typeof THROTTLED_TARGETS_MS;

const FIGURE_LABELS: Record<ThrottledFigure, string> = {
  loginCold: 'formulario de ingreso, caché vacía',
  loginReturning: 'formulario de ingreso, segunda visita',
  inbox: '«Ingresar» → primera fila de la bandeja',
  picker: 'selector de destinatarios, primera apertura',
  reception: 'recepción de un mensaje enviado',
};

/** What the page watches for (all selectors shown at once), from the start of each document. */
const WATCHES: Record<ThrottledFigure, string[]> = {
  loginCold: ['#login-email', 'main button[type=submit]'],
  loginReturning: ['#login-email', 'main button[type=submit]'],
  inbox: ['[data-slot="virtual-list"][role="list"] [role="listitem"]'],
  picker: ['[role="dialog"] input[type="search"]', '[role="dialog"] li[data-kind] [role="checkbox"]'],
  reception: ['section[aria-labelledby="reception-summary"]', 'table tbody tr'],
};

interface Waterfall {
  /** ms after the click: start and end of each request, in the order they started. */
  requests: { path: string; type: string; status: number; startMs: number; endMs: number; encoding: string; bytes: number }[];
}

interface RunTimes {
  loginCold: number;
  loginReturning: number;
  inbox: number;
  picker: number;
  reception: number;
}

export interface ThrottledReport {
  profile: typeof THROTTLE;
  viewport: typeof VIEWPORT;
  runs: number;
  user: string;
  /** Where the SPA came from: HERMES_DIST_DIR or a fresh build in a temp dir. */
  dist: string;
  /** What Chromium sent as Accept-Encoding for the main script. */
  acceptEncoding: string;
  figures: FigureReport<ThrottledFigure>[];
  /** Requests after "Ingresar" up to the first inbox row, first run. */
  loginWaterfall: Waterfall;
  /** Requests of the cold visit up to the login form, first run (ms from the navigation's start). */
  coldWaterfall: Waterfall;
  loadAvg1m: number;
  cpus: number;
}

const waitForMark = (page: Page, figure: ThrottledFigure) => waitForPageMark(page, figure, `(t) ${FIGURE_LABELS[figure]}`, STEP_TIMEOUT_MS);

/** Records every request of `page` with its timing, to print the waterfall after "Ingresar". */
function recordRequests(page: Page): { since(epochMs: number, untilEpochMs: number): Promise<Waterfall>; acceptEncoding(): string } {
  const finished: Request[] = [];
  let acceptEncoding = '';
  page.on('requestfinished', (request) => finished.push(request));
  // allHeaders(): what the network stack sent, Accept-Encoding included (headers() has only the page's own).
  page.on('requestfinished', (request) => {
    if (acceptEncoding || request.resourceType() !== 'script') return;
    void request
      .allHeaders()
      .then((headers) => (acceptEncoding ||= headers['accept-encoding'] ?? ''))
      .catch(() => undefined);
  });
  return {
    acceptEncoding: () => acceptEncoding,
    async since(epochMs, untilEpochMs) {
      const requests: Waterfall['requests'] = [];
      for (const request of finished) {
        const timing = request.timing();
        if (timing.startTime < epochMs || timing.startTime > untilEpochMs) continue;
        const response = await request.response();
        const sizes = await request.sizes().catch(() => ({ responseBodySize: 0 }));
        requests.push({
          path: new URL(request.url()).pathname,
          type: request.resourceType(),
          status: response?.status() ?? 0,
          startMs: Math.round(timing.startTime - epochMs),
          endMs: Math.round(timing.startTime + timing.responseEnd - epochMs),
          encoding: (await response?.headerValue('content-encoding')) ?? '',
          bytes: sizes.responseBodySize,
        });
      }
      return { requests: requests.sort((a, b) => a.startMs - b.startMs) };
    },
  };
}

async function oneRun(
  browser: Browser,
  baseUrl: string,
  receptionPath: string,
  keepWaterfall: boolean,
): Promise<{ times: RunTimes; waterfall: Waterfall | null; coldWaterfall: Waterfall | null; acceptEncoding: string }> {
  const context = await browser.newContext({ viewport: VIEWPORT, locale: 'es-CL', timezoneId: 'America/Santiago', baseURL: baseUrl });
  try {
    context.setDefaultTimeout(STEP_TIMEOUT_MS);
    await context.addInitScript({ content: watcherScript(WATCHES) });

    // (i) cold: a new context has an empty cache and no cookies.
    const first = await throttledPage(context, THROTTLE);
    const firstRequests = recordRequests(first);
    await first.goto('/login', { waitUntil: 'commit' });
    const cold = await waitForMark(first, 'loginCold');
    const loginCold = cold.marks.loginCold ?? 0;
    await first.waitForLoadState('load');
    const coldWaterfall = keepWaterfall ? await firstRequests.since(cold.timeOrigin, cold.timeOrigin + loginCold) : null;
    await first.close();

    // (ii) the same context, a second visit.
    const page = await throttledPage(context, THROTTLE);
    const requests = recordRequests(page);
    await page.goto('/login', { waitUntil: 'commit' });
    const loginReturning = (await waitForMark(page, 'loginReturning')).marks.loginReturning ?? 0;

    // (iii) "Ingresar" → the first inbox row.
    await page.locator('#login-email').fill(USER);
    await page.locator('#login-password').fill(DEMO_PASSWORD);
    await page.locator('main button[type=submit]').click();
    const afterLogin = await waitForMark(page, 'inbox');
    const inbox = (afterLogin.marks.inbox ?? 0) - afterLogin.lastClick;
    const waterfall = keepWaterfall
      ? await requests.since(afterLogin.timeOrigin + afterLogin.lastClick, afterLogin.timeOrigin + (afterLogin.marks.inbox ?? 0))
      : null;

    // (iv) Redactar (from the menu, on a phone), then the picker the first time.
    await page.getByRole('button', { name: 'Abrir menú' }).click();
    await page.getByRole('link', { name: 'Redactar', exact: true }).click();
    const add = page.getByRole('button', { name: 'Agregar destinatarios' });
    await add.waitFor({ state: 'visible' });
    await add.click();
    const afterPicker = await waitForMark(page, 'picker');
    const picker = (afterPicker.marks.picker ?? 0) - afterPicker.lastClick;
    await page.keyboard.press('Escape');

    // (v) a sent message's reception, opened from its address.
    await page.goto(receptionPath, { waitUntil: 'commit' });
    const reception = (await waitForMark(page, 'reception')).marks.reception ?? 0;

    return {
      times: { loginCold, loginReturning, inbox, picker, reception },
      waterfall,
      coldWaterfall,
      acceptEncoding: firstRequests.acceptEncoding() || requests.acceptEncoding(),
    };
  } finally {
    await context.close().catch(() => undefined);
  }
}

function buildInto(dist: string): void {
  const vite = join(ROOT, 'node_modules', '.bin', 'vite');
  const build = spawnSync(vite, ['build', '--outDir', dist, '--emptyOutDir', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error(`vite build falló (código ${build.status ?? build.signal})`);
}

/** The newest message of the user's Enviados, through the API: the reception screen to open. */
async function sentReceptionPath(baseUrl: string): Promise<string> {
  const client = new ApiClient(baseUrl);
  await client.login(USER, DEMO_PASSWORD);
  const response = await client.request('/api/messages?folder=sent&limit=1');
  const body = (await response.json()) as { data: { id: number }[] };
  const id = body.data[0]?.id;
  if (id === undefined) throw new Error(`${USER} no tiene mensajes enviados en la semilla`);
  return `/sent/message/${id}/reception`;
}

export async function throttledBenchReport(): Promise<ThrottledReport> {
  const givenDist = process.env.HERMES_DIST_DIR;
  const dist = givenDist ? resolve(givenDist) : makeTempDir('hermes-bench-throttled-dist-');
  const dataDir = makeTempDir('hermes-bench-throttled-');
  let browser: Browser | undefined;
  try {
    if (!givenDist) buildInto(dist);
    if (!existsSync(join(dist, 'index.html'))) throw new Error(`${dist} no tiene index.html`);
    await runScript(['server/seed/cli.ts'], dataEnv(dataDir), SEED_TIMEOUT_MS);
    const server = await startServer(dataDir, { HERMES_DIST_DIR: dist });
    try {
      const receptionPath = await sentReceptionPath(server.baseUrl);
      browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true, timeout: 30_000 });
      await throttleServiceWorkers(browser, THROTTLE);
      const runs: RunTimes[] = [];
      let waterfall: Waterfall = { requests: [] };
      let coldWaterfall: Waterfall = { requests: [] };
      let acceptEncoding = '';
      for (let run = 0; run < RUNS; run += 1) {
        const result = await oneRun(browser, server.baseUrl, receptionPath, run === 0);
        runs.push(result.times);
        if (result.waterfall) waterfall = result.waterfall;
        if (result.coldWaterfall) coldWaterfall = result.coldWaterfall;
        acceptEncoding ||= result.acceptEncoding;
      }
      const figures = judgeFigures<ThrottledFigure>(runs, THROTTLED_TARGETS_MS, FIGURE_LABELS);
      return {
        profile: THROTTLE,
        viewport: VIEWPORT,
        runs: RUNS,
        user: USER,
        dist: givenDist ? dist : 'compilado aparte (temporal)',
        acceptEncoding,
        figures,
        loginWaterfall: waterfall,
        coldWaterfall,
        loadAvg1m: Math.round((loadavg()[0] ?? 0) * 100) / 100,
        cpus: cpus().length,
      };
    } finally {
      await browser?.close().catch(() => undefined);
      await stopServer(server.child);
    }
  } finally {
    removeTempDir(dataDir);
    if (!givenDist) removeTempDir(dist);
  }
}

export function printThrottled(report: ThrottledReport): void {
  const p = report.profile;
  console.log(
    `\n(t) La SPA en la red de un teléfono (Chromium, ${p.latencyMs} ms de latencia, ${(p.downloadBytesPerS * 8) / 1e6} Mb/s, ` +
      `CPU ${p.cpuSlowdown}× más lenta; ${report.viewport.width}×${report.viewport.height}; ${report.user}; mediana de ${report.runs})`,
  );
  console.log(`    Accept-Encoding de Chromium: ${report.acceptEncoding || '(ninguno)'}`);
  printFigures(report.figures);
  const printWaterfall = (title: string, waterfall: Waterfall): void => {
    console.log(title);
    for (const r of waterfall.requests) {
      console.log(
        `      ${String(r.startMs).padStart(5)} → ${String(r.endMs).padStart(5)}  ${r.status} ${r.type.padEnd(10)} ${r.path}` +
          `${r.encoding ? ` (${r.encoding})` : ''} ${r.bytes} B`,
      );
    }
  };
  printWaterfall('    pedidos de la visita en frío hasta el formulario (primera corrida; ms desde la navegación):', report.coldWaterfall);
  printWaterfall('    pedidos tras «Ingresar» hasta la primera fila (primera corrida; ms desde el clic):', report.loginWaterfall);
  console.log(`    carga de la máquina al terminar: loadavg 1 min ${report.loadAvg1m} con ${report.cpus} CPU`);
}
