// Reception status of a sent message and "retry failed" (shared/reception-contract.ts), for its author
// only: anyone else, other schools included, gets 404. Mounted inside messageRoutes, whose requireAuth
// covers it. The rules live in server/reception/reception.ts.
import { Hono } from 'hono';
import {
  RECEPTION_API,
  RECEPTION_CHANNELS,
  RECEPTION_FILTERS,
  type ReceptionChannel,
  type ReceptionFilter,
  type ReceptionPage,
  type ReceptionScope,
  type RetryResult,
} from '../../shared/reception-contract';
import type { Db } from '../db/client';
import { channelProgressOf, findOwnSent, progressOf, receptionPage, retryableIn, retryFailed } from '../reception/reception';
import type { DeliveryEngine } from '../delivery/engine-contract';
import type { AppEnv } from '../http/env';
import { apiError, invalid, notFound } from '../http/errors';
import { intParam, parseId } from '../http/params';
import { type FieldErrors, hasFieldErrors } from '../http/field-errors';
import { QUOTA_REFUSAL } from '../quota/balance';

const DEFAULT_PER_PAGE = 50;
const MAX_PER_PAGE = 100;
const MAX_Q_LENGTH = 200;
const MAX_PAGE = 1_000_000;

const VALIDATION = {
  channel: `El canal debe ser uno de: ${RECEPTION_CHANNELS.join(', ')}.`,
  status: `El estado debe ser uno de: ${RECEPTION_FILTERS.join(', ')}.`,
  page: 'La página debe ser un número entero mayor que 0.',
  perPage: `La cantidad por página debe ser un número entero entre 1 y ${MAX_PER_PAGE}.`,
  q: `La búsqueda no puede superar los ${MAX_Q_LENGTH} caracteres.`,
  body: 'El cuerpo debe ser un objeto JSON con channel, status y q opcionales.',
} as const;

/**
 * The list's channel, filter and search (query string or retry body); absent ones are `all`, `all` and
 * empty. Wrong ones are named in `errors`.
 */
function scopeOf(raw: { channel?: unknown; status?: unknown; q?: unknown }, errors: FieldErrors): ReceptionScope {
  const channel = raw.channel === undefined || raw.channel === '' ? 'all' : raw.channel;
  if (!(RECEPTION_CHANNELS as readonly unknown[]).includes(channel)) errors.channel = [VALIDATION.channel];
  const status = raw.status === undefined || raw.status === '' ? 'all' : raw.status;
  if (!(RECEPTION_FILTERS as readonly unknown[]).includes(status)) errors.status = [VALIDATION.status];
  const q = raw.q ?? '';
  if (typeof q !== 'string' || q.length > MAX_Q_LENGTH) errors.q = [VALIDATION.q];
  return { channel: channel as ReceptionChannel, status: status as ReceptionFilter, q: typeof q === 'string' ? q : '' };
}

function pageLink(id: number, { channel, status, q }: ReceptionScope, page: number, perPage: number): string {
  const params = new URLSearchParams();
  if (channel !== 'all') params.set('channel', channel);
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
    const errors: FieldErrors = {};
    const scope = scopeOf({ channel: c.req.query('channel'), status: c.req.query('status'), q: c.req.query('q') }, errors);
    const page = intParam(c.req.query('page'), 1, MAX_PAGE);
    if (page === null) errors.page = [VALIDATION.page];
    const perPage = intParam(c.req.query('per_page'), DEFAULT_PER_PAGE, MAX_PER_PAGE);
    if (perPage === null) errors.per_page = [VALIDATION.perPage];
    // Who may see it first: a stranger learns nothing, not even that their parameters were wrong.
    const message = await findOwnSent(db, c.var.auth.userId, id);
    if (!message) return notFound(c);
    if (hasFieldErrors(errors)) return invalid(c, errors);

    const data = await receptionPage(db, id, { ...scope, page: page!, perPage: perPage! });
    const lastPage = Math.max(1, Math.ceil(data.total / perPage!));
    const link = (n: number) => pageLink(id, scope, n, perPage!);
    const body: ReceptionPage = {
      data: data.rows,
      meta: {
        current_page: page!,
        last_page: lastPage,
        per_page: perPage!,
        total: data.total,
        counts: data.counts,
        progress: data.progress,
        channels: data.channels,
        retryable: data.retryable,
        awaiting_reads: data.awaitingReads,
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
    // Optional body: the list's scope (none: the whole message). One that is not a JSON object is refused,
    // rather than read as "everything".
    const errors: FieldErrors = {};
    const text = await c.req.text();
    let raw: unknown = {};
    try {
      raw = text.trim() === '' ? {} : JSON.parse(text);
    } catch {
      raw = null;
    }
    const isObject = typeof raw === 'object' && raw !== null && !Array.isArray(raw);
    if (!isObject) errors.body = [VALIDATION.body];
    const scope = scopeOf(isObject ? (raw as Record<string, unknown>) : {}, errors);
    if (hasFieldErrors(errors)) return invalid(c, errors);
    const outcome = await retryFailed(db, message, scope);
    if (outcome.kind === 'quota') return apiError(c, 409, 'compose.quota', QUOTA_REFUSAL, { quota: outcome.problems });
    // After the commit: if this process dies first, the engine's sweep finds the queued rounds anyway.
    if (outcome.rounds.length > 0) await engine.deliveriesQueued(outcome.rounds);
    const [progress, channels, retryable] = await Promise.all([
      progressOf(db, [id]),
      channelProgressOf(db, id),
      retryableIn(db, id, scope),
    ]);
    const result: RetryResult = { resent: outcome.resent, progress: progress.get(id)!, channels, retryable };
    return c.json({ data: result });
  });

  return app;
}
