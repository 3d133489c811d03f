// Compose's rules of the SMS quota's emergency reserve and low-quota alert, pure. A message not
// marked "Emergencia" may use only what is left beyond the reserve (max(0, remaining − reserved)); one
// marked may use all that is left (server/quota/balance.ts `quotaProblems` is the rule that decides; these
// only say it). Kept apart from compose/rules.ts so the form's rules stay one module's size.
import type { Estimate } from '../../../shared/compose-contract';
import type { Quota } from '../../../shared/quota-contract';
import { smsFree } from '../../../shared/quota-rules';
import type { MessageKey } from '../../i18n';
import type { ComposeForm, FieldError } from './rules';

/**
 * The "Emergencia" mark is offered while the school sends SMS (the reserve is of SMS); a form that carries
 * it anyway (a draft from before SMS was withdrawn) may still take it off.
 */
export const canMarkEmergency = (form: Pick<ComposeForm, 'setup' | 'emergency'>): boolean =>
  form.emergency || form.setup?.availableChannels.includes('sms') === true;

/** The refusal of a message that fits only by spending the reserve: what is left, and what to do. */
export function reserveOnlyError(estimated: Estimate | null): FieldError {
  const sms = estimated?.sms;
  if (!sms) return { key: 'compose.errors.smsReserveOnlyPlain' };
  const free = smsFree(sms.remaining, sms.reserved);
  return free === 0
    ? { key: 'compose.errors.smsReserveOnly', params: { count: sms.remaining } }
    : { key: 'compose.errors.smsReserveShort', params: { count: free, total: sms.total } };
}

/**
 * What the SMS lines of the estimate add about the reserve: nothing without one; for a message marked
 * emergency, that it may use it; otherwise that what is left is all reserved, or how much of it is.
 */
export function reserveNote(remaining: number, reserved: number, emergency: boolean): MessageKey | null {
  if (reserved <= 0 || remaining <= 0) return null;
  if (emergency) return 'compose.estimate.reserveEmergency';
  return smsFree(remaining, reserved) === 0 ? 'compose.estimate.reserveOnly' : 'compose.estimate.reserveKept';
}

/** The low-quota banner's share left, in whole percent (rounded down, so it never reads more than is left). */
export const percentLeft = (sms: Pick<Quota['sms'], 'remaining' | 'limit'>): number =>
  sms.limit > 0 ? Math.floor((sms.remaining * 100) / sms.limit) : 0;
