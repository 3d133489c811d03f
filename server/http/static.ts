// Serves the Vite build with history fallback: an existing file is sent as is, any other path gets
// index.html (200) and the SPA renders its own 404. Files carry a weak ETag (size + mtime) so the
// `no-cache` revalidation is a cheap 304.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Context } from 'hono';
import { getMimeType } from 'hono/utils/mime';

const MISSING_BUILD = `<!doctype html>
<html lang="es">
<head><meta charset="utf-8"><title>Hermes</title></head>
<body>
<h1>Hermes aún no está compilado</h1>
<p>No se encontró la aplicación web. Ejecuta <code>npm run build</code> y vuelve a cargar esta página.</p>
</body>
</html>
`;

async function fileInfo(file: string) {
  try {
    const s = await stat(file);
    return s.isFile() ? s : null;
  } catch {
    return null;
  }
}

/** Maps a URL path onto a file inside `root`, or null when it would escape it or names a dotfile. */
function resolveInside(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
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

  return async (c: Context): Promise<Response> => {
    const requested = resolveInside(root, c.req.path);
    let file = requested && !c.req.path.endsWith('/') ? requested : null;
    let info = file ? await fileInfo(file) : null;
    if (!info) {
      file = index;
      info = await fileInfo(index);
    }
    if (!file || !info) {
      return c.html(MISSING_BUILD, 503, { 'Cache-Control': 'no-cache' });
    }

    const etag = `W/"${info.size.toString(16)}-${Math.trunc(info.mtimeMs).toString(16)}"`;
    const headers = {
      'Cache-Control': 'no-cache',
      ETag: etag,
      'Content-Type': getMimeType(file) ?? 'application/octet-stream',
    };
    const inm = c.req.header('if-none-match');
    if (inm?.split(',').some((t) => t.trim() === etag)) return c.body(null, 304, headers);
    return c.body(await readFile(file), 200, headers);
  };
}
