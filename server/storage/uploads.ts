// An attachment before it is sent: which files are accepted (declared type, extension and content), the
// name kept, and the row that goes with the file. Uploads start unattached (message_id null) and belong to
// their uploader until a sent or scheduled message takes them.
import { and, eq } from 'drizzle-orm';
import { ATTACHMENT_TYPES } from '../../shared/compose-contract';
import { MESSAGES_API, type AttachmentSummary } from '../../shared/messages-contract';
import type { Db } from '../db/client';
import { messageAttachments, messages } from '../db/schema/messages';
import type { AttachmentStore } from './attachments';
import { oleEntryNames, zipEntryNames } from './containers';

/** Relative to the API base like every `MESSAGES_API` path (`/attachments/7`); the SPA prefixes its base. */
export function attachmentUrl(id: number): string {
  return MESSAGES_API.attachment(id);
}

function startsWith(bytes: Uint8Array, prefix: number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((v, i) => bytes[i] === v);
}

/** docx / xlsx / pptx: a ZIP with the package's content types and the parts of its kind under `dir`. */
const officeZip = (dir: string) => (b: Uint8Array) => {
  const names = zipEntryNames(b);
  if (names === null) return false;
  return names.includes('[Content_Types].xml') && names.some((n) => n.startsWith(dir));
};

/** doc / xls / ppt: an OLE2 compound file holding the stream its program writes (any one of `streams`). */
const officeOle =
  (...streams: string[]) =>
  (b: Uint8Array) => {
    const names = oleEntryNames(b);
    return names !== null && streams.some((s) => names.includes(s));
  };

/** Control characters no text file has (tab, line breaks and form feed are text). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these control characters are what tells a binary file from text.
const CONTROL = /[\u0000-\u0008\u000b\u000e-\u001f\u007f]/;
/** Bytes Windows-1252 leaves undefined, besides the controls. */
const NOT_CP1252 = new Set([0x81, 0x8d, 0x8f, 0x90, 0x9d]);

/**
 * Text or CSV, not a binary file renamed: UTF-8 (with or without its mark), UTF-16 with its mark, or
 * single-byte Windows-1252, which is what Excel on Windows saves a CSV as (so "Ñuñoa" in such a file is
 * not valid UTF-8 and still text). In every case without NUL or other control bytes.
 */
function isText(b: Uint8Array): boolean {
  const bom16 = startsWith(b, [0xff, 0xfe]) ? 'utf-16le' : startsWith(b, [0xfe, 0xff]) ? 'utf-16be' : null;
  try {
    const text = new TextDecoder(bom16 ?? 'utf-8', { fatal: true }).decode(b);
    return !(bom16 && b.length % 2 !== 0) && !CONTROL.test(text);
  } catch {
    if (bom16) return false;
  }
  return b.every((v) => !NOT_CP1252.has(v) && !CONTROL.test(String.fromCharCode(v)));
}

/** What each allowed type's content must look like. A type without a rule here is refused. */
const CONTENT: Readonly<Record<string, (b: Uint8Array) => boolean>> = {
  'application/pdf': (b) => startsWith(b, [0x25, 0x50, 0x44, 0x46, 0x2d]),
  'image/png': (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  'image/jpeg': (b) => startsWith(b, [0xff, 0xd8, 0xff]),
  'image/gif': (b) => startsWith(b, [0x47, 0x49, 0x46, 0x38]) && (b[4] === 0x37 || b[4] === 0x39) && b[5] === 0x61,
  'image/webp': (b) => startsWith(b, [0x52, 0x49, 0x46, 0x46]) && startsWith(b.subarray(8), [0x57, 0x45, 0x42, 0x50]),
  'text/plain': isText,
  'text/csv': isText,
  'application/msword': officeOle('WordDocument'),
  // "Book" is the stream of Excel 5/95 workbooks, still saved as .xls.
  'application/vnd.ms-excel': officeOle('Workbook', 'Book'),
  'application/vnd.ms-powerpoint': officeOle('PowerPoint Document'),
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': officeZip('word/'),
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': officeZip('xl/'),
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': officeZip('ppt/'),
};

/**
 * The declared type (parameters dropped) when it is allowed and the extension and content match it: an
 * executable renamed `.docx` or `.txt` is refused by what it is, not by its name.
 */
export function checkAttachmentType(name: string, declared: string, content: Uint8Array): string | null {
  const type = declared.split(';')[0]!.trim().toLowerCase();
  const extensions = ATTACHMENT_TYPES[type];
  const dot = name.lastIndexOf('.');
  const extension = dot >= 0 ? name.slice(dot + 1).toLowerCase() : '';
  if (!extensions?.includes(extension)) return null;
  return CONTENT[type]?.(content) ? type : null;
}

/** The C0 control characters and DEL. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what a file name must not keep.
const NAME_CONTROL = /[\u0000-\u001f\u007f]/g;

/** The file name without any path a browser or a client may have sent along, trimmed to 255 characters. */
export function cleanName(raw: string): string {
  const base = raw.split(/[\\/]/).pop()!.replace(NAME_CONTROL, '').trim();
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
 * Deletes one of the owner's attachments that no sent or scheduled message and no news post holds
 * (unattached, or on a draft). Another user's or school's id is `not_found`.
 */
export async function deleteUnsent(
  db: Db,
  store: AttachmentStore,
  owner: Uploader,
  id: number,
): Promise<'deleted' | 'not_found' | 'in_use' | 'in_post'> {
  const outcome = await db.transaction(async (tx) => {
    const [row] = await tx
      .select({
        storageKey: messageAttachments.storageKey,
        messageId: messageAttachments.messageId,
        newsPostId: messageAttachments.newsPostId,
        kind: messages.kind,
      })
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
    // A news wall post's file goes when the post drops it (PATCH) or is deleted forever.
    if (row.newsPostId !== null) return 'in_post' as const;
    await tx.delete(messageAttachments).where(eq(messageAttachments.id, id));
    return { key: row.storageKey };
  });
  if (typeof outcome === 'string') return outcome;
  // After commit: a failed transaction must not lose the file.
  if (outcome.key) await store.remove([outcome.key]);
  return 'deleted';
}
