import { useCallback } from 'react';
import { useSelector } from '@xstate/react';
import { t, type MessageKey, type TextParams } from '../../i18n';
import { selectLocale } from '../../machines/app/locale';
import { selectTimezone } from '../../machines/session/selectors';
import { localeActor, sessionActor } from '../actors';

export type Translate = (key: MessageKey, params?: TextParams) => string;

/** `t` bound to the current locale: components re-render when the locale actor switches tables. */
export function useT(): Translate {
  const locale = useLocale();
  return useCallback(
    (key: MessageKey, params?: TextParams) => {
      // `locale` is the dependency that makes a new function (and so a re-render) after a switch.
      void locale;
      return t(key, params);
    },
    [locale],
  );
}

/** The locale the user reads in (numbers, dates, month names follow it). */
export function useLocale(): string {
  return useSelector(localeActor, selectLocale);
}

/** How a date and time are written for the user: their locale, on their school's clock. */
export function useLocaleZone(): { locale: string; timezone: string } {
  const locale = useLocale();
  const timezone = useSelector(sessionActor, selectTimezone);
  return { locale, timezone };
}
