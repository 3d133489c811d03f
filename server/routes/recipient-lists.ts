// The signed-in user's saved recipient lists (`GET /recipient-lists`, paged) and a list's members
// (`GET /recipient-lists/:id/users`). Another user's list, or another school's, is a 404. The queries live
// in server/compose/lists.ts.
import { Hono } from 'hono';
import { COMPOSE_API, type NumberedPage, type RecipientList } from '../../shared/compose-contract';
import { listRecipientLists, listUsers } from '../compose/lists';
import type { Db } from '../db/client';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/env';
import { invalid, notFound } from '../http/errors';
import { intParam, parseId } from '../http/params';

export const DEFAULT_PER_PAGE = 15;
export const MAX_PER_PAGE = 100;
/** Far beyond any real number of lists; keeps OFFSET and the link arithmetic in safe integers. */
const MAX_PAGE = 100_000;

const VALIDATION = {
  page: `La página debe ser un número entero entre 1 y ${MAX_PAGE}.`,
  perPage: `La cantidad por página debe ser un número entero entre 1 y ${MAX_PER_PAGE}.`,
} as const;

const listsLink = (page: number, perPage: number) => `/api${COMPOSE_API.recipientLists}?page=${page}&per_page=${perPage}`;

export function recipientListRoutes(db: Db): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // Auth per route, not `use('*')`: an unknown path under the prefix stays a 404 for anyone, as it always was.
  const auth = requireAuth(db);

  app.get('/', auth, async (c) => {
    const page = intParam(c.req.query('page'), 1, MAX_PAGE);
    const perPage = intParam(c.req.query('per_page'), DEFAULT_PER_PAGE, MAX_PER_PAGE);
    const errors: Record<string, string[]> = {};
    if (page === null) errors.page = [VALIDATION.page];
    if (perPage === null) errors.per_page = [VALIDATION.perPage];
    if (page === null || perPage === null) return invalid(c, errors);

    const { items, total } = await listRecipientLists(db, c.var.auth.userId, c.var.auth.institutionId, page, perPage);
    const lastPage = Math.max(1, Math.ceil(total / perPage));
    const body: NumberedPage<RecipientList> = {
      data: items,
      meta: { current_page: page, last_page: lastPage, per_page: perPage, total },
      links: {
        next: page < lastPage ? listsLink(page + 1, perPage) : null,
        // Past the end, "previous" is the last real page, so a stale link still leads somewhere useful.
        prev: page > 1 ? listsLink(Math.min(page - 1, lastPage), perPage) : null,
      },
    };
    return c.json(body);
  });

  app.get('/:id/users', auth, async (c) => {
    const id = parseId(c.req.param('id'));
    if (id === null) return notFound(c);
    const users = await listUsers(db, c.var.auth.userId, c.var.auth.institutionId, id);
    return users ? c.json({ data: users }) : notFound(c);
  });

  return app;
}
