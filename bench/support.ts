// What the bench sections share: temp data dirs, spawning TypeScript through tsx in its own process group, starting and
// stopping the real server on a free port, and a small logged-in HTTP client. Every process and temp dir
// made here is tracked so `killAll` / the sections' own finally blocks leave nothing behind.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { SMTPServer } from 'smtp-server';
import { API, COOKIE, XSRF_HEADER } from '../shared/contract';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const HOST = '127.0.0.1';
const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 10_000;
const REQUEST_TIMEOUT_MS = 15_000;

const running = new Set<ChildProcess>();
/** Temp data dirs still on disk; removed by their own finally, or by the signal handler. */
const tempDirs = new Set<string>();

export function makeTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.add(dir);
  return dir;
}

/** Attachment files of a temp data dir live beside it (never in ./data/attachments). */
export const attachmentsDirOf = (dataDir: string): string => `${dataDir}-attachments`;
export const outboxDirOf = (dataDir: string): string => `${dataDir}-outbox`;

export function removeTempDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  rmSync(attachmentsDirOf(dir), { recursive: true, force: true });
  rmSync(outboxDirOf(dir), { recursive: true, force: true });
  tempDirs.delete(dir);
}

// Empty DATABASE_URL / SMTP_URL count as unset: the bench never touches a developer's database or mail server.
export const dataEnv = (dataDir: string) => ({
  DATABASE_URL: '',
  SMTP_URL: '',
  HERMES_DATA_DIR: dataDir,
  HERMES_ATTACHMENTS_DIR: attachmentsDirOf(dataDir),
  HERMES_OUTBOX_DIR: outboxDirOf(dataDir),
});

/** Undo steps outside the file system (a bench database to drop), run by `killAll` if a run is cut short. */
const cleanups = new Set<() => Promise<void>>();

export function registerCleanup(cleanup: () => Promise<void>): () => void {
  cleanups.add(cleanup);
  return () => cleanups.delete(cleanup);
}

/**
 * On SIGINT/SIGTERM or a crash: every server still running is killed, every temp dir removed, and the
 * registered cleanups get a few seconds.
 */
export async function killAll(): Promise<void> {
  for (const child of running) signalGroup(child, 'SIGKILL');
  for (const dir of tempDirs) removeTempDir(dir);
  const pending = [...cleanups].map((cleanup) => cleanup().catch(() => undefined));
  cleanups.clear();
  await Promise.race([Promise.all(pending), deadline(STOP_TIMEOUT_MS)]);
}

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

export const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));
/** A timeout for Promise.race that does not keep the process alive once the race is decided elsewhere. */
const deadline = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms).unref());

/** Signals the server's whole process group. */
export function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => child.once('exit', () => done()));
}

export async function stopServer(child: ChildProcess): Promise<void> {
  signalGroup(child, 'SIGTERM');
  const stopped = await Promise.race([exited(child).then(() => true), deadline(STOP_TIMEOUT_MS).then(() => false)]);
  if (!stopped) {
    signalGroup(child, 'SIGKILL');
    await exited(child);
  }
  // Anything the process started may outlive it for a moment; make sure the group is empty.
  signalGroup(child, 'SIGKILL');
  running.delete(child);
}

export interface RunningServer {
  child: ChildProcess;
  baseUrl: string;
  /** ms from spawn to the first 200 from /api/health. */
  startMs: number;
  /** Everything the server printed so far. */
  output(): string;
}

/**
 * `node --import tsx <args>`, as `npm start` and `npm run worker` run, in its own process group (so stopping
 * it kills anything it started), its output collected.
 */
function spawnTsx(args: string[], env: NodeJS.ProcessEnv): { child: ChildProcess; output: () => string } {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  running.add(child);
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

/**
 * Spawns `node --import tsx server/main.ts` on a free port and waits for /api/health; stops it again if that fails.
 * `env` is laid over the temp data dir's settings (e.g. SMTP_URL, DATABASE_URL of a bench database).
 */
export async function startServer(dataDir: string, env: NodeJS.ProcessEnv = {}): Promise<RunningServer> {
  const port = await freePort();
  const baseUrl = `http://${HOST}:${port}`;
  const url = `${baseUrl}/api/health`;
  const started = performance.now();
  const { child, output } = spawnTsx(['server/main.ts'], { PORT: String(port), HOST, ...dataEnv(dataDir), HERMES_LOG: 'error', ...env });

  try {
    while (performance.now() - started < START_TIMEOUT_MS) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`el servidor terminó antes de responder (código ${child.exitCode ?? child.signalCode}):\n${output()}`);
      }
      try {
        const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
        if (response.ok) {
          const startMs = performance.now() - started;
          await response.arrayBuffer();
          return { child, baseUrl, startMs, output };
        }
      } catch {
        // not listening yet
      }
      await sleep(20);
    }
    throw new Error(`/api/health no respondió en ${START_TIMEOUT_MS} ms:\n${output()}`);
  } catch (error) {
    await stopServer(child);
    throw error;
  }
}

export interface RunningWorker {
  child: ChildProcess;
  /** ms from spawn to its "en marcha" line. */
  startMs: number;
  output(): string;
}

/** What `server/worker.ts` logs (at info) once its queue workers run. */
const WORKER_READY = 'Trabajador de envíos en marcha.';

/**
 * Spawns `node --import tsx server/worker.ts` (`npm run worker`) and waits for its ready line; stops it again if that
 * fails. `env` must carry DATABASE_URL: a worker needs PostgreSQL.
 */
export async function startWorker(dataDir: string, env: NodeJS.ProcessEnv): Promise<RunningWorker> {
  const started = performance.now();
  const { child, output } = spawnTsx(['server/worker.ts'], { ...dataEnv(dataDir), ...env, HERMES_LOG: env.HERMES_LOG || 'info' });
  try {
    while (!output().includes(WORKER_READY)) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`el trabajador terminó antes de estar listo (código ${child.exitCode ?? child.signalCode}):\n${output()}`);
      }
      if (performance.now() - started > START_TIMEOUT_MS)
        throw new Error(`el trabajador no estuvo listo en ${START_TIMEOUT_MS} ms:\n${output()}`);
      await sleep(50);
    }
    return { child, startMs: performance.now() - started, output };
  } catch (error) {
    await stopServer(child);
    throw error;
  }
}

/** Several servers (`HERMES_WORKERS=0`) and workers over one PostgreSQL database, as a school network runs them. */
export interface Fleet {
  servers: RunningServer[];
  workers: RunningWorker[];
  /** Starts server `i` again (after a kill) with the same settings; a new port. */
  restartServer(i: number): Promise<RunningServer>;
  restartWorker(i: number): Promise<RunningWorker>;
  /** SIGKILLs every process of the fleet (afterAll, or a run cut short). */
  kill(): void;
  /** Stops every process gracefully. */
  stop(): Promise<void>;
}

/**
 * Starts `servers` servers and `workers` workers on `databaseUrl`, sharing `dataDir`'s attachments and
 * outbox dirs (what the processes of one school network share). Each process's PostgreSQL connections
 * carry an application_name (`hermes-server-<i>`, `hermes-worker-<i>`), so a test can tell from the database
 * which process did what. Started one after another: on two cores, starting all at once only makes each
 * slower. `env` is laid over every process's settings.
 */
export async function startFleet(options: {
  dataDir: string;
  databaseUrl: string;
  servers: number;
  workers: number;
  env?: NodeJS.ProcessEnv;
}): Promise<Fleet> {
  const named = (name: string): string => {
    const url = new URL(options.databaseUrl);
    url.searchParams.set('application_name', name);
    return url.toString();
  };
  const serverEnv = (i: number): NodeJS.ProcessEnv => ({ ...options.env, DATABASE_URL: named(`hermes-server-${i}`), HERMES_WORKERS: '0' });
  const workerEnv = (i: number): NodeJS.ProcessEnv => ({ ...options.env, DATABASE_URL: named(`hermes-worker-${i}`) });
  const fleet: Fleet = {
    servers: [],
    workers: [],
    async restartServer(i) {
      const old = fleet.servers[i];
      if (old) await stopServer(old.child);
      const restarted = await startServer(options.dataDir, serverEnv(i));
      fleet.servers[i] = restarted;
      return restarted;
    },
    async restartWorker(i) {
      const old = fleet.workers[i];
      if (old) await stopServer(old.child);
      const restarted = await startWorker(options.dataDir, workerEnv(i));
      fleet.workers[i] = restarted;
      return restarted;
    },
    kill() {
      for (const p of [...fleet.servers, ...fleet.workers]) signalGroup(p.child, 'SIGKILL');
    },
    async stop() {
      await Promise.all([...fleet.servers, ...fleet.workers].map((p) => stopServer(p.child)));
    },
  };
  try {
    for (let i = 0; i < options.servers; i += 1) fleet.servers.push(await startServer(options.dataDir, serverEnv(i)));
    for (let i = 0; i < options.workers; i += 1) fleet.workers.push(await startWorker(options.dataDir, workerEnv(i)));
    return fleet;
  } catch (error) {
    fleet.kill();
    throw error;
  }
}

export interface PgCluster {
  /** Superuser URL of the cluster's `postgres` database. */
  url: string;
  /** "PostgreSQL 15 (127.0.0.1:port)". */
  label: string;
  stop(): Promise<void>;
}

const PG_START_TIMEOUT_MS = 120_000;

/**
 * A throwaway PostgreSQL cluster in a temp dir (tests/pg/serve.sh, the same cluster the API suite's
 * test:api:pg makes), kept while this process holds the script's stdin open. Stopping closes it; so does this
 * process's death, however it dies, and `killAll` on a signal.
 */
export async function startPgCluster(): Promise<PgCluster> {
  const child = spawn('bash', [join(ROOT, 'tests', 'pg', 'serve.sh'), 'bench'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const stop = async (): Promise<void> => {
    child.stdin.end();
    const stopped = await Promise.race([exited(child).then(() => true), deadline(STOP_TIMEOUT_MS).then(() => false)]);
    if (!stopped) child.kill('SIGTERM');
    await exited(child);
  };
  const unregister = registerCleanup(stop);
  const started = performance.now();
  try {
    for (;;) {
      const url = /^PG_URL=(.+)$/m.exec(output)?.[1];
      const label = /^PG_LABEL=(.+)$/m.exec(output)?.[1];
      if (url && label) {
        return {
          url,
          label,
          stop: async () => {
            unregister();
            await stop();
          },
        };
      }
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`tests/pg/serve.sh terminó sin un cluster:\n${output}`);
      if (performance.now() - started > PG_START_TIMEOUT_MS)
        throw new Error(`PostgreSQL no arrancó en ${PG_START_TIMEOUT_MS} ms:\n${output}`);
      await sleep(50);
    }
  } catch (error) {
    unregister();
    await stop();
    throw error;
  }
}

/** Runs a tsx script to completion (own process group, killed on timeout). */
export async function runScript(args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<string> {
  const { child, output } = spawnTsx(args, env);
  try {
    const finished = await Promise.race([exited(child).then(() => true), deadline(timeoutMs).then(() => false)]);
    if (!finished) throw new Error(`tsx ${args.join(' ')} no terminó en ${timeoutMs} ms:\n${output()}`);
    if (child.exitCode !== 0) throw new Error(`tsx ${args.join(' ')} falló (código ${child.exitCode ?? child.signalCode}):\n${output()}`);
    return output();
  } finally {
    await stopServer(child);
  }
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] ?? 0;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] ?? upper) + upper) / 2;
}

export const round = (ms: number): number => Math.round(ms);
export const round2 = (ms: number): number => Math.round(ms * 100) / 100;
export const p90 = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.9) - 1] ?? 0;

/**
 * `seed --students N` into a temp data dir, the server started on it, `fn` run against it with the seed's
 * duration; the server is stopped and the dir removed however `fn` ends.
 */
export async function onSeededServer<T>(prefix: string, students: number, fn: (baseUrl: string, seedMs: number) => Promise<T>): Promise<T> {
  const dataDir = makeTempDir(prefix);
  try {
    const seedStarted = performance.now();
    await runScript(['server/seed/cli.ts', '--students', String(students)], dataEnv(dataDir), 180_000);
    const seedMs = performance.now() - seedStarted;
    const server = await startServer(dataDir);
    try {
      return await fn(server.baseUrl, seedMs);
    } finally {
      await stopServer(server.child);
    }
  } finally {
    removeTempDir(dataDir);
  }
}

/** One timed GET through `client`: the milliseconds to the whole body, and the body parsed (non-200 throws). */
export async function timedGet(client: ApiClient, path: string): Promise<{ ms: number; body: unknown }> {
  const started = performance.now();
  const response = await client.request(path);
  const text = await response.text();
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`GET ${path} → ${response.status}: ${text.slice(0, 300)}`);
  return { ms, body: JSON.parse(text) };
}

/** Minimal cookie jar over fetch: the XSRF cookie, then the session cookies from POST /api/login. */
export class ApiClient {
  private readonly cookies = new Map<string, string>();
  constructor(private readonly baseUrl: string) {}

  private keep(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const at = pair?.indexOf('=') ?? -1;
      if (pair && at > 0) this.cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
  }

  private cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) headers.set('Cookie', this.cookieHeader());
    headers.set('Accept', 'application/json');
    const response = await fetch(`${this.baseUrl}${path}`, { ...init, headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    this.keep(response);
    return response;
  }

  /** JSON POST carrying the XSRF token the way the SPA does. */
  post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
    const token = this.cookies.get(COOKIE.xsrf);
    if (!token) throw new Error(`sin cookie ${COOKIE.xsrf}: falta login()`);
    return this.request(path, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json', [XSRF_HEADER]: decodeURIComponent(token) },
      body: JSON.stringify(body),
    });
  }

  async login(email: string, password: string): Promise<void> {
    const csrf = await this.request(`/api${API.csrf}`);
    await csrf.arrayBuffer();
    if (!this.cookies.has(COOKIE.xsrf)) throw new Error(`GET /api${API.csrf} no entregó la cookie ${COOKIE.xsrf}`);
    const response = await this.post(`/api${API.login}`, { email, password });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`POST /api${API.login} → ${response.status}: ${text}`);
  }
}

/**
 * An SMTP server on loopback that keeps the Message-ID of every e-mail it accepts, in order and repeats
 * included ('' when one has none): what the delivery bench and the crash test count.
 */
export interface SmtpSink {
  url: string;
  ids: readonly string[];
  /** Date.now() of the last e-mail accepted, 0 before any. */
  lastAcceptedAt(): number;
  reset(): void;
  close(): Promise<void>;
}

/** Only the head is read for the Message-ID; the body is let through. */
const SINK_HEAD_BYTES = 16_384;

export async function startSmtpSink(): Promise<SmtpSink> {
  const ids: string[] = [];
  let lastAt = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    // No reverse DNS per connection: nodemailer opens one connection per message.
    disableReverseLookup: true,
    logger: false,
    onData(stream, _session, callback) {
      let head = '';
      stream.on('data', (chunk: Buffer) => {
        if (head.length < SINK_HEAD_BYTES && !head.includes('\r\n\r\n')) head += chunk.toString('utf8');
      });
      stream.on('end', () => {
        const end = head.indexOf('\r\n\r\n');
        ids.push(/^Message-ID:\s*(<[^>\r\n]+>)/im.exec(end >= 0 ? head.slice(0, end) : head)?.[1] ?? '');
        lastAt = Date.now();
        callback();
      });
    },
  });
  // A killed server's connections end with a reset: not the sink's error.
  server.on('error', () => {});
  const port = await new Promise<number>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, HOST, () => resolve((server.server.address() as AddressInfo).port));
  });
  return {
    url: `smtp://${HOST}:${port}`,
    ids,
    lastAcceptedAt: () => lastAt,
    reset: () => {
      ids.length = 0;
      lastAt = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
