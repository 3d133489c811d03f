// The first start (shared/setup-contract.ts): whether the install still needs its school, and the call
// that creates it with its administrator, whose answer is a sign-in's. Signed out by nature: `authFlow`,
// so no token gate or refresh stands in the way.
import { SETUP_API, type SetupInput } from '../../../shared/setup-contract';
import { SetupStatusBodyStruct } from '../../../shared/setup-structs';
import { LoginBodyStruct } from '../../../shared/structs';
import { toTokenExpiry } from '../../../shared/token-times';
import { fromCall, parseBody } from '../http/client';
import type { SignInAnswer } from '../session/auth';

export const fetchSetupStatus = fromCall<boolean>(async ({ signal, http }) => {
  const body = await http.request(SETUP_API.setup, { signal, authFlow: true });
  return parseBody(body, SetupStatusBodyStruct, SETUP_API.setup).data.needed;
});

export const submitSetup = fromCall<SignInAnswer, SetupInput>(async ({ input, signal, http }) => {
  const body = await http.request(SETUP_API.setup, { method: 'POST', body: { ...input }, signal, authFlow: true });
  const { data, user, policies } = parseBody(body, LoginBodyStruct, SETUP_API.setup);
  return { times: toTokenExpiry(data), user, policies };
});
