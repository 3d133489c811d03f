// Compresses the API's answers over 1 kB with node:zlib, by the request's Accept-Encoding (br, then gzip):
// the recipient picker's directory, folders and reception pages are JSON that shrinks to a fifth or less,
// and a family's phone network is slow. Small answers go as they are (the headers would outweigh the
// saving), and so do downloads (attachments, call lists: files the browser saves, often compressed already,
// streamed with their length) and anything already encoded. A large answer is compressed on the thread
// pool, so it does not hold the event loop.
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import type { Context, MiddlewareHandler } from 'hono';
import { type Coding, matchesTag, negotiate, varyOnEncoding } from './encoding';

/** Below this many bytes, compressing saves less than a packet's worth. */
const COMPRESS_THRESHOLD = 1024;

/**
 * Levels picked by measuring the seed's GET /api/recipients, 411 kB (docs/decisions/0148): brotli 5 makes
 * 46 kB in about 5 ms, smaller than gzip 9 in a third of its time (quality 9 and up cost 5× to 200× more for
 * a few kB); gzip 6, zlib's default, makes 62 kB in about 6 ms, 9 saves 4 % for twice the time.
 */
export const BROTLI_QUALITY = 5;
export const GZIP_LEVEL = 6;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Up to this size an answer is compressed on the event loop (well under a millisecond): the hop to the
 * thread pool and back costs more than that on a busy machine. Larger ones go to the pool.
 */
const INLINE_LIMIT = 64 * 1024;

const TEXTUAL = /^(?:application\/(?:[\w.+-]+\+)?(?:json|xml|javascript)|text\/(?!event-stream))/i;

async function encode(body: Uint8Array, coding: Exclude<Coding, 'identity'>): Promise<Buffer> {
  const inline = body.length <= INLINE_LIMIT;
  if (coding === 'br') {
    const options = {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    };
    return inline ? brotliCompressSync(body, options) : brotli(body, options);
  }
  return inline ? gzipSync(body, { level: GZIP_LEVEL }) : gzipAsync(body, { level: GZIP_LEVEL });
}

/** A strong or weak tag for one coding of a body: `"abc"` → `"abc-br"`, so each copy validates only itself. */
const tagFor = (tag: string, coding: Coding): string => (coding === 'identity' ? tag : tag.replace(/"$/, `-${coding}"`));

/** May this answer be compressed at all? (Whether it is depends on its size and the request.) */
function isCompressible(res: Response): boolean {
  const h = res.headers;
  if (res.status < 200 || res.status === 204 || res.status === 206 || !res.body) return false;
  if (h.has('Content-Encoding') || /^\s*attachment/i.test(h.get('Content-Disposition') ?? '')) return false;
  if (/(?:^|,)\s*no-transform\s*(?:,|$)/i.test(h.get('Cache-Control') ?? '')) return false;
  return TEXTUAL.test(h.get('Content-Type') ?? '');
}

/** A 304's headers: what a 200 would have said about caching (RFC 9110 §15.4.5), and the cookies. */
function notModified(headers: Headers, tag: string): Headers {
  const kept = new Headers({ ETag: tag });
  for (const name of ['Cache-Control', 'Expires', 'Vary']) {
    const value = headers.get(name);
    if (value !== null) kept.set(name, value);
  }
  for (const cookie of headers.getSetCookie()) kept.append('Set-Cookie', cookie);
  return kept;
}

/** Replaces the answer whole: Hono's `c.res =` would copy the old answer's headers over the new one's. */
function answer(c: Context, response: Response): void {
  c.res = undefined;
  c.res = response;
}

export const compressAnswers: MiddlewareHandler = async (c, next) => {
  await next();
  const res = c.res;
  if (res.status === 304) {
    // A 304 from the route's own ETag check validated the plain copy; say it varies all the same.
    varyOnEncoding(res.headers);
    return;
  }
  if (!isCompressible(res)) return;
  varyOnEncoding(res.headers);
  if (c.req.method === 'HEAD') return;
  const declared = Number(res.headers.get('Content-Length') ?? Number.NaN);
  if (declared < COMPRESS_THRESHOLD) return;

  const coding = negotiate(c.req.header('accept-encoding'), ['br', 'gzip']);
  if (coding === null || coding === 'identity') return;
  const body = new Uint8Array(await res.arrayBuffer());
  const headers = new Headers(res.headers);
  const init = { status: res.status, statusText: res.statusText, headers };
  if (body.length < COMPRESS_THRESHOLD) {
    headers.set('Content-Length', String(body.length));
    answer(c, new Response(body, init));
    return;
  }
  const tag = headers.get('ETag');
  if (tag) {
    const own = tagFor(tag, coding);
    // The route compared the plain copy's tag; the tag of the copy it would send is checked here.
    if (matchesTag(c.req.header('if-none-match'), own)) {
      answer(c, new Response(null, { status: 304, headers: notModified(headers, own) }));
      return;
    }
    headers.set('ETag', own);
  }
  const encoded = await encode(body, coding);
  headers.set('Content-Encoding', coding);
  headers.set('Content-Length', String(encoded.length));
  answer(c, new Response(new Uint8Array(encoded), init));
};
