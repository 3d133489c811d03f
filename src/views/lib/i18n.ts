import { useCallback } from 'react';
import { useSelector } from '@xstate/react';
import { t } from '../../i18n';
import { selectLocale } from '../../machines/locale';
import { localeActor } from '../actors';


/** `t` bound to the current locale: components re-render when the locale actor switches tables. */
export function useT() {
  const locale = useSelector(localeActor, selectLocale);
  return useCallback((key: string, params?: Record<string, string | number>) => t(key, params), [locale]);
}
