// Invitations (shared/staff-contract.ts) against the real server: an administrator invites one person or
// many, each gets an e-mail (read from the outbox) with a one-time link valid 7 days; the link's page reads
// who it is for and sets the password by the shared rule, which signs the person in. Expired, used and
// revoked links, resend and revoke, and the record of each step.
import { and, asc, eq } from 'drizzle-orm';
import { is } from 'superstruct';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { format } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Estimate, Recipients } from '../../shared/compose-contract';
import { COOKIE, type ApiError } from '../../shared/contract';
import type {
  AcceptedInvitation,
  AcceptInvitationInput,
  InviteInput,
  InviteOutcome,
  InvitePerson,
  StaffMember,
} from '../../shared/staff-contract';
import { InvitationInfoBodyStruct, InviteOutcomesBodyStruct, ResentBodyStruct, StaffMemberStruct } from '../../shared/staff-structs';
import { sessions, userPolicies, userRoles, users } from '../../server/db/schema/auth';
import { positions } from '../../server/db/schema/school';
import { invitations, userChanges } from '../../server/db/schema/staff';
import { composeInput } from '../fixtures/compose';
import { mailsTo } from './support/outbox';
import { sendJson, userIdOf } from './support/staff';
import { signedIn, startServer, type Client, type TestServer } from './support/server';

const ADMIN = 'administrador@sanandres.cl';
const TEACHER = 'docente@sanandres.cl';
const ELQUI_ADMIN = 'administrador@liceoelqui.cl';
const PUBLIC_URL = 'https://hermes.sanandres.example';
const STRONG = 'Tortuga-Violeta-Marea-91';
const INVALID_CREDENTIALS = { code: 'auth.invalid_credentials', message: 'Estas credenciales no coinciden con nuestros registros.' };
const USED = { code: 'invitation.used', message: 'Este enlace de invitación ya se usó. Inicia sesión con tu correo y contraseña.' };
const REVOKED = {
  code: 'invitation.revoked',
  message: 'Este enlace de invitación ya no es válido. Pide al administrador de tu institución que te envíe uno nuevo.',
};
const EXPIRED = {
  code: 'invitation.expired',
  message: 'Este enlace de invitación venció (duran 7 días). Pide al administrador de tu institución que te envíe uno nuevo.',
};

let server: TestServer;
const as = signedIn(() => server);

const send = sendJson;

const idOf = (email: string): Promise<number> => userIdOf(server.db, email);

async function changesOf(userId: number) {
  const rows = await server.db
    .select({ action: userChanges.action, actor: userChanges.actorUserId, detail: userChanges.detail })
    .from(userChanges)
    .where(eq(userChanges.subjectUserId, userId))
    .orderBy(asc(userChanges.id));
  return rows;
}

/** `POST /api/staff/invitations`; its answer checked against the contract's struct. `people` may hold rows the contract does not allow, to see them refused. */
async function invite(people: InviteInput['people'] | unknown[], client?: Client): Promise<InviteOutcome[]> {
  const res = await send(client ?? (await as(ADMIN)), 'POST', '/api/staff/invitations', { people });
  expect(res.status, await res.clone().text()).toBe(200);
  const body: unknown = await res.json();
  expect(is(body, InviteOutcomesBodyStruct)).toBe(true);
  return (body as { data: InviteOutcome[] }).data;
}

/** `POST /api/invitations/:token/accept` with the contract's body. */
const accept = (client: Client, token: string, input: AcceptInvitationInput) =>
  send(client, 'POST', `/api/invitations/${token}/accept`, input);

/** The tokens of the invitation links e-mailed to `email`, in the order the e-mails say nothing of (a set). */
async function linkTokens(email: string): Promise<string[]> {
  const mails = await mailsTo(server.outboxDir, email);
  return mails.flatMap((m) =>
    [...m.text.matchAll(/https:\/\/hermes\.sanandres\.example\/invitation\/([A-Za-z0-9_-]+)/g)].map((x) => x[1]!),
  );
}

/** A visitor of the invitation page: no session, the CSRF cookie the SPA fetches first. */
async function visitor(): Promise<Client> {
  const client = server.client();
  await client.get('/api/csrf-cookie');
  return client;
}

beforeAll(async () => {
  server = await startServer({ config: { publicUrl: PUBLIC_URL } });
});
afterAll(async () => {
  await server?.close();
});

describe('POST /api/staff/invitations', () => {
  it('invites many at once, with one outcome per person in their order', async () => {
    const outcomes = await invite([
      { name: '  Valentina   Rojas Soto ', email: ' Valentina.Rojas@SanAndres.cl ', role: 'docente' },
      { name: 'Camila Muñoz', email: TEACHER, role: 'docente' },
      { name: 'Patricia Araya', email: ELQUI_ADMIN, role: 'docente' },
      { name: 'Sin Correo', email: 'no-es-un-correo', role: 'docente' },
      { name: '', email: 'anonimo@sanandres.cl', role: 'docente' },
      { name: 'Rector Nuevo', email: 'rector@sanandres.cl', role: 'rector' },
      { name: 'Valentina Otra', email: 'valentina.rojas@sanandres.cl', role: 'docente' },
      { name: 'Tomás Pérez', email: 'tomas.perez@sanandres.cl', role: 'colegio-utp', device: 'latam' },
      { name: 'Con Equipo Raro', email: 'raro@sanandres.cl', role: 'docente', device: 'tablet' },
      'una línea',
    ]);
    const valentina = await idOf('valentina.rojas@sanandres.cl');
    const tomas = await idOf('tomas.perez@sanandres.cl');
    const expiresAt = expect.stringMatching(/Z$/);
    expect(outcomes).toEqual([
      { index: 0, email: 'valentina.rojas@sanandres.cl', outcome: 'invited', id: valentina, expires_at: expiresAt, mail_sent: true },
      { index: 1, email: TEACHER, outcome: 'member', id: await idOf(TEACHER) },
      {
        index: 2,
        email: ELQUI_ADMIN,
        outcome: 'refused',
        field: 'email',
        reason: 'Este correo ya tiene una cuenta en Hermes en otra institución. Usa otro correo.',
      },
      { index: 3, email: 'no-es-un-correo', outcome: 'refused', field: 'email', reason: 'El correo electrónico no es válido.' },
      { index: 4, email: 'anonimo@sanandres.cl', outcome: 'refused', field: 'name', reason: 'Escribe el nombre de la persona.' },
      {
        index: 5,
        email: 'rector@sanandres.cl',
        outcome: 'refused',
        field: 'role',
        reason: 'El rol debe ser administrador, director, jefe de UTP, UTP de corporación o docente.',
      },
      {
        index: 6,
        email: 'valentina.rojas@sanandres.cl',
        outcome: 'refused',
        field: 'email',
        reason: 'Este correo ya aparece más arriba en la misma invitación.',
      },
      { index: 7, email: 'tomas.perez@sanandres.cl', outcome: 'invited', id: tomas, expires_at: expiresAt, mail_sent: true },
      { index: 8, email: 'raro@sanandres.cl', outcome: 'refused', field: 'device', reason: 'El dispositivo debe ser latam o cl.' },
      { index: 9, email: '', outcome: 'refused', field: 'name', reason: 'Escribe el nombre de la persona.' },
    ]);
    // Seven days from now.
    const expiry = Date.parse((outcomes[0] as { expires_at: string }).expires_at);
    expect(Math.abs(expiry - (Date.now() + 7 * 24 * 3600_000))).toBeLessThan(60_000);

    const [row] = await server.db
      .select({ name: users.name, status: users.status, hash: users.passwordHash, device: users.device, domain: users.domain })
      .from(users)
      .where(eq(users.id, valentina));
    expect(row).toEqual({ name: 'Valentina Rojas Soto', status: 'invited', hash: null, device: 'cl', domain: 'cl' });
    const tomasPolicies = await server.db.select({ name: userPolicies.name }).from(userPolicies).where(eq(userPolicies.userId, tomas));
    expect(tomasPolicies.map((p) => p.name).sort()).toEqual([
      'hermes-acceder-sistema',
      'hermes-configurar-institucion',
      'hermes-enviar-mensajes',
      'hermes-gestionar-plantillas',
      'hermes-ver-estadisticas',
    ]);
    expect(
      await server.db.select({ code: userRoles.code, name: userRoles.name }).from(userRoles).where(eq(userRoles.userId, tomas)),
    ).toEqual([{ code: 'colegio-utp', name: 'Jefe de UTP' }]);
    // Nothing for the refused.
    for (const email of ['anonimo@sanandres.cl', 'rector@sanandres.cl', 'raro@sanandres.cl']) {
      expect(await server.db.select().from(users).where(eq(users.email, email))).toEqual([]);
    }
    const [invitation] = await server.db.select().from(invitations).where(eq(invitations.userId, valentina));
    expect(await changesOf(valentina)).toEqual([
      { action: 'invited', actor: await idOf(ADMIN), detail: { invitation_id: invitation!.id, role: 'docente', device: 'cl' } },
    ]);
    // The list shows them invited, with the link's expiry.
    const listed = await (await as(ADMIN)).get(`/api/staff/${valentina}`);
    expect(((await listed.json()) as { data: StaffMember }).data).toMatchObject({
      state: 'invited',
      invitation_state: 'pending',
      invitation_expires_at: (outcomes[0] as { expires_at: string }).expires_at,
      last_sign_in_at: null,
      access: true,
    });
  });

  it('e-mails each a link to the invitation page on the server’s public address, whose token only the e-mail holds', async () => {
    const mails = await mailsTo(server.outboxDir, 'valentina.rojas@sanandres.cl');
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail!.subject).toBe('Invitación a Hermes de Colegio San Andrés de Ñuñoa');
    expect(mail!.text).toContain('Hola, Valentina Rojas Soto:');
    expect(mail!.text).toContain('Rodrigo Andrés Fuentes Carrasco te invitó a usar Hermes, la mensajería de Colegio San Andrés de Ñuñoa');
    expect(mail!.text).toContain('El enlace sirve una sola vez y vence el');
    const tokens = await linkTokens('valentina.rojas@sanandres.cl');
    expect(tokens).toHaveLength(1);
    // Only its hash is kept.
    const stored = await server.db.select({ hash: invitations.tokenHash }).from(invitations);
    expect(stored.map((s) => s.hash)).not.toContain(tokens[0]);
  });

  it('an invited person cannot sign in yet, with any password', async () => {
    for (const password of ['', 'Hermes.2026', STRONG]) {
      const res = await server.client().login('valentina.rojas@sanandres.cl', password || 'x');
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual(INVALID_CREDENTIALS);
    }
  });

  it('answers 422 when the body is not a list of people', async () => {
    const admin = await as(ADMIN);
    const people = ['Indica al menos una persona a quien invitar.'];
    for (const body of [
      null,
      {},
      { people: [] },
      { people: 'Ana <ana@sanandres.cl>' },
      [{ name: 'Ana', email: 'ana@sanandres.cl', role: 'docente' }],
    ]) {
      const res = await send(admin, 'POST', '/api/staff/invitations', body);
      expect(res.status).toBe(422);
      expect(((await res.json()) as ApiError).errors).toEqual({ people });
    }
    const many = Array.from({ length: 501 }, (_, i) => ({ name: `Persona ${i}`, email: `p${i}@sanandres.cl`, role: 'docente' }));
    const res = await send(admin, 'POST', '/api/staff/invitations', { people: many });
    expect(res.status).toBe(422);
    expect(((await res.json()) as ApiError).errors).toEqual({ people: ['Se pueden invitar hasta 500 personas a la vez.'] });
    expect(await server.db.select().from(users).where(eq(users.email, 'p0@sanandres.cl'))).toEqual([]);
  });

  it('another school’s administrator invites into their own school, and sees this one’s invitee as taken', async () => {
    const outcomes = await invite(
      [
        { name: 'Valentina Rojas', email: 'valentina.rojas@sanandres.cl', role: 'docente' },
        { name: 'Ignacia Pizarro', email: 'ignacia.pizarro@liceoelqui.cl', role: 'docente' },
      ],
      await as(ELQUI_ADMIN),
    );
    expect(outcomes.map((o) => o.outcome)).toEqual(['refused', 'invited']);
    const [row] = await server.db
      .select({ institutionId: users.institutionId })
      .from(users)
      .where(eq(users.email, 'ignacia.pizarro@liceoelqui.cl'));
    const [elqui] = await server.db.select({ institutionId: users.institutionId }).from(users).where(eq(users.email, ELQUI_ADMIN));
    expect(row).toEqual(elqui);
    // And San Andrés does not see it.
    const res = await (await as(ADMIN)).get(`/api/staff/${await idOf('ignacia.pizarro@liceoelqui.cl')}`);
    expect(res.status).toBe(404);
  });
});

describe('the invitation page: GET /api/invitations/:token and POST …/accept', () => {
  it('reads who the link is for, without a session', async () => {
    const [token] = await linkTokens('valentina.rojas@sanandres.cl');
    const res = await server.client().get(`/api/invitations/${token}`);
    expect(res.status).toBe(200);
    const info: unknown = await res.json();
    expect(is(info, InvitationInfoBodyStruct)).toBe(true);
    expect(info).toEqual({
      data: {
        name: 'Valentina Rojas Soto',
        email: 'valentina.rojas@sanandres.cl',
        school: 'Colegio San Andrés de Ñuñoa',
        expires_at: expect.stringMatching(/Z$/),
      },
    });
  });

  it('answers 404 with a Spanish message for a link no one was sent', async () => {
    for (const token of ['A'.repeat(43), 'corto', 'a.b']) {
      const res = await server.client().get(`/api/invitations/${token}`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({
        code: 'not_found',
        message: 'Este enlace de invitación no existe. Revisa que lo hayas copiado completo.',
      });
    }
    const res = await send(await visitor(), 'POST', `/api/invitations/${'A'.repeat(43)}/accept`, { password: STRONG });
    expect(res.status).toBe(404);
  });

  it('refuses passwords the rule refuses, with its reason, and keeps the link', async () => {
    const [token] = await linkTokens('valentina.rojas@sanandres.cl');
    const client = await visitor();
    for (const [body, message] of [
      [{ password: 'corta' }, 'La contraseña debe tener al menos 10 caracteres.'],
      [{ password: 'valentinarojas2026' }, 'La contraseña no puede basarse en tu nombre, tu correo o el nombre de tu institución.'],
      [{ password: 'sanandres2026!' }, 'La contraseña no puede basarse en tu nombre, tu correo o el nombre de tu institución.'],
      [{ password: 'x'.repeat(65) }, 'La contraseña puede tener como máximo 64 caracteres.'],
      [{ password: 'x'.repeat(2000) }, 'La contraseña puede tener como máximo 64 caracteres.'],
      [{ password: '' }, 'Escribe una contraseña.'],
      [{}, 'Escribe una contraseña.'],
      [null, 'Escribe una contraseña.'],
    ] as const) {
      const res = await send(client, 'POST', `/api/invitations/${token}/accept`, body);
      expect([body, res.status]).toEqual([body, 422]);
      expect(((await res.json()) as ApiError).errors).toEqual({ password: [message] });
    }
    expect(client.jar.has(COOKIE.session)).toBe(false);
    expect((await server.client().get(`/api/invitations/${token}`)).status).toBe(200);
  });

  it('sets the password, activates the account and signs the person in as a login does', async () => {
    const [token] = await linkTokens('valentina.rojas@sanandres.cl');
    const client = await visitor();
    const id = await idOf('valentina.rojas@sanandres.cl');
    const res = await accept(client, token!, { password: STRONG });
    expect(res.status).toBe(200);
    const body = (await res.json()) as AcceptedInvitation;
    expect(body.user).toMatchObject({ id, email: 'valentina.rojas@sanandres.cl', person: { name: 'Valentina Rojas Soto' } });
    expect(body.user.roles).toEqual([{ codigo: 'docente', nombre: 'Docente' }]);
    expect(body.policies).toContain('hermes-acceder-sistema');
    expect(body.data.token_expires_at).toBeGreaterThan(Date.now());
    expect(client.jar.has(COOKIE.session)).toBe(true);
    expect((await client.get('/api/user')).status).toBe(200);
    // CSRF token for the new session: a write goes through.
    expect((await send(client, 'POST', '/api/templates', { name: 'Bienvenida', content: 'Hola a todos.' })).status).toBe(201);
    // The channels a seeded teacher of the school may send by, not none.
    const permission = async (who: Client) =>
      ((await (await who.get('/api/communication-permission/user')).json()) as { data: unknown }).data;
    const granted = await permission(client);
    expect(granted).toEqual(await permission(await as(TEACHER)));
    expect(JSON.stringify(granted)).toContain('"enabled":true');

    const member = (await (await (await as(ADMIN)).get(`/api/staff/${id}`)).json()) as { data: StaffMember };
    expect(is(member.data, StaffMemberStruct)).toBe(true);
    expect(member.data).toMatchObject({ state: 'active', invitation_state: null, invitation_expires_at: null });
    expect(Date.now() - Date.parse(member.data.last_sign_in_at!)).toBeLessThan(60_000);
    const [invitation] = await server.db.select().from(invitations).where(eq(invitations.userId, id));
    expect(invitation!.usedAt).not.toBeNull();
    expect((await changesOf(id)).at(-1)).toEqual({ action: 'invitation.accepted', actor: id, detail: { invitation_id: invitation!.id } });

    // The password works from now on.
    expect((await server.client().login('valentina.rojas@sanandres.cl', STRONG)).status).toBe(200);
  });

  it('a link works once', async () => {
    const [token] = await linkTokens('valentina.rojas@sanandres.cl');
    const read = await server.client().get(`/api/invitations/${token}`);
    expect(read.status).toBe(410);
    expect(await read.json()).toEqual(USED);
    const client = await visitor();
    const again = await send(client, 'POST', `/api/invitations/${token}/accept`, { password: 'Otra-Clave-Distinta-77' });
    expect(again.status).toBe(410);
    expect(await again.json()).toEqual(USED);
    expect(client.jar.has(COOKIE.session)).toBe(false);
    // The password set first still holds.
    expect((await server.client().login('valentina.rojas@sanandres.cl', 'Otra-Clave-Distinta-77')).status).toBe(401);
  });

  it('two tabs sending the form at once: one signs in, the other is told the link was used', async () => {
    const gonzalo: InvitePerson = { name: 'Gonzalo Díaz', email: 'gonzalo.diaz@sanandres.cl', role: 'docente' };
    await invite([gonzalo]);
    const [token] = await linkTokens('gonzalo.diaz@sanandres.cl');
    const [a, b] = [await visitor(), await visitor()];
    const answers = await Promise.all([
      send(a, 'POST', `/api/invitations/${token}/accept`, { password: STRONG }),
      send(b, 'POST', `/api/invitations/${token}/accept`, { password: 'Otra-Clave-Distinta-77' }),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 410]);
    const id = await idOf('gonzalo.diaz@sanandres.cl');
    expect((await changesOf(id)).filter((c) => c.action === 'invitation.accepted')).toHaveLength(1);
    expect(await server.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, id))).toHaveLength(1);
  });
});

describe('expired, resent and revoked links', () => {
  it('a link past its 7 days is refused, and the list says so', async () => {
    await invite([{ name: 'Ester Lagos', email: 'ester.lagos@sanandres.cl', role: 'docente' }]);
    const id = await idOf('ester.lagos@sanandres.cl');
    const [token] = await linkTokens('ester.lagos@sanandres.cl');
    await server.db
      .update(invitations)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(invitations.userId, id));
    const read = await server.client().get(`/api/invitations/${token}`);
    expect(read.status).toBe(410);
    expect(await read.json()).toEqual(EXPIRED);
    const accept = await send(await visitor(), 'POST', `/api/invitations/${token}/accept`, { password: STRONG });
    expect(accept.status).toBe(410);
    expect(await accept.json()).toEqual(EXPIRED);
    const member = (await (await (await as(ADMIN)).get(`/api/staff/${id}`)).json()) as { data: StaffMember };
    expect(member.data).toMatchObject({ state: 'invited', invitation_state: 'expired' });
    const [row] = await server.db.select({ status: users.status, hash: users.passwordHash }).from(users).where(eq(users.id, id));
    expect(row).toEqual({ status: 'invited', hash: null });
  });

  it('resend e-mails a new link and the old one stops working', async () => {
    const admin = await as(ADMIN);
    const id = await idOf('ester.lagos@sanandres.cl');
    const [old] = await linkTokens('ester.lagos@sanandres.cl');
    const res = await send(admin, 'POST', `/api/staff/${id}/invitation`);
    expect(res.status).toBe(200);
    const resent: unknown = await res.json();
    expect(is(resent, ResentBodyStruct)).toBe(true);
    const body = resent as { data: StaffMember; mail_sent: boolean };
    expect(body.mail_sent).toBe(true);
    expect(body.data).toMatchObject({ state: 'invited', invitation_state: 'pending' });
    const tokens = await linkTokens('ester.lagos@sanandres.cl');
    expect(tokens).toHaveLength(2);
    const fresh = tokens.find((t) => t !== old)!;
    expect((await server.client().get(`/api/invitations/${fresh}`)).status).toBe(200);
    // The expired one is now revoked (replaced).
    const stale = await server.client().get(`/api/invitations/${old}`);
    expect(stale.status).toBe(410);
    expect(await stale.json()).toEqual(REVOKED);
    const rows = await server.db
      .select({ id: invitations.id, revokedAt: invitations.revokedAt })
      .from(invitations)
      .where(eq(invitations.userId, id));
    const first = rows.find((r) => r.revokedAt !== null)!;
    const second = rows.find((r) => r.revokedAt === null)!;
    expect((await changesOf(id)).at(-1)).toEqual({
      action: 'invitation.resent',
      actor: await idOf(ADMIN),
      detail: { invitation_id: second.id, revoked_invitation_ids: [first.id] },
    });
    // A pending one is replaced as well.
    expect((await send(admin, 'POST', `/api/staff/${id}/invitation`)).status).toBe(200);
    expect((await server.client().get(`/api/invitations/${fresh}`)).status).toBe(410);
  });

  it('revoke stops the link; the person stays invited and can be sent a new one', async () => {
    const admin = await as(ADMIN);
    const id = await idOf('ester.lagos@sanandres.cl');
    const before = await linkTokens('ester.lagos@sanandres.cl');
    const res = await send(admin, 'DELETE', `/api/staff/${id}/invitation`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: StaffMember }).data).toMatchObject({ state: 'invited', invitation_state: 'revoked' });
    for (const token of before) {
      const read = await server.client().get(`/api/invitations/${token}`);
      expect(read.status).toBe(410);
      expect(await read.json()).toEqual(REVOKED);
    }
    expect((await changesOf(id)).at(-1)).toMatchObject({ action: 'invitation.revoked', actor: await idOf(ADMIN) });
    // Nothing left to revoke.
    const again = await send(admin, 'DELETE', `/api/staff/${id}/invitation`);
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({
      code: 'staff.not_invited',
      message: 'Esta invitación ya no está pendiente: reenvíala para generar un enlace nuevo.',
    });
    expect((await send(admin, 'POST', `/api/staff/${id}/invitation`)).status).toBe(200);
  });

  it('resend and revoke answer 409 for someone not invited', async () => {
    const admin = await as(ADMIN);
    const id = await idOf(TEACHER);
    for (const method of ['POST', 'DELETE']) {
      const res = await send(admin, method, `/api/staff/${id}/invitation`);
      expect(res.status).toBe(409);
      expect(await res.json()).toEqual({ code: 'staff.not_invited', message: 'Esta persona ya no tiene una invitación pendiente.' });
    }
    expect(await linkTokens(TEACHER)).toEqual([]);
  });

  it('deactivating an invited person stops their link; reactivated, they are invited again', async () => {
    const admin = await as(ADMIN);
    const id = await idOf('ester.lagos@sanandres.cl');
    const tokens = await linkTokens('ester.lagos@sanandres.cl');
    const res = await send(admin, 'POST', `/api/staff/${id}/deactivate`);
    expect(res.status).toBe(200);
    for (const token of tokens) expect((await server.client().get(`/api/invitations/${token}`)).status).toBe(410);
    const back = await send(admin, 'POST', `/api/staff/${id}/reactivate`);
    expect(((await back.json()) as { data: StaffMember }).data).toMatchObject({ state: 'invited', invitation_state: 'revoked' });
    expect((await changesOf(id)).slice(-2).map((c) => [c.action, c.detail])).toEqual([
      ['deactivated', { from: 'invited', sessions_ended: 0, revoked_invitation_ids: expect.any(Array) }],
      ['reactivated', { to: 'invited' }],
    ]);
  });
});

describe('a colleague in compose', () => {
  /** The colleagues a teacher can write to, by cargo: `cargo → [name, e-mail, login]`. */
  async function colleagues(): Promise<Map<string, [string, string | null, number | null][]>> {
    const res = await (await as(TEACHER)).get('/api/recipients');
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: Recipients };
    return new Map(data.appointments.map((a) => [a.nombre, a.users.map((u) => [u.name, u.email, u.login_user_id])]));
  }

  /** The cargo of that name in the administrator's school (San Andrés). */
  const idOfCargo = async (name: string): Promise<number> => {
    const [row] = await server.db
      .select({ id: positions.id })
      .from(positions)
      .innerJoin(users, eq(users.institutionId, positions.institutionId))
      .where(and(eq(users.email, ADMIN), eq(positions.name, name)));
    return row!.id;
  };

  it('an invited person is in the picker under their role’s cargo from the start, and leaves it while deactivated', async () => {
    const [outcome] = await invite([{ name: 'Rocío Belén Aravena Muñoz', email: 'rocio.aravena@sanandres.cl', role: 'colegio-utp' }]);
    expect(outcome).toMatchObject({ outcome: 'invited' });
    const id = await idOf('rocio.aravena@sanandres.cl');
    const rocio: [string, string | null, number | null] = ['Rocío Belén Aravena Muñoz', 'rocio.aravena@sanandres.cl', id];
    expect((await colleagues()).get('Jefe de UTP')).toContainEqual(rocio);
    const reachedByCargo = async () => {
      const cargo = await idOfCargo('Jefe de UTP');
      const body = composeInput({ channels: ['e-mail'], recipients: [{ kind: 'appointment', id: cargo }] });
      const res = await (await as(TEACHER)).post('/api/messages/estimate', body);
      expect(res.status).toBe(200);
      return ((await res.json()) as { data: Estimate }).data.recipients;
    };
    const withRocio = await reachedByCargo();

    const admin = await as(ADMIN);
    expect((await send(admin, 'POST', `/api/staff/${id}/deactivate`)).status).toBe(200);
    expect([...(await colleagues()).values()].flat()).not.toContainEqual(rocio);
    // Writing to the cargo no longer reaches her either.
    expect(await reachedByCargo()).toBe(withRocio - 1);
    expect((await send(admin, 'POST', `/api/staff/${id}/reactivate`)).status).toBe(200);
    expect((await colleagues()).get('Jefe de UTP')).toContainEqual(rocio);
  });

  it('a one-word name is kept whole', async () => {
    await invite([{ name: 'Xiomara', email: 'xiomara@sanandres.cl', role: 'docente' }]);
    const id = await idOf('xiomara@sanandres.cl');
    expect((await colleagues()).get('Docente')).toContainEqual(['Xiomara', 'xiomara@sanandres.cl', id]);
  });
});

describe('when the e-mail cannot leave', () => {
  it('the invitation stands, the answer says the e-mail did not leave, and «Reenviar» tries again', async () => {
    // An outbox under a file cannot be created: the transport fails as a refusing mail server would.
    const blocker = path.join(server.outboxDir, '..', 'not-a-directory');
    writeFileSync(blocker, '');
    const broken = await server.sibling({ config: { outboxDir: path.join(blocker, 'outbox') } });
    try {
      const admin = broken.client();
      expect((await admin.login(ADMIN)).status).toBe(200);
      const outcomes = await invite([{ name: 'Julio Castro', email: 'julio.castro@sanandres.cl', role: 'docente' }], admin);
      expect(outcomes).toEqual([expect.objectContaining({ outcome: 'invited', email: 'julio.castro@sanandres.cl', mail_sent: false })]);
      const id = await idOf('julio.castro@sanandres.cl');
      const resend = await send(admin, 'POST', `/api/staff/${id}/invitation`);
      expect(resend.status).toBe(200);
      expect(((await resend.json()) as { mail_sent: boolean }).mail_sent).toBe(false);
    } finally {
      await broken.close();
    }
    // From a server whose mail works, the resend reaches them.
    const id = await idOf('julio.castro@sanandres.cl');
    const res = await send(await as(ADMIN), 'POST', `/api/staff/${id}/invitation`);
    expect(((await res.json()) as { mail_sent: boolean }).mail_sent).toBe(true);
    expect(await linkTokens('julio.castro@sanandres.cl')).toHaveLength(1);
  });
});

describe('the log', () => {
  it('never holds a link’s token, not even the debug log of each request', async () => {
    await invite([{ name: 'Rosa Vidal', email: 'rosa.vidal@sanandres.cl', role: 'docente' }]);
    const [token] = await linkTokens('rosa.vidal@sanandres.cl');
    const printed: string[] = [];
    const spies = (['log', 'error', 'info', 'warn'] as const).map((method) =>
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void printed.push(format(...args))),
    );
    const debug = await server.sibling({ config: { log: 'debug' } });
    try {
      const client = debug.client();
      await client.get('/api/csrf-cookie');
      expect((await client.get(`/api/invitations/${token}`)).status).toBe(200);
      expect((await send(client, 'POST', `/api/invitations/${token}/accept`, { password: 'corta' })).status).toBe(422);
      expect((await client.get(`/invitation/${token}`)).status).toBe(200);
    } finally {
      await debug.close();
      for (const spy of spies) spy.mockRestore();
    }
    const log = printed.join('\n');
    expect(log).toContain('GET /api/invitations/');
    expect(log).not.toContain(token!);
  });
});
