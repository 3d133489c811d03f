// A school's retention periods (shared/retention-contract.ts): read with the preview of the next sweep,
// changed whole by its administrators with the change in the audit log in the same transaction.
import { eq, sql } from 'drizzle-orm';
import {
  RETENTION_DEFAULTS,
  RETENTION_KINDS,
  RETENTION_MAX_MONTHS,
  RETENTION_MIN_MONTHS,
  type RetentionKind,
  type RetentionPeriods,
  type RetentionPreview,
  type RetentionSettings,
} from '../../shared/retention-contract';
import { recordAudit, type AuditActor } from '../audit/record';
import type { Db, Queryable } from '../db/client';
import { retentionSettings } from '../db/schema/retention';
import { rowsOf } from '../db/sql';
import { addFieldError, type FieldErrors, hasFieldErrors } from '../http/field-errors';
import { rowsPast } from './kinds';

/** The sweep's name in `periodic_runs` and its period: once a day. */
export const RETENTION_JOB = 'retention-sweep';
export const RETENTION_EVERY_MS = 24 * 3600_000;

type Row = typeof retentionSettings.$inferSelect;
const COLUMN: Record<RetentionKind, keyof Omit<Row, 'institutionId' | 'updatedAt'>> = {
  mensajes: 'messagesMonths',
  respuestas: 'repliesMonths',
  entregas: 'deliveriesMonths',
  adjuntos: 'attachmentsMonths',
  recibidos: 'inboundMonths',
  auditoria: 'auditMonths',
};

/** What belongs to a message cannot outlive it. */
const WITHIN_MESSAGES: readonly RetentionKind[] = ['entregas', 'adjuntos', 'respuestas'];
const MESSAGES_FIRST: Record<string, string> = {
  entregas: 'Las entregas no pueden guardarse más tiempo que los mensajes.',
  adjuntos: 'Los adjuntos no pueden guardarse más tiempo que los mensajes.',
  respuestas: 'Las respuestas no pueden guardarse más tiempo que los mensajes a los que responden.',
};
/**
 * Nor can what belongs to a reply outlive it: a reply goes with its deliveries, its files and its link to the
 * text it came from, so a longer period for those would be removed early and never shown in the preview.
 */
const WITHIN_REPLIES: readonly RetentionKind[] = ['entregas', 'adjuntos', 'recibidos'];
const REPLIES_FIRST: Record<string, string> = {
  entregas: 'Las entregas no pueden guardarse más tiempo que las respuestas: al eliminar una respuesta se eliminan también sus entregas.',
  adjuntos: 'Los adjuntos no pueden guardarse más tiempo que las respuestas: al eliminar una respuesta se eliminan también sus adjuntos.',
  recibidos:
    'Los SMS y WhatsApp recibidos no pueden guardarse más tiempo que las respuestas: cada uno se guarda como una respuesta y se elimina con ella.',
};

export async function retentionPeriods(db: Queryable, institutionId: number): Promise<{ periods: RetentionPeriods; custom: boolean }> {
  const [row] = await db.select().from(retentionSettings).where(eq(retentionSettings.institutionId, institutionId));
  if (!row) return { periods: { ...RETENTION_DEFAULTS }, custom: false };
  const periods = Object.fromEntries(RETENTION_KINDS.map((kind) => [kind, row[COLUMN[kind]]])) as RetentionPeriods;
  return { periods, custom: true };
}

/** `at` less `months` calendar months (UTC; the 31st of a shorter month falls to its last day). */
export function monthsBefore(at: Date, months: number): Date {
  const d = new Date(at);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() - months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}

export const cutoffsAt = (periods: RetentionPeriods, at: Date): Record<RetentionKind, Date> =>
  Object.fromEntries(RETENTION_KINDS.map((kind) => [kind, monthsBefore(at, periods[kind])])) as Record<RetentionKind, Date>;

/** When the sweep runs next: a day after its last run, or now if that has passed (or it never ran). */
async function nextSweepAt(db: Queryable, now = new Date()): Promise<Date> {
  const [row] = rowsOf<{ ran_at: string | Date | null }>(
    await db.execute(sql`select (select ran_at from periodic_runs where name = ${RETENTION_JOB}) as ran_at`),
  );
  if (!row?.ran_at) return now;
  const next = new Date(new Date(row.ran_at).getTime() + RETENTION_EVERY_MS);
  return next > now ? next : now;
}

/** What a sweep at `at` would remove from the school, per kind. */
async function retentionPreview(db: Queryable, institutionId: number, periods: RetentionPeriods, at: Date): Promise<RetentionPreview> {
  const cutoffs = cutoffsAt(periods, at);
  const tipos = {} as RetentionPreview['tipos'];
  for (const kind of RETENTION_KINDS) {
    const [row] = rowsOf<{ n: number | string }>(
      await db.execute(sql`select count(*) as n from (${rowsPast(kind, institutionId, cutoffs[kind]).select}) x`),
    );
    tipos[kind] = { cantidad: Number(row?.n ?? 0), anteriores_a: cutoffs[kind].toISOString() };
  }
  return { fecha: at.toISOString(), tipos };
}

export async function schoolRetention(db: Db, institutionId: number, now = new Date()): Promise<RetentionSettings> {
  const { periods, custom } = await retentionPeriods(db, institutionId);
  return {
    periodos: periods,
    personalizados: custom,
    proxima: await retentionPreview(db, institutionId, periods, await nextSweepAt(db, now)),
  };
}

/** Checks a whole `periodos` object: every kind, whole months within the limits, a message's or reply's parts within it. */
function checkPeriods(body: unknown): { ok: true; periods: RetentionPeriods } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const input = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const raw = typeof input.periodos === 'object' && input.periodos !== null ? (input.periodos as Record<string, unknown>) : null;
  if (!raw) return { ok: false, errors: { periodos: ['Indica cuántos meses se guarda cada tipo de dato.'] } };
  for (const key of Object.keys(raw))
    if (!(RETENTION_KINDS as readonly string[]).includes(key)) addFieldError(errors, `periodos.${key}`, 'Este tipo de dato no existe.');
  const periods = {} as RetentionPeriods;
  for (const kind of RETENTION_KINDS) {
    const value = raw[kind];
    if (typeof value !== 'number' || !Number.isInteger(value))
      addFieldError(errors, `periodos.${kind}`, 'Indica un número entero de meses.');
    else if (value < RETENTION_MIN_MONTHS)
      addFieldError(
        errors,
        `periodos.${kind}`,
        `Debe ser de al menos ${RETENTION_MIN_MONTHS} meses: el año escolar en curso se guarda siempre completo.`,
      );
    else if (value > RETENTION_MAX_MONTHS)
      addFieldError(errors, `periodos.${kind}`, `No puede pasar de ${RETENTION_MAX_MONTHS} meses (10 años).`);
    else periods[kind] = value;
  }
  for (const kind of WITHIN_MESSAGES) {
    const own = periods[kind];
    if (own !== undefined && periods.mensajes !== undefined && own > periods.mensajes)
      addFieldError(errors, `periodos.${kind}`, MESSAGES_FIRST[kind] ?? '');
  }
  for (const kind of WITHIN_REPLIES) {
    const own = periods[kind];
    if (errors[`periodos.${kind}`]) continue;
    if (own !== undefined && periods.respuestas !== undefined && own > periods.respuestas)
      addFieldError(errors, `periodos.${kind}`, REPLIES_FIRST[kind] ?? '');
  }
  return hasFieldErrors(errors) ? { ok: false, errors } : { ok: true, periods };
}

export type RetentionChange = { ok: true; settings: RetentionSettings } | { ok: false; errors: FieldErrors };

export async function changeRetention(db: Db, actor: AuditActor, institutionId: number, body: unknown): Promise<RetentionChange> {
  const checked = checkPeriods(body);
  if (!checked.ok) return checked;
  const { periods } = checked;
  const values = Object.fromEntries(RETENTION_KINDS.map((kind) => [COLUMN[kind], periods[kind]])) as Record<
    (typeof COLUMN)[RetentionKind],
    number
  >;
  await db.transaction(async (tx) => {
    const before = await retentionPeriods(tx, institutionId);
    await tx
      .insert(retentionSettings)
      .values({ institutionId, ...values })
      .onConflictDoUpdate({ target: retentionSettings.institutionId, set: { ...values, updatedAt: sql`now()` } });
    const changed = RETENTION_KINDS.filter((kind) => before.periods[kind] !== periods[kind]);
    await recordAudit(tx, actor, {
      action: 'retention.changed',
      subject: { kind: 'colegio', id: institutionId },
      detail: { campos: changed, ...Object.fromEntries(RETENTION_KINDS.map((kind) => [kind, periods[kind]])) },
    });
  });
  return { ok: true, settings: await schoolRetention(db, institutionId) };
}
