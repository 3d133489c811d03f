// The families' app's calls to the guardian API (shared/family-contract.ts) as actor logic: its own small
// client (a bearer token, no cookies, no CSRF: the staff client's session rules do not apply), every answer
// checked by its struct, every failure a `FamilyFailure`. Each call takes the actor's `signal`, so leaving
// the state aborts it. Plain `fetch`, not ofetch: the app makes JSON calls only, and ofetch with ufo and
// destr was 4 kB of its first download (bench (a)).
import { array, is, number, record, string, type, type Struct } from 'superstruct';
import { fromPromise } from 'xstate';
import {
  bearer,
  FAMILY_API,
  type FamilyAttachment,
  type FamilyChild,
  type FamilyInboxPage,
  type FamilyMessageDetail,
  type FamilyReplyAnswer,
  type FamilySession,
} from '../../../shared/family-contract';
import {
  FamilyChildrenBodyStruct,
  FamilyCodeSentBodyStruct,
  FamilyInboxPageStruct,
  FamilyMessageBodyStruct,
  FamilyReadBodyStruct,
  FamilyReplyBodyStruct,
  FamilySessionBodyStruct,
} from '../../../shared/family-structs';
import { PUSH_API, type PushSubscriptionBody } from '../../../shared/push-contract';
import { keepSession } from './device';
import { saveFile } from './files';

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

export const API_BASE: string = import.meta.env?.VITE_API_BASE ?? '/api';

interface Call {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: Record<string, unknown>;
  query?: Record<string, number | string>;
  token?: string;
  signal?: AbortSignal;
}

const FieldErrorsStruct = record(string(), array(string()));

/** A refusal's body as the server sends it (`{ message, code, errors }`), whatever of it is there. */
function refusal(status: number, data: unknown): FamilyFailureError {
  const body = (typeof data === 'object' && data !== null ? data : {}) as { message?: unknown; code?: unknown; errors?: unknown };
  return new FamilyFailureError({
    status,
    code: typeof body.code === 'string' ? body.code : 'http',
    message: typeof body.message === 'string' ? body.message : '',
    fieldErrors: is(body.errors, FieldErrorsStruct) ? body.errors : {},
  });
}

/** A call that got no answer (offline, aborted, cut): status 0. */
export const noAnswer = (): FamilyFailureError => new FamilyFailureError({ status: 0, code: 'network', message: '', fieldErrors: {} });

/** The body as JSON, or undefined when there is none or it is not JSON (a proxy's error page). */
async function jsonOf(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** One call to the guardian API: the answer's JSON, or a `FamilyFailureError` (status 0: no answer). */
async function send(path: string, options: Call): Promise<unknown> {
  const query = options.query ? `?${new URLSearchParams(Object.entries(options.query).map(([k, v]) => [k, String(v)]))}` : '';
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (options.token) headers.Authorization = bearer(options.token);
  if (options.body) headers['Content-Type'] = 'application/json';
  let response: Response;
  let data: unknown;
  try {
    response = await fetch(`${API_BASE}${path}${query}`, {
      method: options.method ?? 'GET',
      headers,
      body: options.body ? JSON.stringify(options.body) : undefined,
      signal: options.signal,
    });
    data = await jsonOf(response);
  } catch {
    throw noAnswer();
  }
  if (!response.ok) throw refusal(response.status, data);
  return data;
}

export async function call<T>(path: string, struct: Struct<T, unknown>, options: Call = {}): Promise<T> {
  const body = await send(path, options);
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

/** Revokes the token on the server (services/family/sign-out.ts does the rest of signing out). */
export async function endSession(token: string, signal?: AbortSignal): Promise<void> {
  await send(FAMILY_API.session, { method: 'DELETE', token, signal });
}

/** What the inbox asks for: a page, of one child or all (`student` null), with the words typed (or none). */
export interface InboxQuery {
  token: string;
  page: number;
  student: number | null;
  q: string;
}

export const fetchInboxPage = fromPromise<FamilyInboxPage, InboxQuery>(({ input, signal }) => {
  const query: Record<string, number | string> = { page: input.page };
  if (input.student !== null) query.student = input.student;
  if (input.q !== '') query.q = input.q;
  return call(FAMILY_API.messages, FamilyInboxPageStruct, { query, token: input.token, signal });
});

/** The session's children in every school. */
export const fetchChildren = fromPromise<FamilyChild[], { token: string }>(async ({ input, signal }) => {
  const { data } = await call(FAMILY_API.children, FamilyChildrenBodyStruct, { token: input.token, signal });
  return data;
});

/**
 * A message's file: fetched with the bearer token (a plain link could not send it), then handed to the
 * browser as a download under its own name.
 */
export const downloadAttachment = fromPromise<void, { token: string; messageId: number; attachment: FamilyAttachment }>(
  async ({ input, signal }) => {
    let response: Response;
    try {
      response = await fetch(`${API_BASE}${FAMILY_API.attachment(input.messageId, input.attachment.id)}`, {
        headers: { Authorization: bearer(input.token) },
        signal,
      });
    } catch {
      throw noAnswer();
    }
    if (!response.ok) throw new FamilyFailureError({ status: response.status, code: 'http', message: '', fieldErrors: {} });
    try {
      saveFile(await response.blob(), input.attachment.name);
    } catch {
      // The answer came but could not be kept (cut off, or the browser refused the save): not "offline".
      throw new FamilyFailureError({ status: 200, code: 'download.failed', message: '', fieldErrors: {} });
    }
  },
);

export const fetchMessage = fromPromise<FamilyMessageDetail, { token: string; id: number }>(async ({ input, signal }) => {
  const { data } = await call(FAMILY_API.message(input.id), FamilyMessageBodyStruct, { token: input.token, signal });
  return data;
});

/** Reports the message read: the staff's reception screen shows «leído» for this guardian. */
export const markRead = fromPromise<void, { token: string; id: number }>(async ({ input, signal }) => {
  await call(FAMILY_API.read(input.id), FamilyReadBodyStruct, { method: 'POST', token: input.token, signal });
});

export const sendReply = fromPromise<FamilyReplyAnswer, { token: string; id: number; content: string }>(async ({ input, signal }) => {
  const { data } = await call(FAMILY_API.reply(input.id), FamilyReplyBodyStruct, {
    method: 'POST',
    body: { content: input.content },
    token: input.token,
    signal,
  });
  return data;
});

const PushKeyBodyStruct = type({ data: type({ public_key: string() }) });
const PushSubscriptionAnswerStruct = type({ data: type({ id: number(), endpoint: string() }) });

/** The server's VAPID public key (base64url), the `applicationServerKey` of a subscription. */
export async function fetchPushKey(token: string, signal?: AbortSignal): Promise<string> {
  const { data } = await call(`/app${PUSH_API.key}`, PushKeyBodyStruct, { token, signal });
  return data.public_key;
}

/** Registers this browser's subscription for the guardian (again: the server updates a known one). */
export async function saveSubscription(token: string, subscription: PushSubscriptionBody, signal?: AbortSignal): Promise<void> {
  await call(`/app${PUSH_API.subscriptions}`, PushSubscriptionAnswerStruct, {
    method: 'POST',
    body: { ...subscription },
    token,
    signal,
  });
}

/** Tells the server to stop pushing to this browser. */
export async function removeSubscription(token: string, endpoint: string): Promise<void> {
  await send(`/app${PUSH_API.subscriptions}`, { method: 'DELETE', body: { endpoint }, token });
}
