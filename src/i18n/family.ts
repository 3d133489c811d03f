// The families' app's texts: its own two tables, both in its download (a few kilobytes; the app switches to
// the school's locale as the guardian signs in, with no chunk to wait for on a weak signal). Same habits as
// the staff's (index.ts): typed keys, `{{placeholders}}`, real plurals asked as `t('key', { count })`.
// The locale's word for guardian is written in each table (es-CL «apoderado», es-MX «padre o tutor», as
// shared/guardian-term.ts has them).
import rosetta from 'rosetta';
import type { Locale } from '../../shared/contract';
import familyCL from './family/es-CL.json';
import familyMX from './family/es-MX.json';

type PluralCategory = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other';
type Base<K extends string> = K extends `${infer B}_${PluralCategory}` ? B : K;
type Leaves<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends Record<string, unknown> ? Leaves<T[K], `${Prefix}${K}.`> : `${Prefix}${Base<K>}`;
}[keyof T & string];

/** Every text key of the families' app. */
export type FamilyKey = Leaves<typeof familyCL>;
export type FamilyParams = Record<string, string | number>;

const texts = rosetta<Record<string, unknown>>({ 'es-CL': familyCL, 'es-MX': familyMX });
const plurals: Record<Locale, Intl.PluralRules> = { 'es-CL': new Intl.PluralRules('es-CL'), 'es-MX': new Intl.PluralRules('es-MX') };

/** The text of `key` in `locale`; with a `count`, its plural form. The key itself when it exists nowhere. */
export function familyText(locale: Locale, key: FamilyKey, params: FamilyParams = {}): string {
  const count = params.count;
  const withCount = typeof count === 'number' ? { ...params, count: count.toLocaleString(locale) } : params;
  const full = typeof count === 'number' ? `${key}_${plurals[locale].select(count)}` : key;
  return texts.t(full, withCount, locale) || texts.t(key, withCount, locale) || key;
}

/** The locale a guardian not yet signed in reads: the browser's when it is Mexican Spanish, else Chile's. */
export const browserLocale = (languages: readonly string[]): Locale => (languages[0]?.toLowerCase() === 'es-mx' ? 'es-MX' : 'es-CL');
