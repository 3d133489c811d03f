import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// Where the e2e server listens. Shared by playwright.config.ts and the specs.
export const E2E_HOST = '127.0.0.1';
export const E2E_PORT = Number(process.env.HERMES_E2E_PORT ?? 3210);
export const BASE_URL = `http://${E2E_HOST}:${E2E_PORT}`;

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Matches a URL of the app under test whose path is `path` (a trailing slash allowed, any query or
 * hash). Anchored on the app's own origin, so another host never matches.
 */
export const appUrl = (path: string): RegExp =>
  new RegExp(`^${escapeRegExp(BASE_URL)}${escapeRegExp(path.replace(/\/$/, ''))}/?(?:[?#].*)?$`);

/** The `redirect` query parameter of the current URL (where the login form will send the user). */
export const redirectParam = (page: { url(): string }): string | null => new URL(page.url()).searchParams.get('redirect');

/**
 * The e2e server's data dir (tests/e2e/serve.sh writes where it is, per port): `outbox/` holds the .eml of
 * every e-mail it sent.
 */
export function serverDataDir(): string {
  return readFileSync(path.join(process.env.TMPDIR ?? tmpdir(), `hermes-e2e-${E2E_PORT}.datadir`), 'utf8').trim();
}
