// Password hashing with node:crypto scrypt at OWASP's recommended cost (N=2^17, r=8, p=1: 128 MiB and about
// 0.37 s of one core per hash; decision 0166). The stored string carries its own parameters
// (`scrypt$N$r$p$salt$hash`, base64url), so hashes of an older cost still verify, and `needsRehash` tells the
// sign-in to store the password again at today's cost.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const N = 2 ** 17;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
/** A stored hash asking for more than this is refused rather than allowed to take the server's memory. */
const MAX_N = 2 ** 20;

function derive(
  password: string,
  salt: Buffer,
  keyLength: number,
  options: Required<Pick<ScryptOptions, 'N' | 'r' | 'p'>>,
): Promise<Buffer> {
  // scrypt needs 128·N·r bytes (plus a little); node refuses anything over `maxmem`, 32 MiB by default.
  const maxmem = 2 * 128 * options.N * options.r;
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, keyLength, { ...options, maxmem }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, KEY_LENGTH, { N, r: R, p: P });
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

interface ParsedHash {
  n: number;
  r: number;
  p: number;
  salt: Buffer;
  expected: Buffer;
}

function parse(stored: string): ParsedHash | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [n, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const salt = Buffer.from(parts[4]!, 'base64url');
  const expected = Buffer.from(parts[5]!, 'base64url');
  if (![n, r, p].every(Number.isSafeInteger) || n < 2 || n > MAX_N || r < 1 || r > 32 || p < 1 || p > 16) return null;
  if (expected.length === 0) return null;
  return { n, r, p, salt, expected };
}

/** Constant-time check; a malformed stored hash simply does not match. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const hash = parse(stored);
  if (!hash) return false;
  const actual = await derive(password, hash.salt, hash.expected.length, { N: hash.n, r: hash.r, p: hash.p });
  return timingSafeEqual(actual, hash.expected);
}

/** Whether a stored hash is of another cost than today's: a sign-in that proved the password stores it again. */
export function needsRehash(stored: string): boolean {
  const hash = parse(stored);
  return !hash || hash.n !== N || hash.r !== R || hash.p !== P || hash.expected.length !== KEY_LENGTH;
}

let dummy: Promise<string> | undefined;

/**
 * Spends the same time as a real check at today's cost, for e-mails that match no user, so response timing
 * does not reveal which addresses have accounts. (A user whose stored hash is still of the old cost answers
 * faster until their next sign-in upgrades it; the seed's demo users are such.)
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummy ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(password, await dummy);
  return false;
}
