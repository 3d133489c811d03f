// Reception state of deliveries, recipients and guardians' devices, written by the delivery engine (hand
// over), the provider webhook (delivered / undelivered / read) and the guardian app (received / read).
//
// A delivery only moves forward: queued → sent → received | not_received | error → read, and a late report
// never undoes a later one (a "delivered" arriving after "read" is ignored). `failed` is final for its round;
// "retry failed" starts a new round (server/reception/reception.ts).
//
// Several of these run at once on PostgreSQL (workers, webhooks, the app, the sweep; each transaction on
// its own connection, READ COMMITTED). Two rules keep them safe:
// - Rows are locked in one global order before they are written: deliveries by id, then the activity
//   roll-up's day rows of their messages (`activity_lock_days`, migration 0018), then their recipients by
//   id, then those recipients' guardians by id (`lockInOrder`). An UPDATE … FROM json_to_recordset
//   locks rows in whatever order its plan visits them, so two batches over the same deliveries in opposite
//   orders deadlocked (40P01).
// - A recipient's state (and a guardian's device_misses) is computed in a statement that starts after its
//   row lock is held, and after every committed change of its deliveries one such refresh follows: a
//   receipt takes the lock before it commits; the engine's outcomes leave the recipient owed a refresh
//   (`recipient_refreshes`, in their transaction), and the refresh that takes that row starts after they
//   committed. So the last refresh sees every delivery committed. Computed in the same statement as the
//   lock wait, it used the snapshot from before the wait (PostgreSQL rechecks only the locked row, not the
//   subquery), and two channels ending at once left the recipient one step behind for good.
// Retryable conflicts are retried as a backstop (transactionRetrying in server/db/client.ts).
import { NOT_THE_PHONE_ERRORS, OUR_SIDE_ERRORS, sqlList } from './our-side';
import { intList } from '../db/arrays';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { ChannelCode } from '../../shared/codes';
import { deliveries, recipientRefreshes } from '../db/schema/delivery';
import { transactionRetrying, type Queryable } from '../db/client';
import type { Logger } from '../log';
import { rowsOf } from '../db/sql';
import { DEVICE_WINDOW } from '../recipients/device-status';
import { giveBackReserved, type Reserved, reservedMonthSql } from '../quota/refund';
import { OPTED_OUT } from '../../shared/delivery-progress';

export type ReportStatus = 'received' | 'read' | 'not_received' | 'error';

export interface DeliveryReport {
  deliveryId: number;
  status: ReportStatus;
  at: Date;
  /** Short code of what went wrong (not_received / error). */
  error?: string | null;
  /**
   * The round the receipt is about. Checked in the same statement that applies it, so a late receipt of an
   * earlier round never lands on a delivery "Reintentar fallidos" has queued again meanwhile.
   */
  generation?: number;
}

/** SQL rank of a status: a report applies only when it ranks above what the row has. */
const RANK = sql.raw(`case d.status when 'queued' then 0 when 'sent' then 1 when 'received' then 2
  when 'not_received' then 2 when 'error' then 2 when 'read' then 3 else 9 end`);
const NEW_RANK = sql.raw(`case v.status when 'received' then 2 when 'not_received' then 2 when 'error' then 2 when 'read' then 3 end`);

/** The round (generation) each of these deliveries of `channel` is in; another channel's or an unknown id is absent. */
export async function roundsOf(db: Queryable, channel: ChannelCode, deliveryIds: number[]): Promise<Map<number, number>> {
  const rows = await db
    .select({ id: deliveries.id, generation: deliveries.generation })
    .from(deliveries)
    .where(and(inArray(deliveries.id, deliveryIds), eq(deliveries.channel, channel)));
  return new Map(rows.map((r) => [r.id, r.generation]));
}

/**
 * Applies receipts (provider webhook, guardian app) and refreshes the recipients and devices they touch.
 * Returns the ids of the deliveries that changed. Reports for deliveries still queued are applied too
 * (a fast provider can report before the engine records the hand-over).
 */
export async function applyReports(db: Queryable, reports: DeliveryReport[], logger?: Logger): Promise<number[]> {
  if (reports.length === 0) return [];
  // One transaction: a crash between the delivery and its recipient would leave the recipient stale forever.
  return transactionRetrying(db, (tx) => applyInTx(tx, reports), logger);
}

type Locked = 'deliveries' | 'message_recipients' | 'guardians';

/** Locks these rows in id order (the order every writer of reception state uses); returns them. */
async function lockInOrder<T extends { id: number }>(
  db: Queryable,
  table: Locked,
  ids: readonly number[],
  columns = sql`id`,
): Promise<T[]> {
  if (ids.length === 0) return [];
  // FOR NO KEY UPDATE is the lock the UPDATE takes anyway (no key changes), so inserts that reference
  // these rows are not held up; ORDER BY runs before the rows are locked.
  const result = await db.execute(sql`
    select ${columns} from ${sql.raw(table)} where id = any(${intList([...new Set(ids)])}::int[]) order by id for no key update`);
  return rowsOf<T>(result);
}

async function applyInTx(db: Queryable, reports: DeliveryReport[]): Promise<number[]> {
  const rows = JSON.stringify(
    reports.map((r) => ({
      id: r.deliveryId,
      status: r.status,
      at: r.at.toISOString(),
      error: r.error ?? null,
      generation: r.generation ?? null,
    })),
  );
  const ids = reports.map((r) => r.deliveryId);
  await lockInOrder(db, 'deliveries', ids);
  // Before the deliveries' update, whose trigger takes some of them when a delivery becomes read.
  await db.execute(sql`
    select activity_lock_days(array(select distinct message_id from deliveries where id = any(${intList([...new Set(ids)])}::int[])))`);
  const result = await db.execute(sql`
    update deliveries d set
      status = v.status,
      delivered_at = case when v.status in ('received', 'read') then coalesce(d.delivered_at, v.at) else d.delivered_at end,
      read_at = case when v.status = 'read' then v.at else d.read_at end,
      sent_at = coalesce(d.sent_at, v.at),
      error = case when v.status in ('not_received', 'error') then v.error else null end
    from json_to_recordset(${rows}::json) as v(id int, status text, at timestamptz, error text, generation int)
    where d.id = v.id and (v.generation is null or d.generation = v.generation)
      and (${RANK} < ${NEW_RANK}
        -- The guardian opened the app after it was given up on: the message did reach them after all.
        or (d.status = 'not_received' and d.error = 'app_not_opened' and v.status in ('received', 'read')))
    returning d.id, d.recipient_id`);
  const changed = rowsOf<{ id: number; recipient_id: number }>(result);
  await refreshRecipients(
    db,
    changed.map((r) => Number(r.recipient_id)),
  );
  return changed.map((r) => Number(r.id));
}

/** What one attempt of the engine came to: the delivery's status and error after it (queued = retry). */
export interface AttemptOutcome {
  id: number;
  generation: number;
  status: 'queued' | 'sent' | 'received' | 'failed';
  error: string | null;
  provider_ref: string | null;
}

/**
 * Records a batch of the engine's outcomes in one statement, only on rows still in the round that was
 * attempted (a receipt that arrived first is kept; the hand-over's time and reference are added to it).
 * Their recipients are left owed a refresh (`refreshOwed`): the engine records a few outcomes at a time to
 * keep what a crash re-sends small, and refreshing recipients (their state, the roll-up, the devices) a
 * few at a time was most of the recording's cost.
 */
export async function recordOutcomes(
  db: Queryable,
  outcomes: readonly AttemptOutcome[],
  logger?: Logger,
  /** More of the caller's in the same transaction (the engine closes the outcomes' queue jobs). */
  also: (tx: Queryable) => Promise<unknown> = async () => {},
): Promise<void> {
  if (outcomes.length === 0) {
    await also(db);
    return;
  }
  // With the recipients' refresh owed in the same transaction: a crash in between would leave them stale.
  await transactionRetrying(
    db,
    async (tx) => {
      await lockInOrder(
        tx,
        'deliveries',
        outcomes.map((o) => o.id),
      );
      const values = JSON.stringify(
        outcomes.map(({ id, generation, status, error, provider_ref }) => ({ id, generation, status, error, provider_ref })),
      );
      // An opt-out the engine's own check caught (server/delivery/attempt.ts): what the delivery reserved goes
      // back, as when the opt-out stops it while queued (server/opt-outs/stop-queued.ts). Read and zeroed
      // while the row is still queued, so a repeated outcome gives nothing back twice.
      const optedOut = outcomes.filter((o) => o.status === 'failed' && o.error === OPTED_OUT);
      if (optedOut.length > 0) {
        const rounds = JSON.stringify(optedOut.map(({ id, generation }) => ({ id, generation })));
        const reserved = rowsOf<Reserved>(
          await tx.execute(sql`
            with old as (
              select d.id, d.segments from deliveries d join json_to_recordset(${rounds}::json) as v(id int, generation int)
                on d.id = v.id and d.generation = v.generation
              where d.status = 'queued' and d.channel in ('sms', 'whatsapp')
            ), zeroed as (
              update deliveries d set segments = 0 from old where d.id = old.id
              returning d.message_id, d.channel, old.segments as charged, d.last_retry_at
            )
            select z.channel, z.charged, m.institution_id, ${reservedMonthSql(sql`z.last_retry_at`, 'm', 'i')} as month
            from zeroed z join messages m on m.id = z.message_id join institutions i on i.id = m.institution_id`),
        );
        await giveBackReserved(tx, reserved);
      }
      await tx.execute(sql`
      with changed as (
      update deliveries d set
        status = case when d.status = 'queued' then v.status else d.status end,
        attempts = d.attempts + 1,
        error = case when d.status = 'queued' then v.error else d.error end,
        provider_ref = coalesce(v.provider_ref, d.provider_ref),
        sent_at = case when v.status in ('sent', 'received') then coalesce(d.sent_at, now()) else d.sent_at end,
        delivered_at = case when v.status = 'received' and d.status = 'queued' then now() else d.delivered_at end,
        last_retry_at = case when d.attempts > 0 then now() else d.last_retry_at end
      from json_to_recordset(${values}::json)
        as v(id int, generation int, status text, error text, provider_ref text)
      where d.id = v.id and d.generation = v.generation
        and (d.status = 'queued' or (v.status in ('sent', 'received') and d.status in ('received', 'read', 'not_received', 'error')))
      returning d.recipient_id,
        -- Whether a device delivery now ends (device_misses counts those): not an e-mail, nor a hand-over.
        d.channel in (${sql.raw(DEVICE_CHANNELS)}) and d.status = v.status and v.status not in ('queued', 'sent') as device_ended)
      insert into ${recipientRefreshes} (recipient_id, device) select recipient_id, device_ended from changed`);
      await also(tx);
    },
    logger,
  );
}

/** Owed recipients refreshed per transaction. */
const REFRESH_LIMIT = 500;

/**
 * Refreshes every owed recipient, oldest first, REFRESH_LIMIT per transaction; rows another process is
 * refreshing are skipped (it owns them). Returns how many owed rows it took.
 */
export async function refreshOwed(db: Queryable, logger?: Logger): Promise<number> {
  let total = 0;
  for (;;) {
    const taken = await transactionRetrying(
      db,
      async (tx) => {
        const rows = rowsOf<{ recipient_id: number; device: boolean }>(
          await tx.execute(sql`
            delete from ${recipientRefreshes} where id in (
              select id from ${recipientRefreshes} order by id limit ${REFRESH_LIMIT} for update skip locked)
            returning recipient_id, device`),
        );
        await refreshRecipients(
          tx,
          rows.map((r) => Number(r.recipient_id)),
          rows.filter((r) => r.device).map((r) => Number(r.recipient_id)),
        );
        return rows.length;
      },
      logger,
    );
    total += taken;
    if (taken < REFRESH_LIMIT) return total;
  }
}

/** The channels device_misses counts (refreshDeviceMisses). */
const DEVICE_CHANNELS = "'app-mobile', 'sms', 'whatsapp'";

/**
 * `message_recipients.reached_at` over a recipient's deliveries (grouped by recipient): when the first of them
 * was received or read. A delivery only moves forward and "retry failed" requeues only failed ones, so once
 * set it only moves earlier (a read reported before its "delivered").
 */
const REACHED_AT = sql.raw(`min(least(delivered_at, read_at)) filter (where status in ('received', 'read'))`);

/**
 * The roll-up recomputed for every recipient of these messages (all when `messageIds` is omitted), for rows
 * written in bulk beside the engine: the seed, the bench's history, test fixtures.
 */
export async function rollUpReachedAt(db: Queryable, messageIds?: readonly number[]): Promise<void> {
  const only = messageIds === undefined ? sql`` : sql`and message_id = any(${intList(messageIds)}::int[])`;
  await db.execute(sql`
    update message_recipients r set reached_at = x.reached_at
    from (select recipient_id, ${REACHED_AT} as reached_at from deliveries where true ${only} group by recipient_id) x
    where r.id = x.recipient_id and r.reached_at is distinct from x.reached_at`);
}

/**
 * A recipient's state is the best of its channels: read, else received, else still pending while any
 * channel is in flight, else the mildest failure. Then the device status of the guardians among them (all
 * of them: a device delivery that ends can change it while the recipient's state stays, say an SMS lost
 * beside an e-mail received). Call it in the transaction that changed the recipients' deliveries, after
 * the change: it locks the recipients, then computes from what is committed by then (see the top).
 */
export async function refreshRecipients(
  db: Queryable,
  recipientIds: readonly number[],
  /**
   * Those of them whose guardian's device_misses may have changed (default: all). The engine names only
   * recipients with a device delivery that ended: an e-mail, or a hand-over still waiting for its receipt,
   * leaves the count as it was, and counting is the costly part of recording a busy send.
   */
  deviceRecipientIds: readonly number[] = recipientIds,
): Promise<void> {
  if (recipientIds.length === 0) return;
  await db.execute(sql`
    select activity_lock_days(array(select distinct message_id from message_recipients where id = any(${intList([...new Set(recipientIds)])}::int[])))`);
  const locked = await lockInOrder<{ id: number; recipient_kind: string; recipient_ref_id: number }>(
    db,
    'message_recipients',
    recipientIds,
    sql`id, recipient_kind, recipient_ref_id`,
  );
  if (locked.length === 0) return;
  await db.execute(sql`
    update message_recipients r set status = agg.status, reached_at = agg.reached_at
    from (
      select recipient_id, case
        when bool_or(status = 'read') then 'read'
        when bool_or(status = 'received') then 'received'
        when bool_or(status in ('queued', 'sent')) then 'pending'
        when bool_or(status = 'not_received') then 'not_received'
        when bool_or(status = 'error') then 'error'
        else 'failed' end as status,
        ${REACHED_AT} as reached_at
      from deliveries where recipient_id = any(${intList(locked.map((r) => Number(r.id)))}::int[]) group by recipient_id
    ) agg
    where r.id = agg.recipient_id and (r.status is distinct from agg.status or r.reached_at is distinct from agg.reached_at)`);
  const devices = new Set(deviceRecipientIds);
  await refreshDeviceMisses(
    db,
    locked.filter((r) => r.recipient_kind === 'apoderado' && devices.has(Number(r.id))).map((r) => Number(r.recipient_ref_id)),
  );
}

/**
 * `guardians.device_misses`: how many of the guardian's last 3 finished device deliveries (app, SMS,
 * WhatsApp; not e-mail, not rows never tried (no address, opted out), not failures on our side, WhatsApp's
 * closed window among them) were not received.
 * 3 = yellow.
 */
export async function refreshDeviceMisses(db: Queryable, guardianIds: readonly number[]): Promise<void> {
  if (guardianIds.length === 0) return;
  // Locked first, computed after: the count reads deliveries of other messages, which other transactions
  // may be finishing right now (they lock the guardian too before they commit).
  await lockInOrder(db, 'guardians', guardianIds);
  const ids = intList([...new Set(guardianIds)]);
  await db.execute(sql`
    update guardians g set device_misses = coalesce(x.misses, 0)
    from (select unnest(${ids}::int[]) as id) wanted
    left join (
      select ref, count(*) filter (where status in ('not_received', 'error', 'failed'))::smallint as misses
      from (
        select r.recipient_ref_id as ref, d.status,
          row_number() over (partition by r.recipient_ref_id order by d.created_at desc, d.id desc) as n
        from deliveries d join message_recipients r on r.id = d.recipient_id
        where r.recipient_kind = 'apoderado' and r.recipient_ref_id = any(${ids}::int[])
          and d.channel in (${sql.raw(DEVICE_CHANNELS)}) and d.status not in ('queued', 'sent')
          -- Never tried: no address, or the family opted out (their choice, not their phone failing). Nor
          -- WhatsApp's 24-hour window closed, whatever status the provider gave it (Meta: not received):
          -- the message needed our template, the family's phone could have taken it.
          and coalesce(d.error, '') not in ${sql.raw(sqlList(NOT_THE_PHONE_ERRORS))}
          -- Our side failing (provider down, our credentials, sender, account or WhatsApp template refused)
          -- says nothing about the guardian's phone.
          and not (d.status in ('failed', 'error') and coalesce(d.error, '') in ${sql.raw(sqlList(OUR_SIDE_ERRORS))})
      ) ranked
      where n <= ${DEVICE_WINDOW}
      group by ref
    ) x on x.ref = wanted.id
    where g.id = wanted.id and g.device_misses is distinct from coalesce(x.misses, 0)`);
}
