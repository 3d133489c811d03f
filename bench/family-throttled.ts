// (m) The families' app on a 3G network (bench/run.ts): both builds (HERMES_DIST_DIR, else built afresh into a
// temp dir, never ./dist) served by the real server on a temp dir with the demo seed, in Chromium with
// DevTools' "3G" profile (562.5 ms latency, 1.44 Mb/s down, 675 kb/s up) and a 4× slower CPU on every page
// and service worker. Each run is a new browser context (empty cache, nothing stored) and a guardian of the
// seed with the app and a phone of their own (a phone may ask three codes per ten minutes), as a family goes:
//   (i)   /familia typed in the address bar → the phone form shown (cold: nothing cached);
//   (ii)  the code from the SMS (read from the simulator's outbox) typed, «Ingresar» clicked → the first
//         inbox row shown;
//   (iii) the same context opens /familia again in a new tab, signed in → the first inbox row shown: the
//         time to the inbox a family meets every day.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cpus, loadavg } from 'node:os';
import { chromium, type Browser } from '@playwright/test';
import { COMPOSE_API, type Recipients } from '../shared/compose-contract';
import { DEMO_PASSWORD } from '../shared/demo';
import {
  CHROMIUM,
  CHROMIUM_ARGS,
  throttledPage,
  throttleServiceWorkers,
  waitForMark,
  watcherScript,
  judgeFigures,
  printFigures,
  type FigureReport,
  type ThrottleProfile,
} from './chromium-throttle';
import {
  ApiClient,
  dataEnv,
  makeTempDir,
  outboxDirOf,
  removeTempDir,
  ROOT,
  round,
  runScript,
  sleep,
  startServer,
  stopServer,
} from './support';

const RUNS = 5;
const USER = 'administrador@sanandres.cl';
const VIEWPORT = { width: 360, height: 780 };
const STEP_TIMEOUT_MS = 90_000;
const SEED_TIMEOUT_MS = 180_000;

/** Chrome DevTools' "3G" preset (once "Fast 3G"), with the phone's CPU of bench (t). */
const PROFILE_3G = {
  latencyMs: 562.5,
  downloadBytesPerS: ((1.6 * 1_000_000) / 8) * 0.9,
  uploadBytesPerS: ((750 * 1_000) / 8) * 0.9,
  cpuSlowdown: 4,
} as const satisfies ThrottleProfile;

/** What each figure must stay under, in ms; null: reported only. */
const FAMILY_TARGETS_MS = { phoneForm: 3000, inboxAfterCode: 3000, inboxReturning: 3000 } as const satisfies Record<string, number | null>;

type FamilyFigure = keyof typeof FAMILY_TARGETS_MS;

const FIGURE_LABELS: Record<FamilyFigure, string> = {
  phoneForm: 'formulario del teléfono, caché vacía',
  inboxAfterCode: 'código → primera fila de la bandeja',
  inboxReturning: 'segunda visita → primera fila de la bandeja',
};

const PHONE_INPUT = 'main input[autocomplete="tel"]';
const CODE_INPUT = 'main input[autocomplete="one-time-code"]';
const INBOX_ROW = 'main li a[href]';
const WATCHES: Record<FamilyFigure, string[]> = {
  phoneForm: [PHONE_INPUT, 'main button[type=submit]'],
  inboxAfterCode: [INBOX_ROW],
  inboxReturning: [INBOX_ROW],
};

export interface FamilyThrottledReport {
  profile: typeof PROFILE_3G;
  viewport: typeof VIEWPORT;
  runs: number;
  dist: string;
  figures: FigureReport<FamilyFigure>[];
  loadAvg1m: number;
  cpus: number;
}

const digits = (phone: string): string => phone.replace(/\D/g, '');

/** Guardians of the seed with the app (blue) and a phone no other guardian has: one per run. */
async function guardianPhones(baseUrl: string, count: number): Promise<string[]> {
  const client = new ApiClient(baseUrl);
  await client.login(USER, DEMO_PASSWORD);
  const response = await client.request(`/api${COMPOSE_API.recipients}`);
  const { data } = (await response.json()) as { data: Recipients };
  const guardians = data.courses.flatMap((course) => course.apoderados);
  const owners = new Map<string, Set<number>>();
  for (const g of guardians) {
    const phone = g.ficha_apoderado.fono_celular;
    if (phone) owners.set(digits(phone), (owners.get(digits(phone)) ?? new Set()).add(g.id));
  }
  const phones = [
    ...new Set(
      guardians
        .filter((g) => g.device_status === 'blue' && g.ficha_apoderado.fono_celular)
        .map((g) => g.ficha_apoderado.fono_celular as string)
        .filter((phone) => owners.get(digits(phone))?.size === 1),
    ),
  ];
  if (phones.length < count)
    throw new Error(`(m) la semilla tiene ${phones.length} apoderados con la app y teléfono propio; se necesitan ${count}`);
  return phones.slice(0, count);
}

/** The newest sign-in code the SMS simulator wrote for `phone` after `sinceMs`. */
async function smsCode(outbox: string, phone: string, sinceMs: number): Promise<string> {
  const dir = join(outbox, 'sim');
  const started = Date.now();
  while (Date.now() - started < STEP_TIMEOUT_MS) {
    let best: { code: string; at: number } | null = null;
    for (const name of existsSync(dir) ? readdirSync(dir) : []) {
      const file = join(dir, name);
      const at = statSync(file).mtimeMs;
      if (at < sinceMs) continue;
      const text = readFileSync(file, 'utf8');
      const code = /Tu c[oó]digo de Hermes es (\d{6})/.exec(text)?.[1];
      const to = /^Para: (.+)$/m.exec(text)?.[1] ?? '';
      if (code && digits(to) === digits(phone) && (!best || at > best.at)) best = { code, at };
    }
    if (best) return best.code;
    await sleep(100);
  }
  throw new Error(`(m) ningún SMS con código para ${phone}`);
}

const wait = (page: Parameters<typeof waitForMark>[0], figure: FamilyFigure) =>
  waitForMark(page, figure, `(m) ${FIGURE_LABELS[figure]}`, STEP_TIMEOUT_MS);

async function oneRun(browser: Browser, baseUrl: string, outbox: string, phone: string): Promise<Record<FamilyFigure, number>> {
  const context = await browser.newContext({ viewport: VIEWPORT, locale: 'es-CL', timezoneId: 'America/Santiago', baseURL: baseUrl });
  try {
    context.setDefaultTimeout(STEP_TIMEOUT_MS);
    await context.addInitScript({ content: watcherScript(WATCHES) });
    const page = await throttledPage(context, PROFILE_3G);
    await page.goto('/familia/', { waitUntil: 'commit' });
    const phoneForm = (await wait(page, 'phoneForm')).marks.phoneForm ?? 0;

    const asked = Date.now();
    await page.locator(PHONE_INPUT).fill(phone);
    await page.locator('main button[type=submit]').click();
    const code = await smsCode(outbox, phone, asked - 1000);
    await page.locator(CODE_INPUT).fill(code);
    await page.locator('main button[type=submit]').click();
    const signedIn = await wait(page, 'inboxAfterCode');
    const inboxAfterCode = (signedIn.marks.inboxAfterCode ?? 0) - signedIn.lastClick;
    // Whatever the app does after the inbox shows (a service worker installing) finishes before the next visit.
    await page.waitForLoadState('networkidle').catch(() => undefined);

    const again = await throttledPage(context, PROFILE_3G);
    await again.goto('/familia/', { waitUntil: 'commit' });
    const inboxReturning = (await wait(again, 'inboxReturning')).marks.inboxReturning ?? 0;
    return { phoneForm, inboxAfterCode, inboxReturning };
  } finally {
    await context.close().catch(() => undefined);
  }
}

/** Both builds into `dist`: the staff's first (it empties the folder), then the families' under familia/. */
function buildBoth(dist: string): void {
  const vite = join(ROOT, 'node_modules', '.bin', 'vite');
  for (const args of [
    ['build', '--outDir', dist, '--emptyOutDir', '--logLevel', 'warn'],
    ['build', '-c', 'vite.family.config.ts', '--outDir', dist, '--logLevel', 'warn'],
  ]) {
    const build = spawnSync(vite, args, { cwd: ROOT, stdio: 'inherit' });
    if (build.status !== 0) throw new Error(`vite build falló (código ${build.status ?? build.signal})`);
  }
}

export async function familyThrottledBenchReport(): Promise<FamilyThrottledReport> {
  const givenDist = process.env.HERMES_DIST_DIR;
  const dist = givenDist ? resolve(givenDist) : makeTempDir('hermes-bench-family-dist-');
  const dataDir = makeTempDir('hermes-bench-family-');
  let browser: Browser | undefined;
  try {
    if (!givenDist) buildBoth(dist);
    if (!existsSync(join(dist, 'familia', 'index.html'))) throw new Error(`${dist} no tiene familia/index.html`);
    await runScript(['server/seed/cli.ts'], dataEnv(dataDir), SEED_TIMEOUT_MS);
    const server = await startServer(dataDir, { HERMES_DIST_DIR: dist });
    try {
      const phones = await guardianPhones(server.baseUrl, RUNS);
      browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true, timeout: 30_000 });
      await throttleServiceWorkers(browser, PROFILE_3G);
      const runs: Record<FamilyFigure, number>[] = [];
      for (const phone of phones) runs.push(await oneRun(browser, server.baseUrl, outboxDirOf(dataDir), phone));
      const figures = judgeFigures<FamilyFigure>(runs, FAMILY_TARGETS_MS, FIGURE_LABELS);
      return {
        profile: PROFILE_3G,
        viewport: VIEWPORT,
        runs: RUNS,
        dist: givenDist ? dist : 'compilado aparte (temporal)',
        figures,
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

export function printFamilyThrottled(report: FamilyThrottledReport): void {
  const p = report.profile;
  console.log(
    `\n(m) La app de familias en 3G (Chromium, ${p.latencyMs} ms de latencia, ${round((p.downloadBytesPerS * 8) / 1e4) / 100} Mb/s, ` +
      `CPU ${p.cpuSlowdown}× más lenta; ${report.viewport.width}×${report.viewport.height}; mediana de ${report.runs})`,
  );
  printFigures(report.figures);
  console.log(`    carga de la máquina al terminar: loadavg 1 min ${report.loadAvg1m} con ${report.cpus} CPU`);
}
