// Helpers for the raw SQL the domain modules write beside drizzle's query builder: reading a result's rows
// and building search conditions. One copy each, so every search folds and escapes the same way.
import { sql, type SQL } from 'drizzle-orm';
import { fold } from '../../shared/fold';

/** Both drivers (PGlite and node-postgres) answer raw SQL with `{ rows }`. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** `text` as a literal inside a LIKE pattern: its `%`, `_` and `\` match themselves. */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/**
 * Accent- and case-folding in SQL, matching shared/fold.ts for the letters of Spanish (and Portuguese /
 * French) names. translate() before lower(): lower() only knows ASCII under the C locale PGlite runs with.
 */
const ACCENTED = 'ÁÀÂÄÃáàâäãÉÈÊËéèêëÍÌÎÏíìîïÓÒÔÖÕóòôöõÚÙÛÜúùûüÑñÇç';
const PLAIN = fold(ACCENTED);
export const foldSql = (expr: SQL) => sql`lower(translate(${expr}, ${ACCENTED}, ${PLAIN}))`;
