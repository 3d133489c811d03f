// The retention sweep (decision 0276): once a day across every process (server/db/periodic.ts), removes
// from each school what is past its periods (settings.ts), in batches of BATCH rows, each its own short
// transaction, so no school's writers wait on it for long. A message leaves its counts behind: its rows go
// with the activity roll-up's triggers paused (server/db/activity-rollup.ts), so the data screens keep the
// period's figures. Files go after their rows' commit. Each school gets one `retention.applied` entry.
import { sql, type SQL } from 'drizzle-orm';
import { RETENTION_KINDS, RETENTION_DEFAULTS, type RetentionKind } from '../../shared/retention-contract';
import { recordAudit, systemActor } from '../audit/record';
import type { Db, Queryable } from '../db/client';
import { rowsOf } from '../db/sql';
import { pauseActivityRollup } from '../db/activity-rollup';
import type { Logger } from '../log';
import type { AttachmentStore } from '../storage/attachments';
import { homelessAuditPast, optOutEventsPast, orphanInboundPast, rowsPast } from './kinds';
import { cutoffsAt, retentionPeriods } from './settings';

const RETENTION_BATCH = 500;

/**
 * Kinds in the order they go: a message's parts first (their files, and an inbound text's link to the reply
 * it became, which the reply would take with it uncounted), then the messages, the log last. So each kind
 * removes what the preview counted for it.
 */
const ORDER: readonly RetentionKind[] = ['adjuntos', 'entregas', 'recibidos', 'respuestas', 'mensajes', 'auditoria'];

export interface SweepOutcome {
  schools: { institutionId: number; removed: Record<RetentionKind, number> }[];
  inbound: number;
  optOutEvents: number;
  audit: number;
}

/**
 * Deletes `select`'s rows of `table` batch by batch, each one statement in its own transaction; returns how
 * many. The batch's rows are chosen, locked and deleted by that one statement, so a row that stops matching
 * (a message whose date moved, a draft edited) is never deleted on a stale choice, and a row another
 * transaction holds is skipped for this run rather than waited on.
 */
async function inBatches(
  db: Db,
  table: string,
  select: SQL,
  options: { batch: number; prepare?: (tx: Queryable) => Promise<unknown>; files?: AttachmentStore },
): Promise<number> {
  const gone = sql`delete from ${sql.identifier(table)} where id in (${select} limit ${options.batch} for update skip locked) returning id`;
  // A message's files, whichever way its rows go (its attachments, or the message with them): the statement
  // reads them from its snapshot, from before its own delete.
  const column = sql.raw(table === 'messages' ? 'message_id' : 'id');
  const query = options.files
    ? sql`with gone as (${gone}) select g.id, a.storage_key as key from gone g left join message_attachments a on a.${column} = g.id`
    : sql`with gone as (${gone}) select g.id, null as key from gone g`;
  let total = 0;
  for (;;) {
    const result = await db.transaction(async (tx) => {
      await options.prepare?.(tx);
      return rowsOf<{ id: number | string; key: string | null }>(await tx.execute(query));
    });
    const n = new Set(result.map((r) => Number(r.id))).size;
    const keys = result.flatMap((r) => (r.key ? [r.key] : []));
    if (keys.length > 0) await options.files?.remove(keys);
    total += n;
    if (n < options.batch) return total;
  }
}

const pauseRollup = (tx: Queryable) => pauseActivityRollup(tx);
const auditPurge = (tx: Queryable) => tx.execute(sql`select set_config('hermes.audit_purge', 'on', true)`);

/** One school: every kind past its period at `at`, then its `retention.applied` entry. */
async function sweepSchool(
  db: Db,
  store: AttachmentStore,
  institutionId: number,
  at: Date,
  batch = RETENTION_BATCH,
): Promise<Record<RetentionKind, number>> {
  const { periods } = await retentionPeriods(db, institutionId);
  const cutoffs = cutoffsAt(periods, at);
  const removed = Object.fromEntries(RETENTION_KINDS.map((k) => [k, 0])) as Record<RetentionKind, number>;
  for (const kind of ORDER) {
    const { table, select } = rowsPast(kind, institutionId, cutoffs[kind]);
    removed[kind] = await inBatches(db, table, select, {
      batch,
      // Rows under the roll-up (messages, deliveries and what a message takes with it) go with its triggers
      // paused: the period keeps its figures. Audit entries go only with the trigger's own permission.
      prepare: kind === 'auditoria' ? auditPurge : kind === 'recibidos' || kind === 'adjuntos' ? undefined : pauseRollup,
      files: kind === 'adjuntos' || kind === 'mensajes' || kind === 'respuestas' ? store : undefined,
    });
  }
  await db.transaction((tx) =>
    recordAudit(tx, systemActor(institutionId), {
      action: 'retention.applied',
      subject: { kind: 'colegio', id: institutionId },
      detail: { ...removed, fecha: at.toISOString() },
    }),
  );
  return removed;
}

/**
 * Every school, then what belongs to none: inbound texts no school holds, opt-out events and audit entries
 * without a school, past the longest period any school keeps them (the defaults when there is no school).
 */
export async function sweepRetention(db: Db, store: AttachmentStore, at = new Date(), batch = RETENTION_BATCH): Promise<SweepOutcome> {
  const schools = rowsOf<{ id: number }>(await db.execute(sql`select id from institutions order by id`));
  const outcome: SweepOutcome = { schools: [], inbound: 0, optOutEvents: 0, audit: 0 };
  let inboundMonths = RETENTION_DEFAULTS.recibidos;
  let auditMonths = RETENTION_DEFAULTS.auditoria;
  let first = true;
  for (const { id } of schools) {
    const { periods } = await retentionPeriods(db, id);
    inboundMonths = first ? periods.recibidos : Math.max(inboundMonths, periods.recibidos);
    auditMonths = first ? periods.auditoria : Math.max(auditMonths, periods.auditoria);
    first = false;
    outcome.schools.push({ institutionId: id, removed: await sweepSchool(db, store, id, at, batch) });
  }
  const longest = cutoffsAt({ ...RETENTION_DEFAULTS, recibidos: inboundMonths, auditoria: auditMonths }, at);
  outcome.inbound = await inBatches(db, 'inbound_messages', orphanInboundPast(longest.recibidos), { batch });
  outcome.optOutEvents = await inBatches(db, 'channel_opt_out_events', optOutEventsPast(longest.recibidos), { batch });
  outcome.audit = await inBatches(db, 'audit_events', homelessAuditPast(longest.auditoria), { batch, prepare: auditPurge });
  if (outcome.inbound + outcome.optOutEvents + outcome.audit > 0)
    await recordAudit(db, systemActor(null), {
      action: 'retention.applied',
      detail: { recibidos: outcome.inbound, bajas: outcome.optOutEvents, auditoria: outcome.audit, fecha: at.toISOString() },
    });
  return outcome;
}

/** The periodic job's body: the sweep, and a line in the log of what it removed. */
export async function runRetentionSweep(db: Db, store: AttachmentStore, logger: Logger): Promise<void> {
  const outcome = await sweepRetention(db, store);
  const total = outcome.schools.reduce((sum, s) => sum + Object.values(s.removed).reduce((a, b) => a + b, 0), 0);
  const all = total + outcome.inbound + outcome.optOutEvents + outcome.audit;
  if (all > 0) logger.info(`Retención: ${all} registros vencidos eliminados`);
}
