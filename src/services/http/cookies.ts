// document.cookie access in one place. Both functions are safe outside a browser (tests, SSR tools),
// and never throw on a malformed cookie written by someone else.

export function readCookie(name: string): string | null {
  if (typeof document === 'undefined') return null;
  for (const part of document.cookie.split(';')) {
    const separator = part.indexOf('=');
    if (separator === -1) continue;
    if (part.slice(0, separator).trim() !== name) continue;
    const raw = part.slice(separator + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return null;
}

export interface CookieOptions {
  /** Seconds; omitted means a session cookie. */
  maxAge?: number;
  path?: string;
  sameSite?: 'Lax' | 'Strict' | 'None';
}

export function writeCookie(name: string, value: string, options: CookieOptions = {}): void {
  if (typeof document === 'undefined') return;
  const parts = [`${name}=${encodeURIComponent(value)}`, `Path=${options.path ?? '/'}`];
  if (options.maxAge !== undefined) parts.push(`Max-Age=${Math.floor(options.maxAge)}`);
  parts.push(`SameSite=${options.sameSite ?? 'Lax'}`);
  if (options.sameSite === 'None' || location.protocol === 'https:') parts.push('Secure');
  // biome-ignore lint/suspicious/noDocumentCookie: the app's one place that writes cookies, synchronously (the Cookie Store API is asynchronous).
  document.cookie = parts.join('; ');
}

/** Reads an epoch-ms cookie (the readable token expiration cookies); null when absent or not a number. */
export function readEpochCookie(name: string): number | null {
  const value = readCookie(name);
  if (value === null || value.trim() === '') return null;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : null;
}
