// The school's logo (shared/school-contract.ts): which files are accepted, and the one row per school that
// keeps it (school_logos). A logo is told by its content, never by its name or declared type, so an SVG
// (which can carry script) or a text file renamed .png is refused whatever it is called.
import { recordAudit, type AuditActor } from '../audit/record';
import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { LOGO_MAX_BYTES, LOGO_MAX_SIDE, SCHOOL_API, type LogoType, type SchoolLogo } from '../../shared/school-contract';
import type { Db } from '../db/client';
import { schoolLogos } from '../db/schema/institutions';

export const LOGO_MESSAGES = {
  missing: 'Elige una imagen PNG o JPEG para el logo (campo file).',
  empty: 'La imagen del logo está vacía.',
  tooLarge: `El logo supera el máximo de ${LOGO_MAX_BYTES / 1024} kB; guárdalo más pequeño e inténtalo de nuevo.`,
  svg: 'El logo no puede ser SVG: guárdalo como PNG o JPEG e inténtalo de nuevo.',
  type: 'El logo debe ser una imagen PNG o JPEG; este archivo no lo es, aunque su nombre lo diga.',
  unreadable: 'No se pudo leer el tamaño de la imagen: puede estar dañada. Prueba con otro archivo PNG o JPEG.',
  tooManyPixels: (width: number, height: number) =>
    `La imagen mide ${width} × ${height} píxeles; el logo puede medir hasta ${LOGO_MAX_SIDE} píxeles por lado.`,
} as const;

export type LogoCheck =
  | { ok: true; contentType: LogoType; width: number; height: number }
  | { ok: false; status: 413 | 415 | 422; message: string };

const startsWith = (bytes: Uint8Array, prefix: readonly number[]) =>
  bytes.length >= prefix.length && prefix.every((v, i) => bytes[i] === v);

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] as const;
const JPEG = [0xff, 0xd8, 0xff] as const;

/** A PNG's size, from its first chunk (IHDR, which the format puts first). */
function pngSize(b: Uint8Array): { width: number; height: number } | null {
  if (b.length < 24 || String.fromCharCode(b[12]!, b[13]!, b[14]!, b[15]!) !== 'IHDR') return null;
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/** Start-of-frame markers (baseline, progressive, lossless…): the ones that carry the image's size. */
const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

/** A JPEG's size, from its start-of-frame segment: the segments before it are walked by their lengths. */
function jpegSize(b: Uint8Array): { width: number; height: number } | null {
  let at = 2;
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) return null;
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    // Markers without a length: TEM and the restart markers.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    // Start of scan or end of image before any frame: no size to read.
    if (marker === 0xda || marker === 0xd9) return null;
    const length = (b[at + 2]! << 8) | b[at + 3]!;
    if (length < 2) return null;
    if (SOF.has(marker)) {
      if (at + 9 > b.length) return null;
      return { height: (b[at + 5]! << 8) | b[at + 6]!, width: (b[at + 7]! << 8) | b[at + 8]! };
    }
    at += 2 + length;
  }
  return null;
}

/** Text that opens like XML or SVG (after a byte-order mark and white space). */
function looksLikeSvg(b: Uint8Array): boolean {
  const head = new TextDecoder('utf-8', { fatal: false })
    .decode(b.subarray(0, 1024))
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();
  return head.startsWith('<?xml') || head.startsWith('<svg') || (head.startsWith('<') && head.includes('<svg'));
}

/** Whether these bytes may be the school's logo, and what they are. */
export function checkLogo(bytes: Uint8Array): LogoCheck {
  if (bytes.length > LOGO_MAX_BYTES) return { ok: false, status: 413, message: LOGO_MESSAGES.tooLarge };
  if (bytes.length === 0) return { ok: false, status: 422, message: LOGO_MESSAGES.empty };
  const png = startsWith(bytes, PNG);
  const jpeg = !png && startsWith(bytes, JPEG);
  if (!png && !jpeg) return { ok: false, status: 415, message: looksLikeSvg(bytes) ? LOGO_MESSAGES.svg : LOGO_MESSAGES.type };
  const size = png ? pngSize(bytes) : jpegSize(bytes);
  if (!size || size.width === 0 || size.height === 0) return { ok: false, status: 422, message: LOGO_MESSAGES.unreadable };
  if (size.width > LOGO_MAX_SIDE || size.height > LOGO_MAX_SIDE)
    return { ok: false, status: 422, message: LOGO_MESSAGES.tooManyPixels(size.width, size.height) };
  return { ok: true, contentType: png ? 'image/png' : 'image/jpeg', ...size };
}

/** The version of a logo's content: in its URL and in the e-mail engine's cache. */
const logoHash = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex').slice(0, 16);

/** Relative to the API base like every SCHOOL_API path; the SPA prefixes its base. */
export const logoUrl = (hash: string): string => `${SCHOOL_API.logo}?v=${hash}`;

const LOGO_FIELDS = {
  contentType: schoolLogos.contentType,
  hash: schoolLogos.hash,
  width: schoolLogos.width,
  height: schoolLogos.height,
  size: sql<number>`octet_length(${schoolLogos.content})`.mapWith(Number),
};

/** The school's logo as settings show it (not its bytes); null when it has none. */
export async function schoolLogo(db: Db, institutionId: number): Promise<SchoolLogo | null> {
  const [row] = await db.select(LOGO_FIELDS).from(schoolLogos).where(eq(schoolLogos.institutionId, institutionId));
  return row ? { url: logoUrl(row.hash), content_type: row.contentType, size: row.size, width: row.width, height: row.height } : null;
}

export interface LogoImage {
  content: Buffer;
  contentType: LogoType;
  hash: string;
}

/** The logo's bytes, to serve or to put in an e-mail; null when the school has none. */
export async function logoImage(db: Db, institutionId: number): Promise<LogoImage | null> {
  const [row] = await db
    .select({ content: schoolLogos.content, contentType: schoolLogos.contentType, hash: schoolLogos.hash })
    .from(schoolLogos)
    .where(eq(schoolLogos.institutionId, institutionId));
  return row ?? null;
}

/** Uploads or replaces the school's logo with a checked file. */
export async function saveLogo(
  db: Db,
  institutionId: number,
  file: { bytes: Uint8Array; contentType: LogoType; width: number; height: number },
  actor: AuditActor,
): Promise<SchoolLogo> {
  const values = {
    content: Buffer.from(file.bytes),
    contentType: file.contentType,
    hash: logoHash(file.bytes),
    width: file.width,
    height: file.height,
    updatedAt: new Date(),
  };
  await db.transaction(async (tx) => {
    await tx
      .insert(schoolLogos)
      .values({ institutionId, ...values })
      .onConflictDoUpdate({ target: schoolLogos.institutionId, set: values });
    await recordAudit(tx, actor, {
      action: 'settings.changed',
      subject: { kind: 'colegio', id: institutionId },
      detail: { settings: 'logo', fields: ['logo'] },
    });
  });
  return { url: logoUrl(values.hash), content_type: file.contentType, size: file.bytes.length, width: file.width, height: file.height };
}

/** Removes the school's logo; false when it had none. */
export async function removeLogo(db: Db, institutionId: number, actor: AuditActor): Promise<boolean> {
  return db.transaction(async (tx) => {
    const removed = await tx.delete(schoolLogos).where(eq(schoolLogos.institutionId, institutionId)).returning({ hash: schoolLogos.hash });
    if (removed.length === 0) return false;
    await recordAudit(tx, actor, {
      action: 'settings.changed',
      subject: { kind: 'colegio', id: institutionId },
      detail: { settings: 'logo', fields: ['logo'], removed: true },
    });
    return true;
  });
}

/**
 * The logos the e-mail channel puts in messages, kept in this process: the delivery rows name each school's
 * current hash, and a school's bytes are read again only when that hash changes (a logo replaced), never per
 * e-mail. Concurrent asks for the same version share one read.
 */
export function logoCache(db: Db) {
  const bySchool = new Map<number, { hash: string; image: Promise<LogoImage | null> }>();
  return {
    get(institutionId: number, hash: string): Promise<LogoImage | null> {
      const cached = bySchool.get(institutionId);
      if (cached?.hash === hash) return cached.image;
      const image = logoImage(db, institutionId);
      const entry = { hash, image };
      bySchool.set(institutionId, entry);
      // A failed read is not kept: the next e-mail reads again.
      image.catch(() => {
        if (bySchool.get(institutionId) === entry) bySchool.delete(institutionId);
      });
      return image;
    },
  };
}
