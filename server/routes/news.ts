// `/news` (shared/news-contract.ts NEWS_API): the wall's pages, one post, the printable week, and for the
// managers (NEWSFEED_ROLES) compose, edit, unpublish / publish, the trash, restore and delete forever.
// Every call: signed in (401), device latam (403 `news.device`); managing calls add the role (403
// `auth.forbidden`). Another school's post, category, level, course or file is a 404. Rules and SQL are
// in server/news/.
import { Hono, type Context } from 'hono';
import { NEWSFEED_ROLES } from '../../shared/codes';
import type { Paged } from '../../shared/messages-contract';
import { NEWS_API, NEWS_PAGE_SIZE, type NewsPost } from '../../shared/news-contract';
import { isNewsManager } from '../../shared/news-rules';
import type { ServerConfig } from '../config';
import type { Db } from '../db/client';
import { requireAuth } from '../http/auth';
import { requireDevice } from '../http/device';
import type { AppEnv } from '../http/env';
import { apiError, invalid, notFound, readJson } from '../http/errors';
import { intParam, parseId } from '../http/params';
import { requireRole } from '../http/roles';
import { listCategories } from '../news/categories';
import { decodeWallCursor, findPost, listTrash, listWall, readPost, weekPosts, type NewsReader, type WallCursor } from '../news/posts';
import { parseDay, schoolWeek, WEEK_MESSAGES } from '../news/week';
import { deleteForever, movePost, NEWS_WRITE_MESSAGES, parseNewsInput, savePost, type Transition } from '../news/write';
import type { AttachmentStore } from '../storage/attachments';
import { type FieldErrors, hasFieldErrors } from '../http/field-errors';

const MAX_LIMIT = 100;
const MAX_Q_LENGTH = 200;

export const NEWS_QUERY_MESSAGES = {
  category: 'La categoría del filtro no es válida.',
  status: 'El estado debe ser «live» o «all».',
  cursor: 'El cursor no es válido.',
  limit: `El límite debe ser un número entero entre 1 y ${MAX_LIMIT}.`,
  q: `La búsqueda puede tener hasta ${MAX_Q_LENGTH} caracteres.`,
} as const;

/**
 * Where the wall is, for the week's QR code: the address this request came to (as the browser sees it:
 * behind a trusted proxy, its X-Forwarded-Proto / -Host), which is where families must land.
 */
function wallUrl(c: Context, config: ServerConfig): string {
  const url = new URL(c.req.url);
  const host = config.trustProxy ? c.req.header('X-Forwarded-Host')?.split(',')[0]?.trim() : undefined;
  const proto = config.trustProxy ? c.req.header('X-Forwarded-Proto')?.split(',')[0]?.trim() : undefined;
  const scheme = proto === 'http' || proto === 'https' ? proto : url.protocol.slice(0, -1);
  const origin = host && /^[a-z0-9.:[\]-]+$/i.test(host) ? `${scheme}://${host}` : url.origin;
  return `${origin}/mural/news`;
}

export function newsRoutes(db: Db, store: AttachmentStore, config: ServerConfig, now: () => Date = () => new Date()): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('*', requireAuth(db), requireDevice(db, 'latam'));
  const manage = requireRole(...NEWSFEED_ROLES);
  const readerOf = (c: Context<AppEnv>): NewsReader => ({
    kind: 'staff',
    institutionId: c.var.auth.institutionId,
    manager: isNewsManager(c.var.auth.roles),
  });
  const managerOf = (c: Context<AppEnv>) => ({ userId: c.var.auth.userId, institutionId: c.var.auth.institutionId });
  const paged = (
    c: Context,
    page: { items: NewsPost[]; nextCursor: string | null; total: number },
    limit: number,
    link: (cursor: string) => string,
  ) => {
    const body: Paged<NewsPost> = {
      data: page.items,
      meta: { per_page: limit, next_cursor: page.nextCursor, prev_cursor: null, total: page.total },
      links: { next: page.nextCursor ? link(page.nextCursor) : null, prev: null },
    };
    return c.json(body);
  };
  const readCursor = (errors: FieldErrors, raw: string | undefined): WallCursor | null => {
    const cursor = raw ? decodeWallCursor(raw) : null;
    if (raw && !cursor) errors.cursor = [NEWS_QUERY_MESSAGES.cursor];
    return cursor;
  };
  const postAnswer = async (c: Context<AppEnv>, id: number, status: 200 | 201 = 200) => {
    const post = await readPost(db, readerOf(c), id, now());
    return post ? c.json({ data: post }, status) : notFound(c);
  };

  app.get('/', async (c) => {
    const errors: FieldErrors = {};
    const categoryRaw = c.req.query('category');
    const categoryId = categoryRaw === undefined || categoryRaw === '' ? null : parseId(categoryRaw);
    if (categoryRaw && categoryId === null) errors.category = [NEWS_QUERY_MESSAGES.category];
    const status = c.req.query('status') || 'live';
    if (status !== 'live' && status !== 'all') errors.status = [NEWS_QUERY_MESSAGES.status];
    const limit = intParam(c.req.query('limit'), NEWS_PAGE_SIZE, MAX_LIMIT);
    if (limit === null) errors.limit = [NEWS_QUERY_MESSAGES.limit];
    const cursor = readCursor(errors, c.req.query('cursor'));
    const q = c.req.query('q') ?? '';
    if (q.length > MAX_Q_LENGTH) errors.q = [NEWS_QUERY_MESSAGES.q];
    if (limit === null || hasFieldErrors(errors)) return invalid(c, errors);
    const reader = readerOf(c);
    // Scheduled, ended and unpublished posts are the managers' desk.
    if (status === 'all' && !(reader.kind === 'staff' && reader.manager))
      return apiError(c, 403, 'auth.forbidden', 'No tienes permiso para ver las publicaciones que no están en el mural.');
    if (categoryId !== null) {
      const mine = await listCategories(db, reader.institutionId);
      if (!mine.some((k) => k.id === categoryId)) return notFound(c);
    }
    const page = await listWall(db, reader, { categoryId, q, all: status === 'all', limit, cursor }, now());
    return paged(c, page, limit, (next) => {
      const params = new URLSearchParams();
      if (categoryId !== null) params.set('category', String(categoryId));
      if (q) params.set('q', q);
      if (status === 'all') params.set('status', 'all');
      params.set('limit', String(limit));
      params.set('cursor', next);
      return `/api${NEWS_API.news}?${params}`;
    });
  });

  app.get('/week', async (c) => {
    const raw = c.req.query('date');
    const day = raw ? parseDay(raw) : null;
    if (raw && day === null) return invalid(c, { date: [WEEK_MESSAGES.date] });
    const at = now();
    const week = await schoolWeek(db, c.var.auth.institutionId, day, at);
    const posts = await weekPosts(db, readerOf(c), week.start, week.end, at);
    return c.json({ data: { from: week.from, to: week.to, school: week.school, wall_url: wallUrl(c, config), posts } });
  });

  app.get('/trash', manage, async (c) => {
    const errors: FieldErrors = {};
    const limit = intParam(c.req.query('limit'), NEWS_PAGE_SIZE, MAX_LIMIT);
    if (limit === null) errors.limit = [NEWS_QUERY_MESSAGES.limit];
    const cursor = readCursor(errors, c.req.query('cursor'));
    if (limit === null || hasFieldErrors(errors)) return invalid(c, errors);
    const page = await listTrash(db, readerOf(c), limit, cursor, now());
    return paged(c, page, limit, (next) => `/api${NEWS_API.trash}?limit=${limit}&cursor=${next}`);
  });

  app.get('/:id', async (c) => {
    const id = parseId(c.req.param('id'));
    const post = id === null ? null : await findPost(db, readerOf(c), id, now());
    return post ? c.json({ data: post }) : notFound(c);
  });

  app.post('/', manage, async (c) => {
    const input = parseNewsInput(await readJson(c), 'create');
    if (!input.ok) return invalid(c, input.errors);
    const saved = await savePost(db, managerOf(c), null, input.value, now());
    if (saved.kind === 'not_found') return notFound(c);
    if (saved.kind === 'invalid') return invalid(c, saved.errors);
    return postAnswer(c, saved.id, 201);
  });

  app.patch('/:id', manage, async (c) => {
    const id = parseId(c.req.param('id'));
    if (id === null) return notFound(c);
    const input = parseNewsInput(await readJson(c), 'update');
    if (!input.ok) return invalid(c, input.errors);
    const saved = await savePost(db, managerOf(c), id, input.value, now());
    if (saved.kind === 'not_found') return notFound(c);
    if (saved.kind === 'invalid') return invalid(c, saved.errors);
    // After commit: the files the edit took off the post.
    await store.remove(saved.removedKeys);
    return postAnswer(c, saved.id);
  });

  const transition = (to: Transition, illegal: string) => async (c: Context<AppEnv>) => {
    const id = parseId(c.req.param('id'));
    if (id === null) return notFound(c);
    const outcome = await movePost(db, managerOf(c), id, to, now());
    if (outcome === 'not_found') return notFound(c);
    if (outcome === 'illegal') return apiError(c, 409, 'message.illegal_transition', illegal);
    return postAnswer(c, id);
  };
  app.post('/:id/unpublish', manage, transition('unpublish', NEWS_WRITE_MESSAGES.illegalUnpublish));
  app.post('/:id/publish', manage, transition('publish', NEWS_WRITE_MESSAGES.illegalPublish));
  app.post('/:id/restore', manage, transition('restore', NEWS_WRITE_MESSAGES.illegalRestore));
  app.delete('/:id/forever', manage, async (c) => {
    const id = parseId(c.req.param('id'));
    if (id === null) return notFound(c);
    const outcome = await deleteForever(db, store, managerOf(c), id);
    if (outcome === 'not_found') return notFound(c);
    if (outcome === 'illegal') return apiError(c, 409, 'message.illegal_transition', NEWS_WRITE_MESSAGES.illegalForever);
    return c.body(null, 204);
  });
  // A post already in the trash is not found here: deleting it again is "delete forever", its own call.
  app.delete('/:id', manage, async (c) => {
    const id = parseId(c.req.param('id'));
    if (id === null) return notFound(c);
    const outcome = await movePost(db, managerOf(c), id, 'trash', now());
    if (outcome !== 'ok') return notFound(c);
    return postAnswer(c, id);
  });

  return app;
}
