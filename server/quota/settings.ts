// The SMS quota as an administrator sees and sets it (`GET/PATCH /quota/settings`, shared/quota-contract.ts):
// the limit, this month's use, the emergency reserve and low-quota alert shares, and the day the remaining
// segments run out at this month's pace. The month is the calendar month in the school's time zone, as
// compose counts it (server/quota/balance.ts, whose `reserve` takes the same row lock as a change here).
import { recordAudit, type AuditActor } from '../audit/record';
import { and, eq, lt, sql } from 'drizzle-orm';
import {
  ALERT_PERCENT_MAX,
  ALERT_PERCENT_MIN,
  RESERVE_PERCENT_MAX,
  SMS_LIMIT_MAX,
  type QuotaSettings,
  type QuotaSettingsInput,
} from '../../shared/quota-contract';
import { smsRemaining } from '../../shared/quota-rules';
import type { Db, Queryable } from '../db/client';
import { institutionQuotas, smsMonthlyLimits } from '../db/schema/compose';
import { isLow, quotaSnapshot, reservedOf, type QuotaSnapshot } from './balance';
import { institutionTimezone, monthIn, dayIn } from '../db/time';
import { type FieldErrors, hasFieldErrors } from '../http/field-errors';

const thousands = new Intl.NumberFormat('es-CL');

export const QUOTA_MESSAGES = {
  forbidden: 'No tienes permiso para ver ni modificar la cuota de SMS de la institución.',
  empty: 'Indica al menos un valor para actualizar: límite mensual, reserva de emergencia o alerta.',
  limit: `El límite mensual debe ser un número entero entre 0 y ${thousands.format(SMS_LIMIT_MAX)}.`,
  belowUsed: (used: number) => `Este mes ya se usaron ${thousands.format(used)} SMS; el límite no puede ser menor.`,
  reserve: `La reserva de emergencia debe ser un porcentaje entero entre 0 y ${RESERVE_PERCENT_MAX}.`,
  alert: `La alerta debe ser un porcentaje entero entre ${ALERT_PERCENT_MIN} y ${ALERT_PERCENT_MAX}, o ninguna.`,
} as const;

/** A PATCH body as a change (only the fields sent), or the per-field errors. */
export function parseQuotaSettingsInput(body: unknown): { ok: true; value: QuotaSettingsInput } | { ok: false; errors: FieldErrors } {
  const fields = (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
  const errors: FieldErrors = {};
  const value: QuotaSettingsInput = {};
  const isInt = (v: unknown, min: number, max: number): v is number => Number.isInteger(v) && (v as number) >= min && (v as number) <= max;
  if ('sms_monthly_limit' in fields) {
    if (isInt(fields.sms_monthly_limit, 0, SMS_LIMIT_MAX)) value.sms_monthly_limit = fields.sms_monthly_limit;
    else errors.sms_monthly_limit = [QUOTA_MESSAGES.limit];
  }
  if ('reserve_percent' in fields) {
    if (isInt(fields.reserve_percent, 0, RESERVE_PERCENT_MAX)) value.reserve_percent = fields.reserve_percent;
    else errors.reserve_percent = [QUOTA_MESSAGES.reserve];
  }
  if ('alert_percent' in fields) {
    const alert = fields.alert_percent;
    if (alert === null || isInt(alert, ALERT_PERCENT_MIN, ALERT_PERCENT_MAX)) value.alert_percent = alert;
    else errors.alert_percent = [QUOTA_MESSAGES.alert];
  }
  if (hasFieldErrors(errors)) return { ok: false, errors };
  if (Object.keys(value).length === 0) return { ok: false, errors: { sms_monthly_limit: [QUOTA_MESSAGES.empty] } };
  return { ok: true, value };
}

/**
 * The day the remaining segments run out at this month's pace: `used` over the `day` days elapsed (today
 * included) is the daily rate; null when nothing is used yet, nothing is left to spend on that pace
 * before the month ends, or the remaining lasts past the month's last day. Nothing left: today.
 */
export function runsOutOn(month: string, day: number, used: number, remaining: number): string | null {
  if (used <= 0) return null;
  const [year, mon] = month.split('-').map(Number) as [number, number];
  const daysInMonth = new Date(Date.UTC(year, mon, 0)).getUTCDate();
  // The segments of day `day` are spent by its end; at `rate` a day, the remaining last `remaining / rate`
  // more days, so they run out during day `day + ceil(remaining / rate)` (today when none are left).
  const rate = used / day;
  const out = remaining <= 0 ? day : day + Math.max(1, Math.ceil(remaining / rate - 1e-9));
  if (out > daysInMonth) return null;
  return `${month}-${String(out).padStart(2, '0')}`;
}

interface SettingsRow {
  reservePercent: number;
  alertPercent: number | null;
}

async function settingsRow(db: Queryable, institutionId: number, lock: boolean): Promise<SettingsRow | null> {
  const query = db
    .select({ reservePercent: institutionQuotas.smsReservePercent, alertPercent: institutionQuotas.smsAlertPercent })
    .from(institutionQuotas)
    .where(eq(institutionQuotas.institutionId, institutionId));
  const [row] = lock ? await query.for('update') : await query;
  return row ?? null;
}

/** Defaults of a school with no quota row (the column defaults of institution_quotas). */
const NO_SETTINGS: SettingsRow = { reservePercent: 0, alertPercent: 10 };

/** `GET /quota/settings` at `now` (tests pass a fixed clock). */
export async function readQuotaSettings(db: Queryable, institutionId: number, now = new Date()): Promise<QuotaSettings> {
  const timezone = await institutionTimezone(db, institutionId);
  const month = monthIn(now, timezone);
  const [snapshot, row] = await Promise.all([quotaSnapshot(db, institutionId, month), settingsRow(db, institutionId, false)]);
  return settingsOf(month, timezone, dayIn(now, timezone), snapshot, row ?? NO_SETTINGS);
}

function settingsOf(month: string, timezone: string, today: string, snapshot: QuotaSnapshot, row: SettingsRow): QuotaSettings {
  const { smsLimit: limit, smsUsed: used } = snapshot;
  const remaining = smsRemaining(limit, used);
  const alert = row.alertPercent;
  return {
    month,
    timezone,
    sms: {
      limit,
      used,
      remaining,
      reserved: reservedOf(limit, row.reservePercent),
      reserve_percent: row.reservePercent,
      alert_percent: alert,
      // The rule compose's banner reads (GET /quota).
      low: isLow(limit, remaining, alert),
      runs_out_on: limit > 0 ? runsOutOn(month, Number(today.slice(8, 10)), used, remaining) : null,
    },
    email: { remaining: snapshot.email },
    whatsapp: { remaining: snapshot.whatsapp },
  };
}

export type QuotaUpdate = { ok: true; settings: QuotaSettings } | { ok: false; errors: FieldErrors };

/**
 * `PATCH /quota/settings`: in one transaction, creates the school's quota row when it has none, locks it
 * (as a send's `reserve` does, so a send and a change never interleave), refuses a limit below what this
 * month already used, writes the change and records the limit as this month's in sms_monthly_limits.
 */
/** Stands for "every month before the history" (YYYY-MM sorts before any real month). */
const EARLIEST_MONTH = '0000-01';

export async function updateQuotaSettings(
  db: Db,
  institutionId: number,
  input: QuotaSettingsInput,
  actor: AuditActor,
  now = new Date(),
): Promise<QuotaUpdate> {
  return db.transaction(async (tx) => {
    const timezone = await institutionTimezone(tx, institutionId);
    const month = monthIn(now, timezone);
    // A school with no row has no SMS contracted (limit 0): the change creates it with the column defaults.
    await tx.insert(institutionQuotas).values({ institutionId, smsMonthlyLimit: 0 }).onConflictDoNothing();
    await settingsRow(tx, institutionId, true);
    const before = await quotaSnapshot(tx, institutionId, month);
    if (input.sms_monthly_limit !== undefined && input.sms_monthly_limit < before.smsUsed) {
      return { ok: false, errors: { sms_monthly_limit: [QUOTA_MESSAGES.belowUsed(before.smsUsed)] } };
    }
    const set: Partial<typeof institutionQuotas.$inferInsert> = {};
    if (input.sms_monthly_limit !== undefined) set.smsMonthlyLimit = input.sms_monthly_limit;
    if (input.reserve_percent !== undefined) set.smsReservePercent = input.reserve_percent;
    if (input.alert_percent !== undefined) set.smsAlertPercent = input.alert_percent;
    await tx.update(institutionQuotas).set(set).where(eq(institutionQuotas.institutionId, institutionId));
    if (input.sms_monthly_limit !== undefined) {
      // The months before a school's first recorded change were under the limit it had until now: write
      // that down, else the chart would draw every earlier month against the new limit.
      if (input.sms_monthly_limit !== before.smsLimit) {
        const [earlier] = await tx
          .select({ month: smsMonthlyLimits.month })
          .from(smsMonthlyLimits)
          .where(and(eq(smsMonthlyLimits.institutionId, institutionId), lt(smsMonthlyLimits.month, month)))
          .limit(1);
        if (!earlier)
          await tx
            .insert(smsMonthlyLimits)
            .values({ institutionId, month: EARLIEST_MONTH, smsLimit: before.smsLimit })
            .onConflictDoNothing();
      }
      await tx
        .insert(smsMonthlyLimits)
        .values({ institutionId, month, smsLimit: input.sms_monthly_limit })
        .onConflictDoUpdate({
          target: [smsMonthlyLimits.institutionId, smsMonthlyLimits.month],
          set: { smsLimit: sql`excluded.sms_limit` },
        });
    }
    // The fields the administrator sent, by name; the settings screen shows their values.
    await recordAudit(tx, actor, {
      action: 'settings.changed',
      subject: { kind: 'colegio', id: institutionId },
      detail: { settings: 'quota', fields: Object.keys(input).filter((field) => input[field as keyof QuotaSettingsInput] !== undefined) },
    });
    const snapshot = await quotaSnapshot(tx, institutionId, month);
    const row = (await settingsRow(tx, institutionId, false))!;
    return { ok: true, settings: settingsOf(month, timezone, dayIn(now, timezone), snapshot, row) };
  });
}
