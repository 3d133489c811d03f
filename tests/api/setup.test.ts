import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_POLICY, COOKIE, type ApiError, type SignedIn } from '../../shared/contract';
import type { SetupInput } from '../../shared/setup-contract';
import { rowsOf } from '../../server/db/sql';
import { issueSetupCode } from '../../server/setup/code';
import { startEmptyServer, type EmptyServer } from './support/empty';
import { type Client, INDEX_HTML, setCookies, startServer } from './support/server';

const PASSWORD = 'pizarra verde en el patio';

const valid = (code: string, ip = '198.51.100.1'): [SetupInput, string] => [
  {
    code,
    school: {
      name: 'Colegio Los Aromos',
      country: 'CL',
      timezone: 'America/Punta_Arenas',
      locale: 'es-CL',
      homeUrl: 'https://www.losaromos.cl',
    },
    admin: { name: 'Marcela Fuentes Soto', email: 'Marcela.Fuentes@LosAromos.cl', password: PASSWORD },
  },
  ip,
];

async function post(client: Client, body: unknown, ip: string): Promise<Response> {
  if (!client.jar.has(COOKIE.xsrf)) await client.get('/api/csrf-cookie');
  return client.post('/api/setup', body, { headers: { 'X-Forwarded-For': ip } });
}

describe('an empty install before and after its setup', () => {
  let server: EmptyServer;
  let code: string;
  beforeAll(async () => {
    server = await startEmptyServer({ trustProxy: true });
    code = (await issueSetupCode(server.handle.db, true))!;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('says setup is needed and sends every page, but not files, to /setup', async () => {
    const client = server.client();
    const status = await client.get('/api/setup');
    expect(status.status).toBe(200);
    expect(await status.json()).toEqual({ data: { needed: true } });
    for (const page of ['/', '/login', '/inbox', '/settings/message-quota']) {
      const res = await client.get(page, { headers: { Accept: 'text/html' } });
      expect(res.status, page).toBe(302);
      expect(res.headers.get('location'), page).toBe('/setup');
    }
    const setup = await client.get('/setup', { headers: { Accept: 'text/html' } });
    expect(setup.status).toBe(200);
    expect(await setup.text()).toBe(INDEX_HTML);
    expect((await client.get('/assets/app-abc123.js')).status).toBe(200);
  });

  it('refuses a body with every mistake at once, each with its Spanish message', async () => {
    const res = await post(
      server.client(),
      {
        code: '',
        school: { name: ' ', country: 'CL', timezone: 'America/Mexico_City', locale: 'es-AR', homeUrl: 'www.losaromos' },
        admin: { name: '', email: 'marcela@', password: 'corta' },
      },
      '198.51.100.2',
    );
    expect(res.status).toBe(422);
    const body = (await res.json()) as ApiError;
    expect(body.code).toBe('validation.failed');
    expect(body.errors).toEqual({
      code: ['Escribe el código de configuración que muestra el registro del servidor.'],
      'school.name': ['El nombre del colegio es obligatorio.'],
      'school.timezone': ['Elige una zona horaria de Chile.'],
      'school.locale': ['Elige el idioma del colegio: español de Chile o de México.'],
      'school.homeUrl': ['El enlace de inicio debe ser una dirección web completa, como https://www.micolegio.cl.'],
      'admin.name': ['El nombre es obligatorio.'],
      'admin.email': ['El correo electrónico no es válido.'],
      'admin.password': ['La contraseña debe tener al menos 10 caracteres.'],
    });
  });

  it('refuses an unknown country, and a password built from the school or the person', async () => {
    const [input] = valid(code);
    const country = await post(server.client(), { ...input, school: { ...input.school, country: 'AR' } }, '198.51.100.3');
    expect(((await country.json()) as ApiError).errors).toEqual({ 'school.country': ['Elige el país del colegio: Chile o México.'] });
    const personal = await post(server.client(), { ...input, admin: { ...input.admin, password: 'losaromos2026' } }, '198.51.100.3');
    expect(((await personal.json()) as ApiError).errors).toEqual({
      'admin.password': ['La contraseña no puede basarse en tu nombre, tu correo o el nombre de tu institución.'],
    });
  });

  it('refuses a wrong code on its field, and ten wrong codes from one IP are all that IP gets', async () => {
    const [input] = valid('AAAA-BBBB-CCCC');
    const client = server.client();
    for (let i = 0; i < 10; i++) {
      const res = await post(client, input, '203.0.113.9');
      expect(res.status).toBe(422);
      expect(((await res.json()) as ApiError).errors).toEqual({
        code: ['El código de configuración no es correcto. Cópialo del registro (log) del servidor.'],
      });
    }
    const blocked = await post(client, { ...input, code }, '203.0.113.9');
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another IP still gets through to the right code's checks, on another server of the same database.
    const other = await post(
      await server.sibling(),
      { ...input, code: code.toLowerCase().replaceAll('-', ' '), admin: { ...input.admin, name: '' } },
      '203.0.113.10',
    );
    expect(((await other.json()) as ApiError).errors).toEqual({ 'admin.name': ['El nombre es obligatorio.'] });
  });

  it('with the right code creates the school and its administrator and signs them in', async () => {
    const client = server.client();
    const res = await post(client, ...valid(code));
    expect(res.status).toBe(200);
    const body = (await res.json()) as SignedIn & { data: { token_expires_at: number } };
    expect(body.data.token_expires_at).toBeGreaterThan(Date.now());
    expect(body.user).toMatchObject({
      email: 'marcela.fuentes@losaromos.cl',
      roles: [{ codigo: 'colegio-administrador', nombre: 'Administrador' }],
      person: { name: 'Marcela Fuentes Soto' },
      institution: { desc: 'Colegio Los Aromos', locale: 'es-CL', timezone: 'America/Punta_Arenas', country: 'CL' },
      options: { url: { home: 'https://www.losaromos.cl' } },
      domain: 'cl',
    });
    expect(body.policies).toContain(ACCESS_POLICY);
    expect(setCookies(res).get(COOKIE.session)?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The session is a real one.
    const user = await client.get('/api/user');
    expect(user.status).toBe(200);
    expect(((await user.json()) as SignedIn).user.email).toBe('marcela.fuentes@losaromos.cl');
    // On the record: the account joining the school, then its sign-in, by the person who set it up.
    const audit = rowsOf<{ action: string; actor_user_id: number; subject_id: number; detail: Record<string, unknown> }>(
      await server.handle.db.execute(sql`select action, actor_user_id, subject_id, detail from audit_events order by id`),
    );
    const uid = audit[0]?.actor_user_id;
    expect(audit).toEqual([
      { action: 'staff.invited', actor_user_id: uid, subject_id: uid, detail: { roles_after: ['colegio-administrador'], method: 'setup' } },
      { action: 'session.signed_in', actor_user_id: uid, subject_id: uid, detail: { method: 'setup', session_id: expect.any(Number) } },
    ]);

    const [school] = rowsOf<{ domain: string; phone_prefix: string; chat_enabled: boolean }>(
      await server.handle.db.execute(sql`select domain, phone_prefix, chat_enabled from institutions`),
    );
    expect(school).toEqual({ domain: 'cl', phone_prefix: '+56', chat_enabled: false });
    const channels = rowsOf<{ channel: string }>(
      await server.handle.db.execute(sql`select channel from institution_channels where enabled order by channel`),
    );
    expect(channels.map((c) => c.channel)).toEqual(['app-mobile', 'e-mail']);
    // The code's hash is gone with it.
    const kept = rowsOf(await server.handle.db.execute(sql`select 1 from server_secrets where name = 'setup-code'`));
    expect(kept).toEqual([]);
  });

  it('then the code is spent: a second setup is 410, and the pages are the normal ones again', async () => {
    const client = server.client();
    const again = await post(client, ...valid(code, '198.51.100.4'));
    expect(again.status).toBe(410);
    expect(((await again.json()) as ApiError).code).toBe('setup.done');
    expect(await (await client.get('/api/setup')).json()).toEqual({ data: { needed: false } });
    const login = await client.get('/login', { headers: { Accept: 'text/html' } });
    expect(login.status).toBe(200);
    const setup = await client.get('/setup', { headers: { Accept: 'text/html' } });
    expect(setup.status).toBe(302);
    expect(setup.headers.get('location')).toBe('/login');
  });
});

describe('a Mexican school', () => {
  it('gets the domain and phone prefix of Mexico', async () => {
    const server = await startEmptyServer();
    try {
      const code = (await issueSetupCode(server.handle.db, true))!;
      const client = server.client();
      await client.get('/api/csrf-cookie');
      const res = await client.post('/api/setup', {
        code,
        school: {
          name: 'Secundaria Técnica 12',
          country: 'MX',
          timezone: 'America/Monterrey',
          locale: 'es-MX',
          homeUrl: 'https://est12.edu.mx',
        },
        admin: { name: 'Rosa Elena Garza', email: 'rosa.garza@est12.edu.mx', password: PASSWORD },
      });
      expect(res.status).toBe(200);
      expect(((await res.json()) as SignedIn).user).toMatchObject({ domain: 'mx', institution: { country: 'MX', locale: 'es-MX' } });
      const [school] = rowsOf<{ phone_prefix: string }>(await server.handle.db.execute(sql`select phone_prefix from institutions`));
      expect(school?.phone_prefix).toBe('+52');
    } finally {
      await server.close();
    }
  });
});

describe('the demo install', () => {
  it('needs no setup and refuses one', async () => {
    const server = await startServer();
    try {
      const client = server.client();
      expect(await (await client.get('/api/setup')).json()).toEqual({ data: { needed: false } });
      await client.get('/api/csrf-cookie');
      const res = await client.post('/api/setup', valid('AAAA-BBBB-CCCC')[0]);
      expect(res.status).toBe(410);
      expect((await client.get('/login', { headers: { Accept: 'text/html' } })).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
