// Reception status of a sent message and "retry failed" (shared/reception-contract.ts), for its author
// only: anyone else, other schools included, gets 404. Mounted inside messageRoutes, whose requireAuth
// covers it. The rules live in server/delivery/reception.ts.
import { Hono } from 'hono';
import { RECEPTION_API, RECEPTION_FILTERS, type ReceptionFilter, type ReceptionPage, type RetryResult } from '../../shared/reception-contract';
import { SEND_MESSAGES } from '../compose/send';
import type { Db } from '../db/client';
import { findOwnSent, progressOf, receptionPage, retryFailed } from '../delivery/reception';
import type { DeliveryEngine } from '../delivery/engine-contract';
import type { AppEnv } from '../http/env';
import { apiError, invalid, notFound } from '../http/errors';
import { intParam, parseId } from '../http/params';

export const DEFAULT_PER_PAGE = 50;
export const MAX_PER_PAGE = 100;
const MAX_Q_LENGTH = 200;
const MAX_PAGE = 1_000_000;

const VALIDATION = {
  status: `El estado debe ser uno de: ${RECEPTION_FILTERS.join(', ')}.`,
  page: 'La página debe ser un número entero mayor que 0.',
  perPage: `La cantidad por página debe ser un número entero entre 1 y ${MAX_PER_PAGE}.`,
  q: `La búsqueda no puede superar los ${MAX_Q_LENGTH} caracteres.`,
} as const;

function pageLink(id: number, status: ReceptionFilter, q: string, page: number, perPage: number): string {
  const params = new URLSearchParams();
  if (status !== 'all') params.set('status', status);
  if (q) params.set('q', q);
  params.set('page', String(page));
  params.set('per_page', String(perPage));
  return `/api${RECEPTION_API.page(id)}?${params}`;
}

export function receptionRoutes(db: Db, engine: DeliveryEngine): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get('/:id/reception', async (c) => {
    const id = parseId(c.req.param('id'));
    if (id === null) return notFound(c);
    const errors: Record<string, string[]> = {};
    const status = c.req.query('status') || 'all';
    if (!(RECEPTION_FILTERS as readonly string[]).includes(status)) errors.status = [VALIDATION.status];
    const page = intParam(c.req.query('page'), 1, MAX_PAGE);
    if (page === null) errors.page = [VALIDATION.page];
    const perPage = intParam(c.req.query('per_page'), DEFAULT_PER_PAGE, MAX_PER_PAGE);
    if (perPage === null) errors.per_page = [VALIDATION.perPage];
    const q = c.req.query('q') ?? '';
    if (q.length > MAX_Q_LENGTH) errors.q = [VALIDATION.q];
    // Who may see it first: a stranger learns nothing, not even that their parameters were wrong.
    const message = await findOwnSent(db, c.var.auth.userId, id);
    if (!message) return notFound(c);
    if (Object.keys(errors).length > 0) return invalid(c, errors);

    const filter = status as ReceptionFilter;
    const data = await receptionPage(db, id, { status: filter, q, page: page!, perPage: perPage! });
    const lastPage = Math.max(1, Math.ceil(data.total / perPage!));
    const link = (n: number) => pageLink(id, filter, q, n, perPage!);
    const body: ReceptionPage = {
      data: data.rows,
      meta: {
        current_page: page!,
        last_page: lastPage,
        per_page: perPage!,
        total: data.total,
        counts: data.counts,
        progress: data.progress,
      },
      links: {
        first: link(1),
        last: link(lastPage),
        prev: page! > 1 ? link(Math.min(page! - 1, lastPage)) : null,
        next: page! < lastPage ? link(page! + 1) : null,
      },
    };
    return c.json(body);
  });

  app.post('/:id/reception/retry', async (c) => {
    const id = parseId(c.req.param('id'));
    if (id === null) return notFound(c);
    const message = await findOwnSent(db, c.var.auth.userId, id);
    if (!message) return notFound(c);
    const outcome = await retryFailed(db, message);
    if (outcome.kind === 'quota') return apiError(c, 409, 'compose.quota', SEND_MESSAGES.quota, { quota: outcome.problems });
    // After the commit: if this process dies first, the engine's sweep finds the queued rounds anyway.
    if (outcome.rounds.length > 0) await engine.deliveriesQueued(outcome.rounds);
    const progress = (await progressOf(db, [id])).get(id)!;
    const result: RetryResult = { resent: outcome.resent, progress };
    return c.json({ data: result });
  });

  return app;
}
