// Bulk writers and the activity roll-up (migration 0014_activity_rollup, server/db/schema/activity.ts). Its
// triggers keep it row by row for the app's writes; a writer of a whole school year at once (the seed, the
// bench's history) pauses them for its transaction and rebuilds its schools' roll-up once at the end with the
// migration's own set-based statements (`activity_rebuild`).
import { sql } from 'drizzle-orm';
import type { Queryable } from './client';
import { intList } from './arrays';

/**
 * Runs `write` in transaction `tx` with the roll-up's triggers off (a transaction-local setting: other
 * sessions keep theirs), then rebuilds the roll-up of `institutionIds` from their rows. Nobody else may write
 * those schools' messages meanwhile (a rebuild replaces their rows).
 */
export async function withActivityRollupPaused<T>(tx: Queryable, institutionIds: readonly number[], write: () => Promise<T>): Promise<T> {
  await pauseActivityRollup(tx);
  const result = await write();
  await tx.execute(sql`select activity_rebuild(${intList(institutionIds)}::int[])`);
  await turnOn(tx);
  return result;
}

const turnOn = (tx: Queryable) => tx.execute(sql`select set_config('hermes.activity_rollup', '', true)`);

/**
 * For a writer of one message's thousands of rows (a send to a whole school): the roll-up's triggers off
 * from here to `resumeActivityRollup`, which brings the messages written meanwhile into it in one step each.
 * The row triggers would add the same, one delivery at a time (a JSON object and a lookup per row: most of
 * the cost of writing a large send). Only those messages' own rows may be written in between.
 */
export async function pauseActivityRollup(tx: Queryable): Promise<void> {
  await tx.execute(sql`select set_config('hermes.activity_rollup', 'paused', true)`);
}

/**
 * The triggers on again, and `messageIds` as they are now added to the roll-up by `activity_refresh`, the
 * triggers' own path for a message whose key changed: a message it does not know yet (or whose kind or
 * send time changed) contributes all its recipients, deliveries and entries under its key at once.
 */
export async function resumeActivityRollup(tx: Queryable, messageIds: readonly number[]): Promise<void> {
  await turnOn(tx);
  await tx.execute(sql`select activity_refresh(${intList(messageIds)}::int[])`);
}
