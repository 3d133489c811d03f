import { useCallback } from 'react';
import { useSelector } from '@xstate/react';
import { t, type MessageKey, type TextParams } from '../../i18n';
import { selectLocale } from '../../machines/app/locale';
import { localeActor } from '../actors';

export type Translate = (key: MessageKey, params?: TextParams) => string;

/** `t` bound to the current locale: components re-render when the locale actor switches tables. */
export function useT(): Translate {
  const locale = useSelector(localeActor, selectLocale);
  // `locale` is the dependency that makes a new function (and so a re-render) after a switch.
  return useCallback((key: MessageKey, params?: TextParams) => (void locale, t(key, params)), [locale]);
}
