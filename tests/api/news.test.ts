// The news wall's staff API (shared/news-contract.ts NEWS_API) against the real server: device latam on
// every call (403 `news.device`), the managers' role on changes (403 `auth.forbidden`), another school's
// ids 404, each validation 422 with its Spanish text, the wall's pages (pinned first, newest, cursor,
// search ignoring case and accents, category), statuses (scheduled, ended, unpublished off the readers'
// wall), trash / restore / delete forever with the files gone, the printable week, and who may download
// or delete a post's files.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Paged } from '../../shared/messages-contract';
import { NEWS_ATTACHMENTS_MAX, NEWS_BODY_MAX, NEWS_TEXTS, NEWS_TITLE_MAX, type NewsPost, type NewsWeek } from '../../shared/news-contract';
import { NEWS_MESSAGES } from '../../shared/news-rules';
import { NewsPageStruct, NewsPostBodyStruct, NewsWeekBodyStruct } from '../../shared/news-structs';
import { assert } from 'superstruct';
import { NEWS_QUERY_MESSAGES } from '../../server/routes/news';
import { NEWS_WRITE_MESSAGES } from '../../server/news/write';
import { WEEK_MESSAGES } from '../../server/news/week';
import { deleteAbandonedUploads } from '../../server/storage/sweep';
import { COMPOSE_MESSAGES } from '../../server/compose/validate';
import { AttachmentStore } from '../../server/storage/attachments';
import { composeInput } from '../fixtures/compose';
import { count, one, send, uploadOk } from './support/compose';
import { Client } from './support/server';
import {
  ADMIN,
  CORP,
  category,
  created,
  dataOf,
  DIRECTOR,
  errorOf,
  fieldErrors,
  json,
  MX_ADMIN,
  postInput,
  startNewsServer,
  TEACHER,
  TEACHER_CL,
  uploadPng,
  UTP_CL,
  type NewsServer,
} from './support/news';

let server: NewsServer;

beforeAll(async () => {
  server = await startNewsServer();
});
afterAll(async () => {
  await server?.close();
});

const NOT_FOUND = { code: 'not_found', message: 'El recurso solicitado no existe.' };
const HOUR = 3_600_000;

async function page(email: string, query = ''): Promise<Paged<NewsPost>> {
  const res = await (await server.as(email)).get(`/api/news${query}`);
  expect(res.status).toBe(200);
  const body = await res.json();
  assert(body, NewsPageStruct);
  return body as Paged<NewsPost>;
}

/** Every post of a query, following next_cursor. */
async function walk(email: string, query: string): Promise<NewsPost[]> {
  const all: NewsPost[] = [];
  let q = query;
  for (let i = 0; i < 50; i += 1) {
    const p = await page(email, q);
    all.push(...p.data);
    if (!p.meta.next_cursor) return all;
    q = `${query}&cursor=${p.meta.next_cursor}`;
  }
  throw new Error('too many pages');
}

const fileOnDisk = async (attachmentId: number) => {
  const row = await one<{ key: string | null }>(
    server.db,
    sql`select storage_key as key from message_attachments where id = ${attachmentId}`,
  );
  return row.key ? path.join(server.attachmentsDir, ...row.key.split('/')) : null;
};

// First, before the other tests add posts and categories to the demo schools.
describe('the demo seed', () => {
  it('gives every school 4–6 categories and ~15 posts in every status, with pictures on disk and course and level posts', async () => {
    for (const email of [ADMIN, 'administrador@liceoelqui.cl', MX_ADMIN]) {
      const client = await server.as(email);
      const categories = await dataOf<{ name: string; post_count: number }[]>(await client.get('/api/news-categories'));
      expect(categories.length).toBeGreaterThanOrEqual(4);
      expect(categories.length).toBeLessThanOrEqual(6);
      expect(categories.map((c) => c.name)).toContain('Convivencia escolar');
      const seeded = (await walk(email, '?status=all&limit=100')).filter((p) => Date.parse(p.created_at) < Date.now() - 30 * 60_000);
      const trash = ((await (await client.get('/api/news/trash')).json()) as Paged<NewsPost>).data;
      const statuses = new Set([...seeded.map((p) => p.status), ...trash.map((p) => p.status)]);
      expect([...statuses].sort()).toEqual(['deleted', 'ended', 'published', 'scheduled', 'unpublished']);
      expect(seeded.length + trash.length).toBeGreaterThanOrEqual(14);
      expect(seeded.filter((p) => p.pinned).length).toBe(2);
      expect(seeded.some((p) => p.audience.course_ids.length === 1)).toBe(true);
      expect(seeded.some((p) => p.audience.level_ids.length === 1)).toBe(true);
      const image = seeded.find((p) => p.status === 'published' && p.attachments.some((a) => a.is_image))!;
      const res = await (await server.as(email === ADMIN ? TEACHER : email)).get(`/api${image.attachments[0]!.url}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
    }
    expect((await page(MX_ADMIN)).data.some((p) => p.title.includes('Consejo Técnico'))).toBe(false);
  });
});

describe('who may call the wall', () => {
  /** Every call of NEWS_API with a body good enough to pass the device and role checks. */
  const calls = (post: number, cat: number): [string, string, unknown?][] => [
    ['GET', '/api/news'],
    ['GET', `/api/news/${post}`],
    ['GET', '/api/news/week'],
    ['GET', '/api/news/trash'],
    ['POST', '/api/news', postInput()],
    ['PATCH', `/api/news/${post}`, { title: 'Otro título' }],
    ['POST', `/api/news/${post}/unpublish`],
    ['POST', `/api/news/${post}/publish`],
    ['DELETE', `/api/news/${post}`],
    ['POST', `/api/news/${post}/restore`],
    ['DELETE', `/api/news/${post}/forever`],
    ['GET', '/api/news-categories'],
    ['POST', '/api/news-categories', { name: 'Nueva' }],
    ['PATCH', `/api/news-categories/${cat}`, { name: 'Renombrada' }],
    ['PUT', '/api/news-categories/order', { ids: [cat] }],
    ['DELETE', `/api/news-categories/${cat}`],
  ];
  const call = async (email: string, [method, url, body]: [string, string, unknown?]) =>
    method === 'GET' ? (await server.as(email)).get(url) : json(await server.as(email), method as 'POST', url, body);

  it('is 401 without a session', async () => {
    const anonymous = new Client(server.url);
    expect((await anonymous.get('/api/news')).status).toBe(401);
    expect((await anonymous.get('/api/news-categories')).status).toBe(401);
  });

  it('refuses a user whose device is not latam on every call, managers included (403 news.device)', async () => {
    const post = await created(await server.as(ADMIN));
    const cat = await category(await server.as(ADMIN), 'Solo latam');
    for (const email of [TEACHER_CL, UTP_CL]) {
      for (const c of calls(post.id, cat.id)) {
        const body = await errorOf(await call(email, c), 403, 'news.device');
        expect(body.message, `${email} ${c[0]} ${c[1]}`).toBe(NEWS_TEXTS.device);
      }
    }
    // Nothing changed: the post and the category are as they were.
    expect((await dataOf<NewsPost>(await (await server.as(ADMIN)).get(`/api/news/${post.id}`))).title).toBe(post.title);
  });

  it('lets a latam teacher read but not manage (403 auth.forbidden on every managing call)', async () => {
    const post = await created(await server.as(ADMIN));
    const cat = await category(await server.as(ADMIN), 'Solo gestores');
    for (const c of calls(post.id, cat.id)) {
      const res = await call(TEACHER, c);
      const reading = c[0] === 'GET' && c[1] !== '/api/news/trash';
      if (reading) expect(res.status, `${c[0]} ${c[1]}`).toBe(200);
      else await errorOf(res, 403, 'auth.forbidden');
    }
    // corp-utp is staff on latam but not a manager of the wall either.
    await errorOf(await (await server.as(CORP)).post('/api/news', postInput()), 403, 'auth.forbidden');
    // Readers cannot ask for what is not on the wall.
    await errorOf(await (await server.as(TEACHER)).get('/api/news?status=all'), 403, 'auth.forbidden');
  });

  it('lets any manager of the school edit another manager’s post (a shared wall)', async () => {
    const post = await created(await server.as(ADMIN), { title: 'Del administrador' });
    expect(post.editable).toBe(true);
    const edited = await dataOf<NewsPost>(
      await json(await server.as(DIRECTOR), 'PATCH', `/api/news/${post.id}`, { title: 'Corregido por la directora' }),
    );
    expect(edited.title).toBe('Corregido por la directora');
    expect(edited.author.id).toBe(post.author.id);
    expect((await dataOf<NewsPost>(await (await server.as(TEACHER)).get(`/api/news/${post.id}`))).editable).toBe(false);
  });
});

describe('another school’s ids are 404', () => {
  it('on every post call, category, level, course, attachment and filter', async () => {
    const admin = await server.as(ADMIN);
    const mx = await server.as(MX_ADMIN);
    const file = await uploadPng(admin);
    const post = await created(admin, { attachment_ids: [file.id] });
    const trashed = await created(admin);
    await dataOf(await json(admin, 'DELETE', `/api/news/${trashed.id}`));
    for (const [method, url, body] of [
      ['GET', `/api/news/${post.id}`],
      ['PATCH', `/api/news/${post.id}`, { title: 'Ajeno' }],
      ['POST', `/api/news/${post.id}/unpublish`],
      ['POST', `/api/news/${post.id}/publish`],
      ['DELETE', `/api/news/${post.id}`],
      ['POST', `/api/news/${trashed.id}/restore`],
      ['DELETE', `/api/news/${trashed.id}/forever`],
      ['GET', `/api/attachments/${file.id}`],
      ['DELETE', `/api/attachments/${file.id}`],
    ] as [string, string, unknown?][]) {
      const res = method === 'GET' ? await mx.get(url) : await json(mx, method as 'POST', url, body);
      expect({ url, method, status: res.status, body: await res.json() }).toEqual({ url, method, status: 404, body: NOT_FOUND });
    }
    const saCategory = await category(admin, 'Propia de San Andrés');
    const sa = await one<{ level: number; course: number }>(
      server.db,
      sql`select c.level_id as level, c.id as course from courses c join users u on u.institution_id = c.institution_id
          where u.email = ${ADMIN} order by c.id limit 1`,
    );
    const mxFile = await uploadPng(admin);
    for (const body of [
      postInput({ category_id: saCategory.id }),
      postInput({ audience: { scope: 'groups', level_ids: [sa.level], course_ids: [] } }),
      postInput({ audience: { scope: 'groups', level_ids: [], course_ids: [sa.course] } }),
      postInput({ attachment_ids: [mxFile.id] }),
    ]) {
      expect((await mx.post('/api/news', body)).status).toBe(404);
    }
    expect((await mx.get(`/api/news?category=${saCategory.id}`)).status).toBe(404);
    for (const [method, url, body] of [
      ['PATCH', `/api/news-categories/${saCategory.id}`, { name: 'Ajena' }],
      ['DELETE', `/api/news-categories/${saCategory.id}`],
      ['PUT', '/api/news-categories/order', { ids: [saCategory.id] }],
    ] as [string, string, unknown?][]) {
      expect((await json(mx, method as 'PATCH', url, body)).status, `${method} ${url}`).toBe(404);
    }
    // The other school's wall does not show them either.
    expect((await walk(MX_ADMIN, '?status=all&limit=100')).some((p) => p.id === post.id)).toBe(false);
    // And the rows are untouched.
    expect((await dataOf<NewsPost>(await admin.get(`/api/news/${post.id}`))).attachments.map((a) => a.id)).toEqual([file.id]);
  });
});

describe('validation (422 with the Spanish texts of shared/news-rules.ts)', () => {
  it('answers each bad field of a post', async () => {
    const admin = await server.as(ADMIN);
    const now = Date.now();
    const cases: [Partial<Parameters<typeof postInput>[0]>, string, string][] = [
      [{ title: '   ' }, 'title', NEWS_MESSAGES.titleRequired],
      [{ title: 'a'.repeat(NEWS_TITLE_MAX + 1) }, 'title', NEWS_MESSAGES.titleLong],
      [{ body: '' }, 'body', NEWS_MESSAGES.bodyRequired],
      [{ body: 'a'.repeat(NEWS_BODY_MAX + 1) }, 'body', NEWS_MESSAGES.bodyLong],
      [{ audience: { scope: 'groups', level_ids: [], course_ids: [] } }, 'audience', NEWS_MESSAGES.audienceEmpty],
      [{ publish_at: new Date(now - 2 * HOUR).toISOString() }, 'publish_at', NEWS_MESSAGES.publishPast],
      [{ publish_at: 'mañana' }, 'publish_at', NEWS_MESSAGES.dateInvalid],
      [{ ends_at: new Date(now - HOUR).toISOString() }, 'ends_at', NEWS_MESSAGES.endsPast],
      [
        { publish_at: new Date(now + 5 * HOUR).toISOString(), ends_at: new Date(now + 2 * HOUR).toISOString() },
        'ends_at',
        NEWS_MESSAGES.endsBeforePublish,
      ],
      [
        { attachment_ids: Array.from({ length: NEWS_ATTACHMENTS_MAX + 1 }, (_, i) => i + 1) },
        'attachment_ids',
        NEWS_MESSAGES.attachmentsMany,
      ],
    ];
    for (const [overrides, field, message] of cases) {
      const errors = await fieldErrors(await admin.post('/api/news', postInput(overrides)));
      expect({ field, errors: errors[field] }).toEqual({ field, errors: [message] });
    }
    // Wrong types, each with its own text.
    const typed = await fieldErrors(
      await admin.post('/api/news', {
        title: 3,
        body: [],
        category_id: 'x',
        audience: { scope: 'curso' },
        attachment_ids: 'a',
        pinned: 'sí',
        ends_at: 5,
      }),
    );
    expect(typed).toEqual({
      title: [NEWS_WRITE_MESSAGES.title],
      body: [NEWS_WRITE_MESSAGES.text],
      category_id: [NEWS_WRITE_MESSAGES.category],
      audience: [NEWS_WRITE_MESSAGES.audience],
      attachment_ids: [NEWS_WRITE_MESSAGES.attachments],
      ends_at: [NEWS_WRITE_MESSAGES.date],
      pinned: [NEWS_WRITE_MESSAGES.pinned],
    });
    expect(await fieldErrors(await json(admin, 'POST', '/api/news'))).toEqual({ title: [NEWS_WRITE_MESSAGES.body] });
    // An edit is checked the same way, merged over the stored post.
    const post = await created(admin);
    expect(await fieldErrors(await json(admin, 'PATCH', `/api/news/${post.id}`, { title: '' }))).toEqual({
      title: [NEWS_MESSAGES.titleRequired],
    });
    // Another user's upload of the same school is not the manager's to attach.
    const teacherFile = await uploadPng(await server.as(TEACHER));
    expect(await fieldErrors(await admin.post('/api/news', postInput({ attachment_ids: [teacherFile.id] })))).toEqual({
      attachment_ids: [NEWS_WRITE_MESSAGES.attachmentUnavailable],
    });
  });

  it('answers each bad query parameter', async () => {
    const admin = await server.as(ADMIN);
    expect(await fieldErrors(await admin.get('/api/news?status=todas'))).toEqual({ status: [NEWS_QUERY_MESSAGES.status] });
    expect(await fieldErrors(await admin.get('/api/news?cursor=nope!'))).toEqual({ cursor: [NEWS_QUERY_MESSAGES.cursor] });
    expect(await fieldErrors(await admin.get('/api/news?limit=0'))).toEqual({ limit: [NEWS_QUERY_MESSAGES.limit] });
    expect(await fieldErrors(await admin.get('/api/news?category=abc'))).toEqual({ category: [NEWS_QUERY_MESSAGES.category] });
    expect(await fieldErrors(await admin.get(`/api/news?q=${'a'.repeat(201)}`))).toEqual({ q: [NEWS_QUERY_MESSAGES.q] });
    expect(await fieldErrors(await admin.get('/api/news/week?date=2026-02-30'))).toEqual({ date: [WEEK_MESSAGES.date] });
    expect(await fieldErrors(await admin.get('/api/news/trash?limit=500'))).toEqual({ limit: [NEWS_QUERY_MESSAGES.limit] });
  });
});

describe('the wall', () => {
  it('pages pinned first, then newest, with the contract’s shape, and finds ignoring case and accents', async () => {
    const admin = await server.as(ADMIN);
    const word = 'Ñandú';
    const base = Date.now() + 60_000;
    // Published at distinct instants (then moved into the past), two of them pinned.
    const made: NewsPost[] = [];
    for (let i = 0; i < 7; i += 1) {
      made.push(
        await created(admin, {
          title: `Aviso ${i} del ${word}`,
          body: `Texto ${i}`,
          pinned: i === 1 || i === 4,
          publish_at: new Date(base + i * 1000).toISOString(),
        }),
      );
    }
    await server.db.execute(
      sql`update news_posts set publish_at = publish_at - interval '2 hours' where id in ${sql.raw(`(${made.map((p) => p.id).join(',')})`)}`,
    );
    const all = await walk(TEACHER, `?q=${encodeURIComponent('ÑANDU')}&limit=3`);
    expect(all.map((p) => p.id)).toEqual([made[4]!.id, made[1]!.id, made[6]!.id, made[5]!.id, made[3]!.id, made[2]!.id, made[0]!.id]);
    expect(all.slice(0, 2).every((p) => p.pinned)).toBe(true);
    const first = await page(TEACHER, `?q=${encodeURIComponent('nandú')}&limit=3`);
    expect(first.meta.total).toBe(7);
    expect(first.links.next).toContain('/api/news?');
    // Body text is searched too, and the accent of the query does not matter.
    const inBody = await created(admin, { title: 'Campeonato', body: 'Ganó la selección de Ñuñoa.' });
    expect((await page(TEACHER, '?q=nunoa')).data.map((p) => p.id)).toContain(inBody.id);
    // A LIKE wildcard in q is a plain character.
    expect((await page(TEACHER, `?q=${encodeURIComponent('%_%')}`)).data).toEqual([]);
  });

  it('filters by category', async () => {
    const admin = await server.as(ADMIN);
    const sport = await category(admin, 'Deportes del test');
    const inCat = await created(admin, { category_id: sport.id, title: 'Final de básquetbol' });
    await created(admin, { title: 'Otra cosa' });
    const data = (await page(TEACHER, `?category=${sport.id}`)).data;
    expect(data.map((p) => p.id)).toEqual([inCat.id]);
    expect(data[0]!.category).toEqual({ id: sport.id, name: 'Deportes del test' });
  });

  it('shows readers only what is on the wall; managers see every status with status=all', async () => {
    const admin = await server.as(ADMIN);
    const now = Date.now();
    const scheduled = await created(admin, { title: 'Programada', publish_at: new Date(now + 48 * HOUR).toISOString() });
    const ending = await created(admin, { title: 'Terminada', ends_at: new Date(now + HOUR).toISOString() });
    await server.db.execute(
      sql`update news_posts set publish_at = now() - interval '3 days', ends_at = now() - interval '1 day' where id = ${ending.id}`,
    );
    const unpublished = await created(admin, { title: 'Quitada' });
    const off = await dataOf<NewsPost>(await admin.post(`/api/news/${unpublished.id}/unpublish`));
    expect(off.status).toBe('unpublished');
    const live = await created(admin, { title: 'Publicada' });

    const readerIds = (await walk(TEACHER, '?limit=100')).map((p) => p.id);
    expect(readerIds).toContain(live.id);
    for (const p of [scheduled, ending, unpublished]) {
      expect(readerIds).not.toContain(p.id);
      expect((await (await server.as(TEACHER)).get(`/api/news/${p.id}`)).status).toBe(404);
    }
    const managerAll = await walk(ADMIN, '?status=all&limit=100');
    const statusOf = (id: number) => managerAll.find((p) => p.id === id)?.status;
    expect([statusOf(scheduled.id), statusOf(ending.id), statusOf(unpublished.id), statusOf(live.id)]).toEqual([
      'scheduled',
      'ended',
      'unpublished',
      'published',
    ]);
    // The managers' default is the wall as readers see it.
    expect((await walk(ADMIN, '?limit=100')).map((p) => p.id)).not.toContain(scheduled.id);

    // Publish again: back on the wall at the top of the unpinned, with the end date dropped.
    const back = await dataOf<NewsPost>(await admin.post(`/api/news/${ending.id}/publish`));
    expect([back.status, back.ends_at]).toEqual(['published', null]);
    expect((await dataOf<NewsPost>(await admin.post(`/api/news/${unpublished.id}/publish`))).status).toBe('published');
    // A scheduled post keeps its date when put back.
    await dataOf(await admin.post(`/api/news/${scheduled.id}/unpublish`));
    const again = await dataOf<NewsPost>(await admin.post(`/api/news/${scheduled.id}/publish`));
    expect([again.status, again.publish_at]).toEqual(['scheduled', scheduled.publish_at]);
    // What the lifecycle does not allow is a 409.
    const illegal = await errorOf(await admin.post(`/api/news/${live.id}/publish`), 409, 'message.illegal_transition');
    expect(illegal.message).toBe(NEWS_WRITE_MESSAGES.illegalPublish);
  });

  it('answers a post with audience names and its files, checked by the contract’s struct', async () => {
    const admin = await server.as(ADMIN);
    const sa = await one<{ level: number; level_name: string; course: number; course_name: string }>(
      server.db,
      sql`select l.id as level, l.name as level_name, c.id as course, c.name as course_name from courses c
          join levels l on l.id = c.level_id join users u on u.institution_id = c.institution_id
          where u.email = ${ADMIN} order by l.position desc, c.name limit 1`,
    );
    const image = await uploadPng(admin, 'cancha.png');
    const doc = await uploadOk(admin, 'circular.pdf', 'application/pdf', new Uint8Array(new TextEncoder().encode('%PDF-1.4\nhola')));
    const res = await admin.post(
      '/api/news',
      postInput({
        audience: { scope: 'groups', level_ids: [sa.level], course_ids: [sa.course] },
        attachment_ids: [image.id, doc.id],
      }),
    );
    expect(res.status).toBe(201);
    const body = await res.json();
    assert(body, NewsPostBodyStruct);
    const post = (body as { data: NewsPost }).data;
    expect(post.audience).toEqual({ scope: 'groups', level_ids: [sa.level], course_ids: [sa.course] });
    expect(post.audience_names).toEqual([sa.level_name, sa.course_name]);
    expect(post.attachments.map((a) => [a.name, a.is_image, a.url])).toEqual([
      ['cancha.png', true, `/attachments/${image.id}`],
      ['circular.pdf', false, `/attachments/${doc.id}`],
    ]);
    // Staff on latam see it whatever its audience.
    expect((await (await server.as(TEACHER)).get(`/api/news/${post.id}`)).status).toBe(200);
  });
});

describe('trash, restore and delete forever', () => {
  it('moves a post to the trash with who and when, restores it as it was, and deletes it forever with its files', async () => {
    const admin = await server.as(ADMIN);
    const file = await uploadPng(admin);
    const post = await created(admin, { title: 'A la papelera', pinned: true, attachment_ids: [file.id] });
    const disk = await fileOnDisk(file.id);
    expect(disk && existsSync(disk)).toBe(true);
    // Only a trashed post may be deleted forever.
    const early = await errorOf(await json(admin, 'DELETE', `/api/news/${post.id}/forever`), 409, 'message.illegal_transition');
    expect(early.message).toBe(NEWS_WRITE_MESSAGES.illegalForever);

    const trashed = await dataOf<NewsPost>(await json(await server.as(DIRECTOR), 'DELETE', `/api/news/${post.id}`));
    expect(trashed.status).toBe('deleted');
    expect(trashed.deleted_by?.name).toBeTruthy();
    expect(Date.parse(trashed.deleted_at!)).toBeGreaterThan(Date.now() - 60_000);
    expect((await walk(ADMIN, '?status=all&limit=100')).map((p) => p.id)).not.toContain(post.id);
    expect((await admin.get(`/api/news/${post.id}`)).status).toBe(404);
    const trash = await admin.get('/api/news/trash');
    const trashBody = (await trash.json()) as Paged<NewsPost>;
    assert(trashBody, NewsPageStruct);
    expect(trashBody.data[0]!.id).toBe(post.id);
    // The manager may still open its files from the trash; a reader may not.
    expect((await admin.get(`/api/attachments/${file.id}`)).status).toBe(200);
    expect((await (await server.as(TEACHER)).get(`/api/attachments/${file.id}`)).status).toBe(404);
    // Trashing twice is not a thing: it is not found among the live ones.
    expect((await json(admin, 'DELETE', `/api/news/${post.id}`)).status).toBe(404);

    const restored = await dataOf<NewsPost>(await admin.post(`/api/news/${post.id}/restore`));
    expect([restored.status, restored.pinned, restored.deleted_at, restored.deleted_by]).toEqual(['published', true, null, null]);
    await errorOf(await admin.post(`/api/news/${post.id}/restore`), 409, 'message.illegal_transition');

    await dataOf(await json(admin, 'DELETE', `/api/news/${post.id}`));
    expect((await json(admin, 'DELETE', `/api/news/${post.id}/forever`)).status).toBe(204);
    expect(await count(server.db, sql`select count(*) as n from news_posts where id = ${post.id}`)).toBe(0);
    expect(await count(server.db, sql`select count(*) as n from message_attachments where id = ${file.id}`)).toBe(0);
    expect(existsSync(disk!)).toBe(false);
    expect((await admin.get(`/api/attachments/${file.id}`)).status).toBe(404);
  });
});

describe('a post’s files', () => {
  it('download for latam staff while the post is on the wall, for managers in any status, never for device cl', async () => {
    const admin = await server.as(ADMIN);
    const file = await uploadPng(admin, 'acto.png');
    const post = await created(admin, { attachment_ids: [file.id] });
    const teacher = await server.as(TEACHER);
    const res = await teacher.get(`/api/attachments/${file.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(
      Buffer.from(await res.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    expect((await (await server.as(TEACHER_CL)).get(`/api/attachments/${file.id}`)).status).toBe(404);
    await dataOf(await admin.post(`/api/news/${post.id}/unpublish`));
    expect((await teacher.get(`/api/attachments/${file.id}`)).status).toBe(404);
    expect((await (await server.as(DIRECTOR)).get(`/api/attachments/${file.id}`)).status).toBe(200);
    // Its uploader gets no way around the rule: taken off latam, the file is not theirs to download either.
    await server.db.execute(sql`update users set device = 'cl' where email = ${ADMIN}`);
    try {
      expect((await admin.get(`/api/attachments/${file.id}`)).status).toBe(404);
    } finally {
      await server.db.execute(sql`update users set device = 'latam' where email = ${ADMIN}`);
    }
  });

  it('are not deleted through DELETE /attachments/:id, nor taken by a message, nor swept as abandoned uploads', async () => {
    const admin = await server.as(ADMIN);
    const file = await uploadPng(admin);
    await created(admin, { attachment_ids: [file.id] });
    const refused = await errorOf(await json(admin, 'DELETE', `/api/attachments/${file.id}`), 409, 'attachment.in_use');
    expect(refused.message).toContain('publicación del mural');
    // A message cannot take it (it would leave the post without it).
    const sent = await send(admin, composeInput({ attachment_ids: [file.id] }));
    expect((await fieldErrors(sent)).attachments).toEqual([COMPOSE_MESSAGES.attachmentsForeign]);
    // The week-old uploads sweep leaves it, even when older than a week.
    await server.db.execute(sql`update message_attachments set created_at = now() - interval '30 days' where id = ${file.id}`);
    await deleteAbandonedUploads(server.db, new AttachmentStore(server.attachmentsDir), new Date());
    expect(await count(server.db, sql`select count(*) as n from message_attachments where id = ${file.id}`)).toBe(1);
    expect(existsSync((await fileOnDisk(file.id))!)).toBe(true);
  });

  it('PATCH replaces the list: kept files stay, removed ones are deleted with their bytes', async () => {
    const admin = await server.as(ADMIN);
    const [a, b, c] = [await uploadPng(admin, 'a.png'), await uploadPng(admin, 'b.png'), await uploadPng(admin, 'c.png')];
    const post = await created(admin, { attachment_ids: [a.id, b.id] });
    const diskA = await fileOnDisk(a.id);
    // Another manager edits: the post's own files are usable by anyone managing it, new ones only by their uploader.
    const edited = await dataOf<NewsPost>(await json(admin, 'PATCH', `/api/news/${post.id}`, { attachment_ids: [b.id, c.id] }));
    expect(edited.attachments.map((f) => f.id)).toEqual([b.id, c.id]);
    expect(existsSync(diskA!)).toBe(false);
    expect(await count(server.db, sql`select count(*) as n from message_attachments where id = ${a.id}`)).toBe(0);
    const byDirector = await dataOf<NewsPost>(
      await json(await server.as(DIRECTOR), 'PATCH', `/api/news/${post.id}`, { attachment_ids: [c.id] }),
    );
    expect(byDirector.attachments.map((f) => f.id)).toEqual([c.id]);
    // A file of another post is not this one's to take.
    const other = await created(admin, { title: 'Otra' });
    expect(await fieldErrors(await json(admin, 'PATCH', `/api/news/${other.id}`, { attachment_ids: [c.id] }))).toEqual({
      attachment_ids: [NEWS_WRITE_MESSAGES.attachmentUnavailable],
    });
  });
});

describe('GET /news/week', () => {
  it('is the Monday–Sunday week in the school’s zone with the posts on the wall then and the wall’s address', async () => {
    const admin = await server.as(ADMIN);
    const inWeek = await created(admin, { title: 'De esta semana' });
    const old = await created(admin, { title: 'De hace un mes' });
    await server.db.execute(
      sql`update news_posts set publish_at = now() - interval '40 days', ends_at = now() - interval '30 days' where id = ${old.id}`,
    );
    const res = await (await server.as(TEACHER)).get('/api/news/week');
    expect(res.status).toBe(200);
    const body = await res.json();
    assert(body, NewsWeekBodyStruct);
    const week = (body as { data: NewsWeek }).data;
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Santiago' }).format(new Date());
    expect(week.from <= today && today <= week.to).toBe(true);
    expect(new Date(`${week.from}T12:00:00Z`).getUTCDay()).toBe(1);
    expect(new Date(`${week.to}T12:00:00Z`).getUTCDay()).toBe(0);
    expect(week.wall_url).toBe(`${server.url}/mural/news`);
    expect(week.school).toBe('Colegio San Andrés de Ñuñoa');
    expect(week.posts.map((p) => p.id)).toContain(inWeek.id);
    expect(week.posts.map((p) => p.id)).not.toContain(old.id);
    // The week it was published in holds it.
    const then = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Santiago' }).format(new Date(Date.now() - 40 * 86_400_000));
    const past = await dataOf<NewsWeek>(await admin.get(`/api/news/week?date=${then}`));
    expect(past.posts.map((p) => p.id)).toContain(old.id);
    expect(past.posts.map((p) => p.id)).not.toContain(inWeek.id);
    expect((await dataOf<NewsWeek>(await admin.get('/api/news/week?date=2026-03-04'))).from).toBe('2026-03-02');
  });

  it('lists the posts published that week in the school’s zone, not older ones still on the wall', async () => {
    const admin = await server.as(ADMIN);
    const at = async (title: string, publishAt: string, pinned = false) => {
      const post = await created(admin, { title, pinned });
      await server.db.execute(sql`update news_posts set publish_at = ${publishAt}::timestamptz where id = ${post.id}`);
      return post.id;
    };
    // Santiago is UTC−3 in March 2026: the week of 2026-03-04 runs from 2026-03-02T03:00Z to 2026-03-09T03:00Z.
    const stillUp = await at('Publicada dos semanas antes y aún en el mural', '2026-02-16T15:00:00Z', true);
    const sundayBefore = await at('Domingo anterior a las 23:30', '2026-03-02T02:30:00Z');
    const mondayEarly = await at('Lunes a las 00:30', '2026-03-02T03:30:00Z');
    const midweek = await at('Miércoles al mediodía', '2026-03-04T15:00:00Z');
    const pinnedMidweek = await at('Destacada del jueves', '2026-03-05T15:00:00Z', true);
    const sundayLate = await at('Domingo a las 23:30', '2026-03-09T02:30:00Z');
    const nextMonday = await at('Lunes siguiente a las 00:30', '2026-03-09T03:30:00Z');

    const week = await dataOf<NewsWeek>(await (await server.as(TEACHER)).get('/api/news/week?date=2026-03-04'));
    expect([week.from, week.to]).toEqual(['2026-03-02', '2026-03-08']);
    // Pinned first, then newest; nothing from before Monday or after Sunday, however long it stays up.
    expect(week.posts.map((p) => p.id)).toEqual([pinnedMidweek, sundayLate, midweek, mondayEarly]);
    for (const id of [stillUp, sundayBefore, nextMonday]) expect(week.posts.map((p) => p.id)).not.toContain(id);
    // The previous week holds its Sunday night's post, and the one still up two weeks later only its own week.
    const before = await dataOf<NewsWeek>(await admin.get('/api/news/week?date=2026-03-01'));
    expect(before.posts.map((p) => p.id)).toEqual([sundayBefore]);
    const next = await dataOf<NewsWeek>(await admin.get('/api/news/week?date=2026-03-09'));
    expect(next.posts.map((p) => p.id)).toEqual([nextMonday]);
  });
});
