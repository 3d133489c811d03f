// What the password screens check before asking the server, and what each failure shows. Pure; the machines
// of this folder use them. The new password's rule itself is shared/password-rules.ts, loaded lazily.
import { isEmail } from '../../../shared/person-rules';
import type { ApiFailure } from '../../services/http/client';

export type EmailProblem = 'required' | 'invalid';

/** The forgotten password form's address, as the server will check it. */
export function emailProblem(email: string): EmailProblem | null {
  const value = email.trim().toLowerCase();
  if (value === '') return 'required';
  return isEmail(value) ? null : 'invalid';
}

/** A call that did not go through: no answer (offline), too many asks, or anything else. */
export type Failure = 'offline' | 'throttled' | 'server';

export function failureOf(failure: ApiFailure): Failure {
  if (failure.status === 0) return 'offline';
  return failure.status === 429 ? 'throttled' : 'server';
}

/** Why a reset link does not work, from the server's answer; null when the failure is something else. */
export type LinkProblem = 'invalid' | 'expired' | 'used';

export function linkProblemOf(failure: ApiFailure): LinkProblem | null {
  switch (failure.code) {
    case 'password_reset.invalid':
      return 'invalid';
    case 'password_reset.expired':
      return 'expired';
    case 'password_reset.used':
      return 'used';
    default:
      return null;
  }
}

/** The server's Spanish reason for a field of a 422 (the password rule's, or a wrong current password), or null. */
export function refusalOf(failure: ApiFailure, field: 'password' | 'current_password'): string | null {
  return failure.status === 422 ? (failure.fieldErrors[field]?.[0] ?? null) : null;
}
