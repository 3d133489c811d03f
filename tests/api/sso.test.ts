// Staff single sign-on against a real OpenID provider started here (oidc-provider on 127.0.0.1): an
// administrator sets the school's provider (the secret never comes back), the login page learns which
// buttons to show, and a browser walks the whole flow by hand: Hermes → provider → Hermes' callback → a
// signed-in page. Only an active or invited member of the school, with a verified e-mail of its domain,
// gets in; a tampered state and a replayed code are refused; the refusals land on /login with their code.
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COOKIE, type ApiError, type SignedIn } from '../../shared/contract';
import type { SsoSettings } from '../../shared/sso-contract';
import type { InviteOutcome } from '../../shared/staff-contract';
import { rateLimitHits, sessions, users } from '../../server/db/schema/auth';
import { userChanges } from '../../server/db/schema/staff';
import { startProvider, type TestAccount, type TestProvider } from '../fixtures/oidc';
import { signedIn, startServer, type Client, type TestServer } from './support/server';

const ADMIN = 'administrador@sanandres.cl';
const TEACHER = 'docente@sanandres.cl';
const DIRECTOR = 'directora@sanandres.cl';
const ELQUI_ADMIN = 'administrador@liceoelqui.cl';
const PUBLIC_URL = 'https://hermes.sanandres.example';
const CALLBACK = `${PUBLIC_URL}/api/sso/callback`;

let server: TestServer;
let provider: TestProvider;
const as = signedIn(() => server);

const account = (email: string, verified = true): TestAccount => ({ sub: `sub-${email}`, email, email_verified: verified });

function settingsBody(overrides: Record<string, unknown> = {}) {
  return {
    provider: 'google',
    issuer: provider.issuer,
    client_id: provider.clientId,
    client_secret: provider.clientSecret,
    domain: 'sanandres.cl',
    enabled: true,
    ...overrides,
  };
}

async function put(client: Client, body: unknown): Promise<Response> {
  return client.fetch('/api/sso/settings', { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
}

/** A browser with no session: the login page's CSRF cookie only. */
async function browser(): Promise<Client> {
  const client = server.client();
  await client.get('/api/csrf-cookie');
  return client;
}

/** Leaves for the provider: the address it redirects to, or the /login refusal. */
async function start(client: Client, query = 'provider=google'): Promise<Response> {
  return client.get(`/api/sso/start?${query}`);
}

/** The callback as the provider sent the browser back to it, on the test server's own origin. */
const onServer = (back: URL): string => {
  expect(`${back.origin}${back.pathname}`).toBe(CALLBACK);
  return `${back.pathname}${back.search}`;
};

/** The whole flow for `who`: start, the provider, the callback; the callback's answer. */
async function signInThroughProvider(client: Client, who: TestAccount, query?: string): Promise<Response> {
  const left = await start(client, query);
  expect(left.status).toBe(302);
  const location = left.headers.get('location')!;
  expect(location.startsWith(`${provider.issuer}/`), location).toBe(true);
  provider.signInAs(who);
  const back = await provider.walk(location);
  return client.get(onServer(back));
}

const refusalOf = (res: Response): string | null => {
  expect(res.status).toBe(302);
  const location = new URL(res.headers.get('location')!, 'http://x');
  expect(location.pathname).toBe('/login');
  return location.searchParams.get('sso');
};

async function sessionCount(email: string): Promise<number> {
  const rows = await server.db
    .select({ id: sessions.id })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(users.email, email));
  return rows.length;
}

beforeAll(async () => {
  server = await startServer({ config: { publicUrl: PUBLIC_URL } });
  provider = await startProvider(CALLBACK);
});
afterAll(async () => {
  await provider?.close();
  await server?.close();
});

describe('the school’s provider settings', () => {
  it('is for signed-in administrators of the school only', async () => {
    expect((await server.client().get('/api/sso/settings')).status).toBe(401);
    const teacher = await as(TEACHER);
    const res = await teacher.get('/api/sso/settings');
    expect(res.status).toBe(403);
    expect(((await res.json()) as ApiError).message).toBe(
      'Solo la administración de la institución puede configurar el ingreso con Google o Microsoft.',
    );
    expect((await put(await as(DIRECTOR), settingsBody())).status).toBe(403);
  });

  it('starts empty, with the redirect URI to register at the provider', async () => {
    const res = await (await as(ELQUI_ADMIN)).get('/api/sso/settings');
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: SsoSettings }).data).toEqual({
      provider: 'google',
      issuer: '',
      client_id: '',
      has_secret: false,
      domain: '',
      enabled: false,
      redirect_uri: 'https://hermes.sanandres.example/api/sso/callback',
    });
  });

  it('refuses bad input field by field, in Spanish', async () => {
    const res = await put(await as(ADMIN), {
      provider: 'yahoo',
      issuer: 'http://accounts.example.com',
      client_id: '',
      domain: 'no es un dominio',
      enabled: 'sí',
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as ApiError).errors).toEqual({
      provider: ['Elige Google, Microsoft u otro proveedor.'],
      issuer: ['La URL del emisor debe empezar con https:// y no llevar parámetros ni fragmento.'],
      client_id: ['Escribe el identificador de cliente (client ID) que te dio el proveedor.'],
      client_secret: ['Escribe el secreto de cliente (client secret) que te dio el proveedor.'],
      domain: ['El dominio no es válido: escribe solo la parte después de la @, por ejemplo colegio.cl.'],
      enabled: ['Indica si el ingreso con el proveedor está activado.'],
    });
    const empty = await put(await as(ADMIN), null);
    expect(((await empty.json()) as ApiError).errors).toMatchObject({ issuer: ['Escribe la URL del emisor (issuer) del proveedor.'] });
  });

  it('stores the secret but never answers it; an absent secret keeps the stored one', async () => {
    const admin = await as(ADMIN);
    const saved = await put(admin, settingsBody({ domain: '@SanAndres.cl' }));
    const savedText = await saved.text();
    expect(saved.status, savedText).toBe(200);
    expect(savedText).not.toContain(provider.clientSecret);
    expect((JSON.parse(savedText) as { data: SsoSettings }).data).toEqual({
      provider: 'google',
      issuer: provider.issuer,
      client_id: 'hermes-test',
      has_secret: true,
      domain: 'sanandres.cl',
      enabled: true,
      redirect_uri: CALLBACK,
    });
    const kept = await put(admin, settingsBody({ client_secret: undefined }));
    const keptText = await kept.text();
    expect(kept.status).toBe(200);
    expect(keptText).not.toContain(provider.clientSecret);
    expect((JSON.parse(keptText) as { data: SsoSettings }).data.has_secret).toBe(true);
    const read = await (await admin.get('/api/sso/settings')).text();
    expect(read).not.toContain(provider.clientSecret);
    // Another school's administrator sees their own (empty) settings, not these.
    const elqui = (await (await (await as(ELQUI_ADMIN)).get('/api/sso/settings')).json()) as { data: SsoSettings };
    expect(elqui.data.client_id).toBe('');
  });

  it('tells the login page which providers are on, to anyone', async () => {
    const res = await server.client().get('/api/sso/providers');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: ['google'] });
  });
});

describe('signing in through the provider', () => {
  it('signs a staff member in as /api/login does, and notes the sign-in', async () => {
    const client = await browser();
    const before = await sessionCount(TEACHER);
    const res = await signInThroughProvider(client, account(TEACHER));
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/');
    for (const name of [COOKIE.session, COOKIE.refresh, COOKIE.tokenExpiration, COOKIE.refreshExpiration, COOKIE.xsrf]) {
      expect(client.jar.has(name), name).toBe(true);
    }
    expect(await sessionCount(TEACHER)).toBe(before + 1);
    const me = await client.get('/api/user');
    expect(me.status).toBe(200);
    expect(((await me.json()) as SignedIn).user.email).toBe(TEACHER);
    const [row] = await server.db.select({ at: users.lastSignInAt }).from(users).where(eq(users.email, TEACHER));
    expect(Date.now() - row!.at!.getTime()).toBeLessThan(60_000);
  });

  it('typing the e-mail first sends it to the provider as a hint', async () => {
    const left = await start(await browser(), `provider=google&email=${encodeURIComponent(TEACHER)}`);
    const url = new URL(left.headers.get('location')!);
    expect(url.searchParams.get('login_hint')).toBe(TEACHER);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('state')).toBeTruthy();
    expect(url.searchParams.get('nonce')).toBeTruthy();
    expect(url.searchParams.get('redirect_uri')).toBe(CALLBACK);
  });

  it('lets an invited person in, which accepts their invitation', async () => {
    const admin = await as(ADMIN);
    const invited = await admin.post('/api/staff/invitations', {
      people: [{ name: 'Rosa Invitada', email: 'rosa.invitada@sanandres.cl', role: 'docente' }],
    });
    const [outcome] = ((await invited.json()) as { data: InviteOutcome[] }).data;
    expect(outcome?.outcome).toBe('invited');
    const client = await browser();
    const res = await signInThroughProvider(client, account('rosa.invitada@sanandres.cl'));
    expect(res.headers.get('location')).toBe('/');
    const [user] = await server.db
      .select({ id: users.id, status: users.status })
      .from(users)
      .where(eq(users.email, 'rosa.invitada@sanandres.cl'));
    expect(user!.status).toBe('active');
    const changes = await server.db
      .select({ action: userChanges.action, actor: userChanges.actorUserId, detail: userChanges.detail })
      .from(userChanges)
      .where(eq(userChanges.subjectUserId, user!.id))
      .orderBy(asc(userChanges.id));
    expect(changes.map((c) => c.action)).toEqual(['invited', 'invitation.accepted']);
    expect(changes[1]).toMatchObject({ actor: user!.id, detail: { via: 'sso' } });
  });

  it('refuses an e-mail the provider does not say is verified', async () => {
    const client = await browser();
    expect(refusalOf(await signInThroughProvider(client, account(TEACHER, false)))).toBe('unverified');
    expect(client.jar.has(COOKIE.session)).toBe(false);
  });

  it('refuses an e-mail of another domain, even a real account of another school', async () => {
    const client = await browser();
    expect(refusalOf(await signInThroughProvider(client, account('docente@liceoelqui.cl')))).toBe('domain');
    expect(client.jar.has(COOKIE.session)).toBe(false);
  });

  it('refuses a person of the domain without an account, and creates none', async () => {
    const client = await browser();
    expect(refusalOf(await signInThroughProvider(client, account('nadie@sanandres.cl')))).toBe('unknown');
    expect(await server.db.select().from(users).where(eq(users.email, 'nadie@sanandres.cl'))).toEqual([]);
  });

  it('refuses a deactivated person', async () => {
    await server.db.update(users).set({ status: 'deactivated' }).where(eq(users.email, 'utp@sanandres.cl'));
    const client = await browser();
    expect(refusalOf(await signInThroughProvider(client, account('utp@sanandres.cl')))).toBe('unknown');
    expect(await sessionCount('utp@sanandres.cl')).toBe(0);
  });

  it('refuses a tampered state, and an answer meant for another browser', async () => {
    const client = await browser();
    const left = await start(client);
    provider.signInAs(account(TEACHER));
    const back = await provider.walk(left.headers.get('location')!);
    const tampered = new URL(back);
    tampered.searchParams.set('state', `${back.searchParams.get('state')}x`);
    expect(refusalOf(await client.get(onServer(tampered)))).toBe('failed');
    // Someone else's browser opening this browser's answer (a login CSRF) has no state cookie.
    const other = await browser();
    const left2 = await start(client);
    provider.signInAs(account(TEACHER));
    const back2 = await provider.walk(left2.headers.get('location')!);
    expect(refusalOf(await other.get(onServer(back2)))).toBe('failed');
    expect(other.jar.has(COOKIE.session)).toBe(false);
  });

  it('refuses a replayed code, with the same state or a fresh one', async () => {
    const client = await browser();
    const left = await start(client);
    provider.signInAs(account(TEACHER));
    const back = await provider.walk(left.headers.get('location')!);
    const stateCookie = client.jar.get('hermes_sso_state')!;
    expect((await client.get(onServer(back))).headers.get('location')).toBe('/');
    // The same answer again, with the browser's state cookie put back: the state was used up.
    const replay = server.client();
    replay.jar.set('hermes_sso_state', stateCookie);
    expect(refusalOf(await replay.get(onServer(back)))).toBe('failed');
    // The code under a fresh, valid state: the provider refuses a code it already exchanged.
    const fresh = await browser();
    const left2 = await start(fresh);
    const state2 = new URL(left2.headers.get('location')!).searchParams.get('state')!;
    const forged = new URL(back);
    forged.searchParams.set('state', state2);
    expect(refusalOf(await fresh.get(onServer(forged)))).toBe('failed');
    expect(fresh.jar.has(COOKIE.session)).toBe(false);
  });

  it('sends an unknown provider and one no school uses back to the login page', async () => {
    expect(refusalOf(await start(await browser(), 'provider=yahoo'))).toBe('unavailable');
    expect(refusalOf(await start(await browser(), 'provider=microsoft'))).toBe('unavailable');
  });

  it('needs the e-mail of the school’s domain when one was typed', async () => {
    expect(refusalOf(await start(await browser(), 'provider=google&email=alguien%40gmail.com'))).toBe('domain');
  });

  it('with two schools on the same provider, picks the school by the e-mail’s domain, or asks for the e-mail', async () => {
    const elqui = await as(ELQUI_ADMIN);
    expect((await put(elqui, settingsBody({ domain: 'liceoelqui.cl' }))).status).toBe(200);
    try {
      expect(refusalOf(await start(await browser()))).toBe('email_needed');
      const client = await browser();
      const res = await signInThroughProvider(client, account('docente@liceoelqui.cl'), 'provider=google&email=docente%40liceoelqui.cl');
      expect(res.headers.get('location')).toBe('/');
      expect(((await (await client.get('/api/user')).json()) as SignedIn).user.email).toBe('docente@liceoelqui.cl');
      // San Andrés' provider refuses Elqui's people: the e-mail's domain picks the school, the answer decides.
      const other = await browser();
      const refused = await signInThroughProvider(
        other,
        account('docente@liceoelqui.cl'),
        `provider=google&email=${encodeURIComponent(TEACHER)}`,
      );
      expect(refusalOf(refused)).toBe('domain');
    } finally {
      expect((await put(elqui, settingsBody({ domain: 'liceoelqui.cl', enabled: false }))).status).toBe(200);
    }
  });

  it('limits the flow per IP', async () => {
    const limited = await server.sibling({ config: { publicUrl: PUBLIC_URL, ssoPerIp: 2 } });
    await server.db.delete(rateLimitHits).where(and(eq(rateLimitHits.scope, 'sso-ip')));
    const client = limited.client();
    expect((await client.get('/api/sso/start?provider=google')).status).toBe(302);
    expect(refusalOf(await client.get('/api/sso/start?provider=yahoo'))).toBe('unavailable');
    expect(refusalOf(await client.get('/api/sso/start?provider=google'))).toBe('throttled');
    expect(refusalOf(await client.get('/api/sso/callback?state=x&code=y'))).toBe('throttled');
    await server.db.delete(rateLimitHits).where(eq(rateLimitHits.scope, 'sso-ip'));
  });

  it('stops offering the provider once the school switches it off', async () => {
    expect((await put(await as(ADMIN), settingsBody({ enabled: false, client_secret: null }))).status).toBe(200);
    expect(await (await server.client().get('/api/sso/providers')).json()).toEqual({ data: [] });
    expect(refusalOf(await start(await browser()))).toBe('unavailable');
  });
});
