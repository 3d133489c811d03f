// SMS monthly quota and e-mail / WhatsApp balances of a school: what is left, what a message needs, and the
// reservation a send (or a retry of failed deliveries) makes and a cancelled schedule gives back. The month
// is the calendar month in the institution's time zone (server/db/time.ts). Reservation happens under a row
// lock on institution_quotas, so two concurrent sends cannot both take the last segments.
import { and, eq, sql } from 'drizzle-orm';
import type { ComposeProblem } from '../../shared/compose-contract';
import type { Quota } from '../../shared/quota-contract';
import { smsRemaining } from '../../shared/quota-rules';
import type { Queryable } from '../db/client';
import { institutionQuotas, smsUsage } from '../db/schema/compose';
import { deliveries } from '../db/schema/delivery';
import { institutions } from '../db/schema/institutions';
import { messages } from '../db/schema/messages';
import { institutionTimezone, monthIn } from '../db/time';

interface QuotaRow {
  smsLimit: number;
  emailBalance: number | null;
  whatsappBalance: number | null;
  reservePercent: number;
  alertPercent: number | null;
}

/** The refusal of a message (a send, a retry) whose needs do not fit: the 409's message beside its problems. */
export const QUOTA_REFUSAL = 'El saldo o la cuota del colegio no alcanza para este mensaje.';

/** A school without a quota row has no SMS contracted (limit 0) and unlimited e-mail / WhatsApp. */
const NO_ROW: QuotaRow = { smsLimit: 0, emailBalance: null, whatsappBalance: null, reservePercent: 0, alertPercent: null };

/** Segments of `limit` kept for messages marked "Emergencia". */
export function reservedOf(limit: number, reservePercent: number): number {
  return Math.floor((limit * reservePercent) / 100);
}

/** The low-quota alert: less than `alertPercent` of the limit is left (never without an alert share). */
export function isLow(limit: number, remaining: number, alertPercent: number | null): boolean {
  return alertPercent !== null && remaining * 100 < limit * alertPercent;
}

async function quotaRow(db: Queryable, institutionId: number, lock: boolean): Promise<QuotaRow> {
  const query = db
    .select({
      smsLimit: institutionQuotas.smsMonthlyLimit,
      emailBalance: institutionQuotas.emailBalance,
      whatsappBalance: institutionQuotas.whatsappBalance,
      reservePercent: institutionQuotas.smsReservePercent,
      alertPercent: institutionQuotas.smsAlertPercent,
    })
    .from(institutionQuotas)
    .where(eq(institutionQuotas.institutionId, institutionId));
  const [row] = lock ? await query.for('update') : await query;
  return row ?? NO_ROW;
}

async function smsUsed(db: Queryable, institutionId: number, month: string): Promise<number> {
  const [row] = await db
    .select({ segments: smsUsage.segments })
    .from(smsUsage)
    .where(and(eq(smsUsage.institutionId, institutionId), eq(smsUsage.month, month)));
  return row?.segments ?? 0;
}

/** `GET /quota`. */
export async function readQuota(db: Queryable, institutionId: number, now = new Date()): Promise<Quota> {
  const timezone = await institutionTimezone(db, institutionId);
  const month = monthIn(now, timezone);
  const [row, used] = await Promise.all([quotaRow(db, institutionId, false), smsUsed(db, institutionId, month)]);
  const remaining = smsRemaining(row.smsLimit, used);
  return {
    month,
    timezone,
    sms: {
      limit: row.smsLimit,
      used,
      remaining,
      reserved: reservedOf(row.smsLimit, row.reservePercent),
      low: isLow(row.smsLimit, remaining, row.alertPercent),
    },
    email: { remaining: row.emailBalance },
    whatsapp: { remaining: row.whatsappBalance },
  };
}

/** What one message consumes: SMS segments and e-mail / WhatsApp deliveries that have an address. */
export interface Needs {
  sms: number;
  email: number;
  whatsapp: number;
}

export interface QuotaSnapshot {
  smsLimit: number;
  smsUsed: number;
  /** Segments of the limit only an emergency message may use. */
  smsReserved: number;
  email: number | null;
  whatsapp: number | null;
}

/**
 * Problems of `needs` against a quota snapshot (no writes); shared by estimate, send and retries. SMS: an
 * emergency message must fit in limit − used; any other in limit − reserved − used. One that fits only by
 * spending the reserve is told so (`sms.reserve_only_emergency`), one over the limit itself
 * `sms.quota_exceeded`.
 */
export function quotaProblems(needs: Needs, quota: QuotaSnapshot, emergency = false): ComposeProblem[] {
  const problems: ComposeProblem[] = [];
  if (needs.sms > 0) {
    if (quota.smsUsed + needs.sms > quota.smsLimit) problems.push('sms.quota_exceeded');
    else if (!emergency && quota.smsUsed + needs.sms > quota.smsLimit - quota.smsReserved) problems.push('sms.reserve_only_emergency');
  }
  if (needs.email > 0 && quota.email !== null && quota.email < needs.email) problems.push('email.insufficient');
  if (needs.whatsapp > 0 && quota.whatsapp !== null && quota.whatsapp < needs.whatsapp) problems.push('whatsapp.insufficient');
  return problems;
}

/**
 * Quota of the month `month`: limit, SMS used, balances. Estimates read it as is; the send transaction
 * passes `lock`, so the school's quota row is locked before the usage is read.
 */
export async function quotaSnapshot(db: Queryable, institutionId: number, month: string, lock = false): Promise<QuotaSnapshot> {
  const row = await quotaRow(db, institutionId, lock);
  const used = await smsUsed(db, institutionId, month);
  return {
    smsLimit: row.smsLimit,
    smsUsed: used,
    smsReserved: reservedOf(row.smsLimit, row.reservePercent),
    email: row.emailBalance,
    whatsapp: row.whatsappBalance,
  };
}

/**
 * Inside the send transaction: locks the school's quota row, checks `needs`, and when they fit records them
 * (SMS usage of `month` up, balances down). Returns the problems; nothing is written when there are any.
 * `emergency`: the message is marked "Emergencia" and may spend the reserve.
 */
export async function reserve(
  tx: Queryable,
  institutionId: number,
  month: string,
  needs: Needs,
  emergency = false,
): Promise<ComposeProblem[]> {
  const quota = await quotaSnapshot(tx, institutionId, month, true);
  const problems = quotaProblems(needs, quota, emergency);
  if (problems.length > 0) return problems;
  if (needs.sms > 0) {
    await tx
      .insert(smsUsage)
      .values({ institutionId, month, segments: needs.sms })
      .onConflictDoUpdate({
        target: [smsUsage.institutionId, smsUsage.month],
        set: { segments: sql`${smsUsage.segments} + ${needs.sms}` },
      });
  }
  if ((needs.email > 0 && quota.email !== null) || (needs.whatsapp > 0 && quota.whatsapp !== null)) {
    await tx
      .update(institutionQuotas)
      .set({
        emailBalance: sql`${institutionQuotas.emailBalance} - ${needs.email}`,
        whatsappBalance: sql`${institutionQuotas.whatsappBalance} - ${needs.whatsapp}`,
      })
      .where(eq(institutionQuotas.institutionId, institutionId));
  }
  return [];
}

/**
 * Gives back what a scheduled message reserved (its still-queued deliveries), before they are deleted:
 * used by cancel-schedule and by purging a scheduled message. SMS go back to the month of `scheduled_at`.
 */
export async function releaseQueued(tx: Queryable, messageId: number): Promise<void> {
  const [msg] = await tx
    .select({ institutionId: messages.institutionId, scheduledAt: messages.scheduledAt, timezone: institutions.timezone })
    .from(messages)
    .innerJoin(institutions, eq(institutions.id, messages.institutionId))
    .where(eq(messages.id, messageId));
  if (!msg?.scheduledAt) return;
  const [sums] = await tx
    .select({
      sms: sql<number>`coalesce(sum(${deliveries.segments}) filter (where ${deliveries.channel} = 'sms'), 0)::int`,
      email: sql<number>`(count(*) filter (where ${deliveries.channel} = 'e-mail'))::int`,
      whatsapp: sql<number>`(count(*) filter (where ${deliveries.channel} = 'whatsapp'))::int`,
    })
    .from(deliveries)
    .where(and(eq(deliveries.messageId, messageId), eq(deliveries.status, 'queued')));
  if (!sums) return;
  await quotaRow(tx, msg.institutionId, true);
  if (sums.sms > 0) {
    await tx
      .update(smsUsage)
      .set({ segments: sql`greatest(0, ${smsUsage.segments} - ${sums.sms})` })
      .where(and(eq(smsUsage.institutionId, msg.institutionId), eq(smsUsage.month, monthIn(new Date(msg.scheduledAt), msg.timezone))));
  }
  if (sums.email > 0 || sums.whatsapp > 0) {
    // Null (unlimited) balances stay null: null + n is null.
    await tx
      .update(institutionQuotas)
      .set({
        emailBalance: sql`${institutionQuotas.emailBalance} + ${sums.email}`,
        whatsappBalance: sql`${institutionQuotas.whatsappBalance} + ${sums.whatsapp}`,
      })
      .where(eq(institutionQuotas.institutionId, msg.institutionId));
  }
}
