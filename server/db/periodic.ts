// Periodic jobs (the delivery sweep every 30 s, the hourly clean-up) run once per period across every
// server and worker on the database, not once per process: each process keeps a timer that ticks a few
// times per period, and a tick runs the job only if it claims this period's run in `periodic_runs`. The
// claim is one statement, so of processes ticking at once exactly one wins; and if the process that ran
// it last dies, another takes over within a tick of the period ending.
import { sql } from 'drizzle-orm';
import { rowsOf } from './sql';
import type { Db } from './client';
import type { Logger } from '../log';

/** Ticks per period: how late, at most, a run can be after its period ends (a sixth of the period). */
export const TICKS_PER_PERIOD = 6;

/**
 * Claims the run of `name` for this period: true (and the run counted) when its last run began at least
 * `everyMs` ago, by the database's clock, which every process shares.
 */
export async function claimRun(db: Db, name: string, everyMs: number): Promise<boolean> {
  // On a conflicting insert the second process waits for the first's row lock and re-checks the WHERE on
  // the row the first one wrote, so it finds the period taken.
  const result = await db.execute(sql`
    insert into periodic_runs (name, ran_at, runs) values (${name}, now(), 1)
    on conflict (name) do update set ran_at = now(), runs = periodic_runs.runs + 1
      where periodic_runs.ran_at <= now() - ${`${everyMs} milliseconds`}::interval
    returning name`);
  return rowsOf(result).length === 1;
}

/** Counts a run that needs no claim (a process catching up at its start), so the period starts from it. */
async function recordRun(db: Db, name: string): Promise<void> {
  await db.execute(sql`
    insert into periodic_runs (name, ran_at, runs) values (${name}, now(), 1)
    on conflict (name) do update set ran_at = now(), runs = periodic_runs.runs + 1`);
}

export interface PeriodicOptions {
  db: Db;
  logger: Logger;
  /** The job's name in `periodic_runs`. */
  name: string;
  /** What the logs call it, in Spanish. */
  label: string;
  everyMs: number;
  run: () => Promise<unknown>;
  /**
   * Also run once as the process starts, claimed or not: a process restarting after a crash catches up at
   * once with what the crash left, instead of waiting out the period it (or another process) claimed before.
   */
  atStart?: boolean;
}

export interface Periodic {
  stop(): void;
}

/** Ticks now and every everyMs / TICKS_PER_PERIOD; runs the job on the ticks that claim its period. */
export function startPeriodic({ db, logger, name, label, everyMs, run, atStart = false }: PeriodicOptions): Periodic {
  let running = false;
  let stopped = false;
  const tick = async (first: boolean) => {
    // A run still going when the next period comes (a slow database) is not doubled in this process.
    if (running || stopped) return;
    running = true;
    try {
      if (first && atStart) {
        await recordRun(db, name);
        await run();
      } else if (await claimRun(db, name, everyMs)) {
        await run();
      }
    } catch (err) {
      logger.error(`Tarea periódica "${label}": falló; se intenta en el próximo periodo`, err);
    } finally {
      running = false;
    }
  };
  void tick(true);
  const timer = setInterval(() => void tick(false), Math.max(1, Math.round(everyMs / TICKS_PER_PERIOD)));
  timer.unref();
  return {
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}
