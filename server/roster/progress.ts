// The import's progress as the preview reads the file and apply writes it (shared/roster-contract.ts
// RosterProgress): told at a phase's start, every ROSTER_PROGRESS_EVERY rows and at its end, not per row.
import { type ProgressPhase, ROSTER_PROGRESS_EVERY, type RosterProgress } from '../../shared/roster-contract';

/** Takes a progress line (server/http/progress.ts queues it for the client and lets it leave). */
export type RosterReport = (progress: RosterProgress) => Promise<void>;

export const NO_REPORT: RosterReport = async () => {};

/** Rows of one phase counted as they go; reports `0 of total` first. */
export async function phaseOf(phase: ProgressPhase, total: number, report: RosterReport): Promise<(rows: number) => Promise<void>> {
  let done = 0;
  let told = 0;
  await report({ phase, done, total });
  return async (rows) => {
    done += rows;
    if (done - told >= ROSTER_PROGRESS_EVERY || (done === total && told < total)) {
      told = done;
      await report({ phase, done, total });
    }
  };
}
