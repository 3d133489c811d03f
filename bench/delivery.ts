// (g) Delivery engine: one message to every guardian of Colegio San Andrés (all levels, audience
// apoderados, ≥ 5,000 people: seeded with as many students as (e)) sent through the real server — a separate
// `node --import tsx server/main.ts` on a temp copy of the seeded data — and carried out by its queue:
//   1. e-mail only, to an SMTP server on loopback run in this process (smtp-server), which counts what it
//      accepts and checks no Message-ID arrives twice;
//   2. SMS only, to the built-in provider simulator (no failures, no delay), until every receipt is in;
//   3. both channels at once.
// Each run: deliveries/s = deliveries with an address ÷ seconds from the send's 201 to the last delivery
// (e-mail: the SMTP server's acceptance; SMS: the receipt's delivered_at), and the RSS of the server's whole
// process group sampled every 250 ms: before the send, peak, and at the end.
// Then on PostgreSQL: DATABASE_URL's server when set, else a throwaway cluster the bench starts itself
// (tests/pg/serve.sh, the API suite's); each run in a database cloned for it from one seeded there and dropped
// after it (never the database DATABASE_URL names): 1 and 2 with the server's own workers, then 1 again with
// the server at HERMES_WORKERS=0 beside 1 and 2 `npm run worker` processes (memory: all of them together).
// Beside them, the same number of e-mails (same subject and text) pushed by a bare nodemailer pool with the
// engine's pool settings and concurrency to the same SMTP server: the engine's cost over the raw channel is
// the ratio of the two rates.
// Last on PGlite, a crash: the e-mail run again, the server killed with SIGKILL once a quarter of the e-mails
// are in, started again on the same files until every delivery is done; the SMTP server counts the e-mails it
// received twice (the deliveries whose acceptance the killed server had not yet recorded).
//
// While working on the engine, HERMES_BENCH_DELIVERY_RUNS picks runs (comma-separated: pglite-email,
// pglite-sms, pglite-both, pglite-crash, pg-email, pg-sms, pg-w1, pg-w2; default all), and
// HERMES_BENCH_DELIVERY_SEED names a directory kept between runs for the seeded PGlite template (seeded
// there when empty). Neither changes what a plain `npm run bench` measures.
import { randomBytes, randomUUID } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpus, loadavg } from 'node:os';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import nodemailer from 'nodemailer';
import { DEFAULT_CONFIG } from '../server/config';
import { SMTP_POOL } from '../server/delivery/email';
import { openDb } from '../server/db/client';
import { DEMO_PASSWORD } from '../shared/demo';
import { IDEMPOTENCY_HEADER, type ComposeInput, type SendResult } from '../shared/compose-contract';
import type { DeliveryProgress } from '../shared/reception-contract';
import { SEND_STUDENTS } from './send';
import {
  ApiClient,
  attachmentsDirOf,
  dataEnv,
  exited,
  makeTempDir,
  median,
  registerCleanup,
  removeTempDir,
  runScript,
  signalGroup,
  sleep,
  startPgCluster,
  startServer,
  startSmtpSink,
  startWorker,
  stopServer,
  type RunningServer,
  type RunningWorker,
  type SmtpSink,
} from './support';
import type { ChannelCode } from '../shared/codes';

const SENDER = 'administrador@sanandres.cl';
const MIN_GUARDIANS = 5_000;
const SEED_TIMEOUT_MS = 300_000;
/** The demo seed's San Andrés has under 1,000 guardians; sized like (e) it passes 5,000. */
const SEED_ARGS = ['server/seed/cli.ts', '--students', String(SEND_STUDENTS)];
/** The engine may cost at most this much over the bare channel (nodemailer's rate ÷ the engine's, e-mail runs). */
export const ENGINE_COST_TARGET = 1.5;
/** The server's peak RSS on PGlite while delivering, MB. */
export const PGLITE_PEAK_RSS_TARGET_MB = 500;
/** One run gives up after this long without every delivery done. */
const RUN_TIMEOUT_MS = 15 * 60_000;
const POLL_MS = 500;
const MEMORY_SAMPLE_MS = 250;
/** The simulator answers at once and never fails: what is measured is our side, not a provider's latency. */
const SIM_DELAY_MS = 0;
/** What every run sends (and the raw nodemailer run too). */
const EMAIL_SUBJECT = 'Suspensión de clases por emergencia climática';
const EMAIL_TEXT = 'Estimadas familias: mañana no habrá clases por la alerta meteorológica. Les mantendremos informados.';

type Store = 'pglite' | 'postgres';

interface ChannelOutcome {
  channel: ChannelCode;
  /** Deliveries of the message on this channel, and those with an address (the rest fail as missing_address). */
  rows: number;
  withAddress: number;
  /** With an address and received (or read) at the end. */
  delivered: number;
  /** Other end states of those with an address: status → count. */
  other: Record<string, number>;
  /** Deliveries that needed more than one attempt. */
  retried: number;
}

interface SmtpCheck {
  accepted: number;
  uniqueMessageIds: number;
  expected: number;
  ok: boolean;
}

interface MemoryReport {
  /** RSS of the server's process group (tsx + the node running the app), MB = 10^6 bytes. */
  baselineMB: number;
  peakMB: number;
  endMB: number;
  /** The biggest single process of the group at its peak (the app itself). */
  appPeakMB: number;
  /**
   * CPU seconds the group used from the baseline to the end (user + system): what the work costs, which
   * another load on the machine does not change as it changes the rate.
   */
  cpuS: number;
  samples: number;
}

interface DeliveryRun {
  name: string;
  store: Store;
  /** `npm run worker` processes beside a server at HERMES_WORKERS=0; null: the server's own workers. */
  workers: number | null;
  channels: ChannelCode[];
  recipients: number;
  /** Deliveries with an address and received at the end, all channels. */
  delivered: number;
  /** POST /api/messages/send until its 201 (the send transaction, over HTTP). */
  sendMs: number;
  /** From the 201 to the first delivery handed to its channel (sent_at), and to the last one done. */
  firstMs: number;
  lastMs: number;
  /** When the polling of GET /api/messages/:id first saw nothing queued or sent. */
  doneSeenMs: number;
  deliveriesPerSecond: number;
  channelOutcomes: ChannelOutcome[];
  progress: DeliveryProgress;
  smtp: SmtpCheck | null;
  memory: MemoryReport | null;
  ok: boolean;
}

/** The same e-mails through a bare nodemailer pool, no queue, no database. */
interface RawEmailRun {
  emails: number;
  ms: number;
  emailsPerSecond: number;
  maxConnections: number;
  concurrency: number;
  accepted: number;
  /** Raw rate ÷ each e-mail run's rate: what the engine costs over the channel. */
  engineCost: { run: string; ratio: number }[];
}

/** kill -9 of the server mid-send (PGlite, e-mail), then a restart on the same files until done. */
interface CrashRun {
  emails: number;
  /** E-mails the SMTP server had accepted when the server was killed. */
  acceptedAtKill: number;
  /** Accepted in all, and distinct Message-IDs among them (every delivery must arrive). */
  accepted: number;
  uniqueMessageIds: number;
  /** Received twice: handed over again after the restart because their acceptance was not yet recorded. */
  resent: number;
  /** Milliseconds from the restart's start to the last delivery. */
  recoveryMs: number;
  ok: boolean;
}

export interface DeliveryBenchReport {
  concurrency: number;
  simDelayMs: number;
  runs: DeliveryRun[];
  rawEmail: RawEmailRun | null;
  crash: CrashRun | null;
  /** Where the PostgreSQL runs ran. */
  postgresServer: string | null;
  postgres: 'measured' | 'skipped' | { error: string };
  loadAvg1m: number;
  cpus: number;
}

const mb = (kb: number): number => Math.round((kb * 1024) / 1e5) / 10;
const round1 = (value: number): number => Math.round(value * 10) / 10;
/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ, 100 on Linux). */
const USER_HZ = 100;

/** Distinct Message-IDs the sink accepted: fewer than accepted e-mails means some came twice. */
const distinctIds = (smtp: SmtpSink): number => new Set(smtp.ids.filter((id) => id !== '')).size;

// ───────────────────────────── memory of the server ─────────────────────────────

/** Summed and largest VmRSS (kB) of the processes in group `pgid`, from /proc; null off Linux. */
function groupRssKb(pgid: number): { totalKb: number; maxKb: number; cpuTicks: number } | null {
  if (!existsSync('/proc/self/stat')) return null;
  let totalKb = 0;
  let maxKb = 0;
  let cpuTicks = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // After "pid (comm) ": state, ppid, pgrp…; comm may contain spaces and parentheses.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) !== pgid) continue;
      const rss = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${name}/status`, 'utf8'));
      const kb = rss ? Number(rss[1]) : 0;
      totalKb += kb;
      maxKb = Math.max(maxKb, kb);
      // utime and stime, in clock ticks
      cpuTicks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // the process ended between readdir and read
    }
  }
  return { totalKb, maxKb, cpuTicks };
}

interface MemorySampler {
  /** Median of the samples taken so far, then forgets them: the idle level before the send. */
  baseline(): number;
  stop(): MemoryReport | null;
}

function sampleMemory(pgids: number[]): MemorySampler {
  const idle: number[] = [];
  let measuring = false;
  let baselineKb = 0;
  let peakKb = 0;
  let appPeakKb = 0;
  let lastKb = 0;
  let samples = 0;
  let supported = true;
  let cpuAtBaseline = 0;
  let lastCpu = 0;
  const take = (): void => {
    const groups = pgids.map(groupRssKb);
    if (groups.some((g) => g === null)) {
      supported = false;
      return;
    }
    const rss = {
      totalKb: groups.reduce((sum, g) => sum + g!.totalKb, 0),
      maxKb: Math.max(...groups.map((g) => g!.maxKb)),
      cpuTicks: groups.reduce((sum, g) => sum + g!.cpuTicks, 0),
    };
    samples += 1;
    lastKb = rss.totalKb;
    lastCpu = rss.cpuTicks;
    if (!measuring) idle.push(rss.totalKb);
    peakKb = Math.max(peakKb, rss.totalKb);
    appPeakKb = Math.max(appPeakKb, rss.maxKb);
  };
  take();
  const timer = setInterval(take, MEMORY_SAMPLE_MS);
  return {
    baseline() {
      take();
      baselineKb = median(idle);
      measuring = true;
      samples = 0;
      peakKb = baselineKb;
      appPeakKb = 0;
      take();
      cpuAtBaseline = lastCpu;
      return baselineKb;
    },
    stop() {
      take();
      clearInterval(timer);
      if (!supported) return null;
      return {
        baselineMB: mb(baselineKb),
        peakMB: mb(peakKb),
        endMB: mb(lastKb),
        appPeakMB: mb(appPeakKb),
        cpuS: round1((lastCpu - cpuAtBaseline) / USER_HZ),
        samples,
      };
    },
  };
}

// ───────────────────────────── stores: PGlite copies, PostgreSQL databases ─────────────────────────────

interface Prepared {
  /** Settings of the server for this store (laid over the temp dir's). */
  env: NodeJS.ProcessEnv;
  /** Temp dir of the run: the PGlite data, or only attachments and outbox for PostgreSQL. */
  dir: string;
  databaseUrl: string;
  picks: ComposeInput['recipients'];
  dispose(): Promise<void>;
}

type Handle = Awaited<ReturnType<typeof openDb>>;

async function rows<T>(handle: Handle, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await handle.db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** Room in the month's SMS quota and e-mail balance for every guardian; the school's levels as picks. */
async function prepareData(databaseUrl: string, dataDir: string): Promise<ComposeInput['recipients']> {
  const handle = await openDb({ dataDir, databaseUrl });
  try {
    await handle.db.execute(sql`
      update institution_quotas set sms_monthly_limit = 10000000,
        email_balance = case when email_balance is null then null else 10000000 end`);
    const levels = await rows<{ id: number }>(
      handle,
      sql`select l.id from levels l join users u on u.institution_id = l.institution_id where u.email = ${SENDER} order by l.id`,
    );
    if (levels.length === 0) throw new Error(`${SENDER} no tiene niveles en la base sembrada`);
    return levels.map((level) => ({ kind: 'level' as const, id: level.id, audience: 'apoderados' as const }));
  } finally {
    await handle.close();
  }
}

/** A byte copy of the seeded PGlite template (and its attachment files) for one run. */
async function preparePglite(template: string): Promise<Prepared> {
  const dir = makeTempDir('hermes-bench-delivery-run-');
  try {
    cpSync(template, dir, { recursive: true });
    if (existsSync(attachmentsDirOf(template))) cpSync(attachmentsDirOf(template), attachmentsDirOf(dir), { recursive: true });
    const picks = await prepareData('', dir);
    return { env: {}, dir, databaseUrl: '', picks, dispose: async () => removeTempDir(dir) };
  } catch (error) {
    removeTempDir(dir);
    throw error;
  }
}

const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** Runs one statement on the server's admin database. */
async function adminQuery(adminUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

const urlOf = (adminUrl: string, name: string): string => {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

/** A database created on the server now and dropped by the returned function (also by killAll on a signal). */
async function createBenchDatabase(adminUrl: string, template?: string): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `hermes_bench_${randomBytes(5).toString('hex')}`;
  await adminQuery(adminUrl, `create database ${quoteIdent(name)}${template ? ` template ${quoteIdent(template)}` : ''}`);
  const unregister = registerCleanup(() => adminQuery(adminUrl, `drop database if exists ${quoteIdent(name)} with (force)`));
  return {
    name,
    url: urlOf(adminUrl, name),
    drop: async () => {
      unregister();
      await adminQuery(adminUrl, `drop database if exists ${quoteIdent(name)} with (force)`);
    },
  };
}

/** One database on the server, migrated and seeded by the seed CLI once, that each run clones (seconds, not a seed each). */
async function seedPostgresTemplate(adminUrl: string): Promise<{ name: string; drop: () => Promise<void> }> {
  const template = await createBenchDatabase(adminUrl);
  const dir = makeTempDir('hermes-bench-delivery-pg-seed-');
  try {
    await runScript(SEED_ARGS, { ...dataEnv(dir), DATABASE_URL: template.url }, SEED_TIMEOUT_MS);
    return template;
  } catch (error) {
    await template.drop();
    throw error;
  } finally {
    removeTempDir(dir);
  }
}

/** A copy of the seeded template for one run (CREATE DATABASE … TEMPLATE); dropped by dispose(). */
async function preparePostgres(adminUrl: string, template: string): Promise<Prepared> {
  const database = await createBenchDatabase(adminUrl, template);
  const dir = makeTempDir('hermes-bench-delivery-pg-');
  const dispose = async (): Promise<void> => {
    removeTempDir(dir);
    await database.drop();
  };
  try {
    const picks = await prepareData(database.url, dir);
    return { env: { DATABASE_URL: database.url }, dir, databaseUrl: database.url, picks, dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}

// ───────────────────────────── one run ─────────────────────────────

interface MessageBody {
  data: { reception: DeliveryProgress | null };
}

async function progressOf(client: ApiClient, id: number): Promise<DeliveryProgress | null> {
  const response = await client.request(`/api/messages/${id}`);
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET /api/messages/${id} → ${response.status}: ${text.slice(0, 300)}`);
  return (JSON.parse(text) as MessageBody).data.reception;
}

async function waitUntilDone(
  client: ApiClient,
  id: number,
  server: RunningServer,
  workers: RunningWorker[],
): Promise<{ progress: DeliveryProgress; at: number }> {
  const until = Date.now() + RUN_TIMEOUT_MS;
  let progress: DeliveryProgress | null = null;
  for (;;) {
    for (const [who, p] of [['el servidor', server], ...workers.map((w, i) => [`el trabajador ${i + 1}`, w] as const)] as const) {
      if (p.child.exitCode !== null || p.child.signalCode !== null) throw new Error(`${who} terminó durante la entrega:\n${p.output()}`);
    }
    try {
      progress = await progressOf(client, id);
    } catch (error) {
      // A slow answer under load, or a kept-alive socket dropped as it was reused, is not the end of the
      // run; the deadline is (the server's death is checked above).
      const transient = error instanceof Error && (error.name === 'TimeoutError' || error.message === 'fetch failed');
      if (!transient) throw error;
    }
    if (progress && progress.total > 0 && progress.queued === 0 && progress.sent === 0) return { progress, at: Date.now() };
    if (Date.now() > until) {
      throw new Error(
        `las entregas no terminaron en ${RUN_TIMEOUT_MS / 1000} s: ${JSON.stringify(progress)}\n${server.output().slice(-2000)}`,
      );
    }
    await sleep(POLL_MS);
  }
}

interface DbOutcome {
  channels: ChannelOutcome[];
  /** Epoch ms: first sent_at, last delivered_at of the SMS / WhatsApp deliveries (null when none). */
  firstSentAt: number | null;
  lastPhoneDeliveredAt: number | null;
}

/** What the rows say once the server has stopped: per channel counts, retries and timestamps. */
async function readOutcome(prepared: Prepared, messageId: number): Promise<DbOutcome> {
  const handle = await openDb({ dataDir: prepared.dir, databaseUrl: prepared.databaseUrl });
  try {
    const byStatus = await rows<{ channel: ChannelCode; status: string; has_address: boolean; n: number; retried: number }>(
      handle,
      sql`select channel, status, address is not null as has_address, count(*)::int as n,
            (count(*) filter (where attempts > 1))::int as retried
          from deliveries where message_id = ${messageId} group by 1, 2, 3`,
    );
    const [times] = await rows<{ first_sent: number | null; last_phone: number | null }>(
      handle,
      sql`select extract(epoch from min(sent_at)) * 1000 as first_sent,
            extract(epoch from max(delivered_at) filter (where channel in ('sms', 'whatsapp'))) * 1000 as last_phone
          from deliveries where message_id = ${messageId}`,
    );
    const channels = new Map<ChannelCode, ChannelOutcome>();
    for (const row of byStatus) {
      const outcome = channels.get(row.channel) ?? { channel: row.channel, rows: 0, withAddress: 0, delivered: 0, other: {}, retried: 0 };
      const n = Number(row.n);
      outcome.rows += n;
      outcome.retried += Number(row.retried);
      if (row.has_address) {
        outcome.withAddress += n;
        if (row.status === 'received' || row.status === 'read') outcome.delivered += n;
        else outcome.other[row.status] = (outcome.other[row.status] ?? 0) + n;
      }
      channels.set(row.channel, outcome);
    }
    const num = (value: number | string | null | undefined): number | null =>
      value === null || value === undefined ? null : Number(value);
    return { channels: [...channels.values()], firstSentAt: num(times?.first_sent), lastPhoneDeliveredAt: num(times?.last_phone) };
  } finally {
    await handle.close();
  }
}

async function deliveryRun(
  name: string,
  store: Store,
  channels: ChannelCode[],
  prepared: Prepared,
  smtp: SmtpSink,
  workerCount: number | null,
): Promise<DeliveryRun> {
  smtp.reset();
  const env: NodeJS.ProcessEnv = {
    ...prepared.env,
    ...(channels.includes('e-mail') ? { SMTP_URL: smtp.url } : {}),
    HERMES_SIM_FAILURE_RATE: '0',
    HERMES_SIM_DELAY_MS: String(SIM_DELAY_MS),
    // A transient error is retried within a second instead of the default 30 s, so it shows as a retry, not a stall.
    HERMES_DELIVERY_RETRY_DELAY: '1',
  };
  const server = await startServer(prepared.dir, workerCount === null ? env : { ...env, HERMES_WORKERS: '0' });
  const workers: RunningWorker[] = [];
  let messageId = 0;
  let sendMs = 0;
  let sentAt = 0;
  let recipients = 0;
  let done: { progress: DeliveryProgress; at: number };
  let memory: MemoryReport | null = null;
  let sampler: MemorySampler | null = null;
  try {
    for (let i = 0; i < (workerCount ?? 0); i += 1) workers.push(await startWorker(prepared.dir, env));
    const client = new ApiClient(server.baseUrl);
    await client.login(SENDER, DEMO_PASSWORD);
    sampler = sampleMemory([server, ...workers].map((p) => p.child.pid!));
    await sleep(1500); // idle samples for the baseline, after startup work has settled
    sampler.baseline();

    const input: ComposeInput = {
      title: EMAIL_SUBJECT,
      content: EMAIL_TEXT,
      channels,
      recipients: prepared.picks,
      attachment_ids: [],
      allow_replies: false,
      copy_to_sender: false,
      scheduled_at: null,
    };
    const started = performance.now();
    const response = await client.post('/api/messages/send', input, { [IDEMPOTENCY_HEADER]: randomUUID() });
    const text = await response.text();
    sentAt = Date.now();
    sendMs = performance.now() - started;
    if (response.status !== 201) throw new Error(`POST /api/messages/send → ${response.status}: ${text.slice(0, 500)}`);
    const result = (JSON.parse(text) as { data: SendResult }).data;
    messageId = result.id;
    recipients = result.recipients;
    if (recipients < MIN_GUARDIANS) throw new Error(`el envío llegó a ${recipients} apoderados; se esperaban ≥ ${MIN_GUARDIANS}`);

    done = await waitUntilDone(client, messageId, server, workers);
  } finally {
    memory = sampler?.stop() ?? null;
    await Promise.all([server, ...workers].map((p) => stopServer(p.child)));
  }

  const outcome = await readOutcome(prepared, messageId);
  const email = outcome.channels.find((c) => c.channel === 'e-mail');
  const lastAt = Math.max(channels.includes('e-mail') ? smtp.lastAcceptedAt() : 0, outcome.lastPhoneDeliveredAt ?? 0);
  const delivered = outcome.channels.reduce((sum, c) => sum + c.delivered, 0);
  const withAddress = outcome.channels.reduce((sum, c) => sum + c.withAddress, 0);
  const lastMs = Math.max(0, lastAt - sentAt);
  const smtpCheck: SmtpCheck | null = email
    ? {
        accepted: smtp.ids.length,
        uniqueMessageIds: distinctIds(smtp),
        expected: email.withAddress,
        ok: smtp.ids.length === email.withAddress && distinctIds(smtp) === email.withAddress,
      }
    : null;
  return {
    name,
    store,
    workers: workerCount,
    channels,
    recipients,
    delivered,
    sendMs: Math.round(sendMs),
    firstMs: outcome.firstSentAt === null ? 0 : Math.max(0, Math.round(outcome.firstSentAt - sentAt)),
    lastMs: Math.round(lastMs),
    doneSeenMs: Math.round(done.at - sentAt),
    deliveriesPerSecond: lastMs > 0 ? round1(delivered / (lastMs / 1000)) : 0,
    channelOutcomes: outcome.channels,
    progress: done.progress,
    smtp: smtpCheck,
    memory,
    ok: delivered === withAddress && (smtpCheck?.ok ?? true),
  };
}

// ───────────────────────────── a crash mid-send ─────────────────────────────

/** Share of the e-mails accepted before the kill. */
const CRASH_AT = 0.25;

async function crashRun(prepared: Prepared, smtp: SmtpSink): Promise<CrashRun> {
  smtp.reset();
  const env: NodeJS.ProcessEnv = { ...prepared.env, SMTP_URL: smtp.url, HERMES_DELIVERY_RETRY_DELAY: '1' };
  const first = await startServer(prepared.dir, env);
  let messageId = 0;
  let recipients = 0;
  try {
    const client = new ApiClient(first.baseUrl);
    await client.login(SENDER, DEMO_PASSWORD);
    const input: ComposeInput = {
      title: EMAIL_SUBJECT,
      content: EMAIL_TEXT,
      channels: ['e-mail'],
      recipients: prepared.picks,
      attachment_ids: [],
      allow_replies: false,
      copy_to_sender: false,
      scheduled_at: null,
    };
    const response = await client.post('/api/messages/send', input, { [IDEMPOTENCY_HEADER]: randomUUID() });
    const text = await response.text();
    if (response.status !== 201) throw new Error(`POST /api/messages/send → ${response.status}: ${text.slice(0, 500)}`);
    ({ id: messageId, recipients } = (JSON.parse(text) as { data: SendResult }).data);
    const until = Date.now() + RUN_TIMEOUT_MS;
    while (smtp.ids.length < recipients * CRASH_AT) {
      if (first.child.exitCode !== null || first.child.signalCode !== null) throw new Error(`el servidor terminó:\n${first.output()}`);
      if (Date.now() > until) throw new Error(`no llegaron ${recipients * CRASH_AT} correos en ${RUN_TIMEOUT_MS / 1000} s`);
      await sleep(5);
    }
  } finally {
    signalGroup(first.child, 'SIGKILL');
    await exited(first.child);
    await stopServer(first.child);
  }
  const acceptedAtKill = smtp.ids.length;
  const restartedAt = Date.now();
  const second = await startServer(prepared.dir, env);
  try {
    const client = new ApiClient(second.baseUrl);
    await client.login(SENDER, DEMO_PASSWORD);
    await waitUntilDone(client, messageId, second, []);
  } finally {
    await stopServer(second.child);
  }
  const recoveryMs = Math.max(0, smtp.lastAcceptedAt() - restartedAt);
  const outcome = await readOutcome(prepared, messageId);
  const email = outcome.channels.find((c) => c.channel === 'e-mail');
  const emails = email?.withAddress ?? 0;
  const accepted = smtp.ids.length;
  const uniqueMessageIds = distinctIds(smtp);
  return {
    emails,
    acceptedAtKill,
    accepted,
    uniqueMessageIds,
    resent: accepted - uniqueMessageIds,
    recoveryMs: Math.round(recoveryMs),
    ok: uniqueMessageIds === emails && email?.delivered === emails,
  };
}

function printCrash(crash: CrashRun, concurrency: number): void {
  console.log(
    `    PGlite, correo, kill -9 del servidor con ${crash.acceptedAtKill} de ${crash.emails} correos aceptados, y reinicio: ` +
      `${crash.uniqueMessageIds} Message-ID distintos de ${crash.accepted} aceptados → ${crash.resent} correos recibidos dos veces ` +
      `(${concurrency} entregas simultáneas; todo entregado ${(crash.recoveryMs / 1000).toFixed(1)} s después de reiniciar)` +
      (crash.ok ? '' : ' — AVISO: no todos los correos llegaron'),
  );
}

// ───────────────────────────── the raw channel ─────────────────────────────

/** Runs `fn` for 0…n-1 with at most `limit` at a time (the engine's concurrency). */
async function forEachLimit(n: number, limit: number, fn: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, n) }, async () => {
      while (next < n) await fn(next++);
    }),
  );
}

/**
 * `emails` e-mails with the send's subject and text, one Message-ID each, through a nodemailer pool with the
 * engine's SMTP pool settings, `concurrency` at a time, to the same SMTP server: the channel with nothing of
 * the engine around it (no queue, no rows, no database).
 */
async function rawEmailRun(smtp: SmtpSink, emails: number, concurrency: number, engineRuns: DeliveryRun[]): Promise<RawEmailRun> {
  smtp.reset();
  const transport = nodemailer.createTransport({ ...SMTP_POOL, url: smtp.url });
  const started = performance.now();
  try {
    await forEachLimit(emails, concurrency, (i) =>
      transport.sendMail({
        from: DEFAULT_CONFIG.mailFrom,
        to: `apoderado${i}@bench.hermes.local`,
        subject: EMAIL_SUBJECT,
        text: EMAIL_TEXT,
        messageId: `<hermes-bench-${i}@hermes.local>`,
      }),
    );
  } finally {
    transport.close();
  }
  const ms = performance.now() - started;
  const emailsPerSecond = round1(emails / (ms / 1000));
  return {
    emails,
    ms: Math.round(ms),
    emailsPerSecond,
    maxConnections: SMTP_POOL.maxConnections,
    concurrency,
    accepted: smtp.ids.length,
    engineCost: engineRuns.map((run) => ({
      run: `${STORE_NAMES[run.store]}${processesLabel(run.workers)}`,
      ratio: Math.round((emailsPerSecond / run.deliveriesPerSecond) * 100) / 100,
    })),
  };
}

function printRawEmail(raw: RawEmailRun): void {
  console.log(
    `    nodemailer solo (pool de ${raw.maxConnections} conexiones, ${raw.concurrency} a la vez, mismo servidor SMTP): ` +
      `${raw.emails} correos en ${(raw.ms / 1000).toFixed(1)} s → ${raw.emailsPerSecond} correos/s (${raw.accepted} aceptados)`,
  );
  console.log(
    `    costo del motor sobre el canal (correos/s de nodemailer solo ÷ del motor): ${raw.engineCost.map((c) => `${c.run} ${c.ratio}×`).join('; ')}`,
  );
}

// ───────────────────────────── the section ─────────────────────────────

const RUN_NAMES = ['pglite-email', 'pglite-sms', 'pglite-both', 'pglite-crash', 'pg-email', 'pg-sms', 'pg-w1', 'pg-w2'] as const;
type RunName = (typeof RUN_NAMES)[number];

const CHANNEL_NAMES: Record<ChannelCode, string> = { 'e-mail': 'correo', sms: 'SMS', whatsapp: 'WhatsApp', 'app-mobile': 'app' };
const STORE_NAMES: Record<Store, string> = { pglite: 'PGlite', postgres: 'PostgreSQL' };

/** Who worked the queue: the server itself, or workers beside a server at HERMES_WORKERS=0. */
const processesLabel = (workers: number | null): string =>
  workers === null ? '' : ` con HERMES_WORKERS=0 + ${workers} ${workers === 1 ? 'trabajador' : 'trabajadores'}`;

function printRun(run: DeliveryRun): void {
  const channels = run.channels.map((c) => CHANNEL_NAMES[c]).join(' + ');
  console.log(`    ${STORE_NAMES[run.store]}${processesLabel(run.workers)}, ${channels} (${run.recipients} apoderados):`);
  console.log(
    `      ${run.delivered} entregas en ${(run.lastMs / 1000).toFixed(1)} s desde el 201 del envío → ${run.deliveriesPerSecond} entregas/s ` +
      `(envío ${run.sendMs} ms; primera entrega a los ${run.firstMs} ms; sondeo vio todo terminado a los ${run.doneSeenMs} ms)`,
  );
  for (const outcome of run.channelOutcomes) {
    const other = Object.entries(outcome.other).map(([status, n]) => `${n} ${status}`);
    const missing = outcome.rows - outcome.withAddress;
    console.log(
      `      ${CHANNEL_NAMES[outcome.channel]}: ${outcome.delivered}/${outcome.withAddress} con dirección recibidas` +
        (other.length > 0 ? `, ${other.join(', ')}` : '') +
        (missing > 0 ? `; ${missing} sin dirección` : '') +
        (outcome.retried > 0 ? `; ${outcome.retried} con reintentos` : ''),
    );
  }
  if (run.smtp) {
    const verdict = run.smtp.ok ? 'OK' : 'FALLA';
    console.log(
      `      servidor SMTP: ${run.smtp.accepted} correos aceptados, ${run.smtp.uniqueMessageIds} Message-ID distintos, ` +
        `esperados ${run.smtp.expected} → ${verdict}`,
    );
  }
  if (run.memory) {
    console.log(
      `      memoria ${run.workers === null ? 'del servidor' : 'del servidor y los trabajadores'} (RSS de los grupos de procesos, cada ${MEMORY_SAMPLE_MS} ms): antes ${run.memory.baselineMB} MB, ` +
        `pico ${run.memory.peakMB} MB (proceso de la app ${run.memory.appPeakMB} MB), al final ${run.memory.endMB} MB; ` +
        `CPU ${run.memory.cpuS} s (${run.delivered > 0 ? round1((run.memory.cpuS * 1e6) / run.delivered / 1000) : 0} ms por entrega)`,
    );
  }
  if (!run.ok) console.log('      AVISO: no todas las entregas con dirección quedaron recibidas exactamente una vez');
}

export async function deliveryBenchReport(): Promise<DeliveryBenchReport> {
  const concurrency = Number(process.env.HERMES_DELIVERY_CONCURRENCY || DEFAULT_CONFIG.deliveryConcurrency);
  console.log(
    `\n(g) Motor de entregas: un mensaje a todos los apoderados de Colegio San Andrés por la cola del servidor real ` +
      `(${concurrency} entregas simultáneas; simulador sin fallas ni demora)`,
  );
  const runs: DeliveryRun[] = [];
  const picked = process.env.HERMES_BENCH_DELIVERY_RUNS?.split(',').map((name) => name.trim());
  const wanted = (name: RunName): boolean => !picked || picked.includes(name);
  const unknown = picked?.filter((name) => !(RUN_NAMES as readonly string[]).includes(name)) ?? [];
  if (unknown.length > 0) throw new Error(`HERMES_BENCH_DELIVERY_RUNS acepta ${RUN_NAMES.join(', ')} (recibido "${unknown.join(', ')}")`);
  const smtp = await startSmtpSink();
  const keptSeed = process.env.HERMES_BENCH_DELIVERY_SEED;
  const template = keptSeed ? join(keptSeed, 'pglite') : makeTempDir('hermes-bench-delivery-');
  try {
    if (!keptSeed || !existsSync(join(keptSeed, 'seeded'))) {
      const seedStarted = performance.now();
      if (keptSeed) mkdirSync(keptSeed, { recursive: true });
      await runScript(SEED_ARGS, dataEnv(template), SEED_TIMEOUT_MS);
      if (keptSeed) writeFileSync(join(keptSeed, 'seeded'), '');
      console.log(`    semilla con ${SEND_STUDENTS} estudiantes en San Andrés (PGlite): ${Math.round(performance.now() - seedStarted)} ms`);
    }

    const measure = async (
      name: string,
      store: Store,
      channels: ChannelCode[],
      prepare: () => Promise<Prepared>,
      workers: number | null = null,
    ): Promise<void> => {
      const prepared = await prepare();
      try {
        const run = await deliveryRun(name, store, channels, prepared, smtp, workers);
        printRun(run);
        runs.push(run);
      } finally {
        await prepared.dispose();
      }
    };
    if (wanted('pglite-email')) await measure('email', 'pglite', ['e-mail'], () => preparePglite(template));
    if (wanted('pglite-sms')) await measure('sms', 'pglite', ['sms'], () => preparePglite(template));
    if (wanted('pglite-both')) await measure('email+sms', 'pglite', ['e-mail', 'sms'], () => preparePglite(template));

    let postgres: DeliveryBenchReport['postgres'] = 'skipped';
    let postgresServer: string | null = null;
    const pgRuns = (['pg-email', 'pg-sms', 'pg-w1', 'pg-w2'] as const).filter(wanted);
    if (pgRuns.length > 0)
      try {
        // DATABASE_URL's server when set (its own database is never touched), else a throwaway cluster.
        const cluster = process.env.DATABASE_URL ? null : await startPgCluster();
        const adminUrl = process.env.DATABASE_URL || cluster!.url;
        postgresServer = cluster ? `${cluster.label}, temporal` : new URL(adminUrl).host;
        try {
          const seedStarted = performance.now();
          const template = await seedPostgresTemplate(adminUrl);
          console.log(`    semilla en PostgreSQL (${postgresServer}): ${Math.round(performance.now() - seedStarted)} ms`);
          try {
            const prepare = () => preparePostgres(adminUrl, template.name);
            if (wanted('pg-email')) await measure('email', 'postgres', ['e-mail'], prepare);
            if (wanted('pg-sms')) await measure('sms', 'postgres', ['sms'], prepare);
            if (wanted('pg-w1')) await measure('email-w1', 'postgres', ['e-mail'], prepare, 1);
            if (wanted('pg-w2')) await measure('email-w2', 'postgres', ['e-mail'], prepare, 2);
            postgres = 'measured';
          } finally {
            await template.drop();
          }
        } finally {
          await cluster?.stop();
        }
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        console.log(`    PostgreSQL: falló (${message.split('\n')[0]})`);
        postgres = { error: message };
      }

    const emailRuns = runs.filter((r) => r.channels.length === 1 && r.channels[0] === 'e-mail' && r.delivered > 0);
    const rawEmail =
      emailRuns.length > 0 ? await rawEmailRun(smtp, Math.max(...emailRuns.map((r) => r.delivered)), concurrency, emailRuns) : null;
    if (rawEmail) printRawEmail(rawEmail);
    let crash: CrashRun | null = null;
    if (wanted('pglite-crash')) {
      const prepared = await preparePglite(template);
      try {
        crash = await crashRun(prepared, smtp);
        printCrash(crash, concurrency);
      } finally {
        await prepared.dispose();
      }
    }
    const report: DeliveryBenchReport = {
      concurrency,
      simDelayMs: SIM_DELAY_MS,
      runs,
      rawEmail,
      crash,
      postgresServer,
      postgres,
      loadAvg1m: Math.round((loadavg()[0] ?? 0) * 100) / 100,
      cpus: cpus().length,
    };
    console.log(`    carga de la máquina al terminar: loadavg 1 min ${report.loadAvg1m} con ${report.cpus} CPU`);
    return report;
  } finally {
    if (!keptSeed) removeTempDir(template);
    await smtp.close();
  }
}
