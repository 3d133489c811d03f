// The school's logo: uploaded, replaced and removed by its administrators, refused when it is not a PNG or
// JPEG of a sensible size, served to its own staff under a versioned URL; and carried by its message
// e-mails as an inline image of an HTML alternative (the delivery engine, outbox on disk).
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError, SignedIn } from '../../shared/contract';
import type { SchoolLogo, SchoolSettings } from '../../shared/school-contract';
import { logoCache } from '../../server/school-logo/logo';
import { composeInput } from '../fixtures/compose';
import { jpegFile, pngFile } from '../fixtures/images';
import { count, rows, send } from './support/compose';
import { decodeBody, flatten, parseMime } from './support/mime';
import { signedIn, startServer, type Client, type TestServer } from './support/server';
import { eventually } from './support/wait';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ delivery: true });
});
afterAll(async () => {
  await server?.close();
});
const as = signedIn(() => server);

const ADMIN = 'administrador@sanandres.cl';
const OTHER_ADMIN = 'administrador@liceoelqui.cl';

function putLogo(client: Client, name: string, type: string, bytes: Uint8Array<ArrayBuffer>): Promise<Response> {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type }), name);
  return client.fetch('/api/school/logo', { method: 'PUT', body: form });
}

const logoOf = async (client: Client) => ((await (await client.get('/api/school')).json()) as { data: SchoolSettings }).data.logo;
const errorOf = async (res: Response) => (await res.json()) as ApiError;

describe('PUT and DELETE /api/school/logo', () => {
  it('is 401 signed out and 403 for a teacher, and the school keeps no logo', async () => {
    const anonymous = server.client();
    await anonymous.get('/api/csrf-cookie');
    expect((await putLogo(anonymous, 'logo.png', 'image/png', pngFile(4, 4))).status).toBe(401);
    const teacher = await as('docente@sanandres.cl');
    const refused = await putLogo(teacher, 'logo.png', 'image/png', pngFile(4, 4));
    expect(refused.status).toBe(403);
    expect((await errorOf(refused)).message).toBe(
      'Solo la dirección y los administradores del colegio pueden ver y cambiar su configuración.',
    );
    expect((await teacher.fetch('/api/school/logo', { method: 'DELETE' })).status).toBe(403);
    expect(await count(server.db, sql`select count(*)::int as n from school_logos`)).toBe(0);
    expect(await logoOf(await as(ADMIN))).toBeNull();
  });

  it('refuses an SVG, a text file named .png, a file too big, too many pixels, an empty one and none, in Spanish', async () => {
    const admin = await as(ADMIN);
    const svg = await putLogo(
      admin,
      'logo.svg',
      'image/svg+xml',
      new TextEncoder().encode('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>'),
    );
    expect(svg.status).toBe(415);
    expect((await errorOf(svg)).errors).toEqual({ file: ['El logo no puede ser SVG: guárdalo como PNG o JPEG e inténtalo de nuevo.'] });
    // An SVG renamed .png, declared as a PNG, is still an SVG.
    const disguised = await putLogo(
      admin,
      'logo.png',
      'image/png',
      new TextEncoder().encode('\n  <svg xmlns="http://www.w3.org/2000/svg"></svg>'),
    );
    expect((await errorOf(disguised)).errors).toEqual({
      file: ['El logo no puede ser SVG: guárdalo como PNG o JPEG e inténtalo de nuevo.'],
    });
    const text = await putLogo(admin, 'logo.png', 'image/png', new TextEncoder().encode('Esto no es una imagen.'));
    expect(text.status).toBe(415);
    expect((await errorOf(text)).errors).toEqual({
      file: ['El logo debe ser una imagen PNG o JPEG; este archivo no lo es, aunque su nombre lo diga.'],
    });
    const gif = await putLogo(admin, 'logo.gif', 'image/gif', new TextEncoder().encode('GIF89a\x01\x00\x01\x00'));
    expect(gif.status).toBe(415);

    // Just over 512 kB: a real PNG header with padding after it.
    const big = new Uint8Array(512 * 1024 + 1);
    big.set(pngFile(4, 4));
    const tooBig = await putLogo(admin, 'logo.png', 'image/png', big);
    expect(tooBig.status).toBe(413);
    expect((await errorOf(tooBig)).message).toBe('El logo supera el máximo de 512 kB; guárdalo más pequeño e inténtalo de nuevo.');
    // Far over: refused before it is read.
    const huge = await putLogo(admin, 'logo.png', 'image/png', new Uint8Array(3 * 1024 * 1024));
    expect(huge.status).toBe(413);
    expect((await errorOf(huge)).errors).toEqual({
      file: ['El logo supera el máximo de 512 kB; guárdalo más pequeño e inténtalo de nuevo.'],
    });

    const wide = await putLogo(admin, 'logo.jpg', 'image/jpeg', jpegFile(4001, 300));
    expect(wide.status).toBe(422);
    expect((await errorOf(wide)).errors).toEqual({
      file: ['La imagen mide 4001 × 300 píxeles; el logo puede medir hasta 4000 píxeles por lado.'],
    });
    // The PNG signature and nothing after it: no size to read.
    const cut = await putLogo(admin, 'logo.png', 'image/png', pngFile(4, 4).slice(0, 12));
    expect((await errorOf(cut)).errors).toEqual({
      file: ['No se pudo leer el tamaño de la imagen: puede estar dañada. Prueba con otro archivo PNG o JPEG.'],
    });
    const empty = await putLogo(admin, 'logo.png', 'image/png', new Uint8Array());
    expect((await errorOf(empty)).errors).toEqual({ file: ['La imagen del logo está vacía.'] });
    const none = await admin.fetch('/api/school/logo', { method: 'PUT', body: new FormData() });
    expect(none.status).toBe(422);
    expect((await errorOf(none)).errors).toEqual({ file: ['Elige una imagen PNG o JPEG para el logo (campo file).'] });

    expect(await count(server.db, sql`select count(*)::int as n from school_logos`)).toBe(0);
  });

  it('uploads, replaces and removes the logo; the settings and the signed-in user name its versioned URL', async () => {
    const admin = await as(ADMIN);
    const first = pngFile(120, 40);
    const uploaded = await putLogo(admin, 'escudo.png', 'image/png', first);
    expect(uploaded.status).toBe(200);
    const logo = ((await uploaded.json()) as { data: SchoolLogo }).data;
    expect(logo).toEqual({
      url: expect.stringMatching(/^\/school\/logo\?v=[0-9a-f]{16}$/),
      content_type: 'image/png',
      size: first.length,
      width: 120,
      height: 40,
    });
    expect(await logoOf(admin)).toEqual(logo);
    const user = (await (await admin.get('/api/user')).json()) as SignedIn;
    expect(user.user.institution.logo_url).toBe(logo.url);

    // A JPEG named .png is a JPEG: told by its content, served as one.
    const replaced = await putLogo(admin, 'escudo.png', 'image/png', jpegFile(300, 200));
    expect(replaced.status).toBe(200);
    const second = ((await replaced.json()) as { data: SchoolLogo }).data;
    expect(second).toMatchObject({ content_type: 'image/jpeg', width: 300, height: 200 });
    expect(second.url).not.toBe(logo.url);
    expect((await admin.get(`/api${logo.url}`)).status).toBe(404);
    const served = await admin.get(`/api${second.url}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await served.arrayBuffer()).equals(Buffer.from(jpegFile(300, 200)))).toBe(true);

    expect((await admin.fetch('/api/school/logo', { method: 'DELETE' })).status).toBe(204);
    expect(await logoOf(admin)).toBeNull();
    expect((await admin.get(`/api${second.url}`)).status).toBe(404);
    expect(((await (await admin.get('/api/user')).json()) as SignedIn).user.institution).not.toHaveProperty('logo_url');
    // Removing what is not there is no error.
    expect((await admin.fetch('/api/school/logo', { method: 'DELETE' })).status).toBe(204);
  });
});

describe('GET /api/school/logo', () => {
  let url: string;
  const bytes = pngFile(64, 64);
  beforeAll(async () => {
    const res = await putLogo(await as(ADMIN), 'logo.png', 'image/png', bytes);
    url = `/api${((await res.json()) as { data: SchoolLogo }).data.url}`;
  });

  it('is the image for any staff of the school, cached for good only under its version', async () => {
    expect((await server.client().get(url)).status).toBe(401);
    const teacher = await as('docente@sanandres.cl');
    const versioned = await teacher.get(url);
    expect(versioned.status).toBe(200);
    expect(versioned.headers.get('content-type')).toBe('image/png');
    expect(versioned.headers.get('x-content-type-options')).toBe('nosniff');
    expect(versioned.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    expect(Buffer.from(await versioned.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);

    const plain = await teacher.get('/api/school/logo');
    expect(plain.status).toBe(200);
    expect(plain.headers.get('cache-control')).toBe('private, no-cache');
    const etag = plain.headers.get('etag');
    expect(etag).toBeTruthy();
    const again = await teacher.get('/api/school/logo', { headers: { 'If-None-Match': etag! } });
    expect(again.status).toBe(304);
  });

  it("another school's staff never get it, even with its URL", async () => {
    const other = await as(OTHER_ADMIN);
    expect((await other.get(url)).status).toBe(404);
    // Their own school has none.
    expect((await other.get('/api/school/logo')).status).toBe(404);
    expect(await logoOf(other)).toBeNull();
  });
});

describe("the engine's logo cache", () => {
  it('reads a school’s logo once per version, however many e-mails ask, and again when it is replaced', async () => {
    let reads = 0;
    // Every read of the logo's row is a `select` on the database.
    const counting = new Proxy(server.db, {
      get(target, property, receiver) {
        if (property === 'select') reads += 1;
        return Reflect.get(target, property, receiver);
      },
    });
    const cache = logoCache(counting);
    const admin = await as(ADMIN);
    const first = pngFile(10, 10, [1, 2, 3]);
    const v1 = ((await (await putLogo(admin, 'a.png', 'image/png', first)).json()) as { data: SchoolLogo }).data.url.split('v=')[1]!;
    const images = await Promise.all(Array.from({ length: 50 }, () => cache.get(1, v1)));
    expect(images.every((image) => image?.content.equals(Buffer.from(first)))).toBe(true);
    await cache.get(1, v1);
    expect(reads).toBe(1);

    const second = pngFile(12, 12, [4, 5, 6]);
    const v2 = ((await (await putLogo(admin, 'b.png', 'image/png', second)).json()) as { data: SchoolLogo }).data.url.split('v=')[1]!;
    expect((await cache.get(1, v2))?.content.equals(Buffer.from(second))).toBe(true);
    await cache.get(1, v2);
    expect(reads).toBe(2);
    expect((await admin.fetch('/api/school/logo', { method: 'DELETE' })).status).toBe(204);
  });
});

/** The e-mails the engine wrote for message `id`, raw. */
async function emailsOf(messageId: number): Promise<string[]> {
  const deliveries = await rows<{ id: number; generation: number }>(
    server.db,
    sql`select id, generation from deliveries where message_id = ${messageId} and channel = 'e-mail' and address is not null`,
  );
  const files = await readdir(server.outboxDir);
  const names = deliveries.map((d) => files.find((f) => f === `hermes-${d.id}-${d.generation}_hermes.local.eml`));
  expect(names.every((name) => name !== undefined)).toBe(true);
  return Promise.all(names.map((name) => readFile(path.join(server.outboxDir, name!), 'utf8')));
}

/** Message `title` sent by e-mail by `email` to the guardians of their school's first course, once delivered. */
async function sentByEmail(email: string, title: string, content: string): Promise<number> {
  const [course] = await rows<{ id: number }>(
    server.db,
    sql`select c.id from courses c join users u on u.institution_id = c.institution_id where u.email = ${email} order by c.id limit 1`,
  );
  const res = await send(
    await as(email),
    composeInput({ channels: ['e-mail'], recipients: [{ kind: 'course', id: course!.id, audience: 'apoderados' }], title, content }),
  );
  expect(res.status).toBe(201);
  const id = ((await res.json()) as { data: { id: number } }).data.id;
  await eventually(
    'correos enviados',
    () =>
      count(
        server.db,
        sql`select count(*)::int as n from deliveries where message_id = ${id} and channel = 'e-mail' and status = 'queued'`,
      ),
    (n) => n === 0,
  );
  return id;
}

describe('message e-mails', () => {
  const CONTENT = 'Estimadas familias: la reunión es el jueves.\nTraigan <b>la libreta</b> & el estuche.';

  it('of a school with a logo carry an HTML alternative with the logo inline, and the same text as plain', async () => {
    const admin = await as(ADMIN);
    const bytes = pngFile(200, 80, [0xc0, 0x20, 0x20]);
    expect((await putLogo(admin, 'logo.png', 'image/png', bytes)).status).toBe(200);
    const id = await sentByEmail(ADMIN, 'Reunión <urgente>', CONTENT);
    const mails = await emailsOf(id);
    expect(mails.length).toBeGreaterThan(0);
    for (const raw of mails) {
      const top = parseMime(raw);
      const leaves = flatten(top);
      const text = leaves.find((p) => p.headers.get('content-type')?.startsWith('text/plain'));
      // The administrator's signature follows the message, as in every e-mail of theirs.
      expect(decodeBody(text!).toString('utf8').trim()).toBe(`${CONTENT}\n\nCSA`);
      const html = leaves.find((p) => p.headers.get('content-type')?.startsWith('text/html'));
      expect(html).toBeDefined();
      const markup = decodeBody(html!).toString('utf8');
      expect(markup).toContain('<img src="cid:logo@hermes.local" alt="Colegio San Andrés de Ñuñoa"');
      // The message's own markup is shown, never run.
      expect(markup).toContain('Traigan &lt;b&gt;la libreta&lt;/b&gt; &amp; el estuche.');
      expect(markup).toContain('<title>Reunión &lt;urgente&gt;</title>');
      expect(markup).not.toContain('<b>');
      expect(markup).not.toMatch(/src="https?:/);
      const image = leaves.find((p) => p.headers.get('content-type')?.startsWith('image/png'));
      expect(image?.headers.get('content-id')).toBe('<logo@hermes.local>');
      expect(decodeBody(image!).equals(Buffer.from(bytes))).toBe(true);
      // Text and HTML are alternatives of one another.
      expect(top.headers.get('content-type')).toMatch(/^multipart\/(alternative|related|mixed)/);
      expect(raw).toMatch(/multipart\/alternative/);
    }
  });

  it('of a school without a logo stay plain text only', async () => {
    const id = await sentByEmail(OTHER_ADMIN, 'Reunión', CONTENT);
    const mails = await emailsOf(id);
    expect(mails.length).toBeGreaterThan(0);
    for (const raw of mails) {
      const top = parseMime(raw);
      expect(top.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(top.children).toEqual([]);
      expect(decodeBody(top).toString('utf8').trim()).toBe(CONTENT);
      expect(raw).not.toMatch(/text\/html|Content-ID/i);
    }
  });

  it('follow a replaced logo at once, and a removed one', async () => {
    const admin = await as(ADMIN);
    const bytes = jpegFile(100, 50);
    expect((await putLogo(admin, 'logo.jpg', 'image/jpeg', bytes)).status).toBe(200);
    const replaced = await emailsOf(await sentByEmail(ADMIN, 'Aviso', 'Con el logo nuevo.'));
    for (const raw of replaced) {
      const image = flatten(parseMime(raw)).find((p) => p.headers.get('content-id') === '<logo@hermes.local>');
      expect(image?.headers.get('content-type')).toMatch(/^image\/jpeg/);
      expect(decodeBody(image!).equals(Buffer.from(bytes))).toBe(true);
    }
    expect((await admin.fetch('/api/school/logo', { method: 'DELETE' })).status).toBe(204);
    const removed = await emailsOf(await sentByEmail(ADMIN, 'Aviso', 'Sin logo.'));
    for (const raw of removed) expect(parseMime(raw).headers.get('content-type')).toMatch(/^text\/plain/);
  });
});

/** The raw e-mails of the outbox addressed to `to`, once there are `n` of them. */
async function outboxTo(to: string, n: number): Promise<string[]> {
  return eventually(
    `correo a ${to}`,
    async () => {
      const files = (await readdir(server.outboxDir)).filter((f) => f.endsWith('.eml'));
      const raws = await Promise.all(files.map((f) => readFile(path.join(server.outboxDir, f), 'utf8')));
      return raws.filter((raw) => parseMime(raw).headers.get('to') === to);
    },
    (mails) => mails.length >= n,
  );
}

describe('account e-mails', () => {
  it('an invitation and a password reset of a school with a logo show it inline; of a school without, plain text', async () => {
    const admin = await as(ADMIN);
    const bytes = pngFile(90, 30, [0x10, 0x80, 0x30]);
    expect((await putLogo(admin, 'logo.png', 'image/png', bytes)).status).toBe(200);

    const invited = await admin.post('/api/staff/invitations', {
      people: [{ name: 'Ana <Nueva>', email: 'ana.nueva@sanandres.cl', role: 'docente' }],
    });
    expect(invited.status).toBe(200);
    const resetClient = server.client();
    await resetClient.get('/api/csrf-cookie');
    expect((await resetClient.post('/api/password-resets', { email: 'docente@sanandres.cl' })).status).toBe(202);
    expect((await resetClient.post('/api/password-resets', { email: OTHER_ADMIN })).status).toBe(202);

    const [invitation] = await outboxTo('ana.nueva@sanandres.cl', 1);
    const [reset] = await outboxTo('docente@sanandres.cl', 1);
    for (const [raw, greeting] of [
      [invitation!, 'Hola, Ana &lt;Nueva&gt;:'],
      [reset!, 'Hola, '],
    ] as const) {
      const leaves = flatten(parseMime(raw));
      const text = decodeBody(leaves.find((p) => p.headers.get('content-type')?.startsWith('text/plain'))!).toString('utf8');
      const html = decodeBody(leaves.find((p) => p.headers.get('content-type')?.startsWith('text/html'))!).toString('utf8');
      expect(html).toContain('<img src="cid:logo@hermes.local" alt="Colegio San Andrés de Ñuñoa"');
      expect(html).toContain(greeting);
      // The link the text carries is in the HTML too, as text.
      const link = /https?:\/\/\S+/.exec(text)?.[0];
      expect(link).toBeDefined();
      expect(html).toContain(link!.replace(/&/g, '&amp;'));
      const image = leaves.find((p) => p.headers.get('content-id') === '<logo@hermes.local>');
      expect(decodeBody(image!).equals(Buffer.from(bytes))).toBe(true);
    }
    // The plain alternative is the text as written.
    const invitationText = flatten(parseMime(invitation!)).find((p) => p.headers.get('content-type')?.startsWith('text/plain'))!;
    expect(decodeBody(invitationText).toString('utf8')).toContain('Hola, Ana <Nueva>:');

    const [plain] = await outboxTo(OTHER_ADMIN, 1);
    expect(parseMime(plain!).headers.get('content-type')).toMatch(/^text\/plain/);
    expect(plain).not.toMatch(/text\/html|Content-ID/i);
  });
});
