// The invitation page's calls (public: no session yet): who the link is for, and setting the password, which
// signs the person in as `POST /login` does (shared/staff-contract.ts). The password rule is loaded here too,
// on its own: its dictionaries are large, so only this page (and others that set a password) downloads them.
import type { AcceptedInvitation, AcceptInvitationInput, InvitationInfo } from '../../../shared/staff-contract';
import { STAFF_API } from '../../../shared/staff-contract';
import { loadPasswordRule, type PasswordRule } from '../passwords/passwords';
import { InvitationInfoBodyStruct } from '../../../shared/staff-structs';
import { LoginBodyStruct } from '../../../shared/structs';
import { toTokenExpiry } from '../../../shared/token-times';
import type { SignInAnswer } from '../session/auth';
import { fromCall, parseBody } from '../http/client';

export interface TokenInput {
  token: string;
}

export const fetchInvitation = fromCall<InvitationInfo, TokenInput>(async ({ input, signal, http }) => {
  const path = STAFF_API.publicInvitation(input.token);
  return parseBody(await http.request(path, { signal, authFlow: true }), InvitationInfoBodyStruct, path).data;
});

export const acceptInvitation = fromCall<SignInAnswer, TokenInput & { password: string }>(async ({ input, signal, http }) => {
  const path = STAFF_API.accept(input.token);
  const sent: AcceptInvitationInput = { password: input.password };
  const body = await http.request(path, { method: 'POST', body: { ...sent }, signal, authFlow: true });
  const { data, user, policies }: AcceptedInvitation = parseBody(body, LoginBodyStruct, path);
  return { times: toTokenExpiry(data), user, policies };
});

/** The shared password rule: the Spanish reason a password may not be used by its owner, or null. */
export type PasswordCheck = PasswordRule['reasonFor'];

/** The rule's module, loaded as the password screens load it (a lazy chunk, never in the first download). */
export { loadPasswordRule };
