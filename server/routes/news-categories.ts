// `/news-categories` (shared/news-contract.ts NEWS_API): the school's categories by position for every
// latam staff user; create, rename, reorder and delete for the managers (NEWSFEED_ROLES). A category
// posts still use (the trash included) is not deleted: 409 `news.category_in_use` saying how many.
// Rules in server/news/categories.ts.
import { Hono } from 'hono';
import { NEWSFEED_ROLES } from '../../shared/codes';
import { NEWS_TEXTS } from '../../shared/news-contract';
import type { Db } from '../db/client';
import { requireAuth } from '../http/auth';
import { requireDevice } from '../http/device';
import type { AppEnv } from '../http/env';
import { apiError, invalid, notFound, readJson } from '../http/errors';
import { parseId } from '../http/params';
import { requireRole } from '../http/roles';
import { deleteCategory, listCategories, orderCategories, readName, saveCategory } from '../news/categories';

export function newsCategoryRoutes(db: Db): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('*', requireAuth(db), requireDevice(db, 'latam'));
  const manage = requireRole(...NEWSFEED_ROLES);

  app.get('/', async (c) => c.json({ data: await listCategories(db, c.var.auth.institutionId) }));

  app.post('/', manage, async (c) => {
    const name = readName(await readJson(c));
    if (!name.ok) return invalid(c, name.errors);
    const saved = await saveCategory(db, c.var.auth.institutionId, null, name.name);
    if (saved.kind === 'invalid') return invalid(c, saved.errors);
    if (saved.kind === 'not_found') return notFound(c);
    return c.json({ data: saved.category }, 201);
  });

  // Before `/:id`.
  app.put('/order', manage, async (c) => {
    const ordered = await orderCategories(db, c.var.auth.institutionId, await readJson(c));
    if (ordered.kind === 'invalid') return invalid(c, ordered.errors);
    if (ordered.kind === 'not_found') return notFound(c);
    return c.json({ data: ordered.categories });
  });

  app.patch('/:id', manage, async (c) => {
    const id = parseId(c.req.param('id'));
    if (id === null) return notFound(c);
    const name = readName(await readJson(c));
    if (!name.ok) return invalid(c, name.errors);
    const saved = await saveCategory(db, c.var.auth.institutionId, id, name.name);
    if (saved.kind === 'invalid') return invalid(c, saved.errors);
    if (saved.kind === 'not_found') return notFound(c);
    return c.json({ data: saved.category });
  });

  app.delete('/:id', manage, async (c) => {
    const id = parseId(c.req.param('id'));
    if (id === null) return notFound(c);
    const outcome = await deleteCategory(db, c.var.auth.institutionId, id);
    if (outcome.kind === 'not_found') return notFound(c);
    if (outcome.kind === 'in_use') return apiError(c, 409, 'news.category_in_use', NEWS_TEXTS.categoryInUse(outcome.posts));
    return c.body(null, 204);
  });

  return app;
}
