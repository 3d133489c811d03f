// Translations (SPEC §1, §7): es-CL is bundled and is both the default and the fallback; es-MX is a
// separate chunk loaded on first use. rosetta interpolates `{{name}}` placeholders.
import rosetta from 'rosetta';
import esCL from './es-CL.json';
import type { Locale } from '../../shared/contract';

export type Messages = typeof esCL;

type Leaves<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends Record<string, unknown> ? Leaves<T[K], `${Prefix}${K}.`> : `${Prefix}${K}`;
}[keyof T & string];

/** Every text key of es-CL.json, for callers that want the compiler to check a literal key. */
export type MessageKey = Leaves<Messages>;

export const DEFAULT_LOCALE: Locale = 'es-CL';
export const LOCALES: readonly Locale[] = ['es-CL', 'es-MX'];

const i18n = rosetta<Messages>({ [DEFAULT_LOCALE]: esCL });
i18n.locale(DEFAULT_LOCALE);

const loaders: Record<Locale, () => Promise<Messages>> = {
  'es-CL': async () => esCL,
  'es-MX': async () => (await import('./es-MX.json')).default as Messages,
};

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** Loads the table when needed, then makes it current. Rejects when the chunk cannot be loaded. */
export async function setLocale(locale: Locale): Promise<Locale> {
  if (!i18n.table(locale)) i18n.set(locale, await loaders[locale]());
  i18n.locale(locale);
  return locale;
}

export function getLocale(): Locale {
  const current = i18n.locale();
  return isLocale(current) ? current : DEFAULT_LOCALE;
}

/**
 * The text for `key` in the current locale, falling back to es-CL, then to the key itself so a missing
 * text is visible instead of blank.
 */
export function t(key: string, params?: Record<string, string | number>): string {
  const text = i18n.t(key, params);
  if (typeof text === 'string' && text !== '') return text;
  const fallback = i18n.t(key, params, DEFAULT_LOCALE);
  return typeof fallback === 'string' && fallback !== '' ? fallback : key;
}
