// Token refresh, expiry and the cookie Secure flag.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COOKIE, XSRF_HEADER, type TokenTimes } from '../../shared/contract';
import { DEMO_PASSWORD } from '../../shared/demo';
import { createApp } from '../../server/app';
import { setCookies, startServer, testConfig, type TestServer } from './support/server';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

const AUTH_COOKIES = [COOKIE.session, COOKIE.refresh, COOKIE.tokenExpiration, COOKIE.refreshExpiration];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('POST /api/token/refresh', () => {
  it('rotates both tokens; the old access and refresh tokens stop working', async () => {
    const client = server.client();
    expect((await client.login('docente@sanandres.cl')).status).toBe(200);
    const oldAccess = client.jar.get(COOKIE.session)!;
    const oldRefresh = client.jar.get(COOKIE.refresh)!;

    const res = await client.post('/api/token/refresh');
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: TokenTimes };
    expect(data.token_expires_at).toBeGreaterThan(Date.now() + 1700 * 1000);
    expect(data.refresh_expires_at).toBeGreaterThan(data.token_expires_at);
    const cookies = setCookies(res);
    expect(cookies.get(COOKIE.session)!.value).not.toBe(oldAccess);
    expect(cookies.get(COOKIE.refresh)!.value).not.toBe(oldRefresh);
    expect(Number(cookies.get(COOKIE.tokenExpiration)!.value)).toBe(data.token_expires_at);
    expect(Number(cookies.get(COOKIE.refreshExpiration)!.value)).toBe(data.refresh_expires_at);
    expect(cookies.get(COOKIE.session)!.attrs).toMatchObject({ httponly: '', samesite: 'Lax', path: '/' });

    expect((await client.get('/api/user')).status).toBe(200);

    const stale = server.client();
    stale.jar.set(COOKIE.session, oldAccess);
    expect((await stale.get('/api/user')).status).toBe(401);

    const replay = server.client();
    await replay.get('/api/csrf-cookie');
    replay.jar.set(COOKIE.refresh, oldRefresh);
    const replayed = await replay.post('/api/token/refresh');
    expect(replayed.status).toBe(401);
    expect(await replayed.json()).toMatchObject({ code: 'auth.refresh_expired' });
    // The rightful owner is not affected by the failed replay.
    expect((await client.get('/api/user')).status).toBe(200);
  });

  it('needs the CSRF header like every POST', async () => {
    const client = server.client();
    await client.login('docente@sanandres.cl');
    expect((await client.post('/api/token/refresh', undefined, { csrf: false })).status).toBe(419);
  });

  it('answers 401 auth.refresh_expired and clears the cookies without a refresh cookie', async () => {
    const client = server.client();
    await client.get('/api/csrf-cookie');
    const res = await client.post('/api/token/refresh');
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: 'Tu sesión expiró. Inicia sesión nuevamente.', code: 'auth.refresh_expired' });
    const cleared = setCookies(res);
    for (const name of AUTH_COOKIES) expect(cleared.get(name)?.attrs['max-age'], name).toBe('0');
  });
});

describe('expiry (1-second tokens)', () => {
  it('an expired access token is refused; a live refresh token renews it; an expired one does not', async () => {
    const shortAccess = await server.sibling({ config: { tokenTtlS: 1, refreshTtlS: 60 } });
    const shortBoth = await server.sibling({ config: { tokenTtlS: 1, refreshTtlS: 1 } });
    const renewable = shortAccess.client();
    const doomed = shortBoth.client();
    const login = await renewable.login('docente@sanandres.cl');
    expect(setCookies(login).get(COOKIE.session)!.attrs['max-age']).toBe('1');
    await doomed.login('docente.latam@sanandres.cl');
    expect((await renewable.get('/api/user')).status).toBe(200);

    await sleep(1100);

    const expired = await renewable.get('/api/user');
    expect(expired.status).toBe(401);
    expect(await expired.json()).toMatchObject({ code: 'auth.unauthenticated' });
    expect((await renewable.post('/api/token/refresh')).status).toBe(200);
    expect((await renewable.get('/api/user')).status).toBe(200);

    expect((await doomed.get('/api/user')).status).toBe(401);
    const refused = await doomed.post('/api/token/refresh');
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ code: 'auth.refresh_expired' });
    const cleared = setCookies(refused);
    for (const name of AUTH_COOKIES) expect(cleared.get(name)?.attrs['max-age'], name).toBe('0');
    expect(doomed.jar.has(COOKIE.session)).toBe(false);
  });
});

describe('Secure cookies', () => {
  it('are Secure when the request came over https', async () => {
    const app = createApp({ db: server.db, distDir: server.distDir, config: testConfig() });
    // A real token first: one the client makes up is refused (419).
    const xsrf = setCookies(await app.request('https://hermes.example/api/csrf-cookie')).get(COOKIE.xsrf)!.value;
    const res = await app.request('https://hermes.example/api/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: `${COOKIE.xsrf}=${xsrf}`, [XSRF_HEADER]: xsrf },
      body: JSON.stringify({ email: 'docente@sanandres.cl', password: DEMO_PASSWORD }),
    });
    expect(res.status).toBe(200);
    const cookies = setCookies(res);
    for (const name of [...AUTH_COOKIES, COOKIE.xsrf]) expect(cookies.get(name)!.attrs, name).toHaveProperty('secure');
  });

  it('honour X-Forwarded-Proto only behind a trusted proxy', async () => {
    const proxied = await server.sibling({ config: { trustProxy: true } });
    const viaProxy = proxied.client();
    await viaProxy.get('/api/csrf-cookie');
    const res = await viaProxy.post(
      '/api/login',
      { email: 'docente@sanandres.cl', password: DEMO_PASSWORD },
      {
        headers: { 'X-Forwarded-Proto': 'https' },
      },
    );
    expect(setCookies(res).get(COOKIE.session)!.attrs).toHaveProperty('secure');

    const direct = server.client();
    await direct.get('/api/csrf-cookie');
    const plain = await direct.post(
      '/api/login',
      { email: 'docente@sanandres.cl', password: DEMO_PASSWORD },
      {
        headers: { 'X-Forwarded-Proto': 'https' },
      },
    );
    expect(setCookies(plain).get(COOKIE.session)!.attrs).not.toHaveProperty('secure');
  });
});
