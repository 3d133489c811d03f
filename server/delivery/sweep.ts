// The safety sweep (every 30 s, and once at start): finds what a crash or a lost job left behind and hands
// it back to the engine (server/delivery/engine.ts), which owns the queue. Each part runs on its own, so
// one that fails (say, a message that cannot fire) does not stop the others.
import { sql } from 'drizzle-orm';
import { rowsOf } from '../db/sql';
import type { Db } from '../db/client';
import type { Logger } from '../log';
import type { DeliveryRound } from './engine-contract';
import { applyReports, refreshOwed } from '../reception/status';

/** How long a handed-over delivery may wait for its receipt before it counts as not received. */
const APP_RECEIPT_WAIT_H = 72;
const PROVIDER_RECEIPT_WAIT_H = 24;

/** What the sweep asks of the engine. */
export interface SweepActions {
  /** Queue the fan-out of a sent message. */
  messageSent(messageId: number): Promise<void>;
  /** Fire a scheduled message now, and fan it out. */
  fire(messageId: number): Promise<unknown>;
  /** Queue again those of these queued rounds that have no live job. */
  requeueLost(rounds: DeliveryRound[]): Promise<void>;
}

/** Runs `fn` and logs a failure instead of throwing it: the next sweep catches up with whatever it left. */
export async function leaveToSweep(logger: Logger, what: string, fn: () => Promise<unknown>): Promise<void> {
  try {
    await fn();
  } catch (err) {
    logger.error(`Cola de envíos: ${what} quedó para el barrido`, err);
  }
}

/**
 * Handed over and never confirmed: an app not opened in 3 days, or a provider that never reported in a day,
 * is "not received" (it counts for the yellow device status, and "Reintentar fallidos" can send it again).
 */
async function expireReceipts(db: Db, logger: Logger): Promise<void> {
  const stale = await db.execute(sql`
    select id, generation, channel from deliveries
    where status = 'sent' and (
      (channel = 'app-mobile' and sent_at < now() - ${`${APP_RECEIPT_WAIT_H} hours`}::interval)
      or (channel in ('sms', 'whatsapp') and sent_at < now() - ${`${PROVIDER_RECEIPT_WAIT_H} hours`}::interval))
    limit 1000`);
  const now = new Date();
  await applyReports(
    db,
    rowsOf<{ id: number; generation: number; channel: string }>(stale).map((d) => ({
      deliveryId: Number(d.id),
      generation: Number(d.generation),
      status: 'not_received' as const,
      at: now,
      error: d.channel === 'app-mobile' ? 'app_not_opened' : 'no_receipt',
    })),
    logger,
  );
}

/** Sent messages whose fan-out was never queued (the process died between the commit and the queue). */
async function unsentMessages(db: Db): Promise<number[]> {
  const unsent = await db.execute(sql`
    select m.id from messages m
    where m.kind = 'sent' and m.fanned_out_at is null
      and exists (select 1 from deliveries d where d.message_id = m.id and (d.status = 'queued' or d.error in ('missing_address', 'opted_out')))
    limit 500`);
  return rowsOf<{ id: number }>(unsent).map((r) => Number(r.id));
}

/** Scheduled messages past their time (a fire job lost, or the message came back from the trash). */
async function overdueScheduled(db: Db): Promise<number[]> {
  const due = await db.execute(sql`
    select m.id from messages m
    where m.kind = 'scheduled' and m.scheduled_at <= now() - interval '5 seconds'
      and not exists (select 1 from mailbox_entries e where e.message_id = m.id and e.user_id = m.author_user_id and e.folder = 'trash')
    order by m.scheduled_at limit 100`);
  return rowsOf<{ id: number }>(due).map((r) => Number(r.id));
}

/** Rounds still queued a minute after their fan-out or retry, which may have lost their job. */
async function waitingRounds(db: Db): Promise<DeliveryRound[]> {
  const stale = await db.execute(sql`
    select d.id, d.generation from deliveries d join messages m on m.id = d.message_id
    where d.status = 'queued' and m.fanned_out_at is not null and m.fanned_out_at < now() - interval '1 minute'
      and coalesce(d.last_retry_at, m.fanned_out_at) < now() - interval '1 minute'
    limit 1000`);
  return rowsOf<{ id: number; generation: number }>(stale).map((r) => ({ id: Number(r.id), generation: Number(r.generation) }));
}

/** One pass of the sweep. */
export function createSweep(db: Db, logger: Logger, actions: SweepActions): () => Promise<void> {
  return async () => {
    // What a process that died owed its recipients (server/reception/status.ts refreshOwed).
    await leaveToSweep(logger, 'destinatarios por actualizar', async () => {
      await refreshOwed(db, logger);
    });
    await leaveToSweep(logger, 'vencimiento de acuses', () => expireReceipts(db, logger));
    await leaveToSweep(logger, 'mensajes sin repartir', async () => {
      for (const id of await unsentMessages(db)) await actions.messageSent(id);
    });
    await leaveToSweep(logger, 'mensajes programados vencidos', async () => {
      for (const id of await overdueScheduled(db)) await leaveToSweep(logger, `mensaje programado ${id}`, () => actions.fire(id));
    });
    await leaveToSweep(logger, 'envíos sin trabajo', async () => {
      const rounds = await waitingRounds(db);
      if (rounds.length > 0) await actions.requeueLost(rounds);
    });
  };
}
