// CSRF tokens bound to the session they were given to (signed double-submit). A token is
// `<nonce>.<HMAC-SHA256(secret, binding | nonce)>`: the browser echoes the readable cookie in a header,
// and the server recomputes the HMAC for the session the request's own auth cookies belong to. A cookie
// planted by a sibling subdomain (with a header to match) fails, since only the server can sign; so does
// a token given to another browser's session. Before sign-in there is no session: the token is bound to its
// own random nonce, i.e. it only proves the server issued it, which is all the login form needs; sign-in,
// refresh and logout issue a new one for what comes next.
import { createHmac, randomBytes } from 'node:crypto';
import { safeEqual } from './tokens';
import type { SessionRef } from './sessions';

/** The session a token is for, or null before sign-in. */
export type XsrfBinding = SessionRef | null;

export interface Xsrf {
  issue(binding: XsrfBinding): Promise<string>;
  verify(binding: XsrfBinding, token: string): Promise<boolean>;
}

/** The session's row and when it began: ids start again in a new database, the pair does not repeat. */
const label = (binding: XsrfBinding) => (binding === null ? 'anonymous' : `session:${binding.id}:${binding.startedAt}`);

export function createXsrf(secret: () => Promise<string>): Xsrf {
  const sign = async (binding: XsrfBinding, nonce: string) =>
    createHmac('sha256', await secret())
      .update(`hermes-xsrf|${label(binding)}|${nonce}`)
      .digest('base64url');
  return {
    async issue(binding) {
      const nonce = randomBytes(16).toString('base64url');
      return `${nonce}.${await sign(binding, nonce)}`;
    },
    async verify(binding, token) {
      const [nonce, mac, ...rest] = token.split('.');
      if (!nonce || !mac || rest.length > 0) return false;
      return safeEqual(mac, await sign(binding, nonce));
    },
  };
}
