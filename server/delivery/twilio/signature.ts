// X-Twilio-Signature: how Twilio signs every webhook it sends us (status callbacks, incoming messages).
// Base64 of HMAC-SHA1, keyed with the account's auth token, over the full URL Twilio called (scheme, host,
// path, query) followed by each POST parameter, sorted by name, as name + value with no separators.
// A few lines of node:crypto instead of the `twilio` package (docs/decisions/0230-…): checked against the
// example in Twilio's "Webhooks security" guide (tests/unit/twilio.test.ts).
import { createHmac, timingSafeEqual } from 'node:crypto';

export const TWILIO_SIGNATURE_HEADER = 'X-Twilio-Signature';

/** The parameters as pairs: a form may repeat a name, and every pair is signed. */
type Params = Iterable<readonly [string, string]> | Record<string, string>;

const pairsOf = (params: Params): [string, string][] =>
  Symbol.iterator in params ? [...(params as Iterable<readonly [string, string]>)].map(([k, v]) => [k, v]) : Object.entries(params);

/** The signature Twilio sends for this URL and these POST parameters. */
export function twilioSignature(authToken: string, url: string, params: Params): string {
  // By name, then (a repeated name) by value, as Twilio's own libraries sort them. Code-unit order, not locale.
  const sorted = pairsOf(params).sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0));
  const hmac = createHmac('sha1', authToken).update(url);
  for (const [name, value] of sorted) hmac.update(name + value);
  return hmac.digest('base64');
}

/**
 * Whether `header` is Twilio's signature of this request. Twilio's libraries also accept the URL with its
 * default port written out or left off (some of its callers sign one, some the other), so this does too.
 */
export function isTwilioSigned(authToken: string, header: string | undefined, url: string, params: Params): boolean {
  if (!header) return false;
  const given = Buffer.from(header.trim(), 'base64');
  if (given.length !== 20) return false;
  const pairs = pairsOf(params);
  return urlVariants(url).some((candidate) => timingSafeEqual(given, Buffer.from(twilioSignature(authToken, candidate, pairs), 'base64')));
}

function urlVariants(url: string): string[] {
  const scheme = /^(https?):\/\//i.exec(url);
  if (!scheme) return [url];
  const port = scheme[1]!.toLowerCase() === 'https' ? '443' : '80';
  const prefix = scheme[0];
  const authority = url.slice(prefix.length).split(/[/?#]/, 1)[0]!;
  const tail = url.slice(prefix.length + authority.length);
  const bare = authority.endsWith(`:${port}`) ? authority.slice(0, -(port.length + 1)) : authority;
  // A URL with another port is signed only as it is.
  if (/:\d+$/.test(bare)) return [url];
  return [...new Set([url, prefix + bare + tail, `${prefix}${bare}:${port}${tail}`])];
}
