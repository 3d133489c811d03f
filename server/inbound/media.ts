// A family's photo or file (a signed note, a medical certificate) becomes an attachment of the Hermes message,
// within the limits and types compose accepts (shared/compose-contract.ts, server/storage/uploads.ts). What
// cannot be kept is named in a note under the text instead, so staff know something was sent; the text
// arrives whatever happens to the files.
import { ATTACHMENT_MAX_BYTES, ATTACHMENT_TYPES, ATTACHMENTS_TOTAL_MAX_BYTES } from '../../shared/compose-contract';
import type { Logger } from '../log';
import { checkAttachmentType, cleanName } from '../storage/uploads';
import type { InboundMedia } from './contract';

/** A download that has not finished by then is given up: the provider's webhook is waiting for the answer. */
const DOWNLOAD_TIMEOUT_MS = 20_000;

/** A file within the limits, its type checked against its bytes. */
export interface KeptFile {
  name: string;
  contentType: string;
  bytes: Buffer;
}

/** Why a file was left out, as the note under the text says it. */
type LeftOutReason = 'too_big' | 'type' | 'download';

export interface KeptMedia {
  files: KeptFile[];
  leftOut: { name: string; reason: LeftOutReason }[];
}

const REASON_TEXT: Record<LeftOutReason, string> = {
  too_big: 'supera el tamaño permitido',
  type: 'tipo de archivo no permitido',
  download: 'no se pudo descargar',
};

/** The note appended to the text for the files left out; empty when none was. */
export function leftOutNote(leftOut: KeptMedia['leftOut']): string {
  if (leftOut.length === 0) return '';
  const lines = leftOut.map((file) => `- ${file.name}: ${REASON_TEXT[file.reason]}`);
  return `[Archivos no incluidos]\n${lines.join('\n')}`;
}

/** The provider's name for the file, or one made from its type (`archivo-1.jpg`), with the extension its type needs. */
function nameOf(media: InboundMedia, index: number): string {
  const type = media.contentType.split(';')[0]!.trim().toLowerCase();
  const extension = ATTACHMENT_TYPES[type]?.[0];
  const given = media.filename ? cleanName(media.filename) : null;
  if (given && (!extension || ATTACHMENT_TYPES[type]!.some((ext) => given.toLowerCase().endsWith(`.${ext}`)))) return given;
  const base = given ?? `archivo-${index + 1}`;
  return extension ? `${base}.${extension}` : base;
}

/**
 * Downloads each file and keeps the ones within the limits, one at a time (a family sends one or two
 * photos; the total limit is counted in order). Nothing here throws: a failed download is a file left out.
 */
export async function keepMedia(media: readonly InboundMedia[], logger: Logger): Promise<KeptMedia> {
  const kept: KeptMedia = { files: [], leftOut: [] };
  let total = 0;
  for (const [index, item] of media.entries()) {
    const name = nameOf(item, index);
    let bytes: Buffer;
    try {
      bytes = await item.download(AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS));
    } catch (err) {
      logger.error('inbound: media download failed', err);
      kept.leftOut.push({ name, reason: 'download' });
      continue;
    }
    if (bytes.length > ATTACHMENT_MAX_BYTES || total + bytes.length > ATTACHMENTS_TOTAL_MAX_BYTES) {
      kept.leftOut.push({ name, reason: 'too_big' });
      continue;
    }
    const contentType = checkAttachmentType(name, item.contentType, bytes);
    if (contentType === null) {
      kept.leftOut.push({ name, reason: 'type' });
      continue;
    }
    kept.files.push({ name, contentType, bytes });
    total += bytes.length;
  }
  return kept;
}
