// Text PostgreSQL cannot keep, or would keep wrong, refused once at the edge of /api: a NUL fails the query
// ("invalid byte sequence for encoding UTF8", a 500), and a lone surrogate is silently stored as "�". Every
// other control character is invisible noise nobody types, so it goes too. Tab, LF and CR stay: text areas
// and pasted Windows text carry them (docs/decisions/0008-refuse-text-the-database-cannot-keep.md). Routes
// then read only clean text and check nothing of this themselves.
import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { invalid } from './errors';

const TEXT_REFUSED = 'El texto contiene caracteres no permitidos (caracteres de control o Unicode mal formado).';

/** C0 controls but tab, LF and CR; DEL and the C1 controls; with the `u` flag, `\p{Cs}` is a surrogate outside a pair. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these control characters are exactly what the guard refuses.
const REFUSED = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|\p{Cs}/u;

const refused = (text: string) => REFUSED.test(text);

/** Whether refused text hides anywhere in a parsed JSON value, keys included. Iterative: a body may nest deeper than the stack. */
function holdsRefused(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') {
      if (refused(next)) return true;
    } else if (Array.isArray(next)) {
      for (const item of next) pending.push(item);
    } else if (typeof next === 'object' && next !== null) {
      for (const [key, item] of Object.entries(next)) {
        if (refused(key)) return true;
        pending.push(item);
      }
    }
  }
  return false;
}

/** JSON text can only hold text when it starts with `{`, `[` or `"` (after a BOM and blanks); anything else is not parsed. */
function mayHoldJsonText(bytes: Uint8Array): boolean {
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0a || bytes[i] === 0x0d) i++;
  return bytes[i] === 0x7b || bytes[i] === 0x5b || bytes[i] === 0x22;
}

/**
 * The fields of a body that hold refused text: top-level keys (the names the SPA maps field errors by,
 * e.g. a bad pick label is `recipients`), `body` for a bad key or a body that is not an object. Routes read
 * JSON whatever the Content-Type says, so every body is tried as JSON, and forms as forms too.
 */
async function bodyFields(c: Context): Promise<string[]> {
  if (!c.req.raw.body) return [];
  let bytes: Uint8Array;
  try {
    // Bytes first, cached by Hono: the JSON, form or raw bytes a route reads next come from them unchanged
    // (the provider webhook checks a signature over the raw body).
    bytes = new Uint8Array(await c.req.arrayBuffer());
  } catch {
    return []; // Unreadable: the route answers it as it answers any body it cannot read.
  }
  const fields = new Set<string>();
  if (mayHoldJsonText(bytes)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      parsed = undefined; // Not JSON: the route's own checks say what is wrong.
    }
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      for (const [key, value] of Object.entries(parsed)) {
        if (refused(key)) fields.add('body');
        else if (holdsRefused(value)) fields.add(key);
      }
    } else if (holdsRefused(parsed)) fields.add('body');
  }
  const type = c.req.header('Content-Type')?.split(';')[0]?.trim().toLowerCase();
  if (type === 'multipart/form-data' || type === 'application/x-www-form-urlencoded') {
    let form: FormData | null = null;
    try {
      form = await c.req.formData();
    } catch {
      form = null; // Malformed: the route finds no fields and says so.
    }
    form?.forEach((value, key) => {
      const text = typeof value === 'string' ? value : value.name;
      if (refused(key)) fields.add('body');
      else if (refused(text)) fields.add(key);
    });
  }
  return [...fields];
}

/** Query parameters by name (`query` for a bad name), decoded as routes read them. */
function queryFields(c: Context): string[] {
  const fields = new Set<string>();
  for (const [name, values] of Object.entries(c.req.queries())) {
    if (refused(name)) fields.add('query');
    else if (values.some(refused)) fields.add(name);
  }
  return [...fields];
}

/** Decodes each run of %XX on its own, as Hono decodes a path parameter (a bad run stays as it is). */
const decodeParam = (segment: string) =>
  segment.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });

/**
 * Path segments with refused text, named after the route parameter they fill (`path` when no route has one
 * there). Only a parameter can hold such a segment: literal segments must match exactly.
 */
function pathFields(c: Context): string[] {
  const segments = c.req.path.split('/');
  const bad = segments.flatMap((segment, i) => (refused(decodeParam(segment)) ? [i] : []));
  if (bad.length === 0) return [];
  const patterns = matchedRoutes(c).map((route) => route.path.split('/'));
  return bad.map((i) => {
    const param = patterns.map((parts) => parts[i]).find((part) => part?.startsWith(':'));
    return param ? param.slice(1).replace(/\{.*$/, '').replace(/\?$/, '') : 'path';
  });
}

/** 422 with the fields that carry refused text (path, query, body), or on to the route. */
export const refuseBadText: MiddlewareHandler = async (c, next) => {
  const fields = new Set([...pathFields(c), ...queryFields(c), ...(await bodyFields(c))]);
  if (fields.size === 0) return next();
  return invalid(c, Object.fromEntries([...fields].map((field) => [field, [TEXT_REFUSED]])));
};
