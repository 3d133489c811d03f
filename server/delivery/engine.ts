// The delivery engine: a durable pg-boss queue in the same PostgreSQL (or PGlite) database drives every
// `deliveries` row compose records.
//
//   send / retry ──► fan-out job (one per message) ──► deliver jobs (one per delivery and round)
//   schedule ──────► fire job at scheduled_at ──► the message becomes sent ──► fan-out
//
// Exactly once: a job's id is derived from what it is for (`deliver:<delivery>:<round>`), so queuing twice
// inserts once; a deliver job only acts on a row still `queued` in its round and records the outcome with
// the same condition, so a job run twice (its worker died before completing it) finds the row done. What
// cannot be made atomic — the provider accepted, then the process died before the record — is re-sent with
// the same idempotency key (deliveryKey), which the providers, the simulator and the outbox dedupe.
//
// Retries: a transient error fails the job and pg-boss runs it again after an exponential backoff
// (retryDelay · 2^n, jittered); a permanent error, or the last retry, fails the delivery.
//
// A pipeline, not batches: a worker keeps `concurrency` attempts in flight and starts the next one as soon
// as one ends, from jobs it claimed and loaded ahead (one fetch of twice `concurrency` jobs whenever fewer
// than `concurrency` are ready). Each ended attempt is recorded in a group commit: one commit in flight, the next taking
// every attempt that ended meanwhile (once RECORD_GROUP have ended, or RECORD_WAIT_MS after the first), and
// completing their jobs. So a crash hands over again only what the channel accepted and the commit
// had not yet recorded: the messages whose answer was still on the way, one per SMTP connection, and a
// group or two, not every attempt in flight. The recipients of a group are left owed a refresh, which runs
// for many groups at once (server/delivery/refresher.ts).
//
// A dead worker: a worker claims only what it works now or next, renews its claims until they are
// recorded, and every worker process takes back the claims of a dead one within about half a minute
// (server/delivery/lease.ts).
//
// Firing a scheduled message is server/messages/fire-scheduled.ts; the safety sweep that catches up after
// a crash or a lost job is server/delivery/sweep.ts; loading a delivery and handing it to its channel is
// server/delivery/attempt.ts. This file is the queue: jobs, workers, recording.
import { textList } from '../db/arrays';
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import PgBoss from 'pg-boss';
import type { MergeValues } from '../../shared/merge-fields';
import { rowsOf } from '../db/sql';
import type { Db, DbHandle } from '../db/client';
import { startPeriodic, type Periodic } from '../db/periodic';
import type { Logger } from '../log';
import { fireScheduled } from '../messages/fire-scheduled';
import type { AttachmentStore } from '../storage/attachments';
import type { Adapters, Outgoing, SendResult } from './channel';
import type { DeliveryEngine, DeliveryRound } from './engine-contract';
import { ATTEMPT_DEADLINE_MS, createLeases, HEARTBEAT_MS, LEASE_MS, RECLAIM_EVERY_MS } from './lease';
import { recordOutcomes, refreshRecipients } from '../reception/status';
import { createGatherer } from './gather';
import { createRefresher } from './refresher';
import { createAttempts, type DeliveryRow } from './attempt';
import { createSweep, leaveToSweep } from './sweep';

export const QUEUES = { fanout: 'hermes-fanout', deliver: 'hermes-deliver', fire: 'hermes-fire' } as const;

export interface EngineOptions {
  db: Db;
  queue: DbHandle['queue'];
  adapters: Adapters;
  store: AttachmentStore;
  logger: Logger;
  /** Retries after transient errors, and the first backoff step in seconds. */
  retries: number;
  retryDelayS: number;
  /** Deliveries handed to channels at once by one worker. */
  concurrency: number;
  /** Run workers in this process (false: only queue jobs, `npm run worker` processes them). */
  workers: boolean;
  /**
   * Jobs left `active` belong to a dead process and can run again at once. True only where this process
   * is the only one using the database (PGlite); on PostgreSQL they wait for their lease (lease.ts) instead.
   */
  recoverActive: boolean;
  /** The families' app's address, carried by SMS and WhatsApp to guardians without it (null: never). */
  installLinkUrl?: string | null;
  /** How often the safety sweep runs (default 30 s). */
  sweepEveryMs?: number;
  /** Tests: lease.ts's figures (ATTEMPT_DEADLINE_MS, LEASE_MS, HEARTBEAT_MS, RECLAIM_EVERY_MS). */
  attemptDeadlineMs?: number;
  leaseMs?: number;
  heartbeatMs?: number;
  reclaimEveryMs?: number;
}

export interface Engine extends DeliveryEngine {
  start(): Promise<void>;
  /** Stops taking jobs, waits for the running ones, closes the queue. */
  stop(): Promise<void>;
  /** One pass of the safety sweep (also run every `sweepEveryMs`). */
  sweep(): Promise<void>;
}

/** A UUID that is always the same for `name` (pg-boss job ids must be UUIDs). */
export function stableUuid(name: string): string {
  const h = createHash('sha256').update(`hermes:${name}`).digest('hex');
  // Version 5-shaped (name-based) so it is a valid UUID; the variant bits are set likewise.
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const deliverJobId = (id: number, generation: number) => stableUuid(`deliver:${id}:${generation}`);

/** How long an idle deliver loop waits before it looks for jobs queued by other processes. */
const DELIVER_POLL_MS = 500;
/**
 * A group commit waits for this many finished attempts, or RECORD_WAIT_MS after the first: on PGlite every
 * statement holds the one thread the channels also need, so a commit per attempt would cost more than the
 * attempt. A crash re-sends at most what was finished and not yet committed (the top of the file).
 */
export const RECORD_GROUP = 6;
const RECORD_WAIT_MS = 20;
/** How long stopping waits for the attempts in flight. */
const STOP_TIMEOUT_MS = 15_000;

interface Outcome {
  id: number;
  generation: number;
  /** Final column values for this attempt. */
  status: 'queued' | 'sent' | 'received' | 'failed';
  error: string | null;
  provider_ref: string | null;
  retry: boolean;
}

export function createEngine(options: EngineOptions): Engine {
  const { db, adapters, store, logger } = options;
  const attemptDeadlineMs = options.attemptDeadlineMs ?? ATTEMPT_DEADLINE_MS;
  const boss = new PgBoss({
    ...(options.queue.kind === 'pglite' ? { db: options.queue.db } : { connectionString: options.queue.connectionString, max: 4 }),
    schema: 'pgboss',
    // Cron schedules are not used; maintenance (expiry, archiving) is.
    schedule: false,
    // Completed jobs are kept a day for inspection, then archived and deleted by pg-boss's maintenance.
    archiveCompletedAfterSeconds: 24 * 3600,
  });
  boss.on('error', (err) => logger.error('Cola de envíos: error', err));
  const leases = createLeases(db, logger, Object.values(QUEUES), QUEUES.deliver, {
    leaseMs: options.leaseMs ?? LEASE_MS,
    heartbeatMs: options.heartbeatMs ?? HEARTBEAT_MS,
    reclaimEveryMs: options.reclaimEveryMs ?? RECLAIM_EVERY_MS,
  });
  let sweepTimer: Periodic | undefined;
  /** This process's workers, to wake at once for work it just queued (others find it by polling). */
  const workerIds: Partial<Record<'fanout' | 'fire', string>> = {};
  const wake = (queue: keyof typeof QUEUES) => {
    if (queue === 'deliver') return wakeDeliverer();
    const id = workerIds[queue];
    if (id && !stopping) boss.notifyWorker(id);
  };
  let started = false;
  let stopping = false;

  const deliverJob = (id: number, generation: number) => ({
    id: deliverJobId(id, generation),
    name: QUEUES.deliver,
    data: { id, generation } satisfies DeliveryRound,
    retryLimit: options.retries,
    retryDelay: options.retryDelayS,
    retryBackoff: true,
    // pg-boss's own expiry, a far backstop only: a dead worker's job is taken back after LEASE_MS
    // (lease.ts), and a live worker renews its claim and cuts each attempt at ATTEMPT_DEADLINE_MS.
    expireInSeconds: 900,
  });

  async function enqueueDeliveries(rounds: readonly DeliveryRound[]): Promise<void> {
    for (let i = 0; i < rounds.length; i += 1000) {
      await boss.insert(rounds.slice(i, i + 1000).map((r) => deliverJob(r.id, r.generation)));
    }
  }

  /** Fan-out of one message: a deliver job for every queued delivery, then the mark that it was done. */
  async function fanOut(messageId: number): Promise<void> {
    const result = await db.execute(sql`
      select d.id, d.generation from deliveries d join messages m on m.id = d.message_id
      where d.message_id = ${messageId} and d.status = 'queued' and m.kind = 'sent' order by d.id`);
    const rounds = rowsOf<{ id: number; generation: number }>(result).map((r) => ({ id: Number(r.id), generation: Number(r.generation) }));
    await enqueueDeliveries(rounds);
    // Rows born failed (no address, opted out) never pass through a job: their recipients get their state now, in the
    // same transaction as the mark, so a crash before it makes the sweep redo both.
    await db.transaction(async (tx) => {
      const unreachable = await tx.execute(sql`
        select distinct recipient_id from deliveries where message_id = ${messageId} and status = 'failed'
          and error in ('missing_address', 'opted_out')`);
      await refreshRecipients(
        tx,
        rowsOf<{ recipient_id: number }>(unreachable).map((r) => Number(r.recipient_id)),
      );
      await tx.execute(sql`update messages set fanned_out_at = now() where id = ${messageId} and kind = 'sent'`);
    });
    logger.debug(`Mensaje ${messageId}: ${rounds.length} envíos en cola`);
  }

  /** Fires a scheduled message whose time has come (server/messages/fire-scheduled.ts), then fans it out. */
  async function fire(messageId: number): Promise<boolean> {
    const fired = await fireScheduled(db, messageId);
    if (fired) {
      logger.debug(`Mensaje programado ${messageId} enviado`);
      await fanOut(messageId);
    }
    return fired;
  }

  const { loadRows, loadAttachments, loadValues, attempt } = createAttempts({
    db,
    adapters,
    store,
    logger,
    attemptDeadlineMs,
    installLinkUrl: options.installLinkUrl ?? null,
  });

  /**
   * A deliver job fetched with more tries than its retry limit was taken back from workers that died (or
   * stalled) holding it (lease.ts): it may be what kills them, so it is not tried again; the delivery fails.
   */
  const GAVE_UP: SendResult = { ok: false, kind: 'permanent', error: 'unreachable' };

  type DeliverJob = PgBoss.JobWithMetadata<DeliveryRound>;

  /** A job whose attempt is over, its outcome waiting to be recorded (null: its row was done already). */
  interface Finished {
    job: DeliverJob;
    outcome: Outcome | null;
  }

  /** A claimed job with what its attempt needs, waiting for a free slot. */
  interface Ready {
    job: DeliverJob;
    row: DeliveryRow;
    attachments: Outgoing['attachments'];
    values: MergeValues;
  }

  // The deliver pipeline (see the top): `concurrency` attempts in flight, started as others finish from
  // jobs claimed and loaded ahead; finished attempts recorded a group at a time, one commit in flight.
  let ready: Ready[] = [];
  let sending = 0;
  let unrecorded: Finished[] = [];
  let committing = 0;
  /** Completions of recorded jobs in flight (the job leaves pg-boss's `active` state; its lease is let go). */
  const settling = new Set<Promise<void>>();
  const refresher = createRefresher(db, logger, () => !stopping && (sending > 0 || committing > 0 || unrecorded.length > 0));
  let nudged = false;
  let nudge: (() => void) | undefined;
  let delivering: Promise<void> | undefined;

  /** Wakes the deliver loop: a slot came free, work was queued here, or it is time to stop. */
  function wakeDeliverer(): void {
    nudged = true;
    nudge?.();
  }

  /** Waits until woken, or `ms` at most (others' work is found by polling). */
  function pause(ms: number): Promise<void> {
    if (nudged) {
      nudged = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        nudge = undefined;
        nudged = false;
        resolve();
      };
      const timer = setTimeout(done, ms);
      nudge = done;
    });
  }

  /** What one attempt came to, as the row's new values and whether the job is failed for a retry. */
  function outcomeOf(job: DeliverJob, result: SendResult): Outcome {
    const base = { id: job.data.id, generation: job.data.generation };
    if (result.ok) return { ...base, status: result.status, error: null, provider_ref: result.providerRef ?? null, retry: false };
    const retry = result.kind === 'transient' && job.retryCount < job.retryLimit;
    if (!retry && result.ifExhausted) return { ...base, status: result.ifExhausted, error: null, provider_ref: null, retry: false };
    return { ...base, status: retry ? 'queued' : 'failed', error: result.error, provider_ref: null, retry };
  }

  /** Starts attempts from the ready jobs while slots are free. */
  function launch(): void {
    while (sending < options.concurrency && ready.length > 0) {
      const { job, row, attachments, values } = ready.shift()!;
      sending += 1;
      const gaveUp = job.retryCount > job.retryLimit;
      if (gaveUp) logger.error(`Cola de envíos: el envío ${row.id} se abandona tras ${job.retryCount} intentos interrumpidos o fallidos`);
      void (gaveUp ? Promise.resolve(GAVE_UP) : attempt(row, attachments, values))
        .catch((err: unknown): SendResult => {
          logger.error(`Canal ${row.channel}: error inesperado en el envío ${row.id}`, err);
          return { ok: false, kind: 'transient', error: 'unreachable' };
        })
        .then((result) => {
          sending -= 1;
          finish({ job, outcome: outcomeOf(job, result) });
          launch();
        });
    }
    if (ready.length < options.concurrency) wakeDeliverer();
  }

  function finish(finished: Finished): void {
    unrecorded.push(finished);
    groups.poke();
  }

  /**
   * The next group commit starts once RECORD_GROUP attempts wait, or the first of them has waited
   * RECORD_WAIT_MS, or nothing else is in flight; one commit at a time. The group is every attempt finished
   * by then; what finishes during the commit waits for the next one.
   */
  const groups = createGatherer({
    size: RECORD_GROUP,
    waitMs: RECORD_WAIT_MS,
    waiting: () => unrecorded.length,
    running: () => committing > 0,
    moreComing: () => sending > 0 && !stopping,
    run: () => commit(),
  });

  function commit(): void {
    const group = unrecorded;
    unrecorded = [];
    committing = group.length;
    void recordGroup(group).finally(() => {
      committing = 0;
      groups.poke();
      refresher.owe(group.length);
      wakeDeliverer();
    });
  }

  async function recordGroup(group: Finished[]): Promise<void> {
    const ids = group.map((f) => f.job.id);
    const retrying = group.filter((f) => f.outcome?.retry).map((f) => f.job.id);
    const done = group.filter((f) => !f.outcome?.retry).map((f) => f.job.id);
    try {
      // The jobs that need no retry complete in the same commit (pg-boss's complete, as its SQL does it):
      // one statement less per group, and a recorded job is never left active.
      await recordOutcomes(
        db,
        group.flatMap((f) => (f.outcome ? [f.outcome] : [])),
        logger,
        (tx) =>
          tx.execute(sql`
            update pgboss.job set state = 'completed', completed_on = now()
            where name = ${QUEUES.deliver} and id = any(${textList(done)}::uuid[]) and state = 'active'`),
      );
    } catch (err) {
      // As a worker's failure: the jobs run again after their backoff, and find their rows as they are.
      logger.error(`Cola de envíos: no se pudo registrar el resultado de ${group.length} envíos; se reintentarán`, err);
      settle(ids, () => boss.fail(QUEUES.deliver, ids));
      return;
    }
    // Failing a job is what schedules its retry (pg-boss backoff).
    settle(ids, async () => {
      if (retrying.length > 0) await boss.fail(QUEUES.deliver, retrying);
    });
  }

  /**
   * Ends the jobs' turn with pg-boss without holding up the next commit; their leases are renewed until it
   * is done. Should it fail, they stay `active` and are taken back when their lease runs out (lease.ts).
   */
  function settle(ids: string[], end: () => Promise<unknown>): void {
    const settled: Promise<void> = end()
      .then(
        () => undefined,
        (err: unknown) => logger.error(`Cola de envíos: ${ids.length} trabajos no se pudieron cerrar; vuelven al vencer su reserva`, err),
      )
      .finally(() => {
        leases.release(ids);
        settling.delete(settled);
      });
    settling.add(settled);
  }

  /** Loads what these jobs need (rows, attachments, merge values, one query each) and makes them ready. */
  async function prepare(jobs: DeliverJob[]): Promise<void> {
    const ids = jobs.map((j) => j.id);
    leases.hold(ids);
    try {
      const rows = await loadRows(jobs.map((j) => j.data.id));
      const live = jobs.filter((j) => {
        const row = rows.get(j.data.id);
        // Done already (a job run twice), or a newer round exists: nothing to do, the job completes.
        return row && row.status === 'queued' && Number(row.generation) === j.data.generation;
      });
      const liveRows = live.map((j) => rows.get(j.data.id)!);
      const attachments = await loadAttachments([
        ...new Set(liveRows.filter((r) => r.channel === 'e-mail').map((r) => Number(r.message_id))),
      ]);
      const values = await loadValues(liveRows);
      for (const job of jobs) if (!live.includes(job)) finish({ job, outcome: null });
      ready = ready.concat(
        live.map((job, i) => ({
          job,
          row: liveRows[i]!,
          attachments: attachments.get(Number(liveRows[i]!.message_id)) ?? [],
          values: values.get(Number(liveRows[i]!.recipient_id)) ?? {},
        })),
      );
    } catch (err) {
      logger.error(`Cola de envíos: no se pudieron preparar ${jobs.length} envíos; se reintentarán`, err);
      settle(ids, () => boss.fail(QUEUES.deliver, ids));
    }
  }

  /**
   * Claims jobs ahead of the free slots: a fetch of twice `concurrency` jobs whenever fewer than
   * `concurrency` are ready, so the queries of a fetch (the jobs, their rows, attachments and values) serve
   * many deliveries while the attempts in flight keep the channel busy. pg-boss's fetch orders every waiting
   * job of the queue each time, so on a large send fewer, larger fetches cost less. Holds off while as many finished attempts wait for
   * their record as run at once (the database is behind).
   */
  async function deliverLoop(): Promise<void> {
    while (!stopping) {
      if (ready.length >= options.concurrency || unrecorded.length + committing >= options.concurrency) {
        await pause(DELIVER_POLL_MS);
        continue;
      }
      let jobs: DeliverJob[] = [];
      try {
        jobs = await boss.fetch<DeliveryRound>(QUEUES.deliver, { batchSize: 2 * options.concurrency, includeMetadata: true });
      } catch (err) {
        logger.error('Cola de envíos: no se pudieron tomar trabajos', err);
      }
      if (jobs.length === 0) {
        await pause(DELIVER_POLL_MS);
        continue;
      }
      await prepare(jobs);
      launch();
    }
  }

  /** Until every attempt started is recorded and its job closed, or `ms` passes. */
  async function drain(ms: number): Promise<void> {
    const until = Date.now() + ms;
    while ((sending > 0 || committing > 0 || unrecorded.length > 0 || settling.size > 0 || refresher.pending()) && Date.now() < until) {
      groups.poke();
      refresher.soon();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async function recoverActiveJobs(): Promise<void> {
    const result = await db.execute(sql`
      update pgboss.job set state = 'retry', start_after = now()
      where state = 'active' and name in (${QUEUES.fanout}, ${QUEUES.deliver}, ${QUEUES.fire})
      returning id`);
    const n = rowsOf(result).length;
    if (n > 0) logger.info(`Cola de envíos: ${n} trabajos interrumpidos se retoman`);
  }

  /** Of these queued rounds, queues again those whose job is gone ("retry failed", then the process died). */
  async function requeueLost(rounds: DeliveryRound[]): Promise<void> {
    const ids = rounds.map((r) => deliverJobId(r.id, r.generation));
    const known = await db.execute(sql`
      select id from pgboss.job where name = ${QUEUES.deliver} and id = any(${textList(ids)}::uuid[])
        and state in ('created', 'retry', 'active')`);
    const have = new Set(rowsOf<{ id: string }>(known).map((r) => r.id));
    const missing = rounds.filter((r) => !have.has(deliverJobId(r.id, r.generation)));
    if (missing.length > 0) {
      logger.info(`Cola de envíos: ${missing.length} envíos sin trabajo vuelven a la cola`);
      // A job that gave up (failed) keeps its id until archived: make room so the round can be queued again.
      await db.execute(sql`
        delete from pgboss.job where name = ${QUEUES.deliver} and state in ('failed', 'cancelled', 'completed')
          and id = any(${textList(missing.map((r) => deliverJobId(r.id, r.generation)))}::uuid[])`);
      await enqueueDeliveries(missing);
    }
  }

  /** Renews the claim of these jobs (lease.ts) while `work` runs. */
  async function holding(jobs: readonly { id: string }[], work: () => Promise<unknown>): Promise<void> {
    const ids = jobs.map((j) => j.id);
    leases.hold(ids);
    try {
      await work();
    } finally {
      leases.release(ids);
    }
  }

  /** Never lets a queue problem fail the request that already committed: the sweep catches up. */
  const safely = (what: string, fn: () => Promise<unknown>) => leaveToSweep(logger, what, fn);
  const sweep = createSweep(db, logger, { messageSent: (id) => engine.messageSent(id), fire, requeueLost });

  const engine: Engine = {
    messageSent: (messageId) =>
      safely(`mensaje ${messageId}`, async () => {
        await boss.insert([
          {
            id: stableUuid(`fanout:${messageId}`),
            name: QUEUES.fanout,
            data: { messageId },
            retryLimit: 10,
            retryDelay: 5,
            retryBackoff: true,
            expireInSeconds: 300,
          },
        ]);
        wake('fanout');
      }),
    messageScheduled: (messageId, at) =>
      safely(`mensaje programado ${messageId}`, () =>
        boss.insert([
          {
            id: stableUuid(`fire:${messageId}:${at.toISOString()}`),
            name: QUEUES.fire,
            data: { messageId },
            startAfter: at.toISOString(),
            retryLimit: 10,
            retryDelay: 5,
            retryBackoff: true,
          },
        ]),
      ),
    deliveriesQueued: (rounds) =>
      safely(`${rounds.length} reintentos`, async () => {
        await enqueueDeliveries(rounds);
        wake('deliver');
      }),

    async start() {
      await boss.start();
      started = true;
      for (const name of Object.values(QUEUES)) await boss.createQueue(name);
      if (!options.workers) return;
      if (options.recoverActive) await recoverActiveJobs();
      leases.start();
      workerIds.fanout = await boss.work<{ messageId: number }>(QUEUES.fanout, { pollingIntervalSeconds: 1 }, ([job]) =>
        holding([job!], async () => {
          await fanOut(job!.data.messageId);
          wake('deliver');
        }),
      );
      workerIds.fire = await boss.work<{ messageId: number }>(QUEUES.fire, { pollingIntervalSeconds: 1 }, ([job]) =>
        holding([job!], () => fire(job!.data.messageId)),
      );
      delivering = deliverLoop().catch((err: unknown) => logger.error('Cola de envíos: el ciclo de entregas se detuvo', err));
      // Once at this process's start, then once per period across every process on the database.
      sweepTimer = startPeriodic({
        db,
        logger,
        name: 'delivery-sweep',
        label: 'barrido de envíos',
        everyMs: options.sweepEveryMs ?? 30_000,
        run: sweep,
        atStart: true,
      });
    },

    async stop() {
      stopping = true;
      sweepTimer?.stop();
      wakeDeliverer();
      await delivering;
      // Attempts in flight finish and are recorded; what is still out after that stays active for its lease.
      await drain(STOP_TIMEOUT_MS);
      groups.stop();
      refresher.stop();
      leases.stop();
      if (!started) return;
      started = false;
      await boss.stop({ graceful: true, wait: true, timeout: STOP_TIMEOUT_MS });
    },

    sweep,
  };
  return engine;
}
