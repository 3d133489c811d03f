// Mail folders and messages (shared/messages-contract.ts). Handlers only parse and answer; the
// lifecycle rules live in server/messages/lifecycle.ts and the reads in server/messages/queries.ts.
import { and, eq } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ATTACHMENT_MAX_BYTES, ATTACHMENT_TYPES } from '../../shared/compose-contract';
import { MESSAGES_API, type AttachmentSummary, type Paged, type MessageSummary } from '../../shared/messages-contract';
import type { Db } from '../db/client';
import { messageAttachments, messages } from '../db/schema/messages';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/env';
import { apiError, invalid, notFound, readJson } from '../http/errors';
import { intParam, isId, parseId } from '../http/params';
import {
  cancelSchedule,
  markRead,
  moveToTrash,
  purgeFromTrash,
  restoreFromTrash,
  type LifecycleResult,
} from '../messages/lifecycle';
import {
  attachmentUrl,
  decodeCursor,
  findAttachment,
  findDetail,
  findSummary,
  folderCounts,
  listFolder,
} from '../messages/queries';
import type { AttachmentStore } from '../storage/attachments';
import { composeMessageRoutes } from './compose';
import { receptionRoutes } from './reception';
import type { DeliveryEngine } from '../delivery/engine-contract';
import { FOLDERS, type Folder } from '../../shared/codes';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 100;
/** Upper bound of ids per bulk call, so one request cannot lock a whole mailbox. */
export const MAX_BULK_IDS = 500;
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
async function readIds(c: Context): Promise<{ ids: number[] } | { errors: Record<string, string[]> }> {
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
  app.route('/', composeMessageRoutes(db, engine));
  app.route('/', receptionRoutes(db, engine));

  app.get('/', async (c) => {
    const errors: Record<string, string[]> = {};
    const folderParam = c.req.query('folder') ?? 'inbox';
    if (!(FOLDERS as readonly string[]).includes(folderParam)) errors.folder = [VALIDATION.folder];
    const limit = intParam(c.req.query('limit'), DEFAULT_LIMIT, MAX_LIMIT);
    if (limit === null) errors.limit = [VALIDATION.limit];
    const cursorParam = c.req.query('cursor') ?? '';
    const cursor = cursorParam ? decodeCursor(cursorParam) : null;
    if (cursorParam && !cursor) errors.cursor = [VALIDATION.cursor];
    const q = c.req.query('q') ?? '';
    if (q.length > MAX_Q_LENGTH) errors.q = [VALIDATION.q];
    if (limit === null || Object.keys(errors).length > 0) return invalid(c, errors);

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

  type BulkOp = (userId: number, ids: number[]) => Promise<LifecycleResult<number>>;
  for (const [path, op, key] of [
    ['/delete', (userId, ids) => moveToTrash(db, userId, ids), 'moved'],
    ['/restore', (userId, ids) => restoreFromTrash(db, userId, ids), 'restored'],
    ['/purge', (userId, ids) => purgeFromTrash(db, userId, ids, store), 'purged'],
  ] as const satisfies readonly (readonly [string, BulkOp, string])[]) {
    app.post(path, async (c) => {
      const parsed = await readIds(c);
      if ('errors' in parsed) return invalid(c, parsed.errors);
      const result = await op(c.var.auth.userId, parsed.ids);
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

/** Room for the multipart envelope (boundary, part headers) around a file of exactly the maximum size. */
const MULTIPART_OVERHEAD = 64 * 1024;

const ATTACHMENT_MESSAGES = {
  tooLarge: 'El archivo supera el máximo de 22 MB.',
  type: 'El tipo de archivo no está permitido, o su extensión o contenido no corresponden a su tipo.',
  missing: 'Debes adjuntar un archivo en el campo file.',
  empty: 'El archivo está vacío.',
  inUse: 'El adjunto pertenece a un mensaje enviado o programado y no se puede eliminar.',
} as const;

/** Leading bytes of the types whose content we can recognise cheaply. */
const MAGIC: Readonly<Record<string, (b: Uint8Array) => boolean>> = {
  'application/pdf': (b) => startsWith(b, [0x25, 0x50, 0x44, 0x46, 0x2d]),
  'image/png': (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  'image/jpeg': (b) => startsWith(b, [0xff, 0xd8, 0xff]),
  'image/gif': (b) => startsWith(b, [0x47, 0x49, 0x46, 0x38]) && (b[4] === 0x37 || b[4] === 0x39) && b[5] === 0x61,
  'image/webp': (b) => startsWith(b, [0x52, 0x49, 0x46, 0x46]) && startsWith(b.subarray(8), [0x57, 0x45, 0x42, 0x50]),
};

function startsWith(bytes: Uint8Array, prefix: number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((v, i) => bytes[i] === v);
}

/** The declared type (parameters dropped) when it is allowed and the extension and content match it. */
export function checkAttachmentType(name: string, declared: string, head: Uint8Array): string | null {
  const type = declared.split(';')[0]!.trim().toLowerCase();
  const extensions = ATTACHMENT_TYPES[type];
  const dot = name.lastIndexOf('.');
  const extension = dot >= 0 ? name.slice(dot + 1).toLowerCase() : '';
  if (!extensions?.includes(extension)) return null;
  const magic = MAGIC[type];
  return magic && !magic(head) ? null : type;
}

/** The file name without any path a browser or a client may have sent along, trimmed to 255 characters. */
function cleanName(raw: string): string {
  const base = raw.split(/[\\/]/).pop()!.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return base.slice(-255) || 'adjunto';
}

/**
 * `/attachments`: upload (POST, multipart `file`), delete an unsent one (DELETE /:id) and download
 * (GET /:id) for users who can see its message, or its owner before it is sent.
 */
export function attachmentRoutes(db: Db, store: AttachmentStore): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('*', requireAuth(db));

  const tooLarge = (c: Context) => apiError(c, 413, 'attachment.too_large', ATTACHMENT_MESSAGES.tooLarge);
  // The app-wide 1 MB JSON limit skips this route (server/app.ts); this one stops reading past 22 MB.
  app.post('/', bodyLimit({ maxSize: ATTACHMENT_MAX_BYTES + MULTIPART_OVERHEAD, onError: tooLarge }), async (c) => {
    let body: Record<string, unknown>;
    try {
      body = await c.req.parseBody();
    } catch {
      return invalid(c, { file: [ATTACHMENT_MESSAGES.missing] });
    }
    const file = body.file;
    if (!(file instanceof File)) return invalid(c, { file: [ATTACHMENT_MESSAGES.missing] });
    if (file.size > ATTACHMENT_MAX_BYTES) return tooLarge(c);
    if (file.size === 0) return invalid(c, { file: [ATTACHMENT_MESSAGES.empty] });
    const name = cleanName(file.name);
    const bytes = new Uint8Array(await file.arrayBuffer());
    const type = checkAttachmentType(name, file.type, bytes.subarray(0, 16));
    if (type === null) return apiError(c, 415, 'attachment.type', ATTACHMENT_MESSAGES.type);

    const key = await store.save(bytes);
    try {
      const [row] = await db
        .insert(messageAttachments)
        .values({
          ownerUserId: c.var.auth.userId,
          institutionId: c.var.auth.institutionId,
          messageId: null,
          name,
          size: bytes.length,
          contentType: type,
          storageKey: key,
        })
        .returning({ id: messageAttachments.id });
      const summary: AttachmentSummary = { id: row!.id, name, size: bytes.length, content_type: type, url: attachmentUrl(row!.id) };
      return c.json({ data: summary }, 201);
    } catch (err) {
      await store.remove([key]);
      throw err;
    }
  });

  app.delete('/:id', async (c) => {
    const id = parseId(c.req.param('id'));
    if (id === null) return notFound(c);
    const outcome = await db.transaction(async (tx) => {
      const [row] = await tx
        .select({ storageKey: messageAttachments.storageKey, messageId: messageAttachments.messageId, kind: messages.kind })
        .from(messageAttachments)
        .leftJoin(messages, eq(messages.id, messageAttachments.messageId))
        .where(
          and(
            eq(messageAttachments.id, id),
            eq(messageAttachments.ownerUserId, c.var.auth.userId),
            eq(messageAttachments.institutionId, c.var.auth.institutionId),
          ),
        )
        .for('update', { of: messageAttachments });
      if (!row) return 'not_found' as const;
      if (row.messageId !== null && row.kind !== 'draft') return 'in_use' as const;
      await tx.delete(messageAttachments).where(eq(messageAttachments.id, id));
      return row.storageKey;
    });
    if (outcome === 'not_found') return notFound(c);
    if (outcome === 'in_use') return apiError(c, 409, 'attachment.in_use', ATTACHMENT_MESSAGES.inUse);
    // After commit: a failed transaction must not lose the file.
    if (outcome) await store.remove([outcome]);
    return c.body(null, 204);
  });

  app.get('/:id', async (c) => {
    const id = parseId(c.req.param('id'));
    if (id === null) return notFound(c);
    const file = await findAttachment(db, c.var.auth.userId, id);
    if (!file) return notFound(c);
    const ascii = file.name.normalize('NFD').replace(/[^\x20-\x7e]/g, '').replace(/["\\]/g, '_') || 'adjunto';
    const headers = {
      'Content-Type': file.contentType,
      'Content-Disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.name)}`,
      'Cache-Control': 'private, no-store',
    };
    if (file.storageKey) {
      const opened = await store.open(file.storageKey);
      if (!opened) return notFound(c);
      return c.body(opened.stream, 200, { ...headers, 'Content-Length': String(opened.size) });
    }
    const content = file.content ?? Buffer.alloc(0);
    return c.body(new Uint8Array(content), 200, { ...headers, 'Content-Length': String(content.length) });
  });
  return app;
}
