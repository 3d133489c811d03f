// Locale loading and the locale cookie (SPEC §1: `i18n_redirected`, 365 days, SameSite=Lax, path /).
import { fromPromise } from 'xstate';
import { DEFAULT_LOCALE, isLocale, setLocale } from '../i18n';
import { COOKIE, type Locale } from '../../shared/contract';
import { readCookie, writeCookie } from './cookies';

const LOCALE_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

export function readLocaleCookie(): Locale {
  const value = readCookie(COOKIE.locale);
  return isLocale(value) ? value : DEFAULT_LOCALE;
}

export function writeLocaleCookie(locale: Locale): void {
  writeCookie(COOKIE.locale, locale, { maxAge: LOCALE_COOKIE_MAX_AGE_S, sameSite: 'Lax', path: '/' });
}

/**
 * `locale: null` means "the one the cookie asks for" (start-up). Resolves with the locale now in use;
 * the cookie is written only once the texts are in place, so a failed load leaves it untouched.
 */
export const loadLocale = fromPromise<Locale, { locale: Locale | null }>(async ({ input }) => {
  const locale = input.locale ?? readLocaleCookie();
  await setLocale(locale);
  writeLocaleCookie(locale);
  return locale;
});
