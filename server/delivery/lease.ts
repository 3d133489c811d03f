// How long a worker may hold a queue job, and how the live processes take back the jobs of a dead one.
//
// A worker that takes a job marks it `active`; killed (kill -9, OOM, a lost machine), it leaves it so, and
// pg-boss's own expiry (its maintenance every 2 minutes, then the retry backoff) would hand it to another
// worker only after minutes. Here a live worker renews its claims every HEARTBEAT_MS (`started_on`), and
// every worker process, every RECLAIM_EVERY_MS, turns the jobs not renewed for LEASE_MS back into `retry`
// to run at once. A job is never held for long without a sign of life, however slow its work: a 22 MB
// e-mail through a slow SMTP relay keeps its claim, while a dead worker's deliveries run again within
// RECLAIMED_WITHIN_MS of its death. Every channel attempt is also cut at ATTEMPT_DEADLINE_MS (engine.ts)
// so a live but stuck transfer cannot hold a job, nor a slot of its worker, for ever. A job stays held (and
// renewed) from its fetch until its outcome is recorded and the job completed.
//
// A job taken back from a worker that was only slow or stalled (its heartbeat missed the lease) runs
// twice: the second run re-reads its row (a done row is skipped) and re-sends with the same deliveryKey,
// which the outbox, the simulator and the providers dedupe.
import { sql } from 'drizzle-orm';
import { rowsOf } from '../db/sql';
import { textList } from '../db/arrays';
import type { Db } from '../db/client';
import type { Logger } from '../log';

/**
 * Longest one channel attempt may take before it counts as a transient error (retried later with the same
 * key). Above the channels' own timeouts (SMTP connection and greeting 10 s, inactivity 30 s; providers
 * 15 s), so they report first; it stops a transfer that trickles bytes past the inactivity timeout.
 */
export const ATTEMPT_DEADLINE_MS = 60_000;
/** A claimed job not renewed for this long belongs to a dead (or stalled) worker and is taken back. */
export const LEASE_MS = 30_000;
/** How often a live worker renews the claims of the jobs it is working: three chances per lease. */
export const HEARTBEAT_MS = 10_000;
/** How often each worker process looks for claims past their lease. */
export const RECLAIM_EVERY_MS = 5_000;
/**
 * Promise of the design: the jobs a worker held when it died are runnable again (and a live worker takes
 * them at once) within this long of its death; their work then takes what it takes on a live worker.
 */
export const RECLAIMED_WITHIN_MS = LEASE_MS + RECLAIM_EVERY_MS;

export interface LeaseTiming {
  leaseMs: number;
  heartbeatMs: number;
  reclaimEveryMs: number;
}

export interface Leases {
  /** The jobs this process is working now: renewed until released. */
  hold(ids: readonly string[]): void;
  release(ids: readonly string[]): void;
  /** One pass of the reclaim (also run every `reclaimEveryMs` once started); how many jobs it took back. */
  reclaim(): Promise<number>;
  start(): void;
  stop(): void;
}

/**
 * `queues` are the queue names whose jobs are leased. `deliverQueue` jobs always go back to `retry`: a
 * deliver job whose retries ran out that way is given up on by the engine, which records the delivery
 * failed (its row would otherwise stay queued and the sweep queue it again for ever). The others (fan-out,
 * firing a schedule) follow pg-boss's rule for an expired job: retried while retries remain, else failed.
 * Either way a job that kills every worker that takes it is run at most its retry limit + 1 times.
 */
export function createLeases(db: Db, logger: Logger, queues: readonly string[], deliverQueue: string, timing: LeaseTiming): Leases {
  const held = new Set<string>();
  const names = textList(queues);
  const timers: NodeJS.Timeout[] = [];
  let renewing = false;
  let reclaiming = false;

  async function renew(): Promise<void> {
    if (renewing || held.size === 0) return;
    renewing = true;
    try {
      // Only still active: a job taken back meanwhile stays with whoever has it now.
      await db.execute(sql`
        update pgboss.job set started_on = now()
        where name = any(${names}::text[]) and id = any(${textList([...held])}::uuid[]) and state = 'active'`);
    } catch (err) {
      logger.error('Cola de envíos: no se pudo renovar la reserva de los trabajos en curso', err);
    } finally {
      renewing = false;
    }
  }

  async function reclaim(): Promise<number> {
    // Several processes may run this at once: the row lock makes the second see the first's `retry` and
    // skip the row, so a job is taken back once.
    const result = await db.execute(sql`
      update pgboss.job set
        state = case when name = ${deliverQueue} or retry_count < retry_limit then 'retry' else 'failed' end::pgboss.job_state,
        start_after = now(),
        completed_on = case when name = ${deliverQueue} or retry_count < retry_limit then null else now() end
      where name = any(${names}::text[]) and state = 'active'
        and started_on < now() - ${`${timing.leaseMs} milliseconds`}::interval
      returning id`);
    return rowsOf(result).length;
  }

  async function reclaimLogged(): Promise<void> {
    if (reclaiming) return;
    reclaiming = true;
    try {
      const n = await reclaim();
      if (n > 0) logger.info(`Cola de envíos: ${n} trabajos de un proceso caído se retoman`);
    } catch (err) {
      logger.error('Cola de envíos: no se pudieron retomar los trabajos vencidos', err);
    } finally {
      reclaiming = false;
    }
  }

  return {
    hold(ids) {
      for (const id of ids) held.add(id);
    },
    release(ids) {
      for (const id of ids) held.delete(id);
    },
    reclaim,
    start() {
      timers.push(
        setInterval(() => void renew(), timing.heartbeatMs),
        setInterval(() => void reclaimLogged(), timing.reclaimEveryMs),
      );
      for (const timer of timers) timer.unref();
    },
    stop() {
      for (const timer of timers.splice(0)) clearInterval(timer);
    },
  };
}
