// An attachment before it is sent: which files are accepted (declared type, extension and, where cheap,
// the first bytes), the name kept, and the row that goes with the file. Uploads start unattached
// (message_id null) and belong to their uploader until a sent or scheduled message takes them.
import { and, eq } from 'drizzle-orm';
import { ATTACHMENT_TYPES } from '../../shared/compose-contract';
import type { AttachmentSummary } from '../../shared/messages-contract';
import type { Db } from '../db/client';
import { messageAttachments, messages } from '../db/schema/messages';
import { attachmentUrl } from '../messages/queries';
import type { AttachmentStore } from './attachments';

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

/**
 * The declared type (parameters dropped) when it is allowed and the extension and content match it. Only
 * the first bytes of `content` are read.
 */
export function checkAttachmentType(name: string, declared: string, content: Uint8Array): string | null {
  const type = declared.split(';')[0]!.trim().toLowerCase();
  const extensions = ATTACHMENT_TYPES[type];
  const dot = name.lastIndexOf('.');
  const extension = dot >= 0 ? name.slice(dot + 1).toLowerCase() : '';
  if (!extensions?.includes(extension)) return null;
  const magic = MAGIC[type];
  return magic && !magic(content) ? null : type;
}

/** The file name without any path a browser or a client may have sent along, trimmed to 255 characters. */
export function cleanName(raw: string): string {
  const base = raw.split(/[\\/]/).pop()!.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return base.slice(-255) || 'adjunto';
}

export interface Uploader {
  userId: number;
  institutionId: number;
}

/** Stores an accepted file and its unattached row; the file goes again if the row cannot be written. */
export async function saveUpload(
  db: Db,
  store: AttachmentStore,
  owner: Uploader,
  file: { name: string; type: string; bytes: Uint8Array },
): Promise<AttachmentSummary> {
  const key = await store.save(file.bytes);
  try {
    const [row] = await db
      .insert(messageAttachments)
      .values({
        ownerUserId: owner.userId,
        institutionId: owner.institutionId,
        messageId: null,
        name: file.name,
        size: file.bytes.length,
        contentType: file.type,
        storageKey: key,
      })
      .returning({ id: messageAttachments.id });
    return { id: row!.id, name: file.name, size: file.bytes.length, content_type: file.type, url: attachmentUrl(row!.id) };
  } catch (err) {
    await store.remove([key]);
    throw err;
  }
}

/**
 * Deletes one of the owner's attachments that no sent or scheduled message holds (unattached, or on a
 * draft). Another user's or school's id is `not_found`.
 */
export async function deleteUnsent(
  db: Db,
  store: AttachmentStore,
  owner: Uploader,
  id: number,
): Promise<'deleted' | 'not_found' | 'in_use'> {
  const outcome = await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ storageKey: messageAttachments.storageKey, messageId: messageAttachments.messageId, kind: messages.kind })
      .from(messageAttachments)
      .leftJoin(messages, eq(messages.id, messageAttachments.messageId))
      .where(
        and(
          eq(messageAttachments.id, id),
          eq(messageAttachments.ownerUserId, owner.userId),
          eq(messageAttachments.institutionId, owner.institutionId),
        ),
      )
      .for('update', { of: messageAttachments });
    if (!row) return 'not_found' as const;
    if (row.messageId !== null && row.kind !== 'draft') return 'in_use' as const;
    await tx.delete(messageAttachments).where(eq(messageAttachments.id, id));
    return { key: row.storageKey };
  });
  if (typeof outcome === 'string') return outcome;
  // After commit: a failed transaction must not lose the file.
  if (outcome.key) await store.remove([outcome.key]);
  return 'deleted';
}
