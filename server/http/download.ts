// Answers an attachment's bytes (GET /attachments/:id, the guardian app's wall files): its type, a download
// name safe in any browser, never cached by shared caches. A row whose file is gone is a 404.
import type { Context } from 'hono';
import type { AttachmentStore } from '../storage/attachments';
import { notFound } from './errors';

export interface StoredFile {
  name: string;
  contentType: string;
  content: Buffer | Uint8Array | null;
  storageKey: string | null;
}

export async function sendFile(c: Context, store: AttachmentStore, file: StoredFile): Promise<Response> {
  const ascii =
    file.name
      .normalize('NFD')
      .replace(/[^\x20-\x7e]/g, '')
      .replace(/["\\]/g, '_') || 'adjunto';
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
}
