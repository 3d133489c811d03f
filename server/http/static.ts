// Serves the Vite build with history fallback: an existing file is sent as is, any other path gets
// index.html (200) and the SPA renders its own 404; under /familia, the families' app's own index.html.
// The build writes a brotli (.br) and a gzip (.gz) copy beside each compressible file
// (build/precompress.ts); the copy the request's Accept-Encoding prefers is sent, with Vary: Accept-Encoding
// and an ETag per coding. Hashed assets never change under their name, so they are cached for a year;
// everything else (index.html, the fallback, public files) carries a weak ETag (size + mtime) so the
// `no-cache` revalidation is a cheap 304.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Context } from 'hono';
import { getMimeType } from 'hono/utils/mime';
import { type Coding, matchesTag, negotiate } from './encoding';

const MISSING_BUILD = `<!doctype html>
<html lang="es">
<head><meta charset="utf-8"><title>Hermes</title></head>
<body>
<h1>Hermes aún no está compilado</h1>
<p>No se encontró la aplicación web. Ejecuta <code>npm run build</code> y vuelve a cargar esta página.</p>
</body>
</html>
`;

/** The copies the build writes beside a file, by the coding they carry. */
const COPIES = [
  { coding: 'br', suffix: '.br' },
  { coding: 'gzip', suffix: '.gz' },
] as const;

/**
 * A name Vite gave a content hash (`index-DYkU40ca.js`), the staff SPA's or the families' app's: its bytes
 * never change, a new build renames it.
 */
const HASHED_ASSET = /^(?:\/familia)?\/assets\/[^/]+-[A-Za-z0-9_-]{8}\.[A-Za-z0-9]+$/;

/** The families' app (vite.family.config.ts): its own build in `familia/`, its own history fallback. */
const FAMILY_APP = /^\/familia(?:\/|$)/;

const IMMUTABLE = 'public, max-age=31536000, immutable';

async function fileInfo(file: string) {
  try {
    const s = await stat(file);
    return s.isFile() ? s : null;
  } catch {
    return null;
  }
}

/**
 * Maps a URL path onto a file inside `root`, or null when it would escape it, names a dotfile or names one
 * of the build's compressed copies (sent only in place of their original).
 */
function resolveInside(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  if (COPIES.some((copy) => decoded.endsWith(copy.suffix))) return null;
  const file = path.resolve(root, `.${path.posix.normalize(decoded)}`);
  if (file !== root && !file.startsWith(root + path.sep)) return null;
  if (
    path
      .relative(root, file)
      .split(path.sep)
      .some((part) => part.startsWith('.'))
  )
    return null;
  return file;
}

export function serveDist(distDir: string) {
  const root = path.resolve(distDir);
  const index = path.join(root, 'index.html');
  const familyIndex = path.join(root, 'familia', 'index.html');

  return async (c: Context): Promise<Response> => {
    // The worker's scope is /familia/: a first visit to /familia would load a page it never controls (no
    // offline, no push until a reload), so the address the guardian typed or was sent is completed first.
    if (c.req.path === '/familia') {
      const query = new URL(c.req.url).search;
      return c.body(null, 308, { Location: `/familia/${query}`, 'Cache-Control': 'no-cache' });
    }
    const requested = resolveInside(root, c.req.path);
    let file = requested && !c.req.path.endsWith('/') ? requested : null;
    let info = file ? await fileInfo(file) : null;
    const immutable = info !== null && HASHED_ASSET.test(c.req.path);
    if (!info) {
      file = FAMILY_APP.test(c.req.path) ? familyIndex : index;
      info = await fileInfo(file);
    }
    if (!file || !info) {
      return c.html(MISSING_BUILD, 503, { 'Cache-Control': 'no-cache' });
    }

    // The file as it is, then the copies the build wrote beside it.
    const variants: { coding: Coding; file: string; size: number; mtimeMs: number }[] = [
      { coding: 'identity', file, size: info.size, mtimeMs: info.mtimeMs },
    ];
    for (const copy of COPIES) {
      const copyInfo = await fileInfo(file + copy.suffix);
      if (copyInfo) variants.push({ coding: copy.coding, file: file + copy.suffix, size: copyInfo.size, mtimeMs: copyInfo.mtimeMs });
    }
    const cacheControl = immutable ? IMMUTABLE : 'no-cache';
    const headers: Record<string, string> = {
      'Cache-Control': cacheControl,
      'Content-Type': getMimeType(file) ?? 'application/octet-stream',
      Vary: 'Accept-Encoding',
    };
    const coding = negotiate(
      c.req.header('accept-encoding'),
      variants.map((v) => v.coding),
    );
    const sent = variants.find((v) => v.coding === coding);
    if (!sent) return c.body(null, 406, headers);

    const suffix = sent.coding === 'identity' ? '' : `-${sent.coding}`;
    const etag = `W/"${sent.size.toString(16)}-${Math.trunc(sent.mtimeMs).toString(16)}${suffix}"`;
    if (matchesTag(c.req.header('if-none-match'), etag)) {
      // Only what a cache needs to keep its copy fresh (RFC 9110 §15.4.5).
      return c.body(null, 304, { 'Cache-Control': cacheControl, ETag: etag, Vary: 'Accept-Encoding' });
    }
    headers.ETag = etag;
    if (sent.coding !== 'identity') headers['Content-Encoding'] = sent.coding;
    headers['Content-Length'] = String(sent.size);
    if (c.req.method === 'HEAD') return c.body(null, 200, headers);
    return c.body(await readFile(sent.file), 200, headers);
  };
}
