// Single sign-on's pure rules (docs/decisions/0175), apart from the database so the unit tests read them:
// where the provider sends the browser back, which issuer URLs openid-client may be pointed at, and when a
// provider vouches for an e-mail.
import { SSO_API, type SsoProvider } from '../../shared/sso-contract';

/** Where the provider sends the browser back: the address to register with it. */
export const callbackUrl = (publicUrl: string): string => `${publicUrl}/api${SSO_API.callback}`;

/**
 * An issuer's URL as openid-client may use it: https, or plain http on this machine only (a provider run
 * beside the server in development and in the tests). No query or fragment: the discovery path is added to it.
 */
export function issuerProblem(raw: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return true;
  }
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') return true;
  if (url.protocol === 'https:') return false;
  return !(url.protocol === 'http:' && isLoopback(url.hostname));
}

export const isLoopback = (hostname: string): boolean => hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]';

/**
 * Whether the provider vouches for the e-mail: `email_verified` true; a Microsoft tenant says it with
 * `xms_edov` (the optional claim "email domain owner verified") instead.
 */
export function isVerified(provider: SsoProvider, claims: Record<string, unknown>): boolean {
  if (claims.email_verified === true) return true;
  return provider === 'microsoft' && claims.xms_edov === true;
}
