// POST /messages/estimate: what sending this input would cost, without writing anything — recipients after
// expansion, per-channel deliveries and missing addresses, SMS segments against this month's quota (the
// month of `scheduled_at` when one is given), e-mail / WhatsApp against their balances, empty courses, and
// the quota problems send would refuse with (its 409, listed in `problems`). What send refuses with a 422
// (a missing field, an SMS too long or with emoji, a schedule too soon, a reply to a message the user may
// not answer) the estimate answers the same way.
import type { Estimate } from '../../shared/compose-contract';
import { smsRemaining } from '../../shared/quota-rules';
import { SMS_SEGMENTS_PER_MESSAGE } from '../../shared/sms-text';
import type { Queryable } from '../db/client';
import { checkPicks, summarizeReach } from '../recipients/expand';
import { quotaProblems, quotaSnapshot } from '../quota/balance';
import { institutionTimezone, monthIn } from '../db/time';
import { needsOf } from './send';
import { checkCompose, type ParsedCompose, checkMergedSms } from './validate';
import { checkReplyTo } from '../messages/replies';
import { type FieldErrors, hasFieldErrors } from '../http/field-errors';

export type EstimateOutcome = { kind: 'ok'; estimate: Estimate } | { kind: 'invalid'; errors: FieldErrors };

export async function estimate(
  db: Queryable,
  scope: { userId: number; institutionId: number },
  parsed: ParsedCompose,
  now = new Date(),
): Promise<EstimateOutcome> {
  const { input } = parsed;
  // Send's own rules (schedule's when a time is given): the confirmation never shows a message that send
  // then refuses, and the refusal is the same 422 on the same fields.
  const mode = input.scheduled_at === null ? 'send' : 'schedule';
  const { errors, signature } = await checkCompose(db, { ...scope, draftId: parsed.draftId }, input, mode, now);
  // A reply is answered as send would answer it: a message the user may not answer is refused here already.
  await checkReplyTo(db, scope.userId, parsed.replyToId, errors);
  if (hasFieldErrors(errors)) return { kind: 'invalid', errors };
  const picks = await checkPicks(db, scope, input.recipients);
  if (!picks.ok) return { kind: 'invalid', errors: { recipients: [picks.message] } };
  const merged = await checkMergedSms(db, scope, input, signature);
  if (merged) return { kind: 'invalid', errors: { content: [merged] } };

  const timezone = await institutionTimezone(db, scope.institutionId);
  const at = input.scheduled_at ? new Date(input.scheduled_at) : now;
  const month = monthIn(at, timezone);
  const [quota, reach] = await Promise.all([
    quotaSnapshot(db, scope.institutionId, month),
    summarizeReach(db, scope, input.recipients, input.channels),
  ]);
  const needs = needsOf(reach, input.channels);
  // A phone opted out of a channel is not reached by it, nor paid for; it is counted apart from "no phone".
  const reachable = { 'app-mobile': reach.app, 'e-mail': reach.email, sms: reach.sms, whatsapp: reach.whatsapp } as const;
  const withAddress = { 'app-mobile': reach.app, 'e-mail': reach.email, sms: reach.phone, whatsapp: reach.phone } as const;
  return {
    kind: 'ok',
    estimate: {
      recipients: reach.recipients,
      unreachable: reach.unreachable,
      channels: input.channels.map((code) => ({
        code,
        deliveries: reachable[code],
        missing_address: reach.recipients - reach.blocked - withAddress[code],
        opted_out: withAddress[code] - reachable[code],
        blocked: reach.blocked,
      })),
      sms: input.channels.includes('sms')
        ? {
            segments_per_message: SMS_SEGMENTS_PER_MESSAGE,
            total: needs.sms,
            remaining: smsRemaining(quota.smsLimit, quota.smsUsed),
            limit: quota.smsLimit,
            reserved: quota.smsReserved,
            month,
          }
        : null,
      email: input.channels.includes('e-mail') ? { total: needs.email, remaining: quota.email } : null,
      whatsapp: input.channels.includes('whatsapp') ? { total: needs.whatsapp, remaining: quota.whatsapp } : null,
      empty_courses: picks.emptyCourses,
      problems: quotaProblems(needs, quota, input.emergency === true),
    },
  };
}
