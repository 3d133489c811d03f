// What compose makes of the server's answers, pure: the estimate's problems (SPEC §8 quota texts) and
// whom it reaches, a refused send's field errors, and the toast of a send or a schedule. The form's own
// rules are compose/rules.ts; the compose machine (compose/compose.ts) runs these in its actions.
import type { ComposeProblem, Estimate, SendResult } from '../../../shared/compose-contract';
import type { MessageKey } from '../../i18n';
import type { ApiFailure } from '../../services/http/client';
import { reserveOnlyError } from './quota-rules';
import { ERROR_KEYS, type ComposeErrors, type ComposeField, type FieldError } from './rules';

/** SPEC §8 quota texts, per problem code of the contract. */
export const PROBLEM_KEYS: Readonly<Record<ComposeProblem, MessageKey>> = {
  'sms.quota_exceeded': 'compose.errors.smsQuotaExceeded',
  'sms.reserve_only_emergency': 'compose.errors.smsReserveOnly',
  'sms.insufficient': 'compose.errors.smsInsufficient',
  'email.insufficient': 'compose.errors.emailInsufficient',
  'whatsapp.insufficient': 'compose.errors.whatsappInsufficient',
};

export const TOAST_KEYS = {
  review: 'compose.errors.review',
  sent: 'messages.sent',
  scheduled: 'messages.scheduled',
  sentUnreachable: 'messages.sentUnreachable',
  scheduledUnreachable: 'messages.scheduledUnreachable',
  saved: 'messages.saved',
  sendFailed: 'error.send',
  requestFailed: 'error.request',
} as const;

/** Server 422 field names → compose fields; the server's messages are already Spanish. */
const SERVER_FIELDS: Readonly<Record<string, ComposeField>> = {
  title: 'title',
  recipients: 'recipients',
  channels: 'channels',
  content: 'content',
  attachments: 'attachments',
  attachment_ids: 'attachments',
  scheduled_at: 'schedule',
};

export function serverErrors(failure: ApiFailure): ComposeErrors {
  const errors: ComposeErrors = {};
  for (const [name, messages] of Object.entries(failure.fieldErrors)) {
    const field = SERVER_FIELDS[name] ?? null;
    const message = messages[0];
    if (field && message !== undefined && !errors[field]) errors[field] = { key: ERROR_KEYS.server, params: { message } };
  }
  return errors;
}

export function quotaError(problems: readonly string[], estimated: Estimate | null): FieldError | null {
  const problem = problems.find((code): code is ComposeProblem => code in PROBLEM_KEYS);
  if (!problem) return null;
  if (problem === 'sms.reserve_only_emergency') return reserveOnlyError(estimated);
  const sms = estimated?.sms;
  return sms
    ? { key: PROBLEM_KEYS[problem], params: { total: sms.total, remaining: sms.remaining, limit: sms.limit } }
    : { key: PROBLEM_KEYS[problem] };
}

/** People the estimate says will get the message: those with an address on at least one chosen channel. */
export const reachedBy = (estimated: Estimate): number => Math.max(0, estimated.recipients - estimated.unreachable);

/**
 * The estimate's refusal of a message nobody would get: no one picked has an address on the chosen
 * channels (or the picks reach nobody at all, an empty course). There is nothing to send: no «Enviar».
 */
export function reachError(estimated: Estimate): FieldError | null {
  if (reachedBy(estimated) > 0) return null;
  return estimated.recipients === 0
    ? { key: ERROR_KEYS.nobodyPicked }
    : { key: ERROR_KEYS.nobodyReachable, params: { count: estimated.recipients } };
}

/** The toast of a message handed over for sending (or scheduled): a warning naming who nothing reaches, if anyone. */
export function resultToast(result: SendResult): { kind: 'success' | 'warning'; key: MessageKey; params?: Record<string, number> } {
  const scheduled = result.kind === 'scheduled';
  if (result.unreachable === 0) return { kind: 'success', key: scheduled ? TOAST_KEYS.scheduled : TOAST_KEYS.sent };
  return {
    kind: 'warning',
    key: scheduled ? TOAST_KEYS.scheduledUnreachable : TOAST_KEYS.sentUnreachable,
    params: { count: result.unreachable },
  };
}

export const isValidationFailure = (failure: ApiFailure): boolean => failure.status === 422;
export const isQuotaFailure = (failure: ApiFailure): boolean => failure.code === 'compose.quota';
