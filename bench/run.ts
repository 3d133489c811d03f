// `npm run bench`: two numbers the project watches, printed as a report and written to reports/bench.json.
//
// (a) Initial JavaScript: the entry module of dist/index.html plus its modulepreload files, each gzipped
//     at level 9, summed and compared with the budget. Lazy chunks are listed apart.
// (b) Server start: time from spawning `tsx server/main.ts` to the first answered GET /api/health, once on
//     a fresh data dir (creates and seeds PGlite) and then N times reopening that same dir.
//
// Everything runs on a temp data dir and a free port (never ./data); every server started here is
// stopped before the next one starts, and on exit.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');
const REPORT_FILE = join(ROOT, 'reports', 'bench.json');

const JS_BUDGET_KB = 110;
/** What React 19 + ReactDOM + XState + the router cost before any app code: the budget's practical floor. */
const JS_FLOOR_KB = 82;
const REOPEN_RUNS = 5;
const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 10_000;
const HOST = '127.0.0.1';

const kB = (bytes: number): number => Math.round(bytes / 10) / 100; // 1 kB = 1000 bytes, 2 decimals

// ───────────────────────────── (a) bundle size ─────────────────────────────

interface AssetSize {
  file: string;
  bytes: number;
  gzipBytes: number;
}

interface BundleReport {
  entry: string;
  initial: AssetSize[];
  initialGzipBytes: number;
  initialGzipKB: number;
  budgetKB: number;
  floorKB: number;
  withinBudget: boolean;
  lazy: AssetSize[];
  lazyGzipBytes: number;
}

function newestMtimeMs(dir: string): number {
  if (!existsSync(dir)) return 0;
  return readdirSync(dir, { withFileTypes: true }).reduce((newest, entry) => {
    const path = join(dir, entry.name);
    const time = entry.isDirectory() ? newestMtimeMs(path) : statSync(path).mtimeMs;
    return Math.max(newest, time);
  }, 0);
}

function ensureBuilt(): void {
  const index = join(DIST, 'index.html');
  if (existsSync(index)) {
    if (newestMtimeMs(join(ROOT, 'src')) > statSync(index).mtimeMs) {
      console.log('aviso: hay archivos de src/ más nuevos que dist/; ejecuta `npm run build` para medir el código actual.');
    }
    return;
  }
  console.log('dist/ no existe: compilando con `npm run build`…');
  const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error(`npm run build falló (código ${build.status ?? build.signal})`);
}

/** Values of `attr` in the opening tags `<tag …>` of `html` that satisfy `keep`. */
function tagAttributes(html: string, tag: string, attr: string, keep: (tagText: string) => boolean): string[] {
  const found: string[] = [];
  const tagPattern = new RegExp(`<${tag}\\b[^>]*>`, 'gi');
  const attrPattern = new RegExp(`\\s${attr}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i');
  for (const match of html.matchAll(tagPattern)) {
    const text = match[0];
    if (!keep(text)) continue;
    const value = attrPattern.exec(text);
    const url = value?.[1] ?? value?.[2] ?? value?.[3];
    if (url) found.push(url);
  }
  return found;
}

function distPath(url: string): string {
  const path = url.split(/[?#]/)[0] ?? url;
  if (/^[a-z]+:\/\//i.test(path)) throw new Error(`dist/index.html carga un script externo: ${url}`);
  return join(DIST, path.replace(/^\.?\//, ''));
}

function measure(file: string): AssetSize {
  const content = readFileSync(file);
  return { file: relative(DIST, file), bytes: content.length, gzipBytes: gzipSync(content, { level: 9 }).length };
}

function listJs(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return listJs(path);
    return entry.name.endsWith('.js') ? [path] : [];
  });
}

function bundleReport(): BundleReport {
  ensureBuilt();
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  const entries = tagAttributes(html, 'script', 'src', (text) => /\stype\s*=\s*["']?module["']?/i.test(text));
  const [entry] = entries;
  if (!entry) throw new Error('dist/index.html no tiene <script type="module" src>');
  const preloads = tagAttributes(html, 'link', 'href', (text) => /\srel\s*=\s*["']?modulepreload["']?/i.test(text));

  const initialFiles = [...new Set([...entries, ...preloads].map(distPath))];
  const initial = initialFiles.map(measure);
  const initialSet = new Set(initialFiles);
  const lazy = listJs(join(DIST, 'assets'))
    .filter((file) => !initialSet.has(file))
    .map(measure)
    .sort((a, b) => b.gzipBytes - a.gzipBytes);

  const initialGzipBytes = initial.reduce((sum, asset) => sum + asset.gzipBytes, 0);
  return {
    entry,
    initial,
    initialGzipBytes,
    initialGzipKB: kB(initialGzipBytes),
    budgetKB: JS_BUDGET_KB,
    floorKB: JS_FLOOR_KB,
    withinBudget: initialGzipBytes <= JS_BUDGET_KB * 1000,
    lazy,
    lazyGzipBytes: lazy.reduce((sum, asset) => sum + asset.gzipBytes, 0),
  };
}

// ───────────────────────────── (b) server start ─────────────────────────────

interface StartupReport {
  runs: number;
  freshCreateMs: number;
  reopenMs: number[];
  reopenMedianMs: number;
  reopenMinMs: number;
  reopenMaxMs: number;
}

const running = new Set<ChildProcess>();

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, HOST, () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolvePort(address.port);
        else reject(new Error('no se pudo obtener un puerto libre'));
      });
    });
  });
}

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

/** Signals the server's whole process group (tsx runs the app in a child node process). */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => child.once('exit', () => done()));
}

async function stopServer(child: ChildProcess): Promise<void> {
  signalGroup(child, 'SIGTERM');
  const stopped = await Promise.race([exited(child).then(() => true), sleep(STOP_TIMEOUT_MS).then(() => false)]);
  if (!stopped) {
    signalGroup(child, 'SIGKILL');
    await exited(child);
  }
  // Children of tsx may outlive it for a moment; make sure the group is empty.
  signalGroup(child, 'SIGKILL');
  running.delete(child);
}

/** Starts the server, returns the ms from spawn to the first 200 from /api/health, then stops it. */
async function timeStart(dataDir: string): Promise<number> {
  const port = await freePort();
  const url = `http://${HOST}:${port}/api/health`;
  let output = '';
  const started = performance.now();
  const child = spawn(join(ROOT, 'node_modules', '.bin', 'tsx'), ['server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST, HERMES_DATA_DIR: dataDir, HERMES_LOG: 'error' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  running.add(child);
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));

  try {
    while (performance.now() - started < START_TIMEOUT_MS) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`el servidor terminó antes de responder (código ${child.exitCode ?? child.signalCode}):\n${output}`);
      }
      try {
        const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
        if (response.ok) {
          const elapsed = performance.now() - started;
          await response.arrayBuffer();
          return elapsed;
        }
      } catch {
        // not listening yet
      }
      await sleep(20);
    }
    throw new Error(`/api/health no respondió en ${START_TIMEOUT_MS} ms:\n${output}`);
  } finally {
    await stopServer(child);
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] ?? 0;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] ?? upper) + upper) / 2;
}

const round = (ms: number): number => Math.round(ms);

async function startupReport(): Promise<StartupReport> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hermes-bench-'));
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
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// ───────────────────────────── report ─────────────────────────────

function printBundle(report: BundleReport): void {
  const pad = (text: string, width: number): string => text.padEnd(width);
  const size = (asset: AssetSize): string =>
    `${kB(asset.gzipBytes).toFixed(2).padStart(8)} kB gzip  (${kB(asset.bytes).toFixed(2)} kB)`;
  const width = Math.max(20, ...[...report.initial, ...report.lazy].map((asset) => asset.file.length)) + 2;

  console.log('\n(a) JavaScript inicial (entrada + modulepreload, gzip -9)');
  for (const asset of report.initial) console.log(`    ${pad(asset.file, width)}${size(asset)}`);
  const verdict = report.withinBudget ? 'OK' : 'OVER';
  console.log(`    total: ${report.initialGzipKB.toFixed(2)} kB / presupuesto ${report.budgetKB} kB → ${verdict}`);
  console.log(
    `    nota: ~${report.floorKB} kB son el piso de React + ReactDOM + XState + router; ` +
      `quedan ~${report.budgetKB - report.floorKB} kB para el código propio de la carga inicial.`,
  );
  console.log(`    chunks diferidos (lazy): ${report.lazy.length}, ${kB(report.lazyGzipBytes).toFixed(2)} kB gzip en total`);
  for (const asset of report.lazy) console.log(`      ${pad(asset.file, width)}${size(asset)}`);
}

function printStartup(report: StartupReport): void {
  console.log('\n(b) Arranque del servidor (spawn de `tsx server/main.ts` → primer 200 de GET /api/health)');
  console.log(`    directorio nuevo (crea y siembra PGlite): ${report.freshCreateMs} ms`);
  console.log(
    `    reabriendo el mismo directorio, ${report.runs} veces: mediana ${report.reopenMedianMs} ms, ` +
      `mín ${report.reopenMinMs} ms, máx ${report.reopenMaxMs} ms  [${report.reopenMs.join(', ')}]`,
  );
}

async function main(): Promise<void> {
  const onSignal = (signal: NodeJS.Signals): void => {
    for (const child of running) signalGroup(child, 'SIGKILL');
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  console.log('Hermes bench');
  const bundle = bundleReport();
  printBundle(bundle);
  const startup = await startupReport();
  printStartup(startup);

  mkdirSync(dirname(REPORT_FILE), { recursive: true });
  const report = { date: new Date().toISOString(), node: process.version, bundle, startup };
  writeFileSync(REPORT_FILE, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nInforme: ${relative(ROOT, REPORT_FILE)}`);
}

main().catch((error: unknown) => {
  for (const child of running) signalGroup(child, 'SIGKILL');
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
