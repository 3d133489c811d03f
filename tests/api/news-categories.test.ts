// The news wall's categories (NEWS_API.categories) against the real server: listed by position with their
// post count (the trash included), created last, renamed, names checked with their Spanish texts (folded
// duplicates too), the whole order set at once (every category exactly once), and deletion refused while
// posts use the category, saying how many, then allowed once none does.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NEWS_CATEGORY_NAME_MAX, NEWS_TEXTS, type NewsCategory } from '../../shared/news-contract';
import { NEWS_MESSAGES } from '../../shared/news-rules';
import { NewsCategoriesBodyStruct } from '../../shared/news-structs';
import { assert } from 'superstruct';
import { CATEGORY_MESSAGES } from '../../server/news/categories';
import {
  ADMIN,
  category,
  created,
  dataOf,
  DIRECTOR,
  errorOf,
  fieldErrors,
  institutionOf,
  json,
  startNewsServer,
  TEACHER,
  type NewsServer,
} from './support/news';

let server: NewsServer;

beforeAll(async () => {
  server = await startNewsServer();
  // The tests count and order from a clean slate (the seed's demo categories would be in the way).
  const school = await institutionOf(server.db, ADMIN);
  await server.db.execute(sql`update news_posts set category_id = null where institution_id = ${school}`);
  await server.db.execute(sql`delete from news_categories where institution_id = ${school}`);
});
afterAll(async () => {
  await server?.close();
});

async function list(email = TEACHER): Promise<NewsCategory[]> {
  const res = await (await server.as(email)).get('/api/news-categories');
  expect(res.status).toBe(200);
  const body = await res.json();
  assert(body, NewsCategoriesBodyStruct);
  return (body as { data: NewsCategory[] }).data;
}

describe('news categories', () => {
  it('creates at the last position, renames, and lists by position for every latam reader', async () => {
    const admin = await server.as(ADMIN);
    const a = await category(admin, '  Comunicados ');
    const b = await category(admin, 'Eventos');
    expect([a.name, a.position, a.post_count, b.position]).toEqual(['Comunicados', 1, 0, 2]);
    const renamed = await dataOf<NewsCategory>(
      await json(await server.as(DIRECTOR), 'PATCH', `/api/news-categories/${b.id}`, { name: 'Eventos y actos' }),
    );
    expect(renamed).toEqual({ id: b.id, name: 'Eventos y actos', position: 2, post_count: 0 });
    // Renaming to its own name (another case) is not a clash with itself.
    expect((await json(admin, 'PATCH', `/api/news-categories/${b.id}`, { name: 'EVENTOS Y ACTOS' })).status).toBe(200);
    expect((await list()).map((c) => c.name)).toEqual(['Comunicados', 'EVENTOS Y ACTOS']);
  });

  it('checks names with the shared texts, duplicates ignoring case and accents', async () => {
    const admin = await server.as(ADMIN);
    await category(admin, 'Convivencia escolar');
    expect(await fieldErrors(await admin.post('/api/news-categories', { name: '   ' }))).toEqual({
      name: [NEWS_MESSAGES.categoryRequired],
    });
    expect(await fieldErrors(await admin.post('/api/news-categories', {}))).toEqual({ name: [NEWS_MESSAGES.categoryRequired] });
    expect(await fieldErrors(await admin.post('/api/news-categories', { name: 'x'.repeat(NEWS_CATEGORY_NAME_MAX + 1) }))).toEqual({
      name: [NEWS_MESSAGES.categoryLong],
    });
    expect(await fieldErrors(await admin.post('/api/news-categories', { name: 'convivéncia ESCOLAR' }))).toEqual({
      name: [NEWS_MESSAGES.categoryTaken],
    });
    expect(await fieldErrors(await admin.post('/api/news-categories', { name: 7 }))).toEqual({ name: [CATEGORY_MESSAGES.name] });
    const other = await category(admin, 'Logros');
    expect(await fieldErrors(await json(admin, 'PATCH', `/api/news-categories/${other.id}`, { name: 'Convivencia Escolar' }))).toEqual({
      name: [NEWS_MESSAGES.categoryTaken],
    });
  });

  it('sets the order of every category at once, or 422 when one is missing or repeated', async () => {
    const admin = await server.as(ADMIN);
    const ids = (await list()).map((c) => c.id);
    const reversed = [...ids].reverse();
    const ordered = await dataOf<NewsCategory[]>(await json(admin, 'PUT', '/api/news-categories/order', { ids: reversed }));
    expect(ordered.map((c) => [c.id, c.position])).toEqual(reversed.map((id, i) => [id, i + 1]));
    expect((await list()).map((c) => c.id)).toEqual(reversed);
    for (const body of [{ ids: reversed.slice(1) }, { ids: [...reversed, reversed[0]] }, { ids: 'todas' }, {}]) {
      expect(await fieldErrors(await json(admin, 'PUT', '/api/news-categories/order', body))).toEqual({ ids: [CATEGORY_MESSAGES.ids] });
    }
    expect((await list()).map((c) => c.id)).toEqual(reversed);
  });

  it('refuses to delete a category posts use (trash included) with the count, then deletes it', async () => {
    const admin = await server.as(ADMIN);
    const cat = await category(admin, 'Deportes');
    const one = await created(admin, { category_id: cat.id });
    const two = await created(admin, { category_id: cat.id });
    await dataOf(await json(admin, 'DELETE', `/api/news/${two.id}`));
    expect((await list()).find((c) => c.id === cat.id)?.post_count).toBe(2);
    const refused = await errorOf(await json(admin, 'DELETE', `/api/news-categories/${cat.id}`), 409, 'news.category_in_use');
    expect(refused.message).toBe(NEWS_TEXTS.categoryInUse(2));
    expect(refused.message).toContain('2 publicaciones');
    await dataOf(await json(admin, 'PATCH', `/api/news/${one.id}`, { category_id: null }));
    const single = await errorOf(await json(admin, 'DELETE', `/api/news-categories/${cat.id}`), 409, 'news.category_in_use');
    expect(single.message).toBe(NEWS_TEXTS.categoryInUse(1));
    expect(single.message).toContain('1 publicación;');
    expect((await json(admin, 'DELETE', `/api/news/${two.id}/forever`)).status).toBe(204);
    expect((await json(admin, 'DELETE', `/api/news-categories/${cat.id}`)).status).toBe(204);
    expect((await list()).some((c) => c.id === cat.id)).toBe(false);
    expect((await json(admin, 'DELETE', `/api/news-categories/${cat.id}`)).status).toBe(404);
    // Positions stay 1..n after a deletion.
    expect((await list()).map((c) => c.position)).toEqual((await list()).map((_, i) => i + 1));
  });
});
