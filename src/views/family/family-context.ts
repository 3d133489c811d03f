// What every screen of the families' app reads: the session actor (created once by the entry, or by a
// test) and the texts in its locale.
import { createContext, useCallback, useContext } from 'react';
import { useSelector } from '@xstate/react';
import type { Locale } from '../../../shared/contract';
import { type FamilyKey, type FamilyParams, familyText } from '../../i18n/family';
import { type FamilySessionActor, selectLocale } from '../../machines/family/session';

export const SessionContext = createContext<FamilySessionActor | null>(null);

export function useSession(): FamilySessionActor {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside <FamilyApp>');
  return session;
}

export function useFamilyLocale(): Locale {
  return useSelector(useSession(), selectLocale);
}

export type FamilyT = (key: FamilyKey, params?: FamilyParams) => string;

/** `t` in the session's locale: the school's once signed in. */
export function useFamilyT(): FamilyT {
  const locale = useFamilyLocale();
  return useCallback((key: FamilyKey, params?: FamilyParams) => familyText(locale, key, params), [locale]);
}

/** A date and time as the guardian's locale writes them, on the phone's clock. */
export function formatWhen(iso: string | null, locale: Locale): string {
  if (iso === null) return '';
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

/** «2 kB», «1,5 MB» as the locale writes them (the staff's formatter is not the families' to import). */
export function formatSize(size: number, locale: string): string {
  const [value, unit] = size < 1024 * 1024 ? [size / 1024, 'kilobyte'] : [size / (1024 * 1024), 'megabyte'];
  return new Intl.NumberFormat(locale, { style: 'unit', unit, maximumFractionDigits: 1 }).format(Math.max(value, 0.1));
}
