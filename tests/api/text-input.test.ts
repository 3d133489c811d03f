// Text the database cannot keep, refused at the edge (server/http/text-guard.ts): a NUL, another control
// character or a lone surrogate anywhere in a JSON body, a form, a query string or a path answers 422 with
// the field that carries it, before any route reads it. Tab, newline and carriage return stay allowed.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComposeDraft } from '../../shared/compose-contract';
import type { ApiError, Course } from '../../shared/contract';
import { composeInput } from '../fixtures/compose';
import { openSession } from '../../server/app-api/tokens';
import { count, rows } from './support/compose';
import { folderIds } from './support/mail';
import { startServer, type Client, type TestServer } from './support/server';

const ADMIN = 'administrador@sanandres.cl';
const REFUSED = 'El texto contiene caracteres no permitidos (caracteres de control o Unicode mal formado).';

let server: TestServer;
let admin: Client;
let course: Course;

beforeAll(async () => {
  // With the delivery engine, so the guardian app's routes (/api/app) are mounted too.
  server = await startServer({ delivery: true });
  admin = server.client();
  expect((await admin.login(ADMIN)).status).toBe(200);
  course = ((await (await admin.get('/api/courses')).json()) as { data: Course[] }).data[0]!;
});
afterAll(async () => {
  await server?.close();
});

/** The 422 of a refused field: the field alone, with the Spanish message. */
async function expectRefused(res: Response, field: string) {
  expect(res.status).toBe(422);
  const body = (await res.json()) as ApiError;
  expect(body.code).toBe('validation.failed');
  expect(body.errors).toEqual({ [field]: [REFUSED] });
}

/** POSTs a JSON text as is, so it can carry escapes JSON.stringify would never write (a lone `\ud800`). */
const postRaw = (client: Client, path: string, json: string) =>
  client.fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: json });

const drafts = () => count(server.db, sql`select count(*)::int as n from messages where kind = 'draft'`);

describe('a NUL character', () => {
  it('in a title, a content or a pick label is a field error, and nothing is saved', async () => {
    const before = await drafts();
    await expectRefused(await admin.post('/api/messages/drafts', composeInput({ title: 'Reunión\u0000' })), 'title');
    await expectRefused(await admin.post('/api/messages/drafts', composeInput({ content: 'Hola\u0000mundo' })), 'content');
    const pick = { kind: 'course', id: course.id, audience: 'apoderados', label: `${course.nombre}\u0000` } as const;
    await expectRefused(await admin.post('/api/messages/drafts', composeInput({ recipients: [pick] })), 'recipients');
    expect(await drafts()).toBe(before);
  });

  it('in the login e-mail or password', async () => {
    const client = server.client();
    await client.get('/api/csrf-cookie');
    await expectRefused(await client.post('/api/login', { email: 'docente@sanandres.cl\u0000', password: 'Hermes.2026' }), 'email');
    await expectRefused(await client.post('/api/login', { email: 'docente@sanandres.cl', password: 'Hermes.2026\u0000' }), 'password');
  });

  it('in the folder search and the reception search', async () => {
    await expectRefused(await admin.get('/api/messages?folder=inbox&q=reuni%00n'), 'q');
    const [sent] = await folderIds(server.db, ADMIN, 'sent');
    await expectRefused(await admin.get(`/api/messages/${sent}/reception?q=ana%00`), 'q');
  });

  it('in a query parameter no route reads, a path parameter or an uploaded file name', async () => {
    await expectRefused(await admin.get('/api/quota?x=%00'), 'x');
    await expectRefused(await admin.post('/api/webhooks/provider/sms%00', {}), 'channel');
    const form = new FormData();
    form.set('file', new File(['hola'], 'acta\u0000.txt', { type: 'text/plain' }));
    await expectRefused(await admin.fetch('/api/attachments', { method: 'POST', body: form }), 'file');
  });
});

describe('in the guardian app', () => {
  it('a phone to sign in with, or a reply, is refused the same way', async () => {
    const [guardian] = await rows<{ id: number; institution_id: number }>(
      server.db,
      sql`select id, institution_id from guardians order by id limit 1`,
    );
    const { token } = await openSession(server.db, { id: guardian!.id, institutionId: guardian!.institution_id }, new Date());
    const app = (path: string, body: unknown, bearer?: string) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}) },
        body: JSON.stringify(body),
      });
    await expectRefused(await app('/api/app/session/code', { phone: '+56 9 1234\u0000 5678' }), 'phone');
    await expectRefused(await app('/api/app/messages/1/reply', { content: 'Gracias\ud800' }, token), 'content');
  });
});

describe('other control characters', () => {
  it('are refused, deep in a body too, under the top-level key that holds them', async () => {
    await expectRefused(await admin.post('/api/messages/drafts', composeInput({ title: 'a\u0007b' })), 'title');
    await expectRefused(await admin.post('/api/messages/drafts', composeInput({ content: 'a\u001bb' })), 'content');
    await expectRefused(await admin.post('/api/messages/drafts', composeInput({ content: 'a\u007fb' })), 'content');
    await expectRefused(await admin.post('/api/messages/drafts', composeInput({ content: 'a\u0085b' })), 'content');
    await expectRefused(await admin.post('/api/messages/delete', { ids: [{ deep: ['x\u0001'] }] }), 'ids');
    await expectRefused(await admin.post('/api/messages/delete', { 'i\u0000ds': [1] }), 'body');
  });

  it('but tab, newline and carriage return (a textarea sends CRLF) are text', async () => {
    const res = await admin.post('/api/messages/drafts', composeInput({ title: 'Acta\tfinal', content: 'Línea 1\r\nLínea 2\n\tfin' }));
    expect(res.status).toBe(201);
    const draft = ((await res.json()) as { data: ComposeDraft }).data;
    expect(draft.content).toBe('Línea 1\r\nLínea 2\n\tfin');
  });
});

describe('a lone surrogate', () => {
  it('in a title, a content or a pick label is a field error, never stored as «�»', async () => {
    const before = await drafts();
    await expectRefused(await postRaw(admin, '/api/messages/drafts', '{"title":"Reuni\\ud800n"}'), 'title');
    await expectRefused(await postRaw(admin, '/api/messages/drafts', '{"content":"fin \\udc00"}'), 'content');
    const pick = `{"kind":"course","id":${course.id},"audience":"apoderados","label":"\\ud83d"}`;
    await expectRefused(await postRaw(admin, '/api/messages/drafts', `{"recipients":[${pick}]}`), 'recipients');
    await expectRefused(await postRaw(admin, '/api/login', '{"email":"a\\ud800@b.cl","password":"x"}'), 'email');
    expect(await drafts()).toBe(before);
    expect(
      await count(
        server.db,
        sql`select count(*)::int as n from messages where title like ${'%\ufffd%'} or content like ${'%\ufffd%'} or recipient_picks::text like ${'%\ufffd%'}`,
      ),
    ).toBe(0);
  });

  it('while a whole pair (an emoji) is text', async () => {
    const res = await postRaw(admin, '/api/messages/drafts', '{"title":"Fiesta \\ud83c\\udf89","content":"🎉"}');
    expect(res.status).toBe(201);
    const draft = ((await res.json()) as { data: ComposeDraft }).data;
    expect([draft.title, draft.content]).toEqual(['Fiesta 🎉', '🎉']);
  });
});
