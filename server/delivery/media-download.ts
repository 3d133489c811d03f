// A family's file as a provider hands it over (Twilio's media URL, Meta's, a gateway's): read as it streams
// and stopped one byte past the largest attachment Hermes keeps, so a file that is too big is known as such
// (server/inbound/media.ts leaves it out) without ever being held whole, whatever its Content-Length says or
// leaves unsaid. A gateway may name any address, so what it names elsewhere than its own API must be a
// public http(s) address (docs/decisions/0255-…).
import { BlockList, isIPv4, isIPv6 } from 'node:net';
import { ATTACHMENT_MAX_BYTES } from '../../shared/compose-contract';

/** The body, cut at `limit` + 1 bytes: longer than that only says "too big". */
export async function readMediaBody(response: Response, limit: number = ATTACHMENT_MAX_BYTES): Promise<Buffer> {
  const cap = limit + 1;
  if (!response.body) return Buffer.alloc(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < cap) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } finally {
    // The rest is never read: the connection is let go.
    if (size >= cap) await reader.cancel().catch(() => {});
    else reader.releaseLock();
  }
  return Buffer.concat(chunks, Math.min(size, cap));
}

/** Loopback, private, link-local, carrier-grade NAT, "this network", multicast and reserved ranges. */
const NOT_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const) {
  NOT_PUBLIC.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  NOT_PUBLIC.addSubnet(net, prefix, 'ipv6');
}

/** The IPv4 address an IPv4-mapped IPv6 one (::ffff:7f00:1, as URL writes it) stands for, else null. */
function mappedIPv4(v6: string): string | null {
  const match = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(v6);
  if (!match) return /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(v6)?.[1] ?? null;
  const [hi, lo] = [Number.parseInt(match[1]!, 16), Number.parseInt(match[2]!, 16)];
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/**
 * Whether Hermes may fetch this address for someone else: http(s), and a host that is not this machine nor
 * its network. The host is judged as written (a name is not resolved here: one that resolves to a private
 * address is the operator's network to guard, docs/decisions/0255-…).
 */
export function isPublicHttpUrl(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const { protocol, hostname } = new URL(url);
  if (protocol !== 'http:' && protocol !== 'https:') return false;
  // `localhost.` is localhost: a name's trailing dot changes nothing to the resolver.
  const host = hostname
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.$/, '');
  if (host === '' || host === 'localhost' || host.endsWith('.localhost')) return false;
  if (isIPv4(host)) return !NOT_PUBLIC.check(host, 'ipv4');
  if (isIPv6(host)) {
    const v4 = mappedIPv4(host);
    return v4 ? !NOT_PUBLIC.check(v4, 'ipv4') : !NOT_PUBLIC.check(host, 'ipv6');
  }
  return true;
}
