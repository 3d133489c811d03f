import { useCallback } from 'react';
import { useSelector } from '@xstate/react';
import type { Locale } from '../../services/contract';
import { t } from '../../i18n';
import { localeActor } from '../actors';

const selectLocale = (s: { context: { locale: Locale } }) => s.context.locale;

/** `t` bound to the current locale: components re-render when the locale actor switches tables. */
export function useT() {
  const locale = useSelector(localeActor, selectLocale);
  return useCallback((key: string, params?: Record<string, string | number>) => t(key, params), [locale]);
}
