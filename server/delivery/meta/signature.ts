// Meta signs every webhook POST with the app secret: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the
// raw body>`. Checked on the bytes as they came, before any parsing: re-serialised JSON would not match.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const META_SIGNATURE_HEADER = 'X-Hub-Signature-256';

/** The header's value for this body. */
export const signMeta = (rawBody: string | Uint8Array, appSecret: string): string =>
  `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;

export function isValidMetaSignature(rawBody: Uint8Array, header: string | undefined, appSecret: string): boolean {
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header?.trim() ?? '');
  if (!match) return false;
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  return timingSafeEqual(Buffer.from(match[1]!, 'hex'), expected);
}
