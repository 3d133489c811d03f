import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, DEMO_SCHOOLS } from '../../shared/demo';
import { ACCESS_POLICY, COOKIE, type ApiError, type SignedInUser, type TokenTimes } from '../../shared/contract';
import { setCookies, startServer, type TestServer } from './support/server';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

/** `<nonce>.<HMAC>`, server/auth/xsrf.ts. */
const XSRF_TOKEN = /^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/;

const INVALID_CREDENTIALS: ApiError = {
  message: 'Estas credenciales no coinciden con nuestros registros.',
  code: 'auth.invalid_credentials',
};

describe('POST /api/login', () => {
  it('signs in, sets the auth cookies with the right flags and answers the token times', async () => {
    const client = server.client();
    const before = Date.now();
    const res = await client.login('docente@sanandres.cl');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: TokenTimes };
    expect(body.data.token_expires_at).toBeGreaterThanOrEqual(before + 1800 * 1000 - 1000);
    expect(body.data.token_expires_at).toBeLessThanOrEqual(Date.now() + 1800 * 1000);
    expect(body.data.refresh_expires_at - body.data.token_expires_at).toBe((14 * 24 * 3600 - 1800) * 1000);

    const cookies = setCookies(res);
    const session = cookies.get(COOKIE.session)!;
    expect(session.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(session.attrs).toMatchObject({ httponly: '', samesite: 'Lax', path: '/', 'max-age': '1800' });
    expect(session.attrs).not.toHaveProperty('secure');
    const refresh = cookies.get(COOKIE.refresh)!;
    expect(refresh.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(refresh.value).not.toBe(session.value);
    expect(refresh.attrs).toMatchObject({ httponly: '', samesite: 'Lax', path: '/', 'max-age': String(14 * 24 * 3600) });

    for (const [name, expected] of [
      [COOKIE.tokenExpiration, body.data.token_expires_at],
      [COOKIE.refreshExpiration, body.data.refresh_expires_at],
    ] as const) {
      const c = cookies.get(name)!;
      expect(Number(c.value)).toBe(expected);
      expect(c.attrs).not.toHaveProperty('httponly');
      expect(c.attrs).toMatchObject({ samesite: 'Lax', path: '/', 'max-age': String(14 * 24 * 3600) });
    }
    // The CSRF token is issued anew for the session at sign-in and stays readable.
    const xsrf = cookies.get(COOKIE.xsrf)!;
    expect(xsrf.value).toMatch(XSRF_TOKEN);
    expect(xsrf.attrs).not.toHaveProperty('httponly');
  });

  it('then GET /api/user answers the contract shape', async () => {
    const client = server.client();
    await client.login('administrador@sanandres.cl');
    const res = await client.get('/api/user');
    expect(res.status).toBe(200);
    const { user } = (await res.json()) as { user: SignedInUser };
    expect(user).toEqual({
      id: expect.any(Number),
      email: 'administrador@sanandres.cl',
      roles: [{ codigo: 'colegio-administrador', nombre: 'Administrador' }],
      person: { name: 'Rodrigo Andrés Fuentes Carrasco' },
      institution: {
        id: expect.any(Number),
        desc: DEMO_SCHOOLS.sanAndres,
        locale: 'es-CL',
        timezone: 'America/Santiago',
        country: 'CL',
      },
      device: 'latam',
      options: { url: { home: 'https://www.sanandres.cl' } },
      scope: ['mensajeria', 'plantillas', 'dashboard'],
      domain: 'cl',
      zendesk_info: {
        name: 'Rodrigo Andrés Fuentes Carrasco',
        email: 'administrador@sanandres.cl',
        organization: DEMO_SCHOOLS.sanAndres,
        tags: ['hermes', 'cl', 'colegio-administrador'],
        isChatEnabled: true,
      },
    });
  });

  it('answers the signed-in user and their policies with the token times: no second trip before the first screen', async () => {
    const client = server.client();
    const res = await client.login('directora@sanandres.cl');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: TokenTimes; user: SignedInUser; policies: string[] };
    expect(body.data.token_expires_at).toBeGreaterThan(Date.now());
    expect(body.user.email).toBe('directora@sanandres.cl');
    expect(body.user.roles.map((role) => role.codigo)).toEqual(['colegio-director']);
    expect(body.user.institution.desc).toBe(DEMO_SCHOOLS.sanAndres);
    expect(body.policies).toContain(ACCESS_POLICY);
    expect(body.policies).toContain('hermes-ver-estadisticas');
    // The same user GET /api/user describes.
    const again = (await (await client.get('/api/user')).json()) as { user: SignedInUser; policies: string[] };
    expect(again.user).toEqual(body.user);
    expect(again.policies).toEqual(body.policies);
  });

  it('accepts the e-mail in any case and with spaces around it', async () => {
    const res = await server.client().login('  Docente.Latam@SanAndres.CL ');
    expect(res.status).toBe(200);
  });

  it('gives a cl teacher zendesk_info without chat, and a mx user none', async () => {
    const cl = server.client();
    await cl.login('docente@sanandres.cl');
    const clUser = ((await (await cl.get('/api/user')).json()) as { user: SignedInUser }).user;
    expect(clUser.device).toBe('cl');
    expect(clUser.scope).toEqual(['mensajeria', 'plantillas']);
    expect(clUser.zendesk_info?.isChatEnabled).toBe(false);

    const mx = server.client();
    await mx.login('docente@benitojuarez.edu.mx');
    const mxUser = ((await (await mx.get('/api/user')).json()) as { user: SignedInUser }).user;
    expect(mxUser.domain).toBe('mx');
    expect(mxUser.institution).toMatchObject({
      desc: DEMO_SCHOOLS.juarez,
      locale: 'es-MX',
      timezone: 'America/Mexico_City',
      country: 'MX',
    });
    expect(mxUser).not.toHaveProperty('zendesk_info');
    expect(mxUser.options.url.home).toBe('https://www.benitojuarez.edu.mx');
  });

  it('answers 401 for a wrong password, without setting session cookies', async () => {
    const res = await server.client().login('directora@sanandres.cl', 'Hermes.2025');
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual(INVALID_CREDENTIALS);
    expect(setCookies(res).has(COOKIE.session)).toBe(false);
  });

  it('answers an unknown e-mail exactly like a wrong password', async () => {
    const res = await server.client().login('nadie@sanandres.cl', DEMO_PASSWORD);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual(INVALID_CREDENTIALS);
  });

  it('answers 403 auth.policy_missing to a user without hermes-acceder-sistema, with no session', async () => {
    const client = server.client();
    const res = await client.login('sinacceso@sanandres.cl');
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'auth.policy_missing' });
    expect(client.jar.has(COOKIE.session)).toBe(false);
    expect((await client.get('/api/user')).status).toBe(401);
  });

  it('answers 422 with Spanish field errors', async () => {
    const client = server.client();
    await client.get('/api/csrf-cookie');
    const empty = await client.post('/api/login', {});
    expect(empty.status).toBe(422);
    expect(await empty.json()).toEqual({
      message: 'Los datos enviados no son válidos.',
      code: 'validation.failed',
      errors: {
        email: ['El correo electrónico es obligatorio.'],
        password: ['La contraseña es obligatoria.'],
      },
    });

    const bad = await client.post('/api/login', { email: 'no-es-un-correo', password: 'x' });
    expect(bad.status).toBe(422);
    expect(await bad.json()).toMatchObject({ errors: { email: ['El correo electrónico no es válido.'] } });

    const notJson = await client.fetch('/api/login', { method: 'POST', body: 'email=a', headers: { 'Content-Type': 'text/plain' } });
    expect(notJson.status).toBe(422);
  });

  it('throttles after 5 failures for the same e-mail and IP, even with the right password', async () => {
    const client = server.client();
    for (let i = 0; i < 5; i++) {
      expect((await client.login('utp@sanandres.cl', `incorrecta-${i}`)).status).toBe(401);
    }
    const blocked = await client.login('utp@sanandres.cl');
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(50);
    expect(await blocked.json()).toMatchObject({ code: 'auth.throttled', message: expect.stringContaining('Inténtalo de nuevo en') });
    // Other accounts from the same IP are unaffected.
    expect((await server.client().login('corp.utp@sanandres.cl')).status).toBe(200);
  });
});

describe('session endpoints', () => {
  it('GET /api/user without a session is 401 auth.unauthenticated', async () => {
    const res = await server.client().get('/api/user');
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: 'No autenticado.', code: 'auth.unauthenticated' });
  });

  it('GET /api/user with a forged token is 401', async () => {
    const client = server.client();
    client.jar.set(COOKIE.session, 'A'.repeat(43));
    expect((await client.get('/api/user')).status).toBe(401);
  });

  it('GET /api/institution-policies lists the user policies', async () => {
    const admin = server.client();
    await admin.login('directora@sanandres.cl');
    const res = await admin.get('/api/institution-policies');
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: string[] };
    expect(data).toContain(ACCESS_POLICY);
    expect(data).toContain('hermes-ver-estadisticas');

    const teacher = server.client();
    await teacher.login('docente@liceoelqui.cl');
    const own = ((await (await teacher.get('/api/institution-policies')).json()) as { data: string[] }).data;
    expect(own).toContain(ACCESS_POLICY);
    expect(own).not.toContain('hermes-ver-estadisticas');
  });

  it('GET /api/user carries the policies too, so a page load needs one call to know who is signed in', async () => {
    const teacher = server.client();
    await teacher.login('docente@liceoelqui.cl');
    const res = await teacher.get('/api/user');
    expect(res.status).toBe(200);
    const { user, policies } = (await res.json()) as { user: SignedInUser; policies: string[] };
    expect(user.email).toBe('docente@liceoelqui.cl');
    expect(policies).toContain(ACCESS_POLICY);
    expect(policies).not.toContain('hermes-ver-estadisticas');
  });

  it('GET /api/logout ends the session, clears the cookies, and the old cookie is then refused', async () => {
    const client = server.client();
    await client.login('docente@sanandres.cl');
    const token = client.jar.get(COOKIE.session)!;
    const res = await client.get('/api/logout');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { ok: true } });
    const cleared = setCookies(res);
    for (const name of [COOKIE.session, COOKIE.refresh, COOKIE.tokenExpiration, COOKIE.refreshExpiration]) {
      expect(cleared.get(name)?.attrs['max-age']).toBe('0');
    }
    expect(client.jar.has(COOKIE.session)).toBe(false);

    const replay = server.client();
    replay.jar.set(COOKIE.session, token);
    expect((await replay.get('/api/user')).status).toBe(401);
  });

  it('signing in again from the same browser ends the previous session', async () => {
    const client = server.client();
    await client.login('docente@sanandres.cl');
    const first = client.jar.get(COOKIE.session)!;
    expect((await client.login('docente@sanandres.cl')).status).toBe(200);
    expect(client.jar.get(COOKIE.session)).not.toBe(first);
    expect((await client.get('/api/user')).status).toBe(200);
    const stale = server.client();
    stale.jar.set(COOKIE.session, first);
    expect((await stale.get('/api/user')).status).toBe(401);
  });

  it('GET /api/logout works without a session', async () => {
    const res = await server.client().get('/api/logout');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { ok: true } });
  });

  it('GET /api/health needs no session', async () => {
    const res = await server.client().get('/api/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { ok: true } });
  });

  it('GET /api/csrf-cookie answers 204 and sets a readable token only when missing or not valid', async () => {
    const client = server.client();
    const first = await client.get('/api/csrf-cookie');
    expect(first.status).toBe(204);
    const cookie = setCookies(first).get(COOKIE.xsrf)!;
    expect(cookie.value).toMatch(XSRF_TOKEN);
    expect(cookie.attrs).toMatchObject({ samesite: 'Lax', path: '/' });
    expect(cookie.attrs).not.toHaveProperty('httponly');
    const second = await client.get('/api/csrf-cookie');
    expect(setCookies(second).has(COOKIE.xsrf)).toBe(false);
    client.jar.set(COOKIE.xsrf, 'x'.repeat(43));
    const third = await client.get('/api/csrf-cookie');
    expect(setCookies(third).get(COOKIE.xsrf)?.value).toMatch(XSRF_TOKEN);
  });
});
