// Compression and caching on the wire: the build's precompressed files (.br, .gz beside each asset) served
// by the request's Accept-Encoding, immutable caching only for hashed assets, and API answers over 1 kB
// compressed while small answers and downloads go as they are. Read with node:http, which (unlike fetch)
// never decompresses, so the bytes checked are the bytes sent.
import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COOKIE } from '../../shared/contract';
import { pdfBytes, uploadOk } from './support/compose';
import { ASSET_JS, INDEX_HTML, startServer, type Client, type TestServer } from './support/server';

let server: TestServer;
let admin: Client;

/** A hashed entry script of a few kB, as Vite names them, with the variants the build writes beside it. */
const MAIN = '/assets/index-DYkU40ca.js';
const MAIN_JS = Array.from({ length: 200 }, (_, i) => `export const texto${i} = "Mensaje número ${i} del colegio";`).join('\n');
const MAIN_BR = brotliCompressSync(MAIN_JS);
const MAIN_GZ = gzipSync(MAIN_JS);
/** A small hashed chunk the build wrote no compressed copies of. */
const SMALL = '/assets/es-CL-BMXvMV_-.js';
/** A file of public/ (not hashed): copied as is to the root of dist. */
const ICON = '/favicon.svg';
const ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg">${'<path d="M0 0h10v10H0z"/>'.repeat(80)}</svg>`;
/** The families' app's build (vite.family.config.ts): its index.html and one hashed script. */
const FAMILY_INDEX = '<!doctype html><title>Hermes Familias</title><div id="root"></div>';
const FAMILY_JS = '/familia/assets/index-FaM1LyAp.js';

/** index.html as the build writes it, with its variants: the history fallback serves them too. */
const BIG_INDEX = `${INDEX_HTML}${'<!-- relleno para superar un kB -->\n'.repeat(60)}`;

const IMMUTABLE = 'public, max-age=31536000, immutable';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One request over a new socket; the body as sent, never decoded. */
function raw(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const header = (res: Raw, name: string): string | undefined => {
  const value = res.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
};

const varies = (res: Raw): boolean => (header(res, 'vary') ?? '').split(',').some((v) => v.trim().toLowerCase() === 'accept-encoding');

const decoded = (res: Raw): string => {
  const encoding = header(res, 'content-encoding');
  if (encoding === 'br') return brotliDecompressSync(res.body).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(res.body).toString('utf8');
  expect(encoding).toBeUndefined();
  return res.body.toString('utf8');
};

/** The cookies of a signed-in client, for raw requests. */
const cookieOf = (client: Client) => [...client.jar].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ');

beforeAll(async () => {
  server = await startServer();
  const dist = server.distDir;
  mkdirSync(path.join(dist, 'assets'), { recursive: true });
  writeFileSync(path.join(dist, MAIN), MAIN_JS);
  writeFileSync(path.join(dist, `${MAIN}.br`), MAIN_BR);
  writeFileSync(path.join(dist, `${MAIN}.gz`), MAIN_GZ);
  writeFileSync(path.join(dist, SMALL), ASSET_JS);
  writeFileSync(path.join(dist, ICON), ICON_SVG);
  writeFileSync(path.join(dist, `${ICON}.br`), brotliCompressSync(ICON_SVG));
  writeFileSync(path.join(dist, `${ICON}.gz`), gzipSync(ICON_SVG));
  writeFileSync(path.join(dist, 'index.html'), BIG_INDEX);
  writeFileSync(path.join(dist, 'index.html.br'), brotliCompressSync(BIG_INDEX));
  writeFileSync(path.join(dist, 'index.html.gz'), gzipSync(BIG_INDEX));
  mkdirSync(path.join(dist, 'familia', 'assets'), { recursive: true });
  writeFileSync(path.join(dist, 'familia', 'index.html'), FAMILY_INDEX);
  writeFileSync(path.join(dist, FAMILY_JS), ASSET_JS);
  admin = server.client();
  expect((await admin.login('administrador@sanandres.cl')).status).toBe(200);
});
afterAll(async () => {
  await server?.close();
});

describe('static files', () => {
  it('sends the brotli file when the browser takes br, with its length, the script’s type and Vary', async () => {
    const res = await raw(server.url + MAIN, { 'Accept-Encoding': 'gzip, deflate, br, zstd' });
    expect(res.status).toBe(200);
    expect(header(res, 'content-encoding')).toBe('br');
    expect(res.body.equals(MAIN_BR)).toBe(true);
    expect(header(res, 'content-length')).toBe(String(MAIN_BR.length));
    expect(header(res, 'content-type')).toBe('text/javascript; charset=utf-8');
    expect(varies(res)).toBe(true);
    expect(decoded(res)).toBe(MAIN_JS);
  });

  it('sends gzip to a browser without br, and the file as is to one that takes neither', async () => {
    const gz = await raw(server.url + MAIN, { 'Accept-Encoding': 'gzip, deflate' });
    expect(header(gz, 'content-encoding')).toBe('gzip');
    expect(header(gz, 'content-length')).toBe(String(MAIN_GZ.length));
    expect(decoded(gz)).toBe(MAIN_JS);
    expect(varies(gz)).toBe(true);

    for (const accept of [undefined, 'identity', 'deflate']) {
      const plain = await raw(server.url + MAIN, accept === undefined ? {} : { 'Accept-Encoding': accept });
      expect(header(plain, 'content-encoding'), accept).toBeUndefined();
      expect(plain.body.toString('utf8'), accept).toBe(MAIN_JS);
      expect(header(plain, 'content-length'), accept).toBe(String(Buffer.byteLength(MAIN_JS)));
      expect(varies(plain), accept).toBe(true);
    }
  });

  it('honours q-values: a refused coding is never sent, the higher q wins, br on a tie', async () => {
    const cases: [string, string | undefined][] = [
      ['br;q=0, gzip', 'gzip'],
      ['gzip;q=1, br;q=0.5', 'gzip'],
      ['gzip;q=0.5, br;q=0.8', 'br'],
      ['gzip;q=0.7, br;q=0.7', 'br'],
      ['*', 'br'],
      ['*;q=0.5, br;q=0', 'gzip'],
      ['br;q=0, gzip;q=0', undefined],
      ['gzip, identity;q=0', 'gzip'],
      ['BR;Q=1', 'br'],
    ];
    for (const [accept, expected] of cases) {
      const res = await raw(server.url + MAIN, { 'Accept-Encoding': accept });
      expect(res.status, accept).toBe(200);
      expect(header(res, 'content-encoding'), accept).toBe(expected);
      expect(decoded(res), accept).toBe(MAIN_JS);
    }
  });

  it('answers 406 when the browser refuses every coding, the file as is included', async () => {
    const res = await raw(server.url + MAIN, { 'Accept-Encoding': 'br;q=0, gzip;q=0, identity;q=0' });
    expect(res.status).toBe(406);
    expect(header(res, 'content-encoding')).toBeUndefined();
  });

  it('caches hashed assets for a year, immutable; public files, index.html and the fallback are revalidated', async () => {
    const asset = await raw(server.url + MAIN, { 'Accept-Encoding': 'br' });
    expect(header(asset, 'cache-control')).toBe(IMMUTABLE);
    const small = await raw(server.url + SMALL, { 'Accept-Encoding': 'br' });
    expect(header(small, 'cache-control')).toBe(IMMUTABLE);
    // Without copies beside it, the file is sent as it is.
    expect(header(small, 'content-encoding')).toBeUndefined();
    expect(small.body.toString('utf8')).toBe(ASSET_JS);
    // A name without Vite's content hash may change its bytes: revalidated.
    const unhashed = await raw(`${server.url}/assets/app-abc123.js`, { 'Accept-Encoding': 'br' });
    expect(header(unhashed, 'cache-control')).toBe('no-cache');

    const icon = await raw(server.url + ICON, { 'Accept-Encoding': 'gzip' });
    expect(header(icon, 'cache-control')).toBe('no-cache');
    expect(header(icon, 'content-type')).toMatch(/^image\/svg\+xml/);
    expect(decoded(icon)).toBe(ICON_SVG);

    for (const page of ['/', '/index.html', '/inbox', '/assets/no-existe.js', '/assets/']) {
      const res = await raw(server.url + page, { 'Accept-Encoding': 'gzip, br' });
      expect(res.status, page).toBe(200);
      expect(header(res, 'cache-control'), page).toBe('no-cache');
      expect(header(res, 'content-type'), page).toBe('text/html; charset=utf-8');
      expect(header(res, 'content-encoding'), page).toBe('br');
      expect(varies(res), page).toBe(true);
      expect(decoded(res), page).toBe(BIG_INDEX);
    }
  });

  it("serves the families' app under /familia: its own index.html as the fallback there, its hashed assets immutable", async () => {
    for (const page of ['/familia/', '/familia/mensaje/12', '/familia/assets/no-existe.js']) {
      const res = await raw(server.url + page, { 'Accept-Encoding': 'identity' });
      expect(res.status, page).toBe(200);
      expect(header(res, 'cache-control'), page).toBe('no-cache');
      expect(res.body.toString('utf8'), page).toBe(FAMILY_INDEX);
    }
    const asset = await raw(server.url + FAMILY_JS, { 'Accept-Encoding': 'identity' });
    expect(header(asset, 'cache-control')).toBe(IMMUTABLE);
    expect(asset.body.toString('utf8')).toBe(ASSET_JS);
    // The folder without its slash is completed first, so the worker (scope /familia/) controls the first load.
    for (const [page, location] of [
      ['/familia', '/familia/'],
      ['/familia?instalar=1', '/familia/?instalar=1'],
    ]) {
      const moved = await raw(server.url + page, { 'Accept-Encoding': 'identity' });
      expect(moved.status, page).toBe(308);
      expect(header(moved, 'location'), page).toBe(location);
      expect(moved.body.length, page).toBe(0);
    }
    // Only the folder itself: another path that starts alike is the staff's.
    const staff = await raw(`${server.url}/familiares`, { 'Accept-Encoding': 'br' });
    expect(decoded(staff)).toBe(BIG_INDEX);
  });

  it('gives each coding its own ETag and answers 304 only to the tag of the coding it would send', async () => {
    const tags = new Map<string, string>();
    for (const accept of ['br', 'gzip', 'identity']) {
      const res = await raw(server.url + MAIN, { 'Accept-Encoding': accept });
      const tag = header(res, 'etag');
      expect(tag, accept).toBeTruthy();
      tags.set(accept, tag!);
    }
    expect(new Set(tags.values()).size).toBe(3);

    const again = await raw(server.url + MAIN, { 'Accept-Encoding': 'gzip, br', 'If-None-Match': tags.get('br')! });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(header(again, 'etag')).toBe(tags.get('br'));
    expect(header(again, 'cache-control')).toBe(IMMUTABLE);
    expect(varies(again)).toBe(true);
    // A cache holding several variants may list all their tags.
    const listed = await raw(server.url + MAIN, {
      'Accept-Encoding': 'gzip',
      'If-None-Match': `${tags.get('br')}, ${tags.get('gzip')}`,
    });
    expect(listed.status).toBe(304);
    expect(header(listed, 'etag')).toBe(tags.get('gzip'));

    // The brotli copy's tag does not validate the gzip copy.
    const other = await raw(server.url + MAIN, { 'Accept-Encoding': 'gzip', 'If-None-Match': tags.get('br')! });
    expect(other.status).toBe(200);
    expect(header(other, 'content-encoding')).toBe('gzip');
  });

  it('answers HEAD with the headers of the GET and no body', async () => {
    const res = await raw(server.url + MAIN, { 'Accept-Encoding': 'br' }, 'HEAD');
    expect(res.status).toBe(200);
    expect(res.body.length).toBe(0);
    expect(header(res, 'content-encoding')).toBe('br');
    expect(header(res, 'content-length')).toBe(String(MAIN_BR.length));
    expect(header(res, 'content-type')).toBe('text/javascript; charset=utf-8');
    expect(header(res, 'cache-control')).toBe(IMMUTABLE);
    expect(varies(res)).toBe(true);
  });

  it('never serves the precompressed files by their own names', async () => {
    const res = await raw(`${server.url + MAIN}.br`, { 'Accept-Encoding': 'br' });
    expect(header(res, 'content-type')).toBe('text/html; charset=utf-8');
    expect(header(res, 'cache-control')).toBe('no-cache');
    expect(decoded(res)).toBe(BIG_INDEX);
  });
});

describe('API answers', () => {
  const get = (pathname: string, accept?: string, extra: Record<string, string> = {}) =>
    raw(server.url + pathname, {
      Cookie: cookieOf(admin),
      Accept: 'application/json',
      ...(accept ? { 'Accept-Encoding': accept } : {}),
      ...extra,
    });

  it('compresses a large JSON answer by the request’s Accept-Encoding, and it decodes to the same JSON', async () => {
    const plain = await get('/api/recipients');
    expect(plain.status).toBe(200);
    expect(header(plain, 'content-encoding')).toBeUndefined();
    expect(varies(plain)).toBe(true);
    const json = plain.body.toString('utf8');
    expect(json.length).toBeGreaterThan(10_000);
    expect(header(plain, 'content-length')).toBe(String(plain.body.length));

    const br = await get('/api/recipients', 'gzip, deflate, br');
    expect(header(br, 'content-encoding')).toBe('br');
    expect(varies(br)).toBe(true);
    expect(header(br, 'content-type')).toMatch(/^application\/json/);
    expect(header(br, 'content-length')).toBe(String(br.body.length));
    expect(br.body.length).toBeLessThan(json.length / 4);
    expect(decoded(br)).toBe(json);

    const gz = await get('/api/recipients', 'gzip, deflate');
    expect(header(gz, 'content-encoding')).toBe('gzip');
    expect(header(gz, 'content-length')).toBe(String(gz.body.length));
    expect(gz.body.length).toBeLessThan(json.length / 4);
    expect(decoded(gz)).toBe(json);

    const refused = await get('/api/recipients', 'br;q=0, gzip;q=0');
    expect(header(refused, 'content-encoding')).toBeUndefined();
    expect(refused.body.toString('utf8')).toBe(json);
  });

  it('keeps revalidation working: each coding its own tag, a 304 to the tag of the coding it would send', async () => {
    const br = await get('/api/recipients', 'br');
    const gz = await get('/api/recipients', 'gzip');
    const plain = await get('/api/recipients');
    const tags = [br, gz, plain].map((res) => header(res, 'etag'));
    expect(tags.every(Boolean)).toBe(true);
    expect(new Set(tags).size).toBe(3);

    const again = await get('/api/recipients', 'br', { 'If-None-Match': tags[0]! });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(header(again, 'etag')).toBe(tags[0]);
    expect(varies(again)).toBe(true);
    expect((await get('/api/recipients', 'identity', { 'If-None-Match': tags[2]! })).status).toBe(304);
    expect((await get('/api/recipients', 'gzip', { 'If-None-Match': tags[0]! })).status).toBe(200);
  });

  it('compresses a page of a folder (a few kB) alike', async () => {
    const plain = await get('/api/messages?folder=inbox');
    expect(plain.status).toBe(200);
    expect(plain.body.length).toBeGreaterThan(2_000);
    expect(plain.body.length).toBeLessThan(64 * 1024);
    for (const [accept, coding] of [
      ['gzip', 'gzip'],
      ['br', 'br'],
    ] as const) {
      const res = await get('/api/messages?folder=inbox', accept);
      expect(header(res, 'content-encoding'), accept).toBe(coding);
      expect(header(res, 'content-length'), accept).toBe(String(res.body.length));
      expect(decoded(res), accept).toBe(plain.body.toString('utf8'));
    }
  });

  it('sends small answers as they are', async () => {
    const res = await get('/api/health', 'gzip, br');
    expect(res.status).toBe(200);
    expect(header(res, 'content-encoding')).toBeUndefined();
    expect(JSON.parse(res.body.toString('utf8'))).toEqual({ data: { ok: true } });
  });

  it('never compresses a download, even a compressible one, and streams it with its length', async () => {
    const bytes = pdfBytes(200_000);
    const file = await uploadOk(admin, 'Circular.pdf', 'application/pdf', bytes);
    const res = await get(`/api/attachments/${file.id}`, 'gzip, deflate, br');
    expect(res.status).toBe(200);
    expect(header(res, 'content-encoding')).toBeUndefined();
    expect(header(res, 'content-length')).toBe(String(bytes.length));
    expect(res.body.equals(Buffer.from(bytes))).toBe(true);
  });

  it('leaves the session’s cookies and errors as they were', async () => {
    const anonymous = await raw(`${server.url}/api/courses`, { 'Accept-Encoding': 'gzip, br', Accept: 'application/json' });
    expect(anonymous.status).toBe(401);
    expect(JSON.parse(decoded(anonymous))).toMatchObject({ code: expect.any(String) });
    const cookies = [header(anonymous, 'set-cookie') ?? ''].join(';');
    expect(cookies).toContain(COOKIE.xsrf);
  });
});
