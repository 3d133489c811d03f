// What the inbox and message screens make of a failed call, and the reply's check.
import { FAMILY_REPLY_MAX } from '../../../shared/family-contract';
import type { FamilyFailure } from '../../services/family/api';

/** A screen's failure as it says it: no connection, the message is not this guardian's, anything else. */
export type ScreenFailure = 'offline' | 'missing' | 'error';

export function screenFailureOf(failure: FamilyFailure): ScreenFailure {
  if (failure.status === 0) return 'offline';
  return failure.status === 404 ? 'missing' : 'error';
}

/** The token was revoked or expired: the guardian signs in again. */
export const isUnauthorizedFailure = (failure: FamilyFailure): boolean => failure.status === 401;

export type ReplyProblem = 'required' | 'tooLong';

export function replyProblem(content: string): ReplyProblem | null {
  if (content.trim() === '') return 'required';
  return content.length > FAMILY_REPLY_MAX ? 'tooLong' : null;
}

/** A reply that failed: no connection, replies closed by the author (409), or the server's own words. */
export type ReplyFailure = { kind: 'offline' } | { kind: 'closed' } | { kind: 'server'; message: string } | { kind: 'error' };

export function replyFailureOf(failure: FamilyFailure): ReplyFailure {
  if (failure.status === 0) return { kind: 'offline' };
  if (failure.status === 409) return { kind: 'closed' };
  const message = Object.values(failure.fieldErrors)[0]?.[0] ?? '';
  return failure.status === 422 && message !== '' ? { kind: 'server', message } : { kind: 'error' };
}
