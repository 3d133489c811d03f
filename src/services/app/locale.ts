// Locale loading and the locale cookie (SPEC §1: `i18n_redirected`, 365 days, SameSite=Lax, path /).
// The cookie holds the user's own choice only: without one, the institution's locale applies.
import { fromPromise } from 'xstate';
import { isLocale, setLocale } from '../../i18n';
import { COOKIE, type Locale } from '../../../shared/contract';
import { readCookie, writeCookie } from '../http/cookies';

const LOCALE_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

/** The locale the user chose before, or null when they never did (or the cookie holds garbage). */
export function readLocaleCookie(): Locale | null {
  const value = readCookie(COOKIE.locale);
  return isLocale(value) ? value : null;
}

function writeLocaleCookie(locale: Locale): void {
  writeCookie(COOKIE.locale, locale, { maxAge: LOCALE_COOKIE_MAX_AGE_S, sameSite: 'Lax', path: '/' });
}

/** Start-up: the choice the cookie keeps, or null. */
export const readLocaleChoice = fromPromise<Locale | null>(async () => readLocaleCookie());

/**
 * Loads `locale`'s texts and makes it current; resolves with it. With `remember` (a choice of the user's)
 * the cookie is written, only once the texts are in place, so a failed load leaves it untouched.
 */
export const loadLocale = fromPromise<Locale, { locale: Locale; remember: boolean }>(async ({ input }) => {
  await setLocale(input.locale);
  if (input.remember) writeLocaleCookie(input.locale);
  return input.locale;
});
