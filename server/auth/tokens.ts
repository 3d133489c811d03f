// Opaque random tokens. Only their SHA-256 is stored, so reading the sessions table does not let anyone
// impersonate a user; 32 random bytes make brute force pointless, so a fast hash is enough.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const newToken = (): string => randomBytes(32).toString('base64url');

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('base64url');

/** Constant-time string equality (for the CSRF double-submit check). */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
