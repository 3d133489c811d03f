// The user-visible texts, read from the app's own translation files so that no text is duplicated in
// the tests. `t('pages.inboxBody')` fills `{{guardians}}`-style placeholders the way the app does: from
// the given params, else from the locale's `terms`.
import esCL from '../../../src/i18n/es-CL.json' with { type: 'json' };
import esMX from '../../../src/i18n/es-MX.json' with { type: 'json' };

export type Messages = typeof esCL;
export type LocaleCode = 'es-CL' | 'es-MX';

const CATALOGS: Record<LocaleCode, Messages> = { 'es-CL': esCL, 'es-MX': esMX };

/** Dotted keys of the catalog whose value is a string, e.g. `'login.errors.invalidCredentials'`. */
type Leaves<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>;
}[keyof T & string];
export type MessageKey = Leaves<Messages>;

export function translate(locale: LocaleCode, key: MessageKey, params: Record<string, string | number> = {}): string {
  const catalog = CATALOGS[locale];
  let value: unknown = catalog;
  for (const part of key.split('.')) {
    value = (value as Record<string, unknown> | undefined)?.[part];
  }
  if (typeof value !== 'string') throw new Error(`i18n: no text for ${key} in ${locale}`);
  const terms = catalog.terms as Record<string, string>;
  return value.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (whole, name: string) => {
    const given = params[name];
    if (given !== undefined) return String(given);
    return terms[name] ?? whole;
  });
}

/** es-CL (the default locale) text. */
export const t = (key: MessageKey, params?: Record<string, string | number>): string => translate('es-CL', key, params);
/** es-MX text. */
export const tMX = (key: MessageKey, params?: Record<string, string | number>): string => translate('es-MX', key, params);

/** Exact-match regex for a text, for `toHaveURL`-free name matching without substring surprises. */
export const exactly = (text: string): RegExp => new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
