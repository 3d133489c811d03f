// The session's selectors (SPEC §4): what the views read from the session machine (session/session.ts).
import type { SignedInUser } from '../../../shared/contract';
import type { SessionSnapshot } from './session';
import type { FieldErrorKey, LoginErrorKey, SessionStatus } from './rules';

// Primitives or stable references, for useSelector.

export function selectSessionStatus(snapshot: SessionSnapshot): SessionStatus {
  if (snapshot.matches('checking')) return 'checking';
  if (snapshot.matches('loggedIn') || snapshot.matches('loggingOut')) return 'loggedIn';
  if (snapshot.matches('expired')) return 'expired';
  return 'loggedOut';
}
export const selectIsLoggedIn = (snapshot: SessionSnapshot): boolean => selectSessionStatus(snapshot) === 'loggedIn';
export const selectIsLoggingOut = (snapshot: SessionSnapshot): boolean => snapshot.matches('loggingOut');
/** The login form is busy from submit until the answer is final (including the quiet revoke). */
export const selectIsSubmitting = (snapshot: SessionSnapshot): boolean =>
  snapshot.matches({ loggedOut: 'signingIn' }) || snapshot.matches({ loggedOut: 'revoking' });
/** Stable reference: the object only changes when the user does. */
export const selectUser = (snapshot: SessionSnapshot): SignedInUser | null => snapshot.context.user;
export const selectUserName = (snapshot: SessionSnapshot): string | null => snapshot.context.user?.person.name ?? null;
export const selectUserEmail = (snapshot: SessionSnapshot): string | null => snapshot.context.user?.email ?? null;
export const selectInstitutionName = (snapshot: SessionSnapshot): string | null => snapshot.context.user?.institution.desc ?? null;
/** The school's logo for printed pages (relative to the API base), or null when it has none. */
export const selectSchoolLogoUrl = (snapshot: SessionSnapshot): string | null => snapshot.context.user?.institution.logo_url ?? null;
export const selectHomeUrl = (snapshot: SessionSnapshot): string | null => snapshot.context.user?.options.url.home ?? null;
export const selectHasAnyRole =
  (roles: readonly string[]) =>
  (snapshot: SessionSnapshot): boolean =>
    (snapshot.context.user?.roles ?? []).some((role) => roles.includes(role.codigo));
export const selectLoginError = (snapshot: SessionSnapshot): LoginErrorKey | null => snapshot.context.loginError;
export const selectEmailError = (snapshot: SessionSnapshot): FieldErrorKey | null => snapshot.context.fieldErrors.email ?? null;
export const selectPasswordError = (snapshot: SessionSnapshot): FieldErrorKey | null => snapshot.context.fieldErrors.password ?? null;
/** Dates are shown in the institution's time zone. */
export const selectTimezone = (snapshot: SessionSnapshot): string => snapshot.context.user?.institution.timezone ?? 'America/Santiago';
/** The school's country: its school year (shared/school-year.ts). */
export const selectSchoolCountry = (snapshot: SessionSnapshot): 'CL' | 'MX' => snapshot.context.user?.institution.country ?? 'CL';
