// Mail folders and messages (shared/messages-contract.ts). Handlers only parse and answer; the
// lifecycle rules live in server/messages/lifecycle.ts and the reads in server/messages/queries.ts.
// `/messages/*` is one requireAuth for drafts, sending and reception too: they are mounted in here.
import { auditActorOf } from '../http/audit-actor';
import type { AuditActor } from '../audit/record';
import { Hono, type Context } from 'hono';
import { MESSAGES_API, type Paged, type MessageSummary } from '../../shared/messages-contract';
import type { Db } from '../db/client';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/env';
import { apiError, invalid, notFound, readJson } from '../http/errors';
import { intParam, isId, parseId } from '../http/params';
import { cancelSchedule, markRead, moveToTrash, purgeFromTrash, restoreFromTrash, type LifecycleResult } from '../messages/lifecycle';
import { decodeCursor, findDetail, findSummary, folderCounts, listFolder } from '../messages/queries';
import type { AttachmentStore } from '../storage/attachments';
import { draftRoutes } from './drafts';
import { receptionRoutes } from './reception';
import { sendRoutes } from './send';
import type { DeliveryEngine } from '../delivery/engine-contract';
import { FOLDERS, type Folder } from '../../shared/codes';
import { type FieldErrors, hasFieldErrors } from '../http/field-errors';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 100;
/** Upper bound of ids per bulk call, so one request cannot lock a whole mailbox. */
const MAX_BULK_IDS = 500;
const MAX_Q_LENGTH = 200;

const VALIDATION = {
  folder: `La carpeta debe ser una de: ${FOLDERS.join(', ')}.`,
  limit: `El límite debe ser un número entero entre 1 y ${MAX_LIMIT}.`,
  cursor: 'El cursor no es válido.',
  q: `La búsqueda no puede superar los ${MAX_Q_LENGTH} caracteres.`,
  idsRequired: 'Debes indicar al menos un mensaje.',
  idsInvalid: 'Los identificadores de mensaje deben ser números enteros positivos.',
  idsTooMany: `No se pueden procesar más de ${MAX_BULK_IDS} mensajes a la vez.`,
} as const;

function answer<T>(c: Context, result: LifecycleResult<T>, ok: (value: T) => Response | Promise<Response>) {
  if (result.ok) return ok(result.value);
  if (result.error === 'not_found') return notFound(c);
  return apiError(c, 409, 'message.illegal_transition', result.message);
}

/** `{ ids: number[] }` → the ids, or the 422 errors. */
async function readIds(c: Context): Promise<{ ids: number[] } | { errors: FieldErrors }> {
  const ids = ((await readJson(c)) as { ids?: unknown } | null)?.ids;
  if (!Array.isArray(ids) || ids.length === 0) return { errors: { ids: [VALIDATION.idsRequired] } };
  if (ids.length > MAX_BULK_IDS) return { errors: { ids: [VALIDATION.idsTooMany] } };
  if (!ids.every(isId)) return { errors: { ids: [VALIDATION.idsInvalid] } };
  return { ids: ids as number[] };
}

function listLink(folder: Folder, q: string, limit: number, cursor: string): string {
  const params = new URLSearchParams({ folder });
  if (q) params.set('q', q);
  params.set('limit', String(limit));
  params.set('cursor', cursor);
  return `/api${MESSAGES_API.list}?${params}`;
}

export function messageRoutes(db: Db, store: AttachmentStore, engine: DeliveryEngine): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('*', requireAuth(db));
  // Before `/:id` so /drafts, /send… are not taken for message ids.
  app.route('/drafts', draftRoutes(db));
  app.route('/', sendRoutes(db, engine));
  app.route('/', receptionRoutes(db, engine));

  app.get('/', async (c) => {
    const errors: FieldErrors = {};
    const folderParam = c.req.query('folder') ?? 'inbox';
    if (!(FOLDERS as readonly string[]).includes(folderParam)) errors.folder = [VALIDATION.folder];
    const limit = intParam(c.req.query('limit'), DEFAULT_LIMIT, MAX_LIMIT);
    if (limit === null) errors.limit = [VALIDATION.limit];
    const cursorParam = c.req.query('cursor') ?? '';
    const cursor = cursorParam ? decodeCursor(cursorParam) : null;
    if (cursorParam && !cursor) errors.cursor = [VALIDATION.cursor];
    const q = c.req.query('q') ?? '';
    if (q.length > MAX_Q_LENGTH) errors.q = [VALIDATION.q];
    if (limit === null || hasFieldErrors(errors)) return invalid(c, errors);

    const folder = folderParam as Folder;
    const page = await listFolder(db, { userId: c.var.auth.userId, folder, q, limit, cursor });
    const body: Paged<MessageSummary> = {
      data: page.items,
      meta: { per_page: limit, next_cursor: page.nextCursor, prev_cursor: page.prevCursor, total: page.total },
      links: {
        next: page.nextCursor ? listLink(folder, q, limit, page.nextCursor) : null,
        prev: page.prevCursor ? listLink(folder, q, limit, page.prevCursor) : null,
      },
    };
    return c.json(body);
  });

  app.get('/info', async (c) => c.json({ data: await folderCounts(db, c.var.auth.userId) }));

  type BulkOp = (userId: number, ids: number[], actor: AuditActor) => Promise<LifecycleResult<number>>;
  for (const [path, op, key] of [
    ['/delete', (userId, ids) => moveToTrash(db, userId, ids), 'moved'],
    ['/restore', (userId, ids) => restoreFromTrash(db, userId, ids), 'restored'],
    ['/purge', (userId, ids, actor) => purgeFromTrash(db, userId, ids, actor, store), 'purged'],
  ] as const satisfies readonly (readonly [string, BulkOp, string])[]) {
    app.post(path, async (c) => {
      const parsed = await readIds(c);
      if ('errors' in parsed) return invalid(c, parsed.errors);
      const result = await op(c.var.auth.userId, parsed.ids, auditActorOf(c));
      return answer(c, result, (count) => c.json({ data: { [key]: count } }));
    });
  }

  app.get('/:id', async (c) => {
    const id = parseId(c.req.param('id'));
    if (id === null) return notFound(c);
    const detail = await findDetail(db, c.var.auth.userId, id);
    return detail ? c.json({ data: detail }) : notFound(c);
  });

  app.post('/:id/read', async (c) => {
    const id = parseId(c.req.param('id'));
    if (id === null) return notFound(c);
    const result = await markRead(db, c.var.auth.userId, id);
    return answer(c, result, async () => c.json({ data: (await findSummary(db, c.var.auth.userId, id))! }));
  });

  app.post('/:id/cancel-schedule', async (c) => {
    const id = parseId(c.req.param('id'));
    if (id === null) return notFound(c);
    const result = await cancelSchedule(db, c.var.auth.userId, id);
    return answer(c, result, async () => c.json({ data: (await findSummary(db, c.var.auth.userId, id))! }));
  });

  return app;
}
