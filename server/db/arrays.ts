// A list as ONE query parameter: a Postgres array literal, cast in the SQL (`= any(${intList(ids)}::int[])`).
// node-postgres and PGlite bind JavaScript arrays differently; a text literal binds the same on both.
// Being a bound parameter, it cannot inject SQL; these only keep the literal well formed.
import { sql } from 'drizzle-orm';

/** `{1,2,3}`; refuses anything but safe integers. */
export function intList(values: readonly number[]): string {
  for (const v of values) if (!Number.isSafeInteger(v)) throw new Error(`intList: ${v} no es un entero`);
  return `{${values.join(',')}}`;
}

/** `{"a","b"}`, quotes and backslashes escaped. */
export function textList(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replace(/[\\"]/g, '\\$&')}"`).join(',')}}`;
}

/** `column = any('{1,2,3}'::int[])`: one bind parameter however many ids. */
export const anyId = (column: unknown, values: number[]) => sql`${column} = any(${intList(values)}::int[])`;
