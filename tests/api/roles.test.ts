// requireRole (server/http/roles.ts): after requireAuth, a signed-in user without one of the roles gets 403
// `auth.forbidden`; with one, the handler runs; without a session it is still 401. Checked on the real
// signature route and on a probe app using the role lists of shared/codes.ts, with the seeded demo users.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { ADMIN_ROLES, NEWSFEED_ROLES } from '../../shared/codes';
import type { Signature } from '../../shared/signature-contract';
import type { ApiError } from '../../shared/contract';
import { userRoles, users } from '../../server/db/schema/auth';
import { requireAuth } from '../../server/http/auth';
import type { AppEnv } from '../../server/http/env';
import { requireRole } from '../../server/http/roles';
import { signedIn, startServer, type Client, type TestServer } from './support/server';

const FORBIDDEN = { code: 'auth.forbidden', message: 'No tienes permiso para realizar esta acción.' };
const SIGNATURE_FORBIDDEN = { code: 'auth.forbidden', message: 'No tienes permiso para modificar la firma de la institución.' };
const UNAUTHENTICATED = { code: 'auth.unauthenticated', message: 'No autenticado.' };
const WALL_MESSAGE = 'No tienes permiso para administrar el mural.';

let server: TestServer;
/** A signed-in client per demo e-mail, signed in once. */
const as = signedIn(() => server);

/** Routes guarded the way the next screens will be, answering who passed. */
function probeApp(): Hono<AppEnv> {
  const probe = new Hono<AppEnv>();
  const auth = requireAuth(server.db);
  probe.get('/admin', auth, requireRole(...ADMIN_ROLES), (c) => c.json({ data: { userId: c.var.auth.userId } }));
  probe.get('/wall', auth, requireRole(...NEWSFEED_ROLES).withMessage(WALL_MESSAGE), (c) => c.json({ data: { ok: true } }));
  // Wired wrong on purpose: no requireAuth in front.
  probe.get('/unwired', requireRole(...ADMIN_ROLES), (c) => c.json({ data: { ok: true } }));
  probe.onError((_err, c) => c.json({ code: 'server.error' }, 500));
  return probe;
}

/** The probe app in-process, with the client's session cookies. */
async function probe(path: string, client?: Client): Promise<{ status: number; body: unknown }> {
  const cookie = client ? [...client.jar].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ') : '';
  const res = await probeApp().request(path, { headers: cookie ? { Cookie: cookie } : {} });
  return { status: res.status, body: await res.json() };
}

const patchSignature = (client: Client, id: number, body: unknown) =>
  client.fetch(`/api/institutions-signatures/${id}`, {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

describe('requireRole on PATCH /api/institutions-signatures/:id (ADMIN_ROLES)', () => {
  async function sanAndresSignature(): Promise<Signature> {
    const res = await (await as('docente@sanandres.cl')).get('/api/institutions-signatures');
    return ((await res.json()) as { data: Signature[] }).data[0]!;
  }

  it('answers 403 with the route’s own message to a teacher and changes nothing', async () => {
    const before = await sanAndresSignature();
    for (const email of ['docente@sanandres.cl', 'docente.latam@sanandres.cl']) {
      const res = await patchSignature(await as(email), before.id, { signature: 'XYZ', is_active: 1 });
      expect(res.status, email).toBe(403);
      expect(await res.json()).toEqual(SIGNATURE_FORBIDDEN);
    }
    expect(await sanAndresSignature()).toEqual(before);
  });

  it('lets every admin role through', async () => {
    const sig = await sanAndresSignature();
    for (const [email, text] of [
      ['administrador@sanandres.cl', 'ADM'],
      ['directora@sanandres.cl', 'DIR'],
      ['utp@sanandres.cl', 'UTP'],
      ['corp.utp@sanandres.cl', 'CORP'],
    ] as const) {
      const res = await patchSignature(await as(email), sig.id, { signature: text, is_active: sig.is_active ? 1 : 0 });
      expect(res.status, email).toBe(200);
      expect(await res.json()).toEqual({ data: { ...sig, signature: text } });
    }
    await patchSignature(await as('administrador@sanandres.cl'), sig.id, { signature: sig.signature, is_active: sig.is_active ? 1 : 0 });
  });

  it('answers 401, not 403, without a session: auth comes first', async () => {
    const anonymous = server.client();
    await anonymous.get('/api/csrf-cookie');
    const res = await patchSignature(anonymous, 1, { signature: 'ABC', is_active: 1 });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual(UNAUTHENTICATED);
  });
});

describe('requireRole on a probe route', () => {
  it('lets ADMIN_ROLES through and answers 403 with the generic message to a teacher', async () => {
    for (const email of ['administrador@sanandres.cl', 'directora@sanandres.cl', 'utp@sanandres.cl', 'corp.utp@sanandres.cl']) {
      const { status } = await probe('/admin', await as(email));
      expect(status, email).toBe(200);
    }
    for (const email of ['docente@sanandres.cl', 'docente@benitojuarez.edu.mx']) {
      expect(await probe('/admin', await as(email)), email).toEqual({ status: 403, body: FORBIDDEN });
    }
  });

  it('answers 401 without a session', async () => {
    expect(await probe('/admin')).toEqual({ status: 401, body: UNAUTHENTICATED });
    expect(await probe('/wall')).toEqual({ status: 401, body: UNAUTHENTICATED });
  });

  it('uses the role list it is given, with a message per use', async () => {
    expect((await probe('/wall', await as('utp@sanandres.cl'))).status).toBe(200);
    // corp-utp is an admin role but does not manage the news wall.
    expect(await probe('/wall', await as('corp.utp@sanandres.cl'))).toEqual({
      status: 403,
      body: { code: 'auth.forbidden', message: WALL_MESSAGE } satisfies ApiError,
    });
  });

  it('reads the roles with the session, so a role taken away counts at the next request', async () => {
    const client = await as('directora@sanandres.cl');
    const [user] = await server.db.select({ id: users.id }).from(users).where(eq(users.email, 'directora@sanandres.cl'));
    const mine = and(eq(userRoles.userId, user!.id), eq(userRoles.code, 'colegio-director'));
    const [role] = await server.db.select().from(userRoles).where(mine);
    await server.db.delete(userRoles).where(mine);
    try {
      expect(await probe('/admin', client)).toEqual({ status: 403, body: FORBIDDEN });
    } finally {
      await server.db.insert(userRoles).values(role!);
    }
    expect((await probe('/admin', client)).status).toBe(200);
  });

  it('fails closed when requireAuth is missing in front of it', async () => {
    expect((await probe('/unwired', await as('administrador@sanandres.cl'))).status).toBe(500);
  });
});
