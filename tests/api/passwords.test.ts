// Passwords: the forgotten password's link by e-mail (same answer for any address, limits per address and per
// IP, one use within an hour, the rule, every session ended), the change while signed in, and the upgrade of
// an older hash at sign-in. Expectations are written here from decisions 0162 and 0166–0168.
import { randomBytes, scryptSync } from 'node:crypto';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../shared/demo';
import { users } from '../../server/db/schema/auth';
import { passwordResets } from '../../server/db/schema/passwords';
import { readOutbox, resetLinkIn, type Mail } from '../fixtures/eml';
import { startServer, type Client, type TestServer } from './support/server';
import { eventually } from './support/wait';

let server: TestServer;
/** The same server trusting X-Forwarded-For, so each test can speak from its own client IP. */
let proxied: { url: string; client(): Client; close(): Promise<void> };
beforeAll(async () => {
  server = await startServer();
  proxied = await server.sibling({ config: { trustProxy: true } });
});
afterAll(async () => {
  await proxied?.close();
  await server?.close();
});

const NEW_PASSWORD = 'girasol tetera volcán 42';
const SUBJECT = 'Restablece tu contraseña de Hermes';

let ips = 0;
/** A client IP no other test uses. */
const freshIp = () => `203.0.113.${++ips}`;

async function askReset(email: string, ip = freshIp()): Promise<Response> {
  const client = proxied.client();
  await client.get('/api/csrf-cookie', { headers: { 'X-Forwarded-For': ip } });
  return client.post('/api/password-resets', { email }, { headers: { 'X-Forwarded-For': ip } });
}

const mailsTo = async (email: string): Promise<Mail[]> => (await readOutbox(server.outboxDir)).filter((m) => m.to.includes(email));

/** Asks a link for `email` and waits for its e-mail: the link's path (`/reset-password/<token>`). */
async function resetLinkFor(email: string): Promise<string> {
  const before = (await mailsTo(email)).length;
  expect((await askReset(email)).status).toBe(202);
  const mails = await eventually(
    `correo a ${email}`,
    () => mailsTo(email),
    (m) => m.length === before + 1,
  );
  const link = resetLinkIn(mails.at(-1)!);
  expect(link).not.toBeNull();
  return link!;
}

const tokenOf = (link: string) => link.split('/').at(-1)!;

async function signedInClient(email: string, password = DEMO_PASSWORD): Promise<Client> {
  const client = server.client();
  const res = await client.login(email, password);
  expect(res.status, `${email} inicia sesión`).toBe(200);
  return client;
}

/** The stored hash of a user who has a password (every one these tests sign in). */
async function storedHash(email: string): Promise<string> {
  const [row] = await server.db.select({ hash: users.passwordHash }).from(users).where(eq(users.email, email));
  if (!row?.hash) throw new Error(`${email} has no password`);
  return row.hash;
}

describe('POST /api/password-resets', () => {
  it('answers the same for an account, an unknown address and a user without access; only the account gets a link', async () => {
    const answers = [];
    for (const email of ['utp@sanandres.cl', 'nadie.aqui@sanandres.cl', 'sinacceso@sanandres.cl']) {
      const res = await askReset(email);
      answers.push({ status: res.status, body: await res.json() });
    }
    expect(answers).toEqual(Array(3).fill({ status: 202, body: { data: { ok: true } } }));
    const [mail] = await eventually(
      'el correo',
      () => mailsTo('utp@sanandres.cl'),
      (m) => m.length === 1,
    );
    expect(mail!.subject).toBe(SUBJECT);
    expect(mail!.text).toContain('Hola, Claudia Andrea Sepúlveda Rojas:');
    expect(mail!.text).toMatch(/http:\/\/localhost:3000\/reset-password\/[A-Za-z0-9_-]{43}\s/);
    expect(mail!.text).toContain('durante 1 hora');
    // The other two got nothing (their lookups ran with the first's, long finished by now).
    expect(await mailsTo('nadie.aqui@sanandres.cl')).toEqual([]);
    expect(await mailsTo('sinacceso@sanandres.cl')).toEqual([]);
    // Only the token's hash is kept.
    const rows = await server.db.select({ hash: passwordResets.tokenHash }).from(passwordResets);
    expect(rows.map((r) => r.hash)).not.toContain(tokenOf(resetLinkIn(mail!)!));
  });

  it('answers before any e-mail is sent: a mail server that never speaks does not hold the answer back', async () => {
    // An SMTP server that accepts the connection and says nothing (nodemailer waits 10 s for its greeting).
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const mute = await server.sibling({
      config: { trustProxy: true, smtpUrl: `smtp://127.0.0.1:${(silent.address() as AddressInfo).port}` },
    });
    try {
      for (const email of ['docente@sanandres.cl', 'nadie.mas@sanandres.cl']) {
        const client = mute.client();
        const ip = freshIp();
        await client.get('/api/csrf-cookie', { headers: { 'X-Forwarded-For': ip } });
        const started = performance.now();
        const res = await client.post('/api/password-resets', { email }, { headers: { 'X-Forwarded-For': ip } });
        expect({ status: res.status, body: await res.json() }).toEqual({ status: 202, body: { data: { ok: true } } });
        expect(performance.now() - started, email).toBeLessThan(3000);
      }
      // The account's e-mail was under way (its connection open) when the answer came.
      await eventually(
        'la conexión SMTP',
        () => sockets.size,
        (n) => n > 0,
      );
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
      await mute.close();
    }
  });

  it('refuses a missing or malformed address in Spanish', async () => {
    const client = server.client();
    await client.get('/api/csrf-cookie');
    const missing = await client.post('/api/password-resets', {});
    expect(missing.status).toBe(422);
    expect(((await missing.json()) as { errors: unknown }).errors).toEqual({ email: ['El correo electrónico es obligatorio.'] });
    const bad = await client.post('/api/password-resets', { email: 'no es correo' });
    expect(((await bad.json()) as { errors: unknown }).errors).toEqual({ email: ['El correo electrónico no es válido.'] });
  });

  it('limits one address to 3 links an hour, whichever IPs ask, existing or not', async () => {
    for (const email of ['corp.utp@sanandres.cl', 'inventado@sanandres.cl']) {
      for (let i = 0; i < 3; i++) expect((await askReset(email)).status).toBe(202);
      const fourth = await askReset(email.toUpperCase());
      expect(fourth.status).toBe(429);
      expect(Number(fourth.headers.get('Retry-After'))).toBeGreaterThan(3500);
      expect(((await fourth.json()) as { message: string }).message).toBe('Demasiadas solicitudes. Inténtalo de nuevo en 60 minutos.');
    }
    await eventually(
      'tres correos',
      () => mailsTo('corp.utp@sanandres.cl'),
      (m) => m.length === 3,
    );
  });

  it('limits one IP to 20 asks an hour, whichever the addresses', async () => {
    const ip = freshIp();
    for (let i = 0; i < 20; i++) expect((await askReset(`persona${i}@ejemplo.cl`, ip)).status).toBe(202);
    expect((await askReset('otra.persona@ejemplo.cl', ip)).status).toBe(429);
    // Another IP may still ask for that address.
    expect((await askReset('otra.persona@ejemplo.cl')).status).toBe(202);
  });
});

describe('the reset link', () => {
  it('says who it is for, refuses a weak password with the reason, then sets it once and ends every session', async () => {
    const email = 'directora@sanandres.cl';
    const before = await signedInClient(email);
    const older = await resetLinkFor(email);
    const link = await resetLinkFor(email);
    const api = `/api/password-resets/${tokenOf(link)}`;

    const check = await server.client().get(api);
    expect(check.status).toBe(200);
    expect(await check.json()).toEqual({
      data: { name: 'María Isabel Núñez Peña', email, school: 'Colegio San Andrés de Ñuñoa' },
    });

    const client = server.client();
    await client.get('/api/csrf-cookie');
    for (const [password, reason] of [
      ['corta', 'La contraseña debe tener al menos 10 caracteres.'],
      ['mariaisabel2024', 'La contraseña no puede basarse en tu nombre, tu correo o el nombre de tu institución.'],
      ['password123', 'Esa contraseña es muy común y fácil de adivinar. Elige otra, por ejemplo una frase de varias palabras.'],
    ] as const) {
      const res = await client.post(api, { password });
      expect(res.status, password).toBe(422);
      expect(((await res.json()) as { errors: unknown }).errors).toEqual({ password: [reason] });
    }
    // Refusals do not use the link.
    expect((await server.client().get(api)).status).toBe(200);

    const done = await client.post(api, { password: NEW_PASSWORD });
    expect(done.status).toBe(200);
    expect(await done.json()).toEqual({ data: { ok: true } });
    // Nobody was signed in by it, and the session from before has ended.
    expect((await client.get('/api/user')).status).toBe(401);
    expect((await before.get('/api/user')).status).toBe(401);

    expect((await server.client().login(email, DEMO_PASSWORD)).status).toBe(401);
    await signedInClient(email, NEW_PASSWORD);

    // Used: that link and the older one of the same user say so, and set nothing.
    for (const used of [api, `/api/password-resets/${tokenOf(older)}`]) {
      const again = await server.client().get(used);
      expect(again.status).toBe(410);
      expect(await again.json()).toEqual({
        code: 'password_reset.used',
        message: 'Este enlace ya se usó. Si necesitas cambiar tu contraseña otra vez, pide uno nuevo.',
      });
      const reuse = await client.post(used, { password: 'otra frase distinta 77' });
      expect(reuse.status).toBe(410);
    }
    await signedInClient(email, NEW_PASSWORD);
  });

  it('stops working after an hour', async () => {
    const email = 'docente.latam@sanandres.cl';
    const link = await resetLinkFor(email);
    const created = (await server.db.select().from(passwordResets).orderBy(passwordResets.id)).at(-1)!;
    expect(created.expiresAt.getTime() - created.createdAt.getTime()).toBe(3600_000);
    // As if sent an hour and a second ago.
    await server.db
      .update(passwordResets)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordResets.id, created.id));
    const api = `/api/password-resets/${tokenOf(link)}`;
    const check = await server.client().get(api);
    expect(check.status).toBe(410);
    expect(await check.json()).toEqual({
      code: 'password_reset.expired',
      message: 'Este enlace venció: funciona durante 1 hora. Pide uno nuevo desde «¿Olvidaste tu contraseña?».',
    });
    const client = server.client();
    await client.get('/api/csrf-cookie');
    expect((await client.post(api, { password: NEW_PASSWORD })).status).toBe(410);
    await signedInClient(email, DEMO_PASSWORD);
  });

  it('answers 404 to a token that was never sent', async () => {
    const res = await server.client().get(`/api/password-resets/${randomBytes(32).toString('base64url')}`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { code: string }).code).toBe('password_reset.invalid');
  });
});

describe('PUT /api/user/password', () => {
  it('asks for a session', async () => {
    const client = server.client();
    await client.get('/api/csrf-cookie');
    const res = await client.fetch('/api/user/password', {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ current_password: DEMO_PASSWORD, password: NEW_PASSWORD }),
    });
    expect(res.status).toBe(401);
  });

  const change = (client: Client, body: Record<string, unknown>) =>
    client.fetch('/api/user/password', { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

  it('refuses a wrong current password, a weak or unchanged new one, then changes it and ends only the other sessions', async () => {
    const email = 'docente@liceoelqui.cl';
    const other = await signedInClient(email);
    const client = await signedInClient(email);

    const empty = await change(client, {});
    expect(empty.status).toBe(422);
    expect(((await empty.json()) as { errors: unknown }).errors).toEqual({
      current_password: ['La contraseña actual es obligatoria.'],
      password: ['La contraseña es obligatoria.'],
    });
    const wrong = await change(client, { current_password: 'no es esta', password: NEW_PASSWORD });
    expect(wrong.status).toBe(422);
    expect(((await wrong.json()) as { errors: unknown }).errors).toEqual({ current_password: ['La contraseña actual no es correcta.'] });
    const weak = await change(client, { current_password: DEMO_PASSWORD, password: 'liceo elqui' });
    expect(((await weak.json()) as { errors: unknown }).errors).toEqual({
      password: ['La contraseña no puede basarse en tu nombre, tu correo o el nombre de tu institución.'],
    });
    const same = await change(client, { current_password: DEMO_PASSWORD, password: DEMO_PASSWORD });
    expect(((await same.json()) as { errors: unknown }).errors).toEqual({
      password: ['La nueva contraseña debe ser distinta de la actual.'],
    });
    expect((await other.get('/api/user')).status).toBe(200);

    const done = await change(client, { current_password: DEMO_PASSWORD, password: NEW_PASSWORD });
    expect(done.status).toBe(200);
    expect((await client.get('/api/user')).status).toBe(200);
    expect((await other.get('/api/user')).status).toBe(401);
    expect((await server.client().login(email, DEMO_PASSWORD)).status).toBe(401);
    await signedInClient(email, NEW_PASSWORD);
  });

  it('counts wrong current passwords with the failed sign-ins of that address and IP', async () => {
    const email = 'administrador@liceoelqui.cl';
    const client = await signedInClient(email);
    // The login limit is 5 failures a minute per e-mail and IP: 3 wrong current passwords and 2 wrong sign-ins.
    for (let i = 0; i < 3; i++) expect((await change(client, { current_password: `mala ${i}`, password: NEW_PASSWORD })).status).toBe(422);
    for (let i = 0; i < 2; i++) expect((await server.client().login(email, `mala ${i}`)).status).toBe(401);
    const sixth = await change(client, { current_password: DEMO_PASSWORD, password: NEW_PASSWORD });
    expect(sixth.status).toBe(429);
    expect(Number(sixth.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect((await server.client().login(email)).status).toBe(429);
  });
});

describe('hash cost', () => {
  /** A hash as the server wrote them before (scrypt N=2^14, r=8, p=1), computed here by hand. */
  function oldHash(password: string): string {
    const salt = randomBytes(16);
    const key = scryptSync(password.normalize('NFC'), salt, 32, { N: 2 ** 14, r: 8, p: 1 });
    return ['scrypt', 16384, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
  }

  it('stores a hash of the old cost again at N=2^17, r=8, p=1 at the next successful sign-in, not at a failed one', async () => {
    const email = 'docente@benitojuarez.edu.mx';
    const old = oldHash(DEMO_PASSWORD);
    await server.db.update(users).set({ passwordHash: old }).where(eq(users.email, email));

    expect((await server.client().login(email, 'equivocada')).status).toBe(401);
    expect(await storedHash(email)).toBe(old);

    await signedInClient(email);
    const upgraded = await storedHash(email);
    const [scheme, n, r, p, salt, key] = upgraded.split('$');
    expect({ scheme, n, r, p }).toEqual({ scheme: 'scrypt', n: '131072', r: '8', p: '1' });
    // Checked here with node's scrypt, not with the server's module.
    const expected = scryptSync(DEMO_PASSWORD, Buffer.from(salt!, 'base64url'), 32, { N: 2 ** 17, r: 8, p: 1, maxmem: 256 * 1024 * 1024 });
    expect(Buffer.from(key!, 'base64url').equals(expected)).toBe(true);

    // Signing in again keeps it.
    await signedInClient(email);
    expect(await storedHash(email)).toBe(upgraded);
  });

  it("a new password is stored at today's cost", async () => {
    expect((await storedHash('directora@sanandres.cl')).startsWith('scrypt$131072$8$1$')).toBe(true);
  });
});
