// The login form's rules and the session's vocabulary (SPEC §4, §8): what the form checks before asking
// the server, and what each failed login shows. Pure; the session machine (session/session.ts) uses them.
import type { Credentials } from '../../services/session/auth';
import { toApiFailure } from '../../services/http/client';

export type SessionStatus = 'checking' | 'loggedIn' | 'loggedOut' | 'expired';

export type LoginErrorKey =
  | 'login.errors.invalidCredentials'
  | 'login.errors.policyMissing'
  | 'login.errors.throttled'
  | 'login.errors.network'
  | 'login.errors.server';

export type FieldErrorKey = 'login.errors.emailRequired' | 'login.errors.emailInvalid' | 'login.errors.passwordRequired';

export type LoginField = 'email' | 'password';

export type FieldErrors = Partial<Record<LoginField, FieldErrorKey>>;

/** Why the token actor asked for a reset: it already told the user when both tokens expired. */
export type ResetReason = 'tokensExpired' | 'refreshFailed';

// A pragmatic address check: something@something.tld, no spaces. The server has the final word.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Client-side checks of the login form; an empty object means "send it". */
export function validateCredentials({ email, password }: Credentials): FieldErrors {
  const errors: FieldErrors = {};
  const trimmed = email.trim();
  if (trimmed === '') errors.email = 'login.errors.emailRequired';
  else if (!EMAIL.test(trimmed)) errors.email = 'login.errors.emailInvalid';
  if (password === '') errors.password = 'login.errors.passwordRequired';
  return errors;
}

/** Maps a failed login call to what the form shows. */
export function loginFailureFor(error: unknown): { loginError: LoginErrorKey | null; fieldErrors: FieldErrors } {
  const failure = toApiFailure(error);
  switch (failure.code) {
    case 'auth.invalid_credentials':
      return { loginError: 'login.errors.invalidCredentials', fieldErrors: {} };
    case 'auth.policy_missing':
      return { loginError: 'login.errors.policyMissing', fieldErrors: {} };
    case 'auth.throttled':
      return { loginError: 'login.errors.throttled', fieldErrors: {} };
    case 'validation.failed': {
      const fieldErrors: FieldErrors = {};
      if (failure.fieldErrors.email?.length) fieldErrors.email = 'login.errors.emailInvalid';
      if (failure.fieldErrors.password?.length) fieldErrors.password = 'login.errors.passwordRequired';
      return Object.keys(fieldErrors).length > 0
        ? { loginError: null, fieldErrors }
        : { loginError: 'login.errors.server', fieldErrors: {} };
    }
    default:
      return { loginError: failure.status === 0 ? 'login.errors.network' : 'login.errors.server', fieldErrors: {} };
  }
}
