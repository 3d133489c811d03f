// Per-school retention (server/retention/): how long each kind of data is kept, in months, and what the
// next sweep will remove. `GET /api/retention` and `PUT /api/retention`, administrators only.

/** What is kept for a time: the keys of the settings, the preview and the sweep's counts. */
export const RETENTION_KINDS = ['mensajes', 'respuestas', 'entregas', 'adjuntos', 'recibidos', 'auditoria'] as const;
export type RetentionKind = (typeof RETENTION_KINDS)[number];

/** Months each kind is kept. */
export type RetentionPeriods = Record<RetentionKind, number>;

/**
 * Defaults (decision 0275): messages and replies five years (a school's record of what it told families and
 * what they answered, beyond a student's cycle), deliveries, attachments, inbound texts and the audit log two.
 */
export const RETENTION_DEFAULTS: RetentionPeriods = {
  mensajes: 60,
  respuestas: 60,
  entregas: 24,
  adjuntos: 24,
  recibidos: 24,
  auditoria: 24,
};

/** Never less than a year: whatever the school year, the current one is always kept whole. */
export const RETENTION_MIN_MONTHS = 12;
/** Ten years: more is no longer "only as long as needed". */
export const RETENTION_MAX_MONTHS = 120;

export interface RetentionPreview {
  /** When the next sweep runs (ISO). */
  fecha: string;
  /** Per kind: what it will remove, and the date before which it was written (ISO). */
  tipos: Record<RetentionKind, { cantidad: number; anteriores_a: string }>;
}

/** `GET /api/retention` and the answer of `PUT`. */
export interface RetentionSettings {
  periodos: RetentionPeriods;
  /** Whether the school changed them (false: the defaults). */
  personalizados: boolean;
  proxima: RetentionPreview;
}

export const RETENTION_API = '/retention';
