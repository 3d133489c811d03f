// Cross-cutting HTTP behaviour: CSRF (tokens signed for the session), security headers, caching, the SPA
// fallback and error bodies.
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../server/config';
import type { Db } from '../../server/db/client';
import { COOKIE, XSRF_HEADER } from '../../shared/contract';
import { CONTENT_SECURITY_POLICY } from '../../server/http/security';
import { composeInput } from '../fixtures/compose';
import { ASSET_JS, INDEX_HTML, setCookies, startServer, type Client, type TestServer } from './support/server';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

const EXPECTED_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; font-src 'self' data:; " +
  "connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

function expectSecurityHeaders(res: Response) {
  expect(res.headers.get('content-security-policy')).toBe(EXPECTED_CSP);
  expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('x-frame-options')).toBe('DENY');
}

/** `<nonce>.<HMAC>`: 16 random bytes, then the HMAC-SHA256 of the binding and the nonce (base64url). */
const XSRF_TOKEN = /^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/;

describe('CSRF', () => {
  const credentials = { email: 'docente@sanandres.cl', password: 'Hermes.2026' };
  const CSRF_BODY = {
    code: 'csrf.mismatch',
    message: 'La sesión de la página expiró. Recarga la página e inténtalo de nuevo.',
  };

  it('the exported CSP is the specified one', () => {
    expect(CONTENT_SECURITY_POLICY).toBe(EXPECTED_CSP);
  });

  it('refuses a POST without the cookie or the header (419), and the answer hands out a cookie', async () => {
    const client = server.client();
    const res = await client.post('/api/login', credentials);
    expect(res.status).toBe(419);
    expect(await res.json()).toEqual(CSRF_BODY);
    expect(setCookies(res).get(COOKIE.xsrf)?.value).toMatch(XSRF_TOKEN);
  });

  it('refuses a POST with the cookie but no header', async () => {
    const client = server.client();
    await client.get('/api/csrf-cookie');
    const res = await client.post('/api/login', credentials, { csrf: false });
    expect(res.status).toBe(419);
    expect(await res.json()).toEqual(CSRF_BODY);
  });

  it('refuses a POST whose header differs from the cookie', async () => {
    const client = server.client();
    await client.get('/api/csrf-cookie');
    const res = await client.post('/api/login', credentials, { headers: { [XSRF_HEADER]: 'x'.repeat(43) } });
    expect(res.status).toBe(419);
  });

  it('lets a POST with the matching header through', async () => {
    const client = server.client();
    await client.get('/api/csrf-cookie');
    const res = await client.post('/api/login', credentials, { headers: { [XSRF_HEADER]: client.jar.get(COOKIE.xsrf)! } });
    expect(res.status).toBe(200);
  });

  it('checks unknown unsafe /api calls too (CSRF before routing)', async () => {
    const res = await server.client().fetch('/api/whatever', { method: 'DELETE' });
    expect(res.status).toBe(419);
  });

  it('refuses a cookie and header pair the client chose (a cookie planted from a sibling subdomain)', async () => {
    const client = server.client();
    for (const planted of ['x'.repeat(43), `${'a'.repeat(22)}.${'b'.repeat(43)}`]) {
      client.jar.set(COOKIE.xsrf, planted);
      const res = await client.post('/api/login', credentials);
      expect(res.status, planted).toBe(419);
      expect(await res.json()).toEqual(CSRF_BODY);
    }
  });

  /** A signed-in client and the XSRF token it was given. */
  async function signedIn(email = 'docente@sanandres.cl') {
    const client = server.client();
    expect((await client.login(email)).status).toBe(200);
    return { client, token: client.jar.get(COOKIE.xsrf)! };
  }
  /** An unsafe call as the SPA makes it: the cookie read and echoed in the header. */
  const draft = (client: Client) => client.post('/api/messages/drafts', composeInput({ title: 'Prueba CSRF' }));

  it('binds the token to the session: another session’s token, or the one from before sign-in, is refused', async () => {
    const mine = await signedIn();
    const other = await signedIn();
    expect(mine.token).toMatch(XSRF_TOKEN);
    expect(mine.token).not.toBe(other.token);
    expect((await draft(mine.client)).status).toBe(201);

    // Another browser's valid token, as cookie and header both.
    mine.client.jar.set(COOKIE.xsrf, other.token);
    expect((await draft(mine.client)).status).toBe(419);

    // The token a browser had before signing in.
    const fresh = server.client();
    await fresh.get('/api/csrf-cookie');
    const anonymous = fresh.jar.get(COOKIE.xsrf)!;
    expect((await fresh.login('docente@sanandres.cl')).status).toBe(200);
    expect(fresh.jar.get(COOKIE.xsrf)).not.toBe(anonymous);
    expect((await draft(fresh)).status).toBe(201);
    fresh.jar.set(COOKIE.xsrf, anonymous);
    expect((await draft(fresh)).status).toBe(419);
  });

  it('re-issues the token at refresh and logout; the SPA flow (read the cookie, echo it) keeps working', async () => {
    const { client, token } = await signedIn();
    const refreshed = await client.post('/api/token/refresh');
    expect(refreshed.status).toBe(200);
    const renewed = setCookies(refreshed).get(COOKIE.xsrf)!.value;
    expect(renewed).toMatch(XSRF_TOKEN);
    expect(renewed).not.toBe(token);
    expect((await draft(client)).status).toBe(201);

    const out = await client.get('/api/logout');
    const anonymous = setCookies(out).get(COOKIE.xsrf)!.value;
    expect(anonymous).toMatch(XSRF_TOKEN);
    // The signed-out browser signs in again with what it was given, then works with the new session's token.
    expect((await client.post('/api/login', credentials)).status).toBe(200);
    expect(client.jar.get(COOKIE.xsrf)).not.toBe(anonymous);
    expect((await draft(client)).status).toBe(201);
    // The token of the ended session is worthless for the new one, as cookie and header both.
    client.jar.set(COOKIE.xsrf, renewed);
    expect((await draft(client)).status).toBe(419);
  });

  it('replaces a token that is not valid for the browser’s session on its next response', async () => {
    const { client } = await signedIn();
    client.jar.set(COOKIE.xsrf, 'x'.repeat(43));
    const res = await client.get('/api/user');
    expect(res.status).toBe(200);
    expect(setCookies(res).get(COOKIE.xsrf)?.value).toMatch(XSRF_TOKEN);
    expect((await draft(client)).status).toBe(201);
    // A valid one is left alone.
    expect(setCookies(await client.get('/api/user')).has(COOKIE.xsrf)).toBe(false);
  });

  it('signs with one secret per database, so servers sharing it accept each other’s tokens', async () => {
    const sibling = await server.sibling({});
    const client = server.client();
    await client.get('/api/csrf-cookie');
    const onSibling = sibling.client();
    onSibling.jar.set(COOKIE.xsrf, client.jar.get(COOKIE.xsrf)!);
    expect((await onSibling.post('/api/login', credentials)).status).toBe(200);
    const { rows } = (await server.db.execute(sql`select name, length(value) as n from server_secrets`)) as unknown as {
      rows: { name: string; n: number }[];
    };
    expect(rows).toEqual([{ name: 'xsrf', n: 43 }]);
    // HERMES_SECRET, when set, is the secret instead (and must be long enough to be one).
    expect(configFromEnv({ HERMES_SECRET: 's'.repeat(32) }).secret).toBe('s'.repeat(32));
    expect(configFromEnv({}).secret).toBeNull();
    expect(() => configFromEnv({ HERMES_SECRET: 'corto' })).toThrow(/HERMES_SECRET/);
  });
});

describe('security headers and caching', () => {
  it('on API JSON, with no-cache', async () => {
    const res = await server.client().get('/api/health');
    expectSecurityHeaders(res);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('on a 401 and on an unknown /api path (JSON 404 not_found)', async () => {
    const unauth = await server.client().get('/api/courses');
    expect(unauth.status).toBe(401);
    expectSecurityHeaders(unauth);
    expect(unauth.headers.get('cache-control')).toBe('no-cache');

    const missing = await server.client().get('/api/no-existe');
    expect(missing.status).toBe(404);
    expectSecurityHeaders(missing);
    expect(missing.headers.get('cache-control')).toBe('no-cache');
    expect(await missing.json()).toEqual({ message: 'El recurso solicitado no existe.', code: 'not_found' });
  });

  it('serves index.html for any non-API path (history fallback), with the headers and a CSRF cookie', async () => {
    for (const path of ['/', '/inbox', '/inbox/message/12', '/ruta/que/no/existe', '/assets/no-existe.js']) {
      const res = await server.client().get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await res.text()).toBe(INDEX_HTML);
      expectSecurityHeaders(res);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(setCookies(res).has(COOKIE.xsrf)).toBe(true);
    }
  });

  it('serves an existing asset with an ETag and answers 304 to a revalidation', async () => {
    const client = server.client();
    const res = await client.get('/assets/app-abc123.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await res.text()).toBe(ASSET_JS);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expectSecurityHeaders(res);
    const etag = res.headers.get('etag');
    expect(etag).toMatch(/^W\/"[0-9a-f]+-[0-9a-f]+"$/);

    const again = await client.get('/assets/app-abc123.js', { headers: { 'If-None-Match': etag! } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expectSecurityHeaders(again);
  });

  it('never serves files outside dist', async () => {
    const res = await fetch(`${server.url}/..%2f..%2fpackage.json`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(INDEX_HTML);
  });

  it('answers a POST to a non-API path with a JSON 404 and the headers', async () => {
    const res = await fetch(`${server.url}/inbox`, { method: 'POST' });
    expect(res.status).toBe(404);
    expectSecurityHeaders(res);
    expect(await res.json()).toMatchObject({ code: 'not_found' });
  });
});

describe('without a build', () => {
  it('answers a Spanish page telling to run npm run build', async () => {
    const bare = await server.sibling({ distDir: path.join(server.distDir, 'no-existe') });
    const res = await fetch(`${bare.url}/inbox`);
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toContain('npm run build');
    expectSecurityHeaders(res);
    // The API still works.
    expect((await fetch(`${bare.url}/api/health`)).status).toBe(200);
  });
});

describe('server errors', () => {
  it('answer 500 server.error in Spanish, with the security headers', async () => {
    // A database that fails on any use, as when Postgres goes away mid-request.
    const broken = new Proxy({} as Db, {
      get() {
        throw new Error('base de datos no disponible (prueba)');
      },
    });
    const app = await server.sibling({ db: broken });
    const client = app.client();
    client.jar.set(COOKIE.session, 'A'.repeat(43));
    const res = await client.get('/api/courses');
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ message: 'Ha ocurrido un error al realizar la solicitud.', code: 'server.error' });
    expectSecurityHeaders(res);
    expect(res.headers.get('cache-control')).toBe('no-cache');
  });
});
