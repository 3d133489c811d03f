// Passwords (shared/passwords-contract.ts) as actor logic: the forgotten password's link, the link's check and
// use, the signed-in user's change; and the password rule, fetched as its own chunk the first time a screen
// that sets a password needs it (its dictionaries are large: never in the first download, decision 0162).
import { fromPromise } from 'xstate';
import { PASSWORDS_API, type ResetOwner } from '../../../shared/passwords-contract';
import type { PasswordOwner } from '../../../shared/password-rules';
import { OkBodyStruct, ResetOwnerBodyStruct } from '../../../shared/passwords-structs';
import { fromCall, parseBody } from '../http/client';

/** Asks for a reset link; the answer is the same whether or not the address has an account. */
export const askResetLink = fromCall<void, { email: string }>(async ({ input, signal, http }) => {
  const body = await http.request(PASSWORDS_API.resets, { method: 'POST', body: { email: input.email }, signal, authFlow: true });
  parseBody(body, OkBodyStruct, PASSWORDS_API.resets);
});

/** Who a reset link is for (what the new password must not be built from); 404 / 410 when it does not work. */
export const checkResetLink = fromCall<ResetOwner, { token: string }>(async ({ input, signal, http }) => {
  const path = PASSWORDS_API.reset(input.token);
  return parseBody(await http.request(path, { signal, authFlow: true }), ResetOwnerBodyStruct, path).data;
});

export const resetPassword = fromCall<void, { token: string; password: string }>(async ({ input, signal, http }) => {
  const path = PASSWORDS_API.reset(input.token);
  const body = await http.request(path, { method: 'POST', body: { password: input.password }, signal, authFlow: true });
  parseBody(body, OkBodyStruct, path);
});

export const changePassword = fromCall<void, { current: string; password: string }>(async ({ input, signal, http }) => {
  const body = await http.request(PASSWORDS_API.change, {
    method: 'PUT',
    body: { current_password: input.current, password: input.password },
    signal,
  });
  parseBody(body, OkBodyStruct, PASSWORDS_API.change);
});

/** The shared rule, loaded: `reasonFor` is its Spanish reason a password may not be used by its owner, or null. */
export interface PasswordRule {
  reasonFor: (password: string, owner: PasswordOwner) => string | null;
}

export const loadPasswordRule = fromPromise<PasswordRule>(async () => ({
  reasonFor: (await import('../../../shared/password-rules')).passwordError,
}));
