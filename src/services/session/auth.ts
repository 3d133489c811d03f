// Session API calls (contract.ts `API`) as actor logic. Every body is checked before a machine sees it.
import { fromPromise } from 'xstate';
import { API, COOKIE, type SignedIn } from '../../../shared/contract';
import { readEpochCookie } from '../http/cookies';
import { fromCall, ApiFailureError, parseBody } from '../http/client';
import { LoginBodyStruct, SignedInStruct, TokenTimesBodyStruct } from '../../../shared/structs';
import { isAccessTokenValid, isRefreshTokenValid, toTokenExpiry, type TokenExpiry } from '../../../shared/token-times';

export interface Credentials {
  email: string;
  password: string;
}

/** What the readable expiration cookies say at start-up (SPEC §4 "session-cookie check"). */
export type SessionCookie =
  | { kind: 'none' }
  | { kind: 'expired' }
  | { kind: 'refreshable'; times: TokenExpiry }
  | { kind: 'active'; times: TokenExpiry };

/** SPEC §8: the message when `GET /user` answers without `user`. */
export const USER_FIELD_MISSING = 'User Data response does not contain field' + ' user';

export function classifySessionCookie(now: number, tokenExpiresAt: number | null, refreshExpiresAt: number | null): SessionCookie {
  if (tokenExpiresAt === null) return { kind: 'none' };
  // Without a refresh cookie the access token is all there is.
  const times = { tokenExpiresAt, refreshExpiresAt: refreshExpiresAt ?? tokenExpiresAt };
  if (isAccessTokenValid(now, times)) return { kind: 'active', times };
  if (isRefreshTokenValid(now, times)) return { kind: 'refreshable', times };
  return { kind: 'expired' };
}

export const readSessionCookie = fromPromise<SessionCookie>(async () =>
  classifySessionCookie(Date.now(), readEpochCookie(COOKIE.tokenExpiration), readEpochCookie(COOKIE.refreshExpiration)),
);

/** A sign-in's answer: the token times and who signed in, so no further call is needed to enter. */
export interface SignInAnswer extends SignedIn {
  times: TokenExpiry;
}

export const login = fromCall<SignInAnswer, Credentials>(async ({ input, signal, http }) => {
  const body = await http.request(API.login, {
    method: 'POST',
    body: { email: input.email, password: input.password },
    signal,
    authFlow: true,
  });
  const { data, user, policies } = parseBody(body, LoginBodyStruct, API.login);
  return { times: toTokenExpiry(data), user, policies };
});

/** The signed-in user and their policies (`GET /user`), at start-up. */
export const fetchUser = fromCall<SignedIn>(async ({ signal, http }) => {
  const body = await http.request(API.user, { signal });
  if (typeof body !== 'object' || body === null || !('user' in body)) {
    throw new ApiFailureError({ status: 200, code: 'response.invalid', message: USER_FIELD_MISSING, fieldErrors: {} });
  }
  return parseBody(body, SignedInStruct, API.user);
});

export const logout = fromCall<void>(async ({ signal, http }) => {
  await http.request(API.logout, { signal, authFlow: true });
});

export const refreshToken = fromCall<TokenExpiry>(async ({ signal, http }) => {
  const body = await http.request(API.refresh, { method: 'POST', signal, authFlow: true, silent: true });
  return toTokenExpiry(parseBody(body, TokenTimesBodyStruct, API.refresh).data);
});
