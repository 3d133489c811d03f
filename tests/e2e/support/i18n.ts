// The browser tests' texts: the shared fixture (tests/fixtures/texts.ts) under the names the specs use.
import { text, type MessageKey } from '../../fixtures/texts';

export { exactly, text as t, textMX as tMX, translate, type LocaleCode, type MessageKey } from '../../fixtures/texts';

/** Placeholder for "any number" in `textPattern`'s params. */
export const ANY_NUMBER = '§';

/**
 * A text as an exact-match RegExp whose `ANY_NUMBER` params match any number:
 * `textPattern('compose.estimate.recipients', { count: ANY_NUMBER })` matches "Llegará a 32 personas." and
 * "Llegará a 1.250 personas.".
 * A `count` given as ANY_NUMBER picks the plural "other" form.
 */
export function textPattern(key: MessageKey, params: Record<string, string | number> = {}): RegExp {
  const escaped = text(key, params).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // Any number as the app writes it: grouped by thousands ("3.663" in Chile, "3,663" in Mexico).
  return new RegExp(`^\\s*${escaped.replaceAll(ANY_NUMBER, '\\d{1,3}(?:[.,]\\d{3})*')}\\s*$`);
}
