// `/attachments`: upload (POST, multipart `file`), delete an unsent one (DELETE /:id) and download (GET /:id)
// for users who can see its message or its news wall post (server/news/files.ts), or its owner before it
// is sent. A file a post holds is not deleted here (409). Another user's or school's id is a 404. Which files are accepted, and the rows that go with them, is server/storage/uploads.ts.
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ATTACHMENT_MAX_BYTES } from '../../shared/compose-contract';
import type { Db } from '../db/client';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/env';
import { apiError, invalid, notFound } from '../http/errors';
import { parseId } from '../http/params';
import { refuseBadText } from '../http/text-guard';
import { findAttachment } from '../messages/queries';
import { sendFile } from '../http/download';
import { findNewsAttachment } from '../news/files';
import type { AttachmentStore } from '../storage/attachments';
import { checkAttachmentType, cleanName, deleteUnsent, saveUpload } from '../storage/uploads';

/** Room for the multipart envelope (boundary, part headers) around a file of exactly the maximum size. */
const MULTIPART_OVERHEAD = 64 * 1024;

const ATTACHMENT_MESSAGES = {
  tooLarge: 'El archivo supera el máximo de 22 MB.',
  type: 'El tipo de archivo no está permitido, o su extensión o contenido no corresponden a su tipo.',
  missing: 'Debes adjuntar un archivo en el campo file.',
  empty: 'El archivo está vacío.',
  inUse: 'El adjunto pertenece a un mensaje enviado o programado y no se puede eliminar.',
  inPost: 'El archivo pertenece a una publicación del mural; quítalo de la publicación para eliminarlo.',
} as const;

export function attachmentRoutes(db: Db, store: AttachmentStore): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('*', requireAuth(db));

  const tooLarge = (c: Context) => apiError(c, 413, 'attachment.too_large', ATTACHMENT_MESSAGES.tooLarge);
  // The app-wide 1 MB JSON limit skips this route (server/app.ts); this one stops reading past 22 MB.
  // The text check (its file name) runs here, after the limit, not at the edge with the other routes (server/app.ts).
  app.post('/', bodyLimit({ maxSize: ATTACHMENT_MAX_BYTES + MULTIPART_OVERHEAD, onError: tooLarge }), refuseBadText, async (c) => {
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
    const type = checkAttachmentType(name, file.type, bytes);
    if (type === null) return apiError(c, 415, 'attachment.type', ATTACHMENT_MESSAGES.type);
    return c.json({ data: await saveUpload(db, store, c.var.auth, { name, type, bytes }) }, 201);
  });

  app.delete('/:id', async (c) => {
    const id = parseId(c.req.param('id'));
    if (id === null) return notFound(c);
    const outcome = await deleteUnsent(db, store, c.var.auth, id);
    if (outcome === 'not_found') return notFound(c);
    if (outcome === 'in_use') return apiError(c, 409, 'attachment.in_use', ATTACHMENT_MESSAGES.inUse);
    if (outcome === 'in_post') return apiError(c, 409, 'attachment.in_use', ATTACHMENT_MESSAGES.inPost);
    return c.body(null, 204);
  });

  app.get('/:id', async (c) => {
    const id = parseId(c.req.param('id'));
    if (id === null) return notFound(c);
    const file = (await findAttachment(db, c.var.auth.userId, id)) ?? (await findNewsAttachment(db, c.var.auth, id, new Date()));
    return file ? sendFile(c, store, file) : notFound(c);
  });
  return app;
}
