// Content-coding negotiation (RFC 9110 §12.5.3) shared by the static files and the API's compression: the
// coding with the highest q among those on offer, br before gzip on a tie, else identity unless refused.

export type Coding = 'br' | 'gzip' | 'identity';

/** Preference on a tie: brotli is smaller than gzip at the same cost to the browser. */
const ORDER = ['br', 'gzip'] as const;

/** The q of each coding the header names (lowercased), and of `*` under that name. */
function weights(header: string): Map<string, number> {
  const map = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (!name) continue;
    let q = 1;
    for (const param of params) {
      const match = /^q=([0-9.]+)$/.exec(param);
      if (match) q = Number(match[1]);
    }
    if (!Number.isFinite(q) || q < 0 || q > 1) q = 0;
    map.set(name, Math.max(q, map.get(name) ?? 0));
  }
  return map;
}

/**
 * The coding to send among `offered`, or null when the request refuses them all and identity too. A
 * coding is taken at the highest q above 0 (br on a tie); identity, the plain bytes, only when none is,
 * unless refused by `identity;q=0` or `*;q=0`. No header means identity: a client that says nothing gets
 * plain bytes.
 */
export function negotiate(header: string | undefined, offered: readonly Coding[]): Coding | null {
  if (header === undefined) return 'identity';
  const q = weights(header);
  const wildcard = q.get('*');
  let best: Coding | null = null;
  let bestQ = 0;
  for (const coding of ORDER) {
    if (!offered.includes(coding)) continue;
    const weight = q.get(coding) ?? wildcard ?? 0;
    if (weight > bestQ) {
      best = coding;
      bestQ = weight;
    }
  }
  if (best) return best;
  return (q.get('identity') ?? wildcard ?? 1) > 0 ? 'identity' : null;
}

const VARY_ENCODING = /(?:^|,)\s*(?:accept-encoding|\*)\s*(?:,|$)/i;

/** Adds Accept-Encoding to a Vary header (once). */
export function varyOnEncoding(headers: Headers): void {
  const current = headers.get('Vary');
  if (current && VARY_ENCODING.test(current)) return;
  headers.set('Vary', current ? `${current}, Accept-Encoding` : 'Accept-Encoding');
}

/** Does If-None-Match list `tag`? Compared weakly (W/ ignored), as RFC 9110 §13.1.2 says for it. */
export function matchesTag(ifNoneMatch: string | undefined, tag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = tag.replace(/^W\//, '');
  const listed: string[] = ifNoneMatch.match(/"[^"]*"/g) ?? [];
  return listed.includes(opaque);
}
