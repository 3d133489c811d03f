// Pure rules of the quota form (/settings/message-quota): what was typed, its checks (the contract's bounds,
// the same as the server's), the PATCH body of what changed, and a 422's texts on their fields.
import type { ApiFailure } from '../../services/http/client';
import {
  ALERT_PERCENT_MAX,
  ALERT_PERCENT_MIN,
  RESERVE_PERCENT_MAX,
  SMS_LIMIT_MAX,
  type QuotaSettings,
  type QuotaSettingsInput,
} from '../../../shared/quota-contract';
import type { MessageKey } from '../../i18n';

/** The form's fields, named as the API names them (a 422's errors land on them as they come). */
export type QuotaField = 'sms_monthly_limit' | 'reserve_percent' | 'alert_percent';
const QUOTA_FIELDS: readonly QuotaField[] = ['sms_monthly_limit', 'reserve_percent', 'alert_percent'];

/** What is typed, as typed (an empty alert switches it off). */
export type QuotaDraft = Record<QuotaField, string>;

export interface QuotaFieldError {
  key: MessageKey;
  params?: Record<string, string | number>;
}
export type QuotaErrors = Partial<Record<QuotaField, QuotaFieldError>>;

export const QUOTA_FIELD_IDS: Record<QuotaField, string> = {
  sms_monthly_limit: 'quota-limit',
  reserve_percent: 'quota-reserve',
  alert_percent: 'quota-alert',
};

export const EMPTY_QUOTA_DRAFT: QuotaDraft = { sms_monthly_limit: '', reserve_percent: '', alert_percent: '' };

/** The form as the settings say. */
export const draftOf = (settings: QuotaSettings): QuotaDraft => ({
  sms_monthly_limit: String(settings.sms.limit),
  reserve_percent: String(settings.sms.reserve_percent),
  alert_percent: settings.sms.alert_percent === null ? '' : String(settings.sms.alert_percent),
});

/**
 * A whole number as people type it: blanks around, thousands separated by "." (Chile), "," (Mexico) or
 * spaces, a "%" after a share. Null when it is not one.
 */
export function parseWhole(text: string): number | null {
  const plain = text.trim().replace(/%$/, '').trim();
  if (!/^\d{1,3}([.,\s]?\d{3})*$|^\d+$/.test(plain)) return null;
  const value = Number(plain.replace(/[.,\s]/g, ''));
  return Number.isSafeInteger(value) ? value : null;
}

/** The checks the server makes too (its texts are the same), so nothing obviously wrong is sent. */
export function quotaErrors(draft: QuotaDraft, settings: QuotaSettings | null): QuotaErrors {
  const errors: QuotaErrors = {};
  const limit = parseWhole(draft.sms_monthly_limit);
  if (limit === null || limit > SMS_LIMIT_MAX) errors.sms_monthly_limit = { key: 'quota.errors.limit', params: { max: SMS_LIMIT_MAX } };
  else if (settings && limit < settings.sms.used && limit !== settings.sms.limit)
    errors.sms_monthly_limit = { key: 'quota.errors.belowUsed', params: { used: settings.sms.used } };
  const reserve = parseWhole(draft.reserve_percent);
  if (reserve === null || reserve > RESERVE_PERCENT_MAX)
    errors.reserve_percent = { key: 'quota.errors.reserve', params: { max: RESERVE_PERCENT_MAX } };
  if (draft.alert_percent.trim() !== '') {
    const alert = parseWhole(draft.alert_percent);
    if (alert === null || alert < ALERT_PERCENT_MIN || alert > ALERT_PERCENT_MAX)
      errors.alert_percent = { key: 'quota.errors.alert', params: { min: ALERT_PERCENT_MIN, max: ALERT_PERCENT_MAX } };
  }
  return errors;
}

export const hasQuotaErrors = (errors: QuotaErrors): boolean => Object.keys(errors).length > 0;

/** The PATCH body: only the fields whose value differs from the settings (a checked draft). */
export function quotaInputOf(draft: QuotaDraft, settings: QuotaSettings | null): QuotaSettingsInput {
  const input: QuotaSettingsInput = {};
  const limit = parseWhole(draft.sms_monthly_limit);
  const reserve = parseWhole(draft.reserve_percent);
  const alert = draft.alert_percent.trim() === '' ? null : parseWhole(draft.alert_percent);
  if (limit !== null && limit !== settings?.sms.limit) input.sms_monthly_limit = limit;
  if (reserve !== null && reserve !== settings?.sms.reserve_percent) input.reserve_percent = reserve;
  if (alert !== settings?.sms.alert_percent) input.alert_percent = alert;
  return input;
}

export const hasQuotaChanges = (draft: QuotaDraft, settings: QuotaSettings | null): boolean =>
  Object.keys(quotaInputOf(draft, settings)).length > 0;

/** The first field to fix, in the form's order. */
export const firstQuotaError = (errors: QuotaErrors): QuotaField => QUOTA_FIELDS.find((field) => errors[field]) ?? 'sms_monthly_limit';

/** A 422 naming at least one of the form's fields. */
export const isQuotaValidationFailure = (failure: ApiFailure): boolean =>
  failure.status === 422 && QUOTA_FIELDS.some((field) => failure.fieldErrors[field] !== undefined);

/** The server's field texts, as they come (Spanish, with the figure). */
export function serverQuotaErrors(failure: ApiFailure): QuotaErrors {
  const errors: QuotaErrors = {};
  for (const field of QUOTA_FIELDS) {
    const message = failure.fieldErrors[field]?.[0];
    if (message) errors[field] = { key: 'quota.errors.server', params: { message } };
  }
  return errors;
}
