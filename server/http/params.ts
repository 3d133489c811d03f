// What arrives in paths, query strings and id lists, parsed the same way on every route. A malformed path
// id is treated like a foreign one (404, "every foreign id is a 404"); a malformed query parameter is the
// caller's mistake, which the route answers with 422 and its own message.

/** The largest value of an `integer` id column. */
const MAX_ID = 2_147_483_647;

/** Whether a JSON value is a usable id (ids in request bodies, e.g. `{ ids: [...] }`). */
export function isId(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_ID;
}

/** Parses a positive integer path id; anything else is treated as a missing resource. */
export function parseId(raw: string | undefined): number | null {
  if (!raw || !/^[1-9][0-9]{0,9}$/.test(raw)) return null;
  const id = Number(raw);
  return id <= MAX_ID ? id : null;
}

/** An optional positive integer query parameter: `fallback` when absent, null when malformed or above `max`. */
export function intParam(raw: string | undefined, fallback: number, max: number): number | null {
  if (raw === undefined || raw === '') return fallback;
  if (!/^[0-9]{1,9}$/.test(raw)) return null;
  const n = Number(raw);
  return n >= 1 && n <= max ? n : null;
}
