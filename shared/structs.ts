// Runtime checks for every response body the SPA reads. `type()` (not `object()`) so extra fields the
// server adds later do not break older clients; `Describe` keeps each struct in step with contract.ts.
import { array, assign, boolean, enums, number, optional, record, string, type, type Describe } from 'superstruct';
import { COUNT_TYPES } from './codes';
import type { SignedIn, SignedInUser, TokenTimes } from './contract';
import type { FolderCount } from './messages-contract';

const SignedInUserStruct: Describe<SignedInUser> = type({
  id: number(),
  email: string(),
  roles: array(type({ codigo: string(), nombre: string() })),
  person: type({ name: string() }),
  institution: type({
    id: number(),
    desc: string(),
    locale: enums(['es-CL', 'es-MX']),
    timezone: string(),
    country: enums(['CL', 'MX']),
    logo_url: optional(string()),
  }),
  device: string(),
  options: type({ url: type({ home: string() }) }),
  scope: array(string()),
  domain: enums(['cl', 'mx']),
  zendesk_info: optional(
    type({
      name: string(),
      email: string(),
      organization: string(),
      tags: array(string()),
      isChatEnabled: boolean(),
    }),
  ),
});

const TokenTimesStruct: Describe<TokenTimes> = type({
  token_expires_at: number(),
  refresh_expires_at: number(),
});

/** `POST /token/refresh` answers `{ data: TokenTimes }`. */
export const TokenTimesBodyStruct = type({ data: TokenTimesStruct });

/** `GET /user` answers `{ user, policies }`. */
export const SignedInStruct: Describe<SignedIn> = type({ user: SignedInUserStruct, policies: array(string()) });

/** `POST /login` answers its token times and who signed in: `{ data: TokenTimes, user, policies }`. */
export const LoginBodyStruct = assign(SignedInStruct, type({ data: TokenTimesStruct }));

/**
 * Error bodies (`ApiError` in the contract). `code` is read as any string: a code this client does not
 * know yet must still reach the generic error path instead of failing the check.
 */
export const ApiErrorStruct = type({
  message: string(),
  code: optional(string()),
  errors: optional(record(string(), array(string()))),
});

// --- the folder counters and undo's restore (the app-lifetime machines; messages-structs.ts has the rest) ---

const FolderCountStruct: Describe<FolderCount> = type({
  type: enums(COUNT_TYPES),
  unreads: number(),
  total: number(),
});

/** `GET /messages/info` → `{ data: FolderCount[] }`. */
export const FolderCountsBodyStruct = type({ data: array(FolderCountStruct) });

export const RestoredBodyStruct = type({ data: type({ restored: number() }) });
