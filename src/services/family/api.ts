// The families' app's calls to the guardian API (shared/family-contract.ts) as actor logic: its own small
// client (a bearer token, no cookies, no CSRF: the staff client's session rules do not apply), every answer
// checked by its struct, every failure a `FamilyFailure`. Each call takes the actor's `signal`, so leaving
// the state aborts it.
import { FetchError, ofetch } from 'ofetch';
import { array, is, record, string, type Struct } from 'superstruct';
import { fromPromise } from 'xstate';
import { bearer, FAMILY_API, type FamilyInboxPage, type FamilyMessageDetail, type FamilySession } from '../../../shared/family-contract';
import {
  FamilyCodeSentBodyStruct,
  FamilyInboxPageStruct,
  FamilyMessageBodyStruct,
  FamilyReadBodyStruct,
  FamilyReplyBodyStruct,
  FamilySessionBodyStruct,
} from '../../../shared/family-structs';
import { forgetSession, keepSession } from './device';

/** What went wrong with a call: `status` 0 when no answer arrived (offline, aborted). */
export interface FamilyFailure {
  status: number;
  code: string;
  /** The server's own Spanish message when it sent one; empty otherwise. */
  message: string;
  /** Per-field messages of a 422. */
  fieldErrors: Record<string, string[]>;
}

export class FamilyFailureError extends Error implements FamilyFailure {
  readonly status: number;
  readonly code: string;
  readonly fieldErrors: Record<string, string[]>;

  constructor(failure: FamilyFailure) {
    super(failure.message);
    this.name = 'FamilyFailureError';
    this.status = failure.status;
    this.code = failure.code;
    this.fieldErrors = failure.fieldErrors;
  }
}

/** Any thrown value as a `FamilyFailure` (machines read `xstate.error.actor.*` payloads through it). */
export function toFamilyFailure(error: unknown): FamilyFailure {
  if (error instanceof FamilyFailureError)
    return { status: error.status, code: error.code, message: error.message, fieldErrors: error.fieldErrors };
  return { status: 0, code: 'network', message: '', fieldErrors: {} };
}

const API_BASE: string = import.meta.env?.VITE_API_BASE ?? '/api';

interface Call {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: Record<string, unknown>;
  query?: Record<string, number>;
  token?: string;
  signal?: AbortSignal;
}

function failureOf(error: unknown): FamilyFailureError {
  if (error instanceof FetchError && error.response) {
    const data = error.data as { message?: unknown; code?: unknown; errors?: unknown } | undefined;
    return new FamilyFailureError({
      status: error.response.status,
      code: typeof data?.code === 'string' ? data.code : 'http',
      message: typeof data?.message === 'string' ? data.message : '',
      fieldErrors: is(data?.errors, FieldErrorsStruct) ? data.errors : {},
    });
  }
  return new FamilyFailureError({ status: 0, code: 'network', message: '', fieldErrors: {} });
}

const FieldErrorsStruct = record(string(), array(string()));

export async function call<T>(path: string, struct: Struct<T, unknown>, options: Call = {}): Promise<T> {
  let body: unknown;
  try {
    body = await ofetch(path, {
      baseURL: API_BASE,
      method: options.method ?? 'GET',
      body: options.body,
      query: options.query,
      signal: options.signal,
      headers: { Accept: 'application/json', ...(options.token ? { Authorization: bearer(options.token) } : {}) },
      retry: 0,
    });
  } catch (error) {
    throw failureOf(error);
  }
  if (!is(body, struct)) throw new FamilyFailureError({ status: 200, code: 'response.invalid', message: '', fieldErrors: {} });
  return body;
}

/** Asks for a sign-in code by SMS; the answer is the same whether or not the phone is a guardian's. */
export const askCode = fromPromise<void, { phone: string }>(async ({ input, signal }) => {
  await call(FAMILY_API.code, FamilyCodeSentBodyStruct, { method: 'POST', body: { phone: input.phone }, signal });
});

/** Trades the code for a session, kept on the device (device.ts says why). */
export const signIn = fromPromise<FamilySession, { phone: string; code: string }>(async ({ input, signal }) => {
  const { data } = await call(FAMILY_API.session, FamilySessionBodyStruct, {
    method: 'POST',
    body: { phone: input.phone, code: input.code },
    signal,
  });
  keepSession(data);
  return data;
});

/**
 * Ends the session on the server, then forgets it here. Forgotten whatever the server answers: offline or
 * already revoked, the guardian asked to leave, and this device must not stay signed in.
 */
export const signOut = fromPromise<void, { token: string }>(async ({ input, signal }) => {
  try {
    await ofetch(FAMILY_API.session, {
      baseURL: API_BASE,
      method: 'DELETE',
      headers: { Authorization: bearer(input.token) },
      signal,
      retry: 0,
    });
  } catch {
    // See above: nothing to retry.
  } finally {
    forgetSession();
  }
});

export const fetchInboxPage = fromPromise<FamilyInboxPage, { token: string; page: number }>(({ input, signal }) =>
  call(FAMILY_API.messages, FamilyInboxPageStruct, { query: { page: input.page }, token: input.token, signal }),
);

export const fetchMessage = fromPromise<FamilyMessageDetail, { token: string; id: number }>(async ({ input, signal }) => {
  const { data } = await call(FAMILY_API.message(input.id), FamilyMessageBodyStruct, { token: input.token, signal });
  return data;
});

/** Reports the message read: the staff's reception screen shows «leído» for this guardian. */
export const markRead = fromPromise<void, { token: string; id: number }>(async ({ input, signal }) => {
  await call(FAMILY_API.read(input.id), FamilyReadBodyStruct, { method: 'POST', token: input.token, signal });
});

export const sendReply = fromPromise<number, { token: string; id: number; content: string }>(async ({ input, signal }) => {
  const { data } = await call(FAMILY_API.reply(input.id), FamilyReplyBodyStruct, {
    method: 'POST',
    body: { content: input.content },
    token: input.token,
    signal,
  });
  return data.id;
});
