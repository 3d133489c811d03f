// The sign-in form's checks, light on purpose: the server reads the number with libphonenumber (as Chilean,
// then Mexican; a "+" prefix wins), which the app does not download. Here only what is surely not a phone
// is refused before a paid SMS is asked for.
import { FAMILY_CODE_LENGTH } from '../../../shared/family-contract';
import type { FamilyFailure } from '../../services/family/api';

export type PhoneProblem = 'required' | 'invalid';
export type CodeProblem = 'required' | 'incomplete';

/** Spaces, dashes, dots and parentheses people type between digits. */
const SEPARATORS = /[\s\-.()]/g;

/** The number as sent: separators dropped, an optional leading "+" kept. */
export const cleanPhone = (raw: string): string => raw.trim().replace(SEPARATORS, '');

/** 8 to 15 digits (a Chilean mobile has 9, a Mexican one 10, with the country code up to 12). */
export function phoneProblem(raw: string): PhoneProblem | null {
  const phone = cleanPhone(raw);
  if (phone === '') return 'required';
  return /^\+?\d{8,15}$/.test(phone) ? null : 'invalid';
}

/** The code as typed, digits only (a pasted "123 456" counts). */
export const cleanCode = (raw: string): string => raw.replace(/\D/g, '');

export function codeProblem(raw: string): CodeProblem | null {
  const code = cleanCode(raw);
  if (code === '') return 'required';
  return code.length === FAMILY_CODE_LENGTH ? null : 'incomplete';
}

/**
 * What the screen says of a failed call: the server's own Spanish sentence when it sent one (a wrong or
 * expired code, too many tries with the minutes to wait), else offline or a generic error.
 */
export type SignInFailure = { kind: 'server'; message: string } | { kind: 'offline' } | { kind: 'error' };

export function signInFailureOf(failure: FamilyFailure): SignInFailure {
  if (failure.status === 0) return { kind: 'offline' };
  const field = Object.values(failure.fieldErrors)[0]?.[0];
  const message = field ?? failure.message;
  return failure.status < 500 && message !== '' ? { kind: 'server', message } : { kind: 'error' };
}
